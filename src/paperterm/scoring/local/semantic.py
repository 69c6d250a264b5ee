"""The semantic signal: static word embeddings (wordllama, 16 MB inside its wheel), offline.

The model is loaded on first use (about half a second: call it off the UI thread) from the
installed package's own folder with downloads disabled (the default call tries to fetch its
tokenizer and fails offline). Each paper's embedding (title and abstract) is cached in the
store, so a day is embedded once. Without wordllama, `load_model()` returns None and the
local scorer ranks by keywords alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paperterm.models import Paper

if TYPE_CHECKING:
    from paperterm.store import Store

MODEL_KEY = "wordllama-l2_supercat-256"  # the cache key of the vectors below
DIM = 256

MEMORY_MAX = 20_000  # embeddings kept in this process, by text (about 1 KB each)

_lock = threading.Lock()
_model: Any = None
_failed = False
_memory: dict[str, np.ndarray] = {}  # text fingerprint -> unit vector


def load_model() -> Any:
    """The wordllama model, loaded once per process; None when it cannot be loaded."""
    global _model, _failed
    with _lock:
        if _model is None and not _failed:
            root = logging.getLogger()
            handlers, level = list(root.handlers), root.level
            try:
                from pathlib import Path

                import wordllama
                from wordllama import WordLlama

                folder = Path(wordllama.__file__).resolve().parent
                _model = WordLlama.load(cache_dir=folder, disable_download=True, dim=DIM)
            except Exception:  # not installed, or a broken install: keywords alone
                _failed = True
            finally:  # wordllama's import sets every library's INFO logs to print on stderr
                root.handlers[:] = handlers
                root.setLevel(level)
        return _model


def paper_text(paper: Paper) -> str:
    return f"{paper.title}. {paper.abstract}"


def embed_texts(texts: Sequence[str]) -> np.ndarray | None:
    """Unit-length float32 rows, one per text (None without the model)."""
    model = load_model()
    if model is None:
        return None
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    vectors = np.asarray(model.embed(list(texts)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


def _fingerprint(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def paper_embeddings(store: Store | None, papers: Sequence[Paper]) -> np.ndarray | None:
    """One unit-length row per paper (same order): from the store's cache when the paper's
    text is unchanged, else embedded now and cached. None without the model. A store that
    cannot be read or written only makes this slower."""
    if load_model() is None:
        return None
    texts = [paper_text(p) for p in papers]
    fps = [_fingerprint(t) for t in texts]
    out = np.zeros((len(papers), DIM), dtype=np.float32)
    cached: dict[str, tuple[str, bytes]] = {}
    if store is not None:
        with contextlib.suppress(Exception):
            cached = store.scores.embeddings(MODEL_KEY, [p.id for p in papers])
    missing, unsaved = [], []
    for i, (p, fp) in enumerate(zip(papers, fps, strict=True)):
        hit = cached.get(p.id)
        if hit is not None and hit[0] == fp and len(hit[1]) == DIM * 4:
            out[i] = np.frombuffer(hit[1], dtype=np.float32)
        elif fp in _memory:
            out[i] = _memory[fp]
            unsaved.append(i)
        else:
            missing.append(i)
    if missing:
        fresh = embed_texts([texts[i] for i in missing])
        if fresh is None:
            return None
        out[missing] = fresh
        if len(_memory) + len(missing) > MEMORY_MAX:
            _memory.clear()
        _memory.update((fps[i], fresh[k]) for k, i in enumerate(missing))
    to_save = sorted(missing + unsaved)
    if to_save and store is not None:
        with contextlib.suppress(Exception):  # not cached: embedded again next time
            store.scores.save_embeddings(MODEL_KEY, [(papers[i].id, fps[i], out[i].tobytes())
                                                     for i in to_save])
    return out


def topic_text(name: str, description: str, keywords: Sequence[str]) -> str:
    return " ".join([name, description, *keywords])
