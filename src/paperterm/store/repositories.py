"""The repositories: each composes the query groups of one concern over a shared Database,
and this file is each one's whole surface (no repository inherits its queries).

A repository is handed to the service that uses it; none calls another's methods (a query
that needs another's reads takes it as a base, as LibraryIO takes LibraryQueries). Its
surface is attributes bound at construction: a test double replaces an attribute of an
instance (`library.search = held`), not a method of a subclass.
"""

from __future__ import annotations

from paperterm.store.days import DayQueries
from paperterm.store.db import Database
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


class Repository:
    """What every repository has: its database, and whether that keeps anything."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def available(self) -> bool:
        """False on a stand-in database that keeps nothing (`Store.unavailable`)."""
        return self.db.problem is None



class Papers(Repository):
    """Cached papers, their announcement days and the fetch log."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        papers = PaperQueries(db)
        days = DayQueries(db)
        # store/papers.py: papers, days saved, the fetch log
        self.save_day = papers.save_day
        self.fetch_record = papers.fetch_record
        self.day_papers = papers.day_papers
        self.latest_day = papers.latest_day
        self.is_sample_day = papers.is_sample_day
        self.is_approximate = papers.is_approximate
        self.earlier_versions = papers.earlier_versions
        self.paper_count = papers.paper_count
        # store/days.py: which days are cached, titles across days
        self.cached_days = days.cached_days
        self.empty_days = days.empty_days
        self.nearest_cached_day = days.nearest_cached_day
        self.announced_since = days.announced_since
        self.announced_before = days.announced_before
        self.titles_held_elsewhere = days.titles_held_elsewhere
        self.same_titles = days.same_titles


class Marks(Repository):
    """What the user did: seen, starred, saved; not interested and the training examples
    made of all of them; notes and tags; followed authors."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        user = UserQueries(db)
        feedback = FeedbackQueries(db)
        notes = NoteQueries(db)
        follows = FollowQueries(db)
        # store/user.py: seen, starred, saved
        self.states = user.states
        self.mark_seen = user.mark_seen
        self.unmark_seen = user.unmark_seen
        self.set_starred = user.set_starred
        self.starred_ids = user.starred_ids
        self.mark_saved = user.mark_saved
        # store/feedback.py: not interested, training examples
        self.set_dismissed = feedback.set_dismissed
        self.dismissed_ids = feedback.dismissed_ids
        self.training_examples = feedback.training_examples
        # store/notes.py: notes and tags
        self.note = notes.note
        self.notes = notes.notes
        self.set_note = notes.set_note
        self.tags = notes.tags
        self.set_tags = notes.set_tags
        # store/follows.py: followed authors
        self.followed_authors = follows.followed_authors
        self.set_followed = follows.set_followed


class ScoreCache(Repository):
    """Scores worth keeping between runs: LLM scores (with their requests and claims), the
    local ranking per day, paper embeddings."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        llm = ScoreQueries(db)
        local = LocalScoreQueries(db)
        embedded = EmbeddingQueries(db)
        # store/scores.py: LLM scores, requests, claims
        self.score_rows = llm.score_rows
        self.models_scored = llm.models_scored
        self.request_totals = llm.request_totals
        self.claim = llm.claim
        self.release = llm.release
        self.spent_on = llm.spent_on
        self.save_scores = llm.save_scores
        # store/local_scores.py: the local ranking per day
        self.local_scores = local.local_scores
        self.scores_in_days = local.scores_in_days
        self.save_local_scores = local.save_local_scores
        # store/embeddings.py: paper embeddings
        self.embeddings = embedded.embeddings
        self.save_embeddings = embedded.save_embeddings


class Library(Repository):
    """Every cached paper across days: by id, by selection, full-text search, similar
    papers, the library's export and import, and the positives `learn` recorded."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        io = LearnedIO(db)
        similar = SimilarQueries(db)
        positives = PositiveQueries(db)
        # store/library.py and library_io.py: papers across days, search, export and import
        # (with what the ranking learned from: follows, not interested, `learn` records)
        self.library_records = io.library_records
        self.import_records = io.import_records
        self.learned_records = io.learned_records
        self.import_learned = io.import_learned
        self.cached_papers = io.cached_papers
        self.paper_days = io.paper_days
        self.announced = io.announced
        self.library_papers = io.library_papers
        self.search = io.search
        # store/similar.py: similar papers
        self.similar = similar.similar
        # store/positives.py: what `learn` recorded
        self.replace_positives = positives.replace_positives
        self.positives = positives.positives
        self.liked_ids = positives.liked_ids


Enrichment = EnrichmentQueries  # what Hugging Face, Semantic Scholar and code links said
Deliveries = DeliveryQueries  # which digest went out where
ZoteroRecords = ZoteroSentQueries  # which papers went to which Zotero library
HealthCheck = HealthQueries  # what `paperterm doctor` asks of the database
