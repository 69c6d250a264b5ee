"""A paper summarized by the configured model, in a language, for the reader's summary
screen (`S`): cached first, else asked for; never raises (the outcome says why there is
none). `paperterm summarize` runs the same engine over many papers (`summarize_many`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Paper
from paperterm.settings import ScoringSettings

if TYPE_CHECKING:
    from paperterm.scoring.summary import Summary
    from paperterm.scoring.types import RunSummary
    from paperterm.store import StoreFactory


class PaperSummary(NamedTuple):
    """The summary (`text`), or why there is none (`error`); whether it came from the cache
    (no request), and what asking cost (tokens; dollars, None: unknown)."""

    text: str | None
    error: str = ""
    cached: bool = False
    tokens: int = 0
    cost: float | None = None


def summarize_paper(paper: Paper, settings: ScoringSettings, language: str, *,
                    open_store: StoreFactory,
                    cancel: threading.Event | None = None) -> PaperSummary:
    """`paper` summarized in `language` with `settings.model` (the database from
    `open_store` caches it); `cancel` stops the request once set."""
    from paperterm.scoring import ScoringError
    from paperterm.scoring.summary import summarize_papers

    try:
        got, run = summarize_papers([paper], settings, language, open_store=open_store,
                                    cancel=cancel)
    except ScoringError as exc:
        return PaperSummary(None, str(exc))
    except Exception as exc:  # the caller shows a line, never a traceback
        return PaperSummary(None, f"{type(exc).__name__}: {exc}")
    result = got.get(paper.id)
    if result is None or not result.ok:
        return PaperSummary(None, str(result.error) if result is not None else "no result")
    return PaperSummary(result.text, cached=result.status == "cached",
                        tokens=run.total_tokens, cost=run.cost)


def summarize_many(papers: Sequence[Paper], settings: ScoringSettings, language: str,
                   open_store: StoreFactory) -> tuple[dict[str, Summary], RunSummary]:
    """Every paper's Summary (cached first, then asked for; paper id -> Summary) and what the
    run cost (`scoring.summary`); a ScoringError when the run cannot work at all (missing
    key, authentication, unreachable server...)."""
    from paperterm.scoring.summary import summarize_papers as run

    return run(papers, settings, language, open_store=open_store)
