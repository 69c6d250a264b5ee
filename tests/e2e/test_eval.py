"""`paperterm eval` (issue 20, item 4) on real days (tests/fixtures/feeds, from
../shared/data) with real labels given through `paperterm star`: its numbers against a hand
computation from the ranks `score --json` prints, `--gold`, cached LLM scores and the
verdict, and what it says without labels."""

from __future__ import annotations

import json
import math
from datetime import date

import pytest
from support.realdays import save_days

from paperterm.scoring.cache import save_answer
from paperterm.scoring.task import ScoringTask
from paperterm.settings.config import Config
from paperterm.store import ScoreRow, Store
from paperterm.topics import resolve_topic
from paperterm.topics.follows import with_follows

FEB25, MAR02 = "2026-02-25", "2026-03-02"
# picks among the real papers of each day: on topic (MoE, quantization, training at scale)
# and not
PICKS = {FEB25: ["2602.21081", "2602.20191", "2602.20309", "2602.21144", "2602.20175"],
         MAR02: ["2602.24059", "2602.23722", "2602.23367"]}


@pytest.fixture
def days(isolated_home):  # type: ignore[no-untyped-def]
    return save_days(isolated_home.db)


def score_ranks(cli, day: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The day's ids, best first, by the `rank` of `score --json` (no model: the blend)."""
    proc = cli("score", "--date", day, "--offline", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    return [r["id"] for r in sorted(rows, key=lambda r: r["rank"])]


def by_hand(ranked: list[str], picks: list[str]) -> dict[str, float]:
    """The three measures, written out: picks in the first 2x(picks) places, the share of
    the first 10 places holding a pick, DCG@20 over the ideal DCG@20 (log2 discount)."""
    n = len(picks)
    top = ranked[:2 * n]
    dcg = sum(1 / math.log2(place + 1)
              for place, pid in enumerate(ranked[:20], 1) if pid in picks)
    ideal = sum(1 / math.log2(place + 1) for place in range(1, min(n, 20) + 1))
    return {"in_top_2x": sum(pid in picks for pid in top),
            "precision_at_10": sum(pid in picks for pid in ranked[:10]) / 10,
            "ndcg_at_20": dcg / ideal}


def evaluate(cli, *args: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    """The records of `eval --json` by scorer, without the seconds (they vary by run)."""
    proc = cli("eval", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return {row["scorer"]: timeless(row) for row in json.loads(proc.stdout)}


def timeless(row: dict) -> dict:
    row.pop("seconds_per_day")
    for day in row["per_day"]:
        day.pop("seconds")
    return row


def test_without_labels_it_says_how_to_get_some(cli, days):
    proc = cli("eval")
    assert proc.returncode == 0
    assert "paperterm star" in proc.stderr and "paperterm learn" in proc.stderr
    assert "star" in proc.stderr and "reader" in proc.stderr
    assert json.loads(cli("eval", "--json").stdout) == []


def test_labels_outside_the_window_are_counted_not_denied(cli, days):
    """The QA walk: `eval --since week` said "No labels to evaluate against yet" although
    there were labels, only before the window; and `--json` keeps stdout JSON."""
    assert cli("star", *PICKS[FEB25]).returncode == 0
    proc = cli("eval", "--since", MAR02)
    assert proc.returncode == 0 and proc.stdout == ""
    said = proc.stderr.strip().splitlines()[-1]
    assert said.startswith(f"No labels since {MAR02} for topic 'moe'; 5 label(s) before")
    assert "drop --since" in said and "yet" not in said
    proc = cli("eval", "--since", MAR02, "--json")
    assert json.loads(proc.stdout) == [] and "5 label(s) before" in proc.stderr
    proc = cli("eval", "--topic", "agents", "--json")  # no labels at all under agents
    assert json.loads(proc.stdout) == [] and "No labels to evaluate against yet" in proc.stderr
    # a free-text topic's hint is a command that runs as pasted (it was unquoted)
    said = cli("eval", "--topic", "speculative decoding").stderr
    assert "`paperterm star --topic 'speculative decoding' ID...`" in said
    assert "`paperterm learn --topic 'speculative decoding'`" in said


def test_the_default_ranking_figures_are_those_of_score_json_ranks(cli, days):
    for ids in PICKS.values():
        assert cli("star", *ids).returncode == 0
    got = evaluate(cli)
    assert set(got) == {"keywords", "blend", "learned"}
    blend = got["blend"]
    hand = {day: by_hand(score_ranks(cli, day), ids) for day, ids in PICKS.items()}
    for row in blend["per_day"]:
        want = hand[row["day"]]
        assert row["picks"] == len(PICKS[row["day"]])
        assert row["in_top_2x"] == want["in_top_2x"]
        assert row["precision_at_10"] == pytest.approx(want["precision_at_10"], abs=1e-4)
        assert row["ndcg_at_20"] == pytest.approx(want["ndcg_at_20"], abs=1e-4)
    assert blend["days"] == 2 and blend["picks"] == 8
    assert blend["in_top_2x"] == sum(h["in_top_2x"] for h in hand.values())
    assert blend["precision_at_10"] == pytest.approx(
        sum(h["precision_at_10"] for h in hand.values()) / 2, abs=1e-4)
    assert blend["ndcg_at_20"] == pytest.approx(
        sum(h["ndcg_at_20"] for h in hand.values()) / 2, abs=1e-4)
    # the on-topic picks are found at all: the figures are not all zero
    assert blend["in_top_2x"] >= 1


def test_since_keeps_the_later_days(cli, days):
    for ids in PICKS.values():
        cli("star", *ids)
    got = evaluate(cli, "--since", MAR02)
    assert [d["day"] for d in got["blend"]["per_day"]] == [MAR02]
    assert got["keywords"]["picks"] == len(PICKS[MAR02])


def test_gold_picks_replace_the_labels_for_that_day(cli, days, tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "2602.24059", "title": "Quant Experts"}\n'
                    '{"id": "2602.23722"}\n\n', encoding="utf-8")
    got = evaluate(cli, "--date", MAR02, "--gold", str(gold))
    want = by_hand(score_ranks(cli, MAR02), ["2602.24059", "2602.23722"])
    assert got["blend"]["picks"] == 2 and got["blend"]["in_top_2x"] == want["in_top_2x"]
    assert got["blend"]["ndcg_at_20"] == pytest.approx(want["ndcg_at_20"], abs=1e-4)
    assert "not among the cached papers" not in cli("eval", "--date", MAR02, "--gold",
                                                    str(gold)).stderr
    # the QA walk: ids that are no paper of the day were dropped without a word
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("2602.24059\n2602.23722\n2602.20191\n2601.00001\n", encoding="utf-8")
    proc = cli("eval", "--date", MAR02, "--gold", str(mixed), "--json")
    assert {r["scorer"]: timeless(r) for r in json.loads(proc.stdout)} == got
    assert (f"note: 2 of the 4 ids in {mixed} are not among the cached papers of {MAR02} "
            "(left out: 2601.00001, 2602.20191)") in proc.stderr
    plain = tmp_path / "gold.txt"
    plain.write_text("arXiv:2602.24059v1\n2602.23722\n", encoding="utf-8")
    assert evaluate(cli, "--date", MAR02, "--gold", str(plain)) == got


@pytest.mark.parametrize(("args", "said"), [
    (["--gold", "picks.txt"], "--gold needs --date"),
    (["--date", MAR02], "--date goes with --gold"),
    (["--date", MAR02, "--gold", "missing.txt"], "cannot read it (No such file"),
    (["--date", MAR02, "--gold", "."], "cannot read it (Is a directory)"),
    (["--date", MAR02, "--gold", "binary.txt"], "cannot read it (not UTF-8 text)"),
    (["--date", MAR02, "--gold", "bad.txt"], "line 2: no arXiv id"),
    (["--date", MAR02, "--gold", "elsewhere.txt"], "none of its papers"),
])
def test_bad_gold_input_is_one_line(cli, days, isolated_home, args, said):
    folder = isolated_home.home.parent
    (folder / "picks.txt").write_text("2602.24059\n")
    (folder / "bad.txt").write_text("2602.24059\nnot an id\n")
    (folder / "elsewhere.txt").write_text("2602.20191\n")  # a paper of another day
    (folder / "binary.txt").write_bytes(b"\xff\xfe\x00binary")
    proc = cli("eval", *args)
    assert proc.returncode == 2
    assert said in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_learned_trains_only_on_the_other_days(cli, days, isolated_home):
    """Labels on one day only: the learned ranking of that day is the ranking taught
    nothing, the blend the one taught by them."""
    from paperterm.scoring.local.blend import blended
    from paperterm.services.evaluation import ranked_ids

    cli("star", *PICKS[MAR02])
    got = evaluate(cli)
    store = Store.open(isolated_home.db)
    try:
        topic = with_follows(resolve_topic("moe", Config()).topic, [], store)
        papers = store.papers.day_papers("cs.AI+cs.LG", date(2026, 3, 2))
        untaught = ranked_ids(papers, blended(store, papers, topic, []) or [])
    finally:
        store.close()
    want = by_hand(untaught, PICKS[MAR02])
    assert got["learned"]["in_top_2x"] == want["in_top_2x"]
    assert got["learned"]["ndcg_at_20"] == pytest.approx(want["ndcg_at_20"], abs=1e-4)


def test_each_model_with_cached_scores_is_measured_with_its_cost(cli, days, isolated_home):
    for ids in PICKS.values():
        cli("star", *ids)
    store = Store.open(isolated_home.db)
    try:  # a model that put two of the day's picks on top, as its run cached them
        topic = with_follows(resolve_topic("moe", Config()).topic, [], store)
        papers = store.papers.day_papers("cs.AI+cs.LG", date(2026, 3, 2))
        top, last = PICKS[MAR02][:2], PICKS[MAR02][2]
        rows = [ScoreRow(p.id, p.version or 0, 9 if p.id in top else 1 if p.id == last else 2,
                         5, "r") for p in papers]
        save_answer(store.scores, ScoringTask(topic), model="openai/gpt-test",
                    n_papers=len(rows), prompt_tokens=1000, completion_tokens=100,
                    cost=0.0125, rows=rows, day=MAR02)
    finally:
        store.close()
    got = evaluate(cli)
    model = got["openai/gpt-test"]
    assert model["days"] == 1 and model["picks"] == 3
    assert model["in_top_2x"] == 2 and model["cost"] == pytest.approx(0.0125)
    text = cli("eval")
    assert text.returncode == 0
    verdict = text.stdout.strip().splitlines()[-1]
    assert "openai/gpt-test" in verdict and "$0.0125" in verdict


def test_a_model_is_measured_only_on_days_it_ranked(cli, days, isolated_home):
    """The QA walk: a real paper announced on two days (2602.16053 on 02-19 and 02-20) kept
    its one cached LLM score on the second day, which eval then counted as a day the model
    ranked (one paper scored, every other last: 0 of the picks) and the verdict weighed."""
    for ids in PICKS.values():
        cli("star", *ids)
    store = Store.open(isolated_home.db)
    try:  # the model scored the whole of 02-25; of 03-02 only one paper (seen before)
        topic = with_follows(resolve_topic("moe", Config()).topic, [], store)
        feb = store.papers.day_papers("cs.AI+cs.LG", date(2026, 2, 25))
        mar = store.papers.day_papers("cs.AI+cs.LG", date(2026, 3, 2))
        rows = [ScoreRow(p.id, p.version or 0, 9 if p.id in PICKS[FEB25] else 2, 5, "r")
                for p in feb]
        save_answer(store.scores, ScoringTask(topic), model="openai/gpt-test",
                    n_papers=len(rows), prompt_tokens=1000, completion_tokens=100,
                    cost=0.01, rows=rows, day=FEB25)
        save_answer(store.scores, ScoringTask(topic), model="openai/gpt-test", n_papers=1,
                    prompt_tokens=100, completion_tokens=10, cost=0.002,
                    rows=[ScoreRow(mar[40].id, mar[40].version or 0, 3, 5, "r")], day=None)
    finally:
        store.close()
    model = evaluate(cli)["openai/gpt-test"]
    assert [d["day"] for d in model["per_day"]] == [FEB25]
    assert model["picks"] == len(PICKS[FEB25]) and model["in_top_2x"] == len(PICKS[FEB25])
    assert model["cost"] == pytest.approx(0.01)
    verdict = cli("eval").stdout.strip().splitlines()[-1]
    assert "on the same 1 day(s)" in verdict


def test_labels_on_days_not_cached_for_the_categories_are_said_so(cli, days):
    """The QA walk: with labels on days cached for cs.AI+cs.LG, `eval --categories cs.CL`
    said "No labels to evaluate against yet ... star the papers you want"."""
    cli("star", *PICKS[FEB25])
    proc = cli("eval", "--categories", "cs.CL")
    assert proc.returncode == 0 and proc.stdout == ""
    said = proc.stderr.strip().splitlines()[-1]
    assert "yet" not in said and FEB25 in said and "--categories" in said
    assert json.loads(cli("eval", "--categories", "cs.CL", "--json").stdout) == []


def test_labels_on_papers_of_no_cached_day_are_said_so(cli, days, tmp_path):
    """The QA walk: after `paperterm learn` recorded the papers of a .bib (older papers, of
    no cached day), eval said "No labels ... yet ... bring in the papers you keep with
    `paperterm learn`": the command just run."""
    bib = tmp_path / "kept.bib"
    bib.write_text("@misc{a, title={A}, eprint={2401.00001}, archivePrefix={arXiv}}\n"
                   "@misc{b, title={B}, eprint={2312.12345}, archivePrefix={arXiv}}\n",
                   encoding="utf-8")
    assert cli("learn", "--bib", str(bib)).returncode == 0
    proc = cli("eval")
    assert proc.returncode == 0 and proc.stdout == ""
    said = proc.stderr.strip().splitlines()[-1]
    assert said.startswith("Your 2 label(s) for topic 'moe' are papers of no cached day")
    assert "yet" not in said and "paperterm star --topic moe" in said
    cli("star", *PICKS[MAR02])
    table = cli("eval").stdout
    assert "2 label(s) on papers of no cached day: not evaluated." in table


def test_stars_on_the_sample_day_are_evaluated(cli):
    """The review's walk: with arXiv unreachable the reader showed the bundled sample day and
    a star was given there; eval said the labels were "on days not cached for these
    categories (2026-02-25)", which no --categories could mend."""
    assert cli("score", "--offline", "--topic", "moe").returncode == 0  # the sample day
    cli("star", "--topic", "moe", "2602.21196")
    records = json.loads(cli("eval", "--topic", "moe", "--json").stdout)
    blend = next(r for r in records if r["scorer"] == "blend")
    assert blend["days"] == 1 and blend["picks"] == 1


def test_papers_a_model_did_not_reach_are_not_held_against_it(cli, days, isolated_home):
    """Issue 32 items 1 and 7: after a budget stop a model is judged over the papers it
    scored (the one pick it did not reach is neither ranked last nor counted), and eval
    says how many it skipped."""
    for ids in PICKS.values():
        cli("star", *ids)
    unreached = sorted(PICKS[MAR02])[0]
    store = Store.open(isolated_home.db)
    try:  # the run scored every paper but one pick 1/10, then stopped
        topic = with_follows(resolve_topic("moe", Config()).topic, [], store)
        papers = store.papers.day_papers("cs.AI+cs.LG", date(2026, 3, 2))
        rows = [ScoreRow(p.id, p.version or 0, 1, 1, "r") for p in papers
                if p.id != unreached]
        save_answer(store.scores, ScoringTask(topic), model="openai/gpt-test",
                    n_papers=len(rows), prompt_tokens=1000, completion_tokens=100,
                    cost=0.01, rows=rows, day=MAR02)
    finally:
        store.close()
    model = evaluate(cli)["openai/gpt-test"]
    assert model["picks"] == len(PICKS[MAR02]) - 1  # the old code: every pick, one ranked last
    assert model["skipped"] == 1


def test_eval_counts_the_unsure_queue_answers(cli, days):
    """The reader's unsure queue (V) records its answers; eval says how many taught it."""
    from paperterm.settings.reader_state import record_unsure_answer

    for ids in PICKS.values():
        cli("star", *ids)
    before = cli("eval")
    assert before.returncode == 0 and "Unsure queue" not in before.stdout
    record_unsure_answer("moe", PICKS[FEB25][0], "starred")
    record_unsure_answer("moe", "2602.20001", "dismissed")
    proc = cli("eval")
    assert proc.returncode == 0, proc.stderr
    assert ("Unsure queue (V in the reader): 2 answers for topic 'moe' (1 starred, "
            "1 not interested)") in proc.stdout
