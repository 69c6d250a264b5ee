"""Derive the learned cue words of the local ranking from a judge's picks (issue 20, item 2).

    python benchmarks/derive_cues.py ../shared/data/day-2026-02-{17,18,19,20,23}.jsonl \\
        --gold ../shared/data/gold-dev [--words 30]

Per word stem (Snowball, as the ranking stems), in how many picked and not picked papers of
the days it occurs (title or abstract, once per paper), compared as a log-odds ratio with an
informative Dirichlet prior (Monroe, Colaresi and Quinn 2008), as a z-score. Stop words,
numbers and stems shorter than 3 letters are left out; a stem must be in at least
MIN_PAPERS papers. The `--words` stems most typical of picks and of non-picks, each written
as the word it is most often in these papers, are printed as the two tuples of
`paperterm.scoring.local.cues` (LEARNED_FOUNDATIONAL, LEARNED_APPLICATION).

`measure_local.py --gold DIR --lodo` derives them again on four days and measures the fifth.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.shared import gold_days

from paperterm.models import Paper
from paperterm.scoring.local.keywords import stem, words

MIN_PAPERS = 8
PRIOR = 10.0  # pseudo-papers of the prior, spread by each stem's overall frequency
_STOP_WORDS = """
a about above after again against all also am among an and any are as at based be because
been before being below between both but by can could did do does doing down during each
few for from further had has have having he her here hers him his how however i if in into
is it its itself just me more most my no nor not now of off on once only or other our ours
out over own same she should so some such than that the their theirs them then there
therefore these they this those through thus to too under until up upon use used using very
via was we were what when where whether which while who whom why will with within without
would you your e g eg ie etc new existing work works method methods model models paper
papers approach approaches study analysis large scale
"""
STOP = frozenset(_STOP_WORDS.split())


def _stems(paper: Paper) -> set[str]:
    return {stem(w) for w in words(f"{paper.title} {paper.abstract}")}


def derive(days: Sequence[tuple[str, list[Paper], set[str]]], n: int,
           ) -> tuple[list[str], list[str]]:
    """The `n` words most typical of the picks and the `n` most typical of the rest, each
    the surface form its stem most often has in these papers."""
    stop = {stem(w) for w in STOP}
    picked, other, forms = Counter[str](), Counter[str](), Counter[tuple[str, str]]()
    n_picked = n_other = 0
    for _, papers, picks in days:
        for p in papers:
            found = _stems(p)
            if p.id in picks:
                picked.update(found)
                n_picked += 1
            else:
                other.update(found)
                n_other += 1
            forms.update((stem(w), w) for w in words(f"{p.title} {p.abstract}"))
    total = n_picked + n_other
    z: dict[str, float] = {}
    for s, count in (picked + other).items():
        if count < MIN_PAPERS or s in stop or len(s) < 3 or any(c.isdigit() for c in s):
            continue
        a = PRIOR * count / total  # the prior's share of this stem
        yes, no = picked[s] + a, other[s] + a
        delta = (math.log(yes / (n_picked + PRIOR - yes))
                 - math.log(no / (n_other + PRIOR - no)))
        z[s] = delta / math.sqrt(1 / yes + 1 / no)
    ranked = sorted(z, key=lambda s: (-z[s], s))

    def form(s: str) -> str:
        return max((c, w) for (st, w), c in forms.items() if st == s)[1]

    return [form(s) for s in ranked[:n]], [form(s) for s in reversed(ranked[-n:])]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("days", nargs="+", type=Path)
    ap.add_argument("--gold", type=Path, required=True)
    ap.add_argument("--words", type=int, default=30)
    args = ap.parse_args(argv)
    up, down = derive(gold_days(args.gold, args.days), args.words)
    for name, found in (("LEARNED_FOUNDATIONAL", up), ("LEARNED_APPLICATION", down)):
        print(f"{name} = (")
        line = "   "
        for w in found:
            if len(line) + len(w) + 4 > 92:
                print(line)
                line = "   "
            line += f' "{w}",'
        print(line)
        print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
