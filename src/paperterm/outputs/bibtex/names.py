"""Author names as arXiv lists them ("First Last") -> BibTeX "von Last, Jr, First"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperterm.outputs.bibtex.latex import render, tex_to_unicode
from paperterm.outputs.bibtex.tables import fold_ascii

# Capitalised particles that start a surname when they are neither first nor last word:
# "Christopher De Sa", "Pascal Van Hentenryck", "Gioele La Manno" (but "De Cheng" is Cheng, De).
_PARTICLES = {"de", "del", "della", "der", "den", "des", "di", "da", "do", "dos", "du", "la",
              "le", "van", "von", "vander", "vanden", "ter", "ten", "zu", "af", "av"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
_CORPORATE = re.compile(r"\b(collaboration|consortium|team|group|project|society)\b", re.I)


@dataclass(frozen=True)
class Name:
    """A parsed personal name (Unicode; TeX accents already decoded)."""

    first: str
    last: str  # including particles: "van der Maaten", "De Sa"
    jr: str = ""
    corporate: bool = False

    @property
    def key_part(self) -> str:
        """Lowercase ASCII surname for citation keys: "vandermaaten"."""
        return re.sub(r"[^a-z0-9]", "", fold_ascii(self.last).lower())


def clean(raw: str) -> str:
    """Drop parenthesised affiliations and collapse whitespace: "Jane Doe (MIT)" -> "Jane Doe"."""
    text = tex_to_unicode(raw)
    prev = None
    while prev != text:
        prev, text = text, re.sub(r"\([^()]*\)", " ", text)
    text = text.split("(")[0]  # an unclosed "(affiliation"
    return re.sub(r"\s+", " ", text).strip(" ,;")


def parse(raw: str) -> Name:
    """Split an arXiv author name into first / last (with particles) / jr."""
    text = clean(raw)
    if _CORPORATE.search(text):
        return Name("", text, corporate=True)
    if "," in text:  # already "Last, First" or "Last, Jr, First"
        parts = [p.strip() for p in text.split(",")]
        if len(parts) >= 3:
            return Name(" ".join(parts[2:]), parts[0], parts[1])
        if parts[1].lower() in _SUFFIXES:  # "Martin Luther King, Jr."
            inner = parse(parts[0])
            return Name(inner.first, inner.last, parts[1])
        return Name(parts[1], parts[0])
    words = text.split(" ")
    jr = ""
    if len(words) > 2 and words[-1].lower() in _SUFFIXES:
        jr = words.pop()
    if len(words) == 1:
        return Name("", words[0], jr)
    start = len(words) - 1
    for i in range(1, len(words) - 1):
        w = words[i]
        if w[:1].islower() or w.lower() in _PARTICLES:
            start = i
            break
    return Name(" ".join(words[:start]), " ".join(words[start:]), jr)


def format_name(name: Name, *, unicode: bool = False) -> tuple[str, list[str], list[str]]:
    """BibTeX form "von Last, Jr, First" (TeX-safe), the characters that were lost and those
    kept with a T1-only accent (``Chrab{\\k{a}}szcz``)."""
    lost: list[str] = []
    t1: list[str] = []

    def tex(part: str) -> str:
        r = render(part, unicode=unicode)
        lost.extend(r.lost)
        t1.extend(r.t1)
        # a bare word "and" would split the name list; "others" alone means "et al."
        if re.search(r"(?i)(^|\s)and(\s|$)", r.text) or r.text.lower() == "others":
            return "{" + r.text + "}"
        return r.text

    if name.corporate:
        return "{" + render(name.last, unicode=unicode).text + "}", lost, t1
    parts = [tex(name.last)]
    if name.jr:
        parts.append(tex(name.jr))
    if name.first:
        parts.append(tex(name.first))
    elif name.jr:
        parts.append("")
    return ", ".join(parts), lost, t1
