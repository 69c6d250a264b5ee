"""Markdown for Obsidian and friends: one note per paper (YAML front matter with id, authors,
date and tags; the abstract; links), or every paper in one file."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from paperterm.outputs.digest import md_escape
from paperterm.outputs.exports.record import Record


def _yaml(value: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(value, ensure_ascii=False)


def _tag(category: str) -> str:
    """Obsidian tags allow letters, digits, _, - and /: "cs.LG" -> "arxiv/cs-LG"."""
    return "arxiv/" + re.sub(r"[^A-Za-z0-9_-]", "-", category)


def note_name(r: Record) -> str:
    """The note's file name: the arXiv id, made safe ("hep-th/9901001" -> "hep-th_9901001")."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", r.paper.id) + ".md"


def _links(r: Record) -> list[str]:
    p = r.paper
    out = [f"- [arXiv {md_escape(p.versioned_id)}]({p.abs_url})", f"- [PDF]({p.pdf_url})",
           f"- [DOI {md_escape(r.doi)}](https://doi.org/{r.doi})"]
    return out


def render_note(r: Record) -> str:
    p = r.paper
    front = ["---", f"id: {_yaml(p.id)}"]
    if p.version:
        front.append(f"version: {p.version}")
    front.append(f"title: {_yaml(r.title)}")
    front.append("authors:")
    front += [f"  - {_yaml(a.display)}" for a in r.authors] or []
    if not r.authors:
        front[-1] = "authors: []"
    if r.date:
        front.append(f"date: {r.date}")
    if r.year:
        front.append(f"year: {r.year}")
    front.append("tags:")
    front += ["  - arxiv", *[f"  - {_tag(c)}" for c in p.categories]]
    front += [f"url: {_yaml(p.abs_url)}", f"pdf: {_yaml(p.pdf_url)}", f"doi: {_yaml(r.doi)}",
              f"citekey: {_yaml(r.key)}", "---", ""]
    body = [f"# {md_escape(r.title)}", "",
            f"**Authors:** {md_escape(', '.join(a.display for a in r.authors))}", "",
            "## Abstract", "", md_escape(r.abstract), "", "## Links", "", *_links(r), ""]
    return "\n".join(front + body)


def render_markdown(records: Sequence[Record]) -> str:
    """Every paper in one Markdown document (no front matter: it is one note per file)."""
    out = ["# arXiv papers", ""]
    for r in records:
        p = r.paper
        out += [f"## {md_escape(r.title)}", "",
                f"- **Authors:** {md_escape(', '.join(a.display for a in r.authors))}",
                f"- **arXiv:** {md_escape(p.versioned_id)} ({md_escape(p.primary_category)})"]
        if r.date:
            out.append(f"- **Date:** {r.date}")
        out += ["", md_escape(r.abstract), "", *_links(r), ""]
    return "\n".join(out)
