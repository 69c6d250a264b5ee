"""The ranking that learns: a per-topic logistic regression on paper embeddings.

Positives are the papers the user starred, saved or brought in with `paperterm learn`;
negatives the papers dismissed ("not interested") for the topic, more weakly those read and
skipped, more weakly still a sample of the unlabelled papers of the days the user read (the
usual recipe for learning from positives alone), and very weakly a fixed background of
ordinary papers (the bundled sample day), so one star is enough to learn from. Plain numpy:
it trains in milliseconds.

Its lift compares a paper with the kinds of paper the user keeps: its mean similarity to
its NEAREST closest positives less that to its NEAREST closest negatives (a user keeps
several kinds of paper, which one linear direction averages away: on the development days,
time order, the one-line topic taught two days' stars found 57 picks of 73 on the next days
with it, 51 with the regression's logit). It is calibrated like closeness, against the
background (0 at its median, 1 at its 99th percentile, -1 at its 1st), so a paper as close
to the user's papers as the top 1% of ordinary papers gets the whole lift whatever the number
of examples; how much the lift counts in the blend grows with the evidence
(`blend.learned_weight`). The regression (its logit) is the lift without negatives, and the
unsure queue's probability.
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
NEAREST = 20  # the nearest kept and the nearest not kept papers a paper is compared with
NEAREST_SHARE = 1.0  # the share of that comparison in the lift (the rest: the regression's logit)
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
    negatives: np.ndarray | None = None  # unit rows of the negative examples (`contrast`)
    near: tuple[float, float, float] = (0.0, 1.0, -1.0)  # `contrast` on the background:
    # its median, 99th and 1st percentiles

    def logit(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.w + self.b, dtype=np.float64)

    def probability(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(1 / (1 + np.exp(-self.logit(x))))

    def contrast(self, x: np.ndarray) -> np.ndarray:
        """Per row: its mean similarity to the NEAREST closest positives less that to the
        NEAREST closest negatives (0 without negatives)."""
        if self.negatives is None or not len(self.negatives):
            return np.zeros(len(x))
        k = min(NEAREST, len(self.positives), len(self.negatives))
        near_pos = np.partition(x @ self.positives.T, -k, axis=1)[:, -k:].mean(axis=1)
        near_neg = np.partition(x @ self.negatives.T, -k, axis=1)[:, -k:].mean(axis=1)
        return np.asarray(near_pos - near_neg, dtype=np.float64)

    def lift(self, x: np.ndarray) -> np.ndarray:
        """Per row: -1 (like what the user turns down) .. 0 (an ordinary paper) .. 1 (like
        what the user keeps, as much as the top 1% of the background), on the background's
        scale of the model's logit (-1: as little as its bottom 1%), mixed with the same
        scale of `contrast` (NEAREST_SHARE): the regression alone ranks papers from their
        direction, the nearest neighbours from the kinds of paper the user keeps."""
        z = self.logit(x) - self.low
        up = z / max(self.high - self.low, 1e-6)
        down = z / max(self.low - self.floor, 1e-6)
        by_logit = np.clip(np.where(z >= 0, up, down), -1.0, 1.0)
        if self.negatives is None or not len(self.negatives):
            return by_logit
        low, high, floor = self.near
        c = self.contrast(x) - low
        by_near = np.clip(np.where(c >= 0, c / max(high - low, 1e-6),
                                   c / max(low - floor, 1e-6)), -1.0, 1.0)
        return (1 - NEAREST_SHARE) * by_logit + NEAREST_SHARE * by_near

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
    negative = [i for i, e in enumerate(examples) if not e.positive]
    if negative:
        model.negatives = vectors[negative]
    if len(background):
        c = model.contrast(background)
        model.near = (float(np.median(c)), float(np.percentile(c, 99)),
                      float(np.percentile(c, 1)))
        z = model.logit(background)
        model.low, model.high = float(np.median(z)), float(np.percentile(z, 99))
        model.floor = float(np.percentile(z, 1))
    return model
