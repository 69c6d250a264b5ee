"""What one kind of request is: its messages, its reply, its cache key and reply schema.

The engine is generic over the task: it batches papers, sends `build_messages(batch)`,
hands the reply text to `parse`, stores `to_row` of each result under the task's `key` and
reads cached results back with `from_row`. `ScoringTask` is the relevance/novelty scoring
prompt; another prompt (a one-line summary, a second pass) is another Task with its own
`TaskKey.kind`, so its cached rows never mix with the scores.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from paperterm.models import Paper, Topic
from paperterm.scoring import prompt
from paperterm.scoring.parse import parse_reply
from paperterm.scoring.types import Score
from paperterm.store import ScoreRow
from paperterm.text.hygiene import clean_line

R = TypeVar("R")
Messages = list[dict[str, str]]


@dataclass(frozen=True)
class TaskKey:
    """Which cached rows belong to a task, besides the paper version and the model:
    `topic_fp` (what the request was about) and `kind` (stored as the prompt version)."""

    topic_fp: str
    kind: str


@dataclass
class Parsed(Generic[R]):
    """What one reply gave for the papers of its batch."""

    results: dict[str, R] = field(default_factory=dict)  # paper id -> result
    unknown_ids: int = 0  # entries about papers that were not in the batch
    rejected: dict[str, str] = field(default_factory=dict)  # paper id -> why (never valid)
    error: str | None = None  # set when nothing usable was found at all
    broken: bool = False  # the reply cannot be read at all (too large, nested too deep)

    @property
    def why(self) -> str:
        """Why papers are missing: the reply's error, else the first rejected entry's."""
        return self.error or next(iter(self.rejected.values()), "no valid entry for its papers")


def read_reply(task: Task[R], text: str | None, reasoning: str | None,
               papers: list[Paper]) -> Parsed[R]:
    """A reply's results; from the reasoning field when the answer itself has none (some
    servers put the whole answer there). A reply that breaks the parser (nested 100,000
    deep, ...) is a reply with no results, never a crash."""
    parsed: Parsed[R] = Parsed(error="the reply was empty")
    for part in (text, reasoning):
        if not part:
            continue
        try:
            parsed = task.parse(part, papers)
        except (RecursionError, MemoryError, ValueError, TypeError) as exc:
            parsed = Parsed(error=f"unreadable ({type(exc).__name__})", broken=True)
        if parsed.results:
            break
    return parsed


class Task(ABC, Generic[R]):
    """One kind of request about a batch of papers, producing one `R` per paper."""

    response_schema: dict[str, Any] | None = None  # a json_schema response_format, if any
    noun = "result"  # what one paper's result is called in messages ("no valid score")

    @property
    @abstractmethod
    def key(self) -> TaskKey: ...

    @abstractmethod
    def build_messages(self, papers: Sequence[Paper]) -> Messages: ...

    @abstractmethod
    def parse(self, text: str | None, papers: Sequence[Paper]) -> Parsed[R]:
        """The results in a reply (status: newly done), for the papers it was about."""

    @abstractmethod
    def to_row(self, paper: Paper, result: R) -> ScoreRow: ...

    @abstractmethod
    def from_row(self, paper: Paper, row: ScoreRow) -> R | None:
        """A cached result (status: cached), or None when the row is not usable."""

    @abstractmethod
    def unscored(self, paper: Paper, error: str) -> R:
        """The result of a paper given up on, saying why."""


class ScoringTask(Task[Score]):
    """Relevance and novelty 1-10 with a short reason, against a topic's criteria."""

    noun = "score"

    def __init__(self, topic: Topic, include_authors: bool = False) -> None:
        self.topic, self.include_authors = topic, include_authors
        self.response_schema = RESPONSE_SCHEMA

    @property
    def key(self) -> TaskKey:
        return TaskKey(self.topic.fingerprint, prompt.PROMPT_VERSION)

    def build_messages(self, papers: Sequence[Paper]) -> Messages:
        return prompt.build_messages(papers, self.topic, self.include_authors)

    def parse(self, text: str | None, papers: Sequence[Paper]) -> Parsed[Score]:
        reply = parse_reply(text, [p.id for p in papers])
        by_id = {p.id: p for p in papers}
        results = {pid: Score(pid, by_id[pid].version, s.relevance, s.novelty,
                              prompt.limit_words(s.reason), "scored")
                   for pid, s in reply.scores.items()}
        return Parsed(results, reply.unknown_ids, reply.rejected, reply.error, reply.broken)

    def to_row(self, paper: Paper, result: Score) -> ScoreRow:
        return ScoreRow(paper.id, paper.version or 0, result.relevance, result.novelty,
                        result.reason)

    def from_row(self, paper: Paper, row: ScoreRow) -> Score | None:
        if row.relevance is None:
            return None
        return Score(paper.id, row.version or None, row.relevance, row.novelty,
                     clean_line(row.reason), "cached")

    def unscored(self, paper: Paper, error: str) -> Score:
        return Score(paper.id, paper.version, None, None, "", "unscored", error=error)


class FreshScoringTask(ScoringTask):
    """A forced rescore: cached scores are not used (the model is asked again, and its new
    answers replace them)."""

    def from_row(self, paper: Paper, row: ScoreRow) -> Score | None:
        return None


def papers_schema(name: str, fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The strict response format of a task whose reply is `{"papers": [{...}, ...]}`, each
    item holding exactly `fields` (a JSON schema per field)."""
    item = {"type": "object", "properties": fields, "required": list(fields),
            "additionalProperties": False}
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": {
        "type": "object", "properties": {"papers": {"type": "array", "items": item}},
        "required": ["papers"], "additionalProperties": False}}}


RESPONSE_SCHEMA = papers_schema("paper_scores", {
    "id": {"type": "string"},
    "relevance": {"type": "integer", "minimum": 1, "maximum": 10},
    "novelty": {"type": "integer", "minimum": 1, "maximum": 10},
    "reason": {"type": "string"},
})
