"""Untrusted text (titles, authors, abstracts, model reasons) made safe to draw.

Everything a paper or a model says is shown literally: never parsed as Rich markup (only
`rich.text.Text(...)` objects are built from it), and stripped of what `paperterm.text.hygiene`
calls unsafe (escape sequences, control, bidi and zero-width characters; newlines kept, tabs
become spaces). TeX is shown as Unicode (`tex`, see `paperterm.text.texrender`).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from paperterm.text.hygiene import clean_line, clean_text


def clean(value: object) -> str:
    """`paperterm.text.hygiene.clean_text`: unsafe characters removed, newlines kept."""
    return clean_text(value)


def one_line(value: object) -> str:
    """`paperterm.text.hygiene.clean_line`: `clean`, and whitespace runs collapsed to one space."""
    return clean_line(value)


def safe(value: object, style: str | Style = "") -> Text:
    """A Text that shows `value` literally (no markup, no escapes)."""
    return Text(clean(value), style=style)


def tex(value: str) -> str:
    """Titles, authors and abstracts with their TeX shown as Unicode
    (`paperterm.text.texrender.tex_to_unicode`: accents, markup, whole math spans or none)."""
    from paperterm.text.texrender import tex_to_unicode

    return tex_to_unicode(value)
