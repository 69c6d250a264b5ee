"""What every export format needs from a paper, worked out once: names split into family and
given, the year and date, the links and the arXiv identifiers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperterm.models import Paper
from paperterm.outputs.bibtex.citekeys import arxiv_date
from paperterm.outputs.bibtex.entry import bare_doi
from paperterm.outputs.bibtex.names import clean, parse

_SPACE = re.compile(r"\s+")


def one_line(text: str | None) -> str:
    """Collapse every run of whitespace (newlines too) into one space."""
    return _SPACE.sub(" ", text or "").strip()


@dataclass(frozen=True)
class Person:
    """An author as reference managers want one: family + given, or a literal (a team)."""

    family: str
    given: str = ""
    literal: str = ""

    @property
    def display(self) -> str:
        return self.literal or " ".join(p for p in (self.given, self.family) if p)


def people(paper: Paper) -> list[Person]:
    out: list[Person] = []
    for raw in paper.authors:
        name = parse(raw)
        if name.corporate or not name.last:
            out.append(Person("", "", clean(raw) or one_line(raw)))
            continue
        family = f"{name.last}, {name.jr}" if name.jr else name.last
        out.append(Person(family, name.first))
    return out


@dataclass(frozen=True)
class Record:
    """One paper, ready for any format."""

    paper: Paper
    key: str
    authors: list[Person]
    year: int | None
    month: int | None

    @property
    def date(self) -> str:
        """ISO date of first submission when known, else YYYY-MM, else ""."""
        if self.paper.published and re.match(r"\d{4}-\d{2}-\d{2}", self.paper.published):
            return self.paper.published[:10]
        if self.year and self.month:
            return f"{self.year:04d}-{self.month:02d}"
        return str(self.year or "")

    @property
    def date_parts(self) -> list[int]:
        parts = [int(x) for x in self.date.split("-") if x]
        return parts or []

    @property
    def doi(self) -> str:
        """The paper's DOI, else arXiv's own DataCite DOI."""
        return bare_doi(self.paper.doi) or f"10.48550/arXiv.{self.paper.id}"

    @property
    def title(self) -> str:
        return one_line(self.paper.title)

    @property
    def abstract(self) -> str:
        return one_line(self.paper.abstract)

    @property
    def eprint(self) -> str:
        return f"arXiv:{self.paper.versioned_id}"


def record(paper: Paper, key: str) -> Record:
    year, month = arxiv_date(paper)
    return Record(paper=paper, key=key, authors=people(paper), year=year, month=month)
