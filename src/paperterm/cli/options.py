"""Everything the command line said, as one typed object (no probing of argparse namespaces)."""

from __future__ import annotations

import argparse
import datetime
from dataclasses import dataclass, field, fields
from datetime import date
from pathlib import Path
from typing import Any

from paperterm.settings import declared


@dataclass
class Options:
    """Parsed arguments; None (or False) means "not given": config and defaults apply."""

    command: str = "tui"
    # loading
    config: str | None = None
    topic: str | None = None
    feed: Path | None = None
    date: date | None = None
    query: str | None = None
    sample: bool = False
    since: datetime.date | None = None  # `date` is the field above here
    starred_since: datetime.date | None = None
    categories: str | None = None
    max_results: int | None = None
    offline: bool = False
    # scoring: the flags declared in paperterm.settings, by name
    scoring: dict[str, Any] = field(default_factory=dict)
    # bibtex and display
    bib: Path | None = None
    unicode: bool = False
    theme: str | None = None
    # subcommands
    json: bool = False
    format: str = "md"
    min_relevance: int | None = None
    output: str | None = None
    ids: list[str] = field(default_factory=list)
    starred: bool = False
    update: bool = False
    path: bool = False
    init: bool = False
    # the library (issue 11)
    day: datetime.date | None = None
    tag: str | None = None
    whole_day: bool = False  # export --all: every paper of the day
    all_papers: bool = False  # digest --all: every paper, whole abstracts
    notes: bool = False
    terms: list[str] = field(default_factory=list)
    limit: int = 20
    note_text: str | None = None
    tag_list: str | None = None
    library_action: str | None = None
    topics_action: str | None = None  # topics show|new
    topic_text: str | None = None  # topics show NAME|TEXT, topics new NAME
    from_text: str | None = None  # topics new --from-text FILE|-
    file: str | None = None
    shell: str | None = None  # completions
    names: str | None = None  # completions --names (what the scripts call back)
    send: bool = False  # digest --send
    force: bool = False  # digest --send --force
    collection: str | None = None  # zotero --collection
    refresh: bool = False  # fetch today's feed again even if fetched today
    # summaries and doctor (issue 13)
    summaries: int | None = None
    language: str | None = None
    no_request: bool = False
    web: bool = False  # zotero --web: the zotero.org library
    desktop: bool = False  # zotero --desktop: the running Zotero app
    resend: bool = False  # zotero --resend: papers sent to that library before go again
    zotero: bool = False  # learn --zotero
    enrich_sources: str | None = None  # enrich --source
    rescore: bool = False  # score --rescore: ask the model again, cached scores ignored
    gold: str | None = None  # eval --gold FILE: a day's picks instead of the user's labels
    curve: bool = False  # eval --curve: the learned ranking's learning curve

    @classmethod
    def from_namespace(cls, ns: argparse.Namespace) -> Options:
        given = vars(ns)
        scoring = {d.name: given[d.name] for d in declared() if given.get(d.name) is not None}
        values = {f.name: given[f.name] for f in fields(cls)
                  if f.name != "scoring" and given.get(f.name) is not None}
        return cls(**values, scoring=scoring)

    @property
    def category_list(self) -> list[str] | None:
        """--categories as a list, None when not given."""
        if not self.categories:
            return None
        return [c.strip() for c in self.categories.split(",") if c.strip()]
