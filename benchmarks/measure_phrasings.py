"""The dev profile written by a user, in four forms (issue 30): how well does the local
ranking serve each, next to the built-in `moe` topic?

    python benchmarks/measure_phrasings.py                       # the table
    python benchmarks/measure_phrasings.py --lodo                # leaving one day out
    python benchmarks/measure_phrasings.py --misses prose/free   # a phrasing's missed picks
    python benchmarks/measure_phrasings.py --learning            # the learning case and curve
    python benchmarks/measure_phrasings.py --eval-curve          # eval --curve on the dev days

The phrasings are `benchmarks/phrasings/`: `criteria.txt` (gpt_paper_assistant criteria as
pasted), `prose.txt` (first person), `keywords.toml` (a topic file), `oneline.txt`. Each
becomes a Topic as paperterm makes it (`current_topic`: `topics/understand.py` through
`resolve_topic` and the topic-table reader). A text file is measured twice:
`free` (`--topic "<text>"`, `resolve_topic`'s ad-hoc topic) and `file` (a topic table whose
`description` is the text). `--lodo` derives the learned cue words (the one part of a
phrasing's ranking derived from the picks) again without the day measured. The days are
ranked as `benchmarks/measure_local.py` ranks them
(the blend of `rank_locally`, nothing cached, nothing taught), and the columns are the
judge's picks within the top 2x(picks) and within the top 30% of each day, and the papers
shown at relevance >= 5 and >= 8 (with how many of them are picks): what "relevance" means.

`--learning`: the one-line topic, days 02-17 and 02-18 read whole, the judge's picks there
starred and every other paper of those days read and not kept (`skipped`); measured on
02-19, 02-20 and 02-23 (picks within the top 2x) against the built-in topic untaught. The
learning curve stars 5, 10, 20, 40 and all of the 83 picks (a seeded sample, mean over
`--seeds`; the picks not starred are neither read nor marked: "unlabelled", the weak
negatives the store samples from the days the user read).

Nothing here reads any gold but `--gold` (default ../shared/data/gold-dev).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from support.shared import load_day, shared_data  # noqa: E402

from paperterm.models import Paper, Topic  # noqa: E402
from paperterm.scoring.metrics import picks_within  # noqa: E402
from paperterm.store import Example, Store  # noqa: E402
from paperterm.topics import builtin_topics  # noqa: E402

PHRASINGS = ROOT / "benchmarks" / "phrasings"
FORMS = ("criteria.txt", "prose.txt", "keywords.toml", "oneline.txt")
TRAIN_DAYS = ("2026-02-17", "2026-02-18")
TEST_DAYS = ("2026-02-19", "2026-02-20", "2026-02-23")
CURVE = (0, 5, 10, 20, 40, None)  # None: all the stars

Converter = Callable[[Path, str], Topic]
Day = tuple[str, list[Paper], list[str]]  # (day, papers, picks in digest order)


# -- text -> Topic: the one function to swap ----------------------------------------------

def current_topic(path: Path, mode: str = "free") -> Topic:
    """The topic the CURRENT code makes of a phrasing: a .toml is a topic file; a text is
    `--topic "<text>"` (mode "free": resolve_topic's ad-hoc topic) or a topic table with the
    text as its description (mode "file")."""
    from paperterm.settings.config import Config
    from paperterm.topics import _topic_from_file, _topic_from_table, resolve_topic

    if path.suffix == ".toml":
        return _topic_from_file(path)
    text = path.read_text(encoding="utf-8")
    if mode == "file":
        return _topic_from_table(path.stem, {"description": text}, str(path))
    config = Config()
    config.path = Path(tempfile.mkdtemp(prefix="phrasings-")) / "config.toml"  # no user topics
    return resolve_topic(text.strip(), config).topic


def variants(converter: Converter, forms: Sequence[str] = FORMS) -> list[tuple[str, Topic]]:
    """(label, topic) per phrasing: each text in both modes, a .toml once."""
    out = []
    for form in forms:
        path = PHRASINGS / form
        modes = ("file",) if path.suffix == ".toml" else ("free", "file")
        for mode in modes:
            label = path.stem if path.suffix == ".toml" else f"{path.stem}/{mode}"
            out.append((label, converter(path, mode)))
    return out


# -- days and ranking ---------------------------------------------------------------------

def dev_days(gold: Path, data: Path, only: Sequence[str] | None = None) -> list[Day]:
    """(day, papers, picks) of each gold day (all, or `only`)."""
    out = []
    for g in sorted(gold.glob("gold-*.jsonl")):
        day = g.stem[5:]
        if only and day not in only:
            continue
        picks = [json.loads(line)["id"] for line in g.read_text().splitlines() if line.strip()]
        out.append((day, load_day(data / f"day-{day}.jsonl"), picks))
    return out


def fresh_store() -> Store:
    return Store.unavailable("measured without a cache")  # embeds every day, no marks


def rank(papers: list[Paper], topic: Topic, examples: Sequence[Example] = (),
         store: Store | None = None) -> list:
    """The blend's scores of `papers` (taught `examples`), as `score --json` gives them."""
    from paperterm.scoring.local import rank_locally
    from paperterm.scoring.local.blend import blended

    store = store or fresh_store()
    if examples:
        return blended(store, papers, topic, list(examples)) or []
    return rank_locally(store, papers, topic) or []


def order(papers: list[Paper], scores: list) -> list[int]:
    """The reader's order (relevance, then fine score, then announcement): indices."""
    return sorted(range(len(papers)), key=lambda i: (
        -(scores[i].relevance or 0), -(scores[i].fine or 0.0), i))


def day_row(papers: list[Paper], picks: Sequence[str], scores: list) -> list[int]:
    """[picks, within top 2x, within top 30%, shown >=5, picks among them, >=8, picks]."""
    ranked = [papers[i].id for i in order(papers, scores)]
    chosen = set(picks)
    rel = {p.id: s.relevance or 0 for p, s in zip(papers, scores, strict=True)}
    at5 = [pid for pid in ranked if rel[pid] >= 5]
    at8 = [pid for pid in ranked if rel[pid] >= 8]
    return [len(chosen), picks_within(ranked, chosen, 2 * len(chosen)),
            picks_within(ranked, chosen, round(0.3 * len(papers))),
            len(at5), len(chosen & set(at5)), len(at8), len(chosen & set(at8))]


def measure(topic: Topic, days: list[Day],
            examples: Sequence[Example] = ()) -> dict[str, list[int]]:
    """Per day and "all": `day_row`."""
    out = {day: day_row(papers, picks, rank(papers, topic, examples))
           for day, papers, picks in days}
    out["all"] = [sum(col) for col in zip(*out.values(), strict=True)]
    return out


def table(rows: list[tuple[str, dict[str, list[int]]]], per_day: bool) -> None:
    print(f"{'topic':22} {'day':10} picks  top 2x       top 30%     rel>=5 (picks)  "
          "rel>=8 (picks)")
    for label, result in rows:
        for day, r in result.items():
            if day != "all" and not per_day:
                continue
            n = r[0] or 1
            print(f"{label:22} {day:10} {r[0]:5} {r[1]:4} ({r[1] / n:4.0%})  "
                  f"{r[2]:4} ({r[2] / n:4.0%})  {r[3]:5} ({r[4]:3})     {r[5]:5} ({r[6]:3})")


# -- diagnosis: the missed picks ----------------------------------------------------------

def misses(topic: Topic, days: list[Day], reference: Topic, limit: int = 40) -> None:
    """Each pick outside this topic's top 2x: its rank here and under `reference`, the
    relevance, the reason, the title."""
    print(f"missed picks of {topic.name[:40]!r} (rank here / rank under {reference.name})")
    for day, papers, picks in days:
        scores, ref = rank(papers, topic), rank(papers, reference)
        here = {papers[i].id: r for r, i in enumerate(order(papers, scores))}
        there = {papers[i].id: r for r, i in enumerate(order(papers, ref))}
        by_id = {p.id: (p, s) for p, s in zip(papers, scores, strict=True)}
        cut = 2 * len(picks)
        lost = sorted((pid for pid in picks if here[pid] >= cut), key=lambda p: here[p])
        print(f"  {day}: {len(lost)} outside the top {cut}")
        for pid in lost[:limit]:
            paper, s = by_id[pid]
            print(f"    {here[pid] + 1:4}/{there[pid] + 1:<4} r{s.relevance:<2} "
                  f"{paper.title[:70]:70}  [{s.reason[:90]}]")
        top = order(papers, scores)[:10]
        print("    top 10 here:")
        for i in top:
            mark = "*" if papers[i].id in set(picks) else " "
            print(f"     {mark} r{scores[i].relevance:<2} {papers[i].title[:70]:70}  "
                  f"[{scores[i].reason[:90]}]")


# -- leave one day out: the learned cue words derived without the day --------------------

def lodo(rows_of: list[tuple[str, Topic]], days: list[Day]) -> None:
    """Each phrasing (and the built-in topic, its prior left as shipped: --lodo of
    measure_local.py derives that too), each day ranked with the learned cue words
    (`scoring/local/cues.py`, the one part of a phrasing's ranking derived from the picks)
    derived again on the other days (`benchmarks/derive_cues.py`), shipped weights."""
    from derive_cues import derive

    from paperterm.scoring.local import cues

    shipped = cues.LEARNED_FOUNDATIONAL, cues.LEARNED_APPLICATION
    totals = {label: [0, 0, 0] for label, _ in rows_of}
    try:
        for day, papers, picks in days:
            others = [(d, p, set(k)) for d, p, k in days if d != day]
            up, down = derive(others, 30)
            cues.LEARNED_FOUNDATIONAL, cues.LEARNED_APPLICATION = tuple(up), tuple(down)
            for label, topic in rows_of:
                r = day_row(papers, picks, rank(papers, topic))
                totals[label] = [a + b for a, b in zip(totals[label], r[:3], strict=True)]
    finally:
        cues.LEARNED_FOUNDATIONAL, cues.LEARNED_APPLICATION = shipped
    print("leaving one day out (learned cue words derived on the other days):")
    for label, (n, top2x, top30) in totals.items():
        print(f"{label:22} {n:5} {top2x:4} ({top2x / n:4.0%})  {top30:4} ({top30 / n:4.0%})")


# -- the learning case --------------------------------------------------------------------

def learning_examples(train: list[Day], n_stars: int | None, seed: int) -> list[Example]:
    """`n_stars` of the training days' picks starred (a seeded sample; all with None), every
    paper of those days that is not a pick read and not kept."""
    picks = [(p, pid) for _, papers, ids in train for pid in ids
             for p in papers if p.id == pid]
    chosen = picks if n_stars is None else random.Random(seed).sample(picks, n_stars)
    all_picks = {pid for _, _, ids in train for pid in ids}
    stars = [Example(p.id, p.title, p.abstract, "starred") for p, _ in chosen]
    skipped = [Example(p.id, p.title, p.abstract, "skipped")
               for _, papers, _ in train for p in papers if p.id not in all_picks]
    starred = {p.id for p, _ in chosen}
    unlabelled = [Example(p.id, p.title, p.abstract, "unlabelled")  # the store's sample
                  for p, _ in picks if p.id not in starred]
    return stars + skipped + unlabelled


GROW_HALF = 20  # --grow: the stars at which the learned part weighs half its most
GROW_MAX = 0.9


def grown(examples: Sequence[Example]) -> None:
    """--grow (a prototype, patched in for this process): the learned lift calibrated like
    closeness (0 at the background's median logit, 1 at its 99th percentile) and its weight
    growing with the stars: GROW_MAX * n / (n + GROW_HALF)."""
    import numpy as np

    from paperterm.scoring.local import blend, learned

    n = sum(e.positive for e in examples)
    blend.LEARNED = GROW_MAX * n / (n + GROW_HALF)
    bg = blend.background(fresh_store())

    def lift(self, x):  # type: ignore[no-untyped-def]
        z, zb = x @ self.w + self.b, bg @ self.w + self.b
        low, high = float(np.median(zb)), float(np.percentile(zb, 99))
        return np.clip((z - low) / max(high - low, 1e-6), -1.0, 1.0)

    learned.LearnedModel.lift = lift


def learning(converter: Converter, gold: Path, data: Path, seeds: int,
             grow: bool = False) -> None:
    train = dev_days(gold, data, TRAIN_DAYS)
    test = dev_days(gold, data, TEST_DAYS)
    n_test = sum(len(p) for _, _, p in test)
    n_train = sum(len(p) for _, _, p in train)
    moe = builtin_topics()["moe"]
    oneline = converter(PHRASINGS / "oneline.txt", "free")
    base = measure(moe, test)["all"]
    print(f"learning case: trained on {', '.join(TRAIN_DAYS)} ({n_train} picks starred), "
          f"measured on {', '.join(TEST_DAYS)} ({n_test} picks): picks within the top 2x "
          "(within the top 30%)")
    print(f"  built-in moe, untaught      {base[1]:3} ({base[2]})   <- the goal")
    for label, topic in (("oneline", oneline), ("moe", moe)):
        for n in CURVE:
            if n == 0:
                r = measure(topic, test)["all"]
                print(f"  {label:8} stars=0             {r[1]:3} ({r[2]})")
                continue
            runs = []
            for s in (range(seeds) if n is not None else (0,)):
                examples = learning_examples(train, n, s)
                if grow:
                    grown(examples)
                runs.append(measure(topic, test, examples)["all"])
            top2x = sum(r[1] for r in runs) / len(runs)
            top30 = sum(r[2] for r in runs) / len(runs)
            spread = f"min {min(r[1] for r in runs)} max {max(r[1] for r in runs)}" \
                if len(runs) > 1 else ""
            stars = str(n) if n else f"all ({n_train})"
            print(f"  {label:8} stars={stars:12} "
                  f"{top2x:5.1f} ({top30:.1f})  {spread}")


def eval_curve(converter: Converter, gold: Path, data: Path) -> None:
    """--eval-curve: `paperterm eval --curve` over the five dev days, as a user who read
    each day whole and starred the judge's picks there (a real store; time order: each day
    is ranked from the marks of the days before it only)."""
    from datetime import date

    from paperterm.services.evaluation import evaluate
    from paperterm.services.evaluation_report import curve_table, table
    from paperterm.sources.loader import LoadRequest

    days = dev_days(gold, data)
    topics = (("oneline", converter(PHRASINGS / "oneline.txt", "free")),
              ("moe", builtin_topics()["moe"]))
    for label, topic in topics:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store.open(Path(tmp) / "db.sqlite3")
            try:
                for day, papers, picks in days:
                    store.papers.save_day("cs.AI+cs.LG", date.fromisoformat(day), papers,
                                          source="rss", fetched_for=date.fromisoformat(day))
                    store.marks.mark_seen([p.id for p in papers], topic=topic.name)
                    for pid in picks:
                        store.marks.set_starred(pid, True, topic=topic.name)
                result = evaluate(store, LoadRequest(["cs.LG", "cs.AI"], ["new", "cross"]),
                                  topic, curve=True)
            finally:
                store.close()
        print(f"== {label}")
        print("\n".join(table(result, per_day=False)[1:-2]))
        print("\n".join(curve_table(result)[1:-2]))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    data = shared_data() or ROOT.parent / "shared" / "data"
    ap.add_argument("--gold", type=Path, default=data / "gold-dev")
    ap.add_argument("--data", type=Path, default=data, help="the folder of day-*.jsonl")
    ap.add_argument("--per-day", action="store_true", help="a row per day too")
    ap.add_argument("--lodo", action="store_true", help="leave one day out: the learned "
                    "cue words derived on the other days")
    ap.add_argument("--misses", metavar="LABEL", help="list a phrasing's missed picks "
                    "(e.g. prose/free, keywords)")
    ap.add_argument("--learning", action="store_true", help="the learning case and curve")
    ap.add_argument("--grow", action="store_true", help="with --learning: the prototype "
                    "learned part (calibrated lift, weight growing with the stars)")
    ap.add_argument("--seeds", type=int, default=5, help="samples per point of the curve")
    ap.add_argument("--eval-curve", action="store_true", help="`paperterm eval --curve` "
                    "over the five dev days, each read whole and its picks starred")
    args = ap.parse_args(argv)
    if not (args.gold / "README.md").exists() and not list(args.gold.glob("gold-*.jsonl")):
        print(f"measure_phrasings: no gold in {args.gold}", file=sys.stderr)
        return 2
    converter: Converter = current_topic
    if args.eval_curve:
        eval_curve(converter, args.gold, args.data)
        return 0
    if args.learning:
        learning(converter, args.gold, args.data, args.seeds, args.grow)
        return 0
    days = dev_days(args.gold, args.data)
    moe = builtin_topics()["moe"]
    topics = variants(converter)
    if args.misses:
        wanted = dict(topics)
        if args.misses not in wanted:
            print(f"measure_phrasings: no phrasing {args.misses!r} "
                  f"(one of {', '.join(wanted)})", file=sys.stderr)
            return 2
        misses(wanted[args.misses], days, moe)
        return 0
    if args.lodo:
        lodo([("moe (built-in)", moe), *topics], days)
        return 0
    rows = [("moe (built-in)", measure(moe, days))]
    rows += [(label, measure(topic, days)) for label, topic in topics]
    table(rows, args.per_day)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
