"""The ranking that learns: a per-topic logistic regression on paper embeddings.

Positives are the papers the user starred, saved or brought in with `paperterm learn`;
negatives the papers dismissed ("not interested") for the topic, more weakly those read and
skipped, more weakly still a sample of the unlabelled papers of the days the user read (the
usual recipe for learning from positives alone), and very weakly a fixed background of
ordinary papers (the bundled sample day), so one star is enough to learn from. Plain numpy:
it trains in milliseconds.

Its lift is calibrated like closeness: the model's logit measured against the background (0
at its median, 1 at its 99th percentile, -1 at its 1st), so a paper the model rates as
highly as the top 1% of ordinary papers gets the whole lift whatever the number of
examples; how much the lift counts in the blend grows with the evidence
(`blend.learned_weight`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paperterm.store import Example

WEIGHTS = {"starred": 1.0, "saved": 1.0, "learned": 0.7, "dismissed": 1.0, "skipped": 0.3,
           "unlabelled": 0.1}
LABELS = {"starred": "your starred", "saved": "your saved", "learned": "your library"}
EVIDENCE = frozenset({"starred", "saved", "learned", "dismissed"})  # the user's own marks
BACKGROUND_WEIGHT = 0.05  # each background paper, as a negative
L2 = 1e-2
GD_STEPS = 300
LIKE_MIN_SIMILARITY = 0.6  # "like your starred: <title>" only for a close neighbour (top 1%)


@dataclass
class LearnedModel:
    w: np.ndarray
    b: float
    positives: np.ndarray  # unit rows of the positive examples, for the reason
    ids: list[str]  # paper id per positive row
    labels: list[str]  # "your starred: <title>" per positive row
    low: float = 0.0  # the background's median logit: neither liked nor not
    high: float = 4.0  # the background's 99th percentile logit: liked as the top 1%
    floor: float = -4.0  # its 1st percentile: turned down as the bottom 1%
    evidence: int = 0  # the user's own marks it learned from (positives and "not interested")

    def logit(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.w + self.b, dtype=np.float64)

    def probability(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(1 / (1 + np.exp(-self.logit(x))))

    def lift(self, x: np.ndarray) -> np.ndarray:
        """Per row: -1 (like what the user turns down) .. 0 (an ordinary paper) .. 1 (like
        what the user keeps, as much as the top 1% of the background), on the background's
        scale of the model's logit (-1: as little as its bottom 1%)."""
        z = self.logit(x) - self.low
        up = z / max(self.high - self.low, 1e-6)
        down = z / max(self.low - self.floor, 1e-6)
        return np.clip(np.where(z >= 0, up, down), -1.0, 1.0)

    def nearest(self, x: np.ndarray, ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Per row of `x` (paper `ids`): the closest other positive and its similarity."""
        sims = x @ self.positives.T
        for row, pid in enumerate(ids):  # a starred paper is not "like" itself
            for col, other in enumerate(self.ids):
                if other == pid:
                    sims[row, col] = -1.0
        best = sims.argmax(axis=1)
        return best, sims[np.arange(len(x)), best]


def fit_logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, float]:
    """Weighted L2-regularised logistic regression by accelerated gradient descent: only
    matrix-vector products (a few hundred of them: milliseconds, no LAPACK solve)."""
    a = np.hstack([x.astype(np.float64), np.ones((len(x), 1))])
    scaled = weight / (float(weight.sum()) or 1.0)
    reg = np.full(a.shape[1], L2)
    reg[-1] = 0.0  # the bias is not regularised
    v = np.ones(a.shape[1]) / a.shape[1] ** 0.5  # power iteration: the largest curvature
    for _ in range(20):
        v = a.T @ (scaled * (a @ v))
        v /= np.linalg.norm(v) or 1.0
    lipschitz = 0.25 * float(v @ (a.T @ (scaled * (a @ v)))) + L2
    step = 1.0 / lipschitz
    theta = np.zeros(a.shape[1])
    ahead = theta.copy()
    for k in range(GD_STEPS):
        p = 1 / (1 + np.exp(-(a @ ahead)))
        grad = a.T @ (scaled * (p - y)) + reg * ahead
        new = ahead - step * grad
        ahead = new + (k / (k + 3)) * (new - theta)
        theta = new
    return theta[:-1].astype(np.float32), float(theta[-1])


def train(examples: Sequence[Example], vectors: np.ndarray,
          background: np.ndarray) -> LearnedModel | None:
    """A model from the user's examples (`vectors`: one unit row each) and the background;
    None without a positive example."""
    positive = [i for i, e in enumerate(examples) if e.positive]
    if not positive:
        return None
    x = np.vstack([vectors, background]) if len(background) else vectors
    y = np.array([1.0 if e.positive else 0.0 for e in examples] + [0.0] * len(background))
    weight = np.array([WEIGHTS[e.kind] for e in examples]
                      + [BACKGROUND_WEIGHT] * len(background))
    pos, neg = weight[y == 1].sum(), weight[y == 0].sum()
    if neg > 0:  # balanced classes: a few stars weigh as much as all the negatives
        weight[y == 1] *= neg / pos
    w, b = fit_logistic(x, y, weight)
    model = LearnedModel(w, b, vectors[positive], [examples[i].id for i in positive],
                         [f"{LABELS[examples[i].kind]}: {examples[i].title}" for i in positive])
    model.evidence = sum(1 for e in examples if e.kind in EVIDENCE)
    if len(background):
        z = model.logit(background)
        model.low, model.high = float(np.median(z)), float(np.percentile(z, 99))
        model.floor = float(np.percentile(z, 1))
    return model
