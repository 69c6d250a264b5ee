"""The SQLite cache: papers and days, user state, scores. The only package with SQL.

`Store` joins one query class per table group over one connection (`db.Database`, which
also owns opening, integrity, quarantine, migrations, `transaction()` and `select_in()`).
"""

from __future__ import annotations

from paperterm.store.days import DayQueries
from paperterm.store.db import APP_ID, BusyError, StoreError, describe, is_busy
from paperterm.store.deliveries import DeliveryQueries
from paperterm.store.embeddings import EmbeddingQueries
from paperterm.store.enrichment import EnrichmentQueries
from paperterm.store.feedback import Example, FeedbackQueries
from paperterm.store.follows import FollowQueries
from paperterm.store.health import Health, HealthQueries
from paperterm.store.library import LibraryQueries, SearchHit, Selection
from paperterm.store.library_io import LibraryIO
from paperterm.store.local_scores import LocalScoreQueries
from paperterm.store.notes import NoteQueries
from paperterm.store.papers import PaperQueries
from paperterm.store.positives import Positive, PositiveQueries
from paperterm.store.schema import SCHEMA_VERSION
from paperterm.store.scores import ScoreQueries, ScoreRow
from paperterm.store.similar import SimilarQueries
from paperterm.store.user import UserQueries, UserState
from paperterm.store.zotero_sent import ZoteroSentQueries


class Store(PaperQueries, UserQueries, ScoreQueries, NoteQueries, LibraryQueries, SimilarQueries,
            LibraryIO, DeliveryQueries, LocalScoreQueries,
            HealthQueries, PositiveQueries, EnrichmentQueries, FollowQueries,
            EmbeddingQueries, FeedbackQueries, DayQueries, ZoteroSentQueries):
    """One SQLite database. Not thread-safe: open one Store per thread."""


__all__ = ["APP_ID", "SCHEMA_VERSION", "BusyError", "Health", "ScoreRow", "SearchHit", "Selection",
           "Store", "StoreError", "UserState", "describe", "is_busy"]
__all__ += ["Example", "Positive"]
