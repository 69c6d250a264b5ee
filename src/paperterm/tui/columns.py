"""The paper list's columns: which show, how wide, where. The title gets the width: no
empty novelty column, short type and marks, the category as wide as its longest name (on a
narrow screen a long one shows as its archive and "…"), the title at least 45% of the width."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rich.cells import cell_len, set_cell_size

from paperterm.day.listing import Entry


class Column(NamedTuple):
    key: str
    label: str
    width: int | None  # None: takes the remaining width
    sort: str | None  # sort key a header click selects
    right: bool = False
    short: str = ""  # the label when the long one does not fit


COLUMNS: tuple[Column, ...] = (
    Column("rel", "Rel", 4, "relevance", right=True),
    Column("nov", "Nov", 4, "novelty", right=True),
    Column("day", "Day", 5, "order"),  # views of several days only
    Column("title", "Title", None, "title"),
    Column("author", "First author", 20, None, short="Author"),
    Column("cat", "Category", 9, "category", short="Cat"),
    Column("type", "Ty", 3, "order"),
    Column("sig", "Signal", 10, "upvotes"),  # enrichment: only when the day has some
    Column("marks", "Mark", 5, None),
)
GAP = 1
MIN_TITLE = 16
WANT_TITLE = 28  # below this (or 45% of the width) the author column narrows, then columns go
TITLE_SHARE = 45  # percent of the width the title wants
MIN_AUTHOR = 12
DROP_ORDER = ("type", "sig", "author", "cat")  # what a narrow screen gives up first
REVISED_WIDTH = 6  # " v1→v2" after the marks
TYPE_SHORT = {"new": "n", "cross": "x", "replace": "r", "replace-cross": "rx"}


@dataclass(frozen=True)
class Shape:
    """What the papers shown need: a novelty column (only if some paper has, or will get, a
    novelty score), a category column as wide as the longest category name (or, where the
    title needs the room, as its longest archive with "…": `cat_narrow`), the Signal
    column (enrichment cached for the day) and the day column (a view of several days)."""

    novelty: bool = True
    cat_width: int = 9
    cat_narrow: int | None = None  # None: as cat_width
    signals: bool = False
    days: bool = False
    revised: bool = False  # a kept paper revised: the mark column shows "v1→v2" too


CAT_MAX = 10  # on a narrow screen a longer category shows as "cond-mat…"


def category_label(name: str, width: int) -> str:
    """The category in `width` cells: whole when it fits, else its archive (the part before
    the dot) and "…", never a name silently shortened ("astro-ph.IM" is not "astro-ph");
    the preview shows it in full."""
    if cell_len(name) <= width:
        return name
    archive = name.split(".", 1)[0]
    if archive != name and cell_len(archive) + 1 <= width:
        return archive + "…"
    return fit(name, width)


def _narrow(name: str) -> int:
    """The fewest cells `category_label` shows `name` in without cutting a word."""
    if cell_len(name) <= CAT_MAX or "." not in name:
        return cell_len(name)
    return cell_len(name.split(".", 1)[0]) + 1


def shape_of(entries: Sequence[Entry], signals: bool = False, days: bool = False) -> Shape:
    novelty = any(e.novelty is not None or e.status in ("queued", "failed") for e in entries)
    names = {e.paper.primary_category for e in entries}
    longest = max((cell_len(n) for n in names), default=3)
    narrow = max((_narrow(n) for n in names), default=3)
    revised = any(e.revision is not None for e in entries)
    return Shape(novelty=novelty, cat_width=max(3, longest), cat_narrow=max(3, narrow),
                 signals=signals, days=days, revised=revised)


def layout(width: int, shape: Shape = Shape()) -> list[tuple[Column, int, int]]:
    """(column, x, width) for a given total width; the title column stretches."""
    want = max(WANT_TITLE, -(-TITLE_SHARE * width // 100))
    hidden = {k for k, shown in (("nov", shape.novelty), ("sig", shape.signals),
                                 ("day", shape.days)) if not shown}
    active = [c for c in COLUMNS if c.key not in hidden]

    cat = shape.cat_width

    def fixed_width(c: Column) -> int:
        if c.key == "marks" and shape.revised:
            return (c.width or 0) + REVISED_WIDTH
        return cat if c.key == "cat" else c.width or 0

    narrow = shape.cat_narrow if shape.cat_narrow is not None else cat
    steps = ("narrow-cat",) if narrow < cat else ()
    for victim in (*steps, *DROP_ORDER, None):
        fixed = sum(fixed_width(c) for c in active if c.key != "author")
        room = width - fixed - GAP * (len(active) + 1)
        author = next((c for c in active if c.key == "author"), None)
        author_w = 0 if author is None else max(MIN_AUTHOR, min(author.width or 0,
                                                                room - want))
        title = room - author_w
        if title >= want or victim is None:
            break
        if victim == "narrow-cat":  # long categories as "cond-mat…" before a column goes
            cat = narrow
            continue
        active = [c for c in active if c.key != victim]
    title = max(MIN_TITLE, title)
    out = []
    x = GAP
    for c in active:
        w = title if c.width is None else author_w if c.key == "author" else fixed_width(c)
        out.append((c, x, w))
        x += w + GAP
    return out


def column_at(width: int, x: int, shape: Shape = Shape()) -> Column | None:
    for c, cx, w in layout(width, shape):
        if cx <= x < cx + w + GAP:
            return c
    return None


def fit(text: str, width: int) -> str:
    """Exactly `width` cells: padded, or cut with an ellipsis."""
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)
