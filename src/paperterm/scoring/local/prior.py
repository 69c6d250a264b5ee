"""A built-in topic's prior: a direction in the embedding space along which the papers a
judge picked for the topic's profile lie (`topics/<name>.prior.json`, 256 numbers).

Derived by `benchmarks/derive_prior.py` (a strongly regularised logistic regression of the
picks against the rest of the five development days) for `moe`; measured leaving one day
out (`benchmarks/measure_local.py --lodo` derives it again on four days). A paper's prior is
its position along the direction against the fixed background (the bundled sample day): 0 at
the background's median, 1 at its 99th percentile, kept within [-1, 1]. The blend lifts a
paper towards 1 (or lowers it towards 0) by PRIOR_WEIGHT of it, as it does with what the
user taught it, so the top of the list moves little. Only built-in topics have one: a topic
of the user's own, even one named `moe`, says its own criteria.
"""

from __future__ import annotations

import contextlib
import json
import threading
from pathlib import Path

import numpy as np

from paperterm.models import Topic
from paperterm.scoring.local.semantic import DIM, MODEL_KEY

PRIOR_WEIGHT = 0.3
FOLDER = Path(__file__).resolve().parents[2] / "topics"

_lock = threading.Lock()
directions: dict[str, np.ndarray | None] = {}  # topic name -> its direction (loaded once)


def _load(name: str) -> np.ndarray | None:
    path = FOLDER / f"{name}.prior.json"
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        data = json.loads(path.read_text(encoding="utf-8"))
        values = np.asarray(data["direction"], dtype=np.float32)
        if data.get("model") == MODEL_KEY and values.shape == (DIM,):
            return values
    return None


def direction(topic: Topic) -> np.ndarray | None:
    """The prior direction of `topic` (None for a topic without one)."""
    if topic.source != "built-in" or topic.adhoc:
        return None
    with _lock:
        if topic.name not in directions:
            directions[topic.name] = _load(topic.name)
        return directions[topic.name]


def prior(vectors: np.ndarray, topic: Topic, bg: np.ndarray) -> np.ndarray | None:
    """Per paper (unit rows `vectors`): its prior in [-1, 1], measured against the
    background `bg`; None when the topic has no prior."""
    w = direction(topic)
    if w is None or not len(bg) or vectors.shape[1:] != w.shape:
        return None
    ref = bg @ w
    low, high = float(np.median(ref)), float(np.percentile(ref, 99))
    return np.clip((vectors @ w - low) / max(high - low, 1e-6), -1.0, 1.0).astype(np.float32)
