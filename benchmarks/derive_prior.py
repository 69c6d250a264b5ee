"""Derive the `moe` topic's prior from a judge's picks (issue 20, item 2).

    python benchmarks/derive_prior.py ../shared/data/day-2026-02-{17,18,19,20,23}.jsonl \\
        --gold ../shared/data/gold-dev [--write]

A direction in the embedding space (wordllama, 256 numbers): a logistic regression of the
papers the judge picked against the rest of their days, on the papers' cached embeddings,
the two classes weighted alike and strongly regularised (L2), fitted by Newton's method.
Printed, or with `--write` saved as `src/paperterm/topics/moe.prior.json`, which the blend
reads (`paperterm.scoring.local.prior`). Only the direction counts: the blend measures a
paper along it against the fixed background (the bundled sample day).

`measure_local.py --gold DIR --lodo` derives it again on four days and measures the fifth.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.shared import gold_days

from paperterm.models import Paper
from paperterm.scoring.local.semantic import DIM, MODEL_KEY, paper_embeddings
from paperterm.store import Store

L2 = 3e-4  # on the weights (not the bias); each class's weights sum to 1/2
NEWTON_STEPS = 30
OUT = Path(__file__).resolve().parents[1] / "src/paperterm/topics/moe.prior.json"


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2) -> np.ndarray:
    """The weights (without the bias) of the balanced, L2-regularised logistic regression."""
    a = np.hstack([x.astype(np.float64), np.ones((len(x), 1))])
    weight = np.where(y, 0.5 / max(int(y.sum()), 1), 0.5 / max(int((~y).sum()), 1))
    reg = np.full(a.shape[1], l2)
    reg[-1] = 0.0
    theta = np.zeros(a.shape[1])
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-(a @ theta)))
        grad = a.T @ (weight * (p - y)) + reg * theta
        hess = (a * (weight * p * (1 - p))[:, None]).T @ a + np.diag(reg)
        theta -= np.linalg.solve(hess + 1e-9 * np.eye(len(theta)), grad)
    return theta[:-1]


def derive(days: Sequence[tuple[str, list[Paper], set[str]]],
           store: Store | None = None) -> np.ndarray | None:
    """The prior direction from the picks of `days` (None without the embedding model)."""
    store = store or Store.unavailable("deriving the prior")
    rows, labels = [], []
    for _, papers, picks in days:
        vectors = paper_embeddings(store, papers)
        if vectors is None:
            return None
        rows.append(vectors)
        labels.extend(p.id in picks for p in papers)
    return fit(np.vstack(rows), np.array(labels, dtype=bool)).astype(np.float32)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("days", nargs="+", type=Path)
    ap.add_argument("--gold", type=Path, required=True)
    ap.add_argument("--write", action="store_true", help=f"save it as {OUT.name}")
    args = ap.parse_args(argv)
    data = gold_days(args.gold, args.days)
    direction = derive(data)
    if direction is None:
        print("derive_prior: the embedding model (wordllama) is not installed", file=sys.stderr)
        return 1
    assert direction.shape == (DIM,)
    text = json.dumps({
        "model": MODEL_KEY,
        "derived": "benchmarks/derive_prior.py: picks of "
                   + ", ".join(day for day, _, _ in data),
        "direction": [round(float(v), 4) for v in direction],
    })
    if args.write:
        OUT.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {OUT}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
