"""RIS (EndNote, Zotero, Mendeley, JabRef): one tagged record per paper."""

from __future__ import annotations

from collections.abc import Sequence

from paperterm.outputs.exports.record import Record, one_line


def _line(tag: str, value: str) -> str:
    return f"{tag}  - {one_line(value)}"


def render_ris(records: Sequence[Record]) -> str:
    out: list[str] = []
    for r in records:
        p = r.paper
        out.append(_line("TY", "JOUR" if p.journal_ref else "UNPB"))
        out.append(_line("ID", r.key))
        for person in r.authors:
            name = person.literal or (f"{person.family}, {person.given}" if person.given
                                      else person.family)
            out.append(_line("AU", name))
        out.append(_line("TI", r.title))
        if r.year:
            out.append(_line("PY", str(r.year)))
        if r.date:
            out.append(_line("DA", r.date.replace("-", "/")))
        if p.journal_ref:
            out.append(_line("JO", p.journal_ref))
        out.append(_line("PB", "arXiv"))
        out.append(_line("AN", r.eprint))
        out.append(_line("DO", r.doi))
        out.append(_line("UR", p.abs_url))
        out.append(_line("L1", p.pdf_url))
        for cat in p.categories:
            out.append(_line("KW", cat))
        if r.abstract:
            out.append(_line("AB", r.abstract))
        note = f"{r.eprint} [{p.primary_category}]" if p.primary_category else r.eprint
        if p.comment:
            note += f" {one_line(p.comment)}"
        out.append(_line("N1", note))
        out.append("ER  - ")
        out.append("")
    return "\n".join(out)
