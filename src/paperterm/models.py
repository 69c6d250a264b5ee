"""Plain data types shared by every layer."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from paperterm.arxiv_id import bare_id

__all__ = ["ANNOUNCE_TYPES", "Day", "Paper", "Topic", "bare_id"]

ANNOUNCE_TYPES = ("new", "cross", "replace", "replace-cross")


@dataclass(frozen=True)
class Paper:
    """One arXiv paper as announced (one version of it)."""

    id: str  # without version, e.g. "2602.20175"
    version: int | None  # None when the listing did not say
    title: str
    authors: tuple[str, ...]
    abstract: str
    categories: tuple[str, ...]  # primary first
    primary_category: str
    announce_type: str = "new"
    doi: str | None = None
    journal_ref: str | None = None
    comment: str | None = None
    published: str | None = None  # ISO date of first submission, when known

    @property
    def versioned_id(self) -> str:
        return f"{self.id}v{self.version}" if self.version else self.id

    @property
    def abs_url(self) -> str:
        return f"https://arxiv.org/abs/{self.id}"

    @property
    def pdf_url(self) -> str:
        return f"https://arxiv.org/pdf/{self.versioned_id}"

    @property
    def first_author(self) -> str:
        if not self.authors:
            return ""
        extra = len(self.authors) - 1
        return f"{self.authors[0]} +{extra}" if extra else self.authors[0]

    @classmethod
    def restored(cls, **fields: Any) -> Paper:
        """A paper read back from the cache (checked when it was saved), every field given,
        set as it is: the frozen dataclass's checked __init__ took a quarter of the time to
        read a day of 5,000 papers, on every start."""
        if fields.keys() != _PAPER_FIELDS:
            raise TypeError(f"Paper.restored needs every field, got {sorted(fields)}")
        paper = object.__new__(cls)
        paper.__dict__.update(fields)
        return paper


_PAPER_FIELDS = frozenset(Paper.__dataclass_fields__)


@dataclass(frozen=True)
class Topic:
    """A research profile that papers are judged against."""

    name: str
    description: str
    keywords: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    source: str = "built-in"  # file it came from, "built-in" or "ad-hoc"
    adhoc: bool = False
    follow: tuple[str, ...] = ()  # followed authors (not criteria: not in the fingerprint)
    foundational: bool = False  # favour foundational work over applications (local ranking)
    # how its text was understood (topics/understand.py); empty: the ranking reads the
    # description's "Relevant: a; b Not relevant: c" parts itself (the built-in topics)
    areas: tuple[str, ...] = ()  # closeness is measured to the closest
    turned_down: tuple[str, ...] = ()  # closeness to these lowers a paper
    phrases: tuple[str, ...] = ()  # matched like keywords, unless common (local ranking)

    @property
    def criteria_text(self) -> str:
        """Everything a scorer reads about the topic, in a stable form."""
        parts = [
            f"Topic: {self.name}",
            f"Description: {self.description.strip()}",
            "Keywords: " + ", ".join(self.keywords),
            "Exclude: " + ", ".join(self.exclude),
        ]
        if self.areas:
            parts.append("Areas: " + "; ".join(self.areas))
        if self.turned_down:
            parts.append("Turned down: " + "; ".join(self.turned_down))
        if self.phrases:
            parts.append("Phrases: " + ", ".join(self.phrases))
        if self.foundational:
            parts.append("Prefer: foundational work (theory, methods, analysis) over applications")
        return "\n".join(parts)

    @property
    def fingerprint(self) -> str:
        """Stable hash of the criteria: a changed description invalidates cached scores."""
        return hashlib.sha256(self.criteria_text.encode("utf-8")).hexdigest()[:16]


@dataclass
class Day:
    """A loaded set of papers plus what the user should be told about it."""

    papers: list[Paper]
    label: str  # e.g. "2026-02-25", "query: mixture of experts"
    day: date | None = None
    source: str = "rss"  # rss | cache | sample | feed | query | api
    approximate: bool = False
    notices: list[str] = field(default_factory=list)
    # the `--date`/`--query` asked for could not be loaded: what is shown instead, and why
    instead: str = ""
    # today's feed held no announcement (weekend, holiday): why; an older day is shown
    no_announcement: str = ""
    paper_days: dict[str, str] = field(default_factory=dict)  # id -> day, in multi-day views

    @property
    def flags(self) -> list[str]:
        out = []
        if self.source == "sample":
            out.append("sample")
        if self.source == "cache":
            out.append("cached")
        if self.approximate:
            out.append("approximate")
        return out
