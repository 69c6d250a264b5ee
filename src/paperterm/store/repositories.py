"""The repositories: each groups the query modules of one concern over a shared Database.

A repository is handed to the service that uses it; none calls another's methods (a query
that needs another's reads takes it as a base, as LibraryIO takes LibraryQueries).
"""

from __future__ import annotations

from paperterm.store.days import DayQueries
from paperterm.store.deliveries import DeliveryQueries
from paperterm.store.embeddings import EmbeddingQueries
from paperterm.store.enrichment import EnrichmentQueries
from paperterm.store.feedback import FeedbackQueries
from paperterm.store.follows import FollowQueries
from paperterm.store.health import HealthQueries
from paperterm.store.library_io import LearnedIO
from paperterm.store.local_scores import LocalScoreQueries
from paperterm.store.notes import NoteQueries
from paperterm.store.papers import PaperQueries
from paperterm.store.positives import PositiveQueries
from paperterm.store.scores import ScoreQueries
from paperterm.store.similar import SimilarQueries
from paperterm.store.user import UserQueries
from paperterm.store.zotero_sent import ZoteroSentQueries


class Papers(PaperQueries, DayQueries):
    """Cached papers, their announcement days and the fetch log."""


class Marks(UserQueries, FeedbackQueries, NoteQueries, FollowQueries):
    """What the user did: seen, starred, saved; not interested and the training examples
    made of all of them; notes and tags; followed authors."""


class ScoreCache(ScoreQueries, LocalScoreQueries, EmbeddingQueries):
    """Scores worth keeping between runs: LLM scores (with their requests and claims), the
    local ranking per day, paper embeddings."""


class Library(LearnedIO, SimilarQueries, PositiveQueries):
    """Every cached paper across days: by id, by selection, full-text search, similar
    papers, the library's export and import, and the positives `learn` recorded."""


Enrichment = EnrichmentQueries  # what Hugging Face, Semantic Scholar and code links said
Deliveries = DeliveryQueries  # which digest went out where
ZoteroRecords = ZoteroSentQueries  # which papers went to which Zotero library
HealthCheck = HealthQueries  # what `paperterm doctor` asks of the database
