"""The header line above the list: topic, day, how many papers show, filters, sort, scoring.

`HeaderInfo` is a snapshot of what the line says (`day_header`: of a day's model);
`header_text` lays it out for a width (a compact form when the long one does not fit,
keeping the scoring progress, tokens and cost).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text
from textual.reactive import reactive

from paperterm.day.listing import PROVISIONAL, SORT_LABELS, sort_arrow
from paperterm.services.scoring import RunSummary
from paperterm.text.hygiene import cut
from paperterm.tui.notices import NoticeLine
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from paperterm.day.model import DayModel
    from paperterm.models import Day, Topic


class HeaderInfo(NamedTuple):
    topic: str
    day: str
    flags: tuple[str, ...]
    shown: int
    total: int
    filters: tuple[str, ...]  # one phrase per active filter
    sort_key: str
    reverse: bool
    scoring: bool  # a run is under way
    summary: RunSummary | None  # its progress, or the last run's outcome
    scorer: str  # what ranks the list when no run has reported yet
    queued: int = 0
    scored: int = 0
    cached: int = 0
    failed: int = 0
    unseen: int = 0  # of the whole day, whatever the filters
    starred: int = 0
    marked: int = 0
    unsent: int = 0  # kept from the model by a budget, a cancel or a failure streak
    provisional: int = 0  # ranked by a local score standing in for the model's


def topic_label(topic: Topic) -> str:
    """The topic as the header names it: a free-text topic says so, on screen (a typo of a
    defined name never gets here: `topics.names.did_you_mean`)."""
    return f"{topic.name} (free text)" if topic.adhoc else topic.name


def day_header(model: DayModel, day: Day, topic: str) -> HeaderInfo:
    """What the header says of `day` as `model` shows it (its run's state too), scored
    against `topic`."""
    counts = {"queued": 0, "scored": 0, "cached": 0, "failed": 0, "unsent": 0,
              "provisional": 0}
    for e in model.entries:
        if e.status in counts:
            counts[e.status] += 1
        if e.status in PROVISIONAL and e.relevance is not None:
            counts["provisional"] += 1
    return HeaderInfo(
        topic=topic, day=day.label, flags=tuple(day.flags),
        shown=len(model.shown), total=len(model.entries),
        filters=tuple(model.filters.describe()), sort_key=model.sort_key,
        reverse=model.reverse, scoring=model.run.scoring, summary=model.run.summary,
        scorer=model.run.scorer_label, **counts, **model.triage_counts(),
    )


def _fmt_tokens(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def scoring_text(info: HeaderInfo, *, compact: bool = False) -> str:
    s = info.summary
    if info.scoring:
        if s and s.total:
            text = f"scoring {s.scored + s.cached + s.unscored}/{s.total}"
        else:
            text = f"scoring… {info.queued} queued"
    elif s is not None:
        # counted over the list: scores read from the cache before the run count too
        text = f"{info.scored} scored"
        if info.cached or not compact:  # a narrow screen keeps room for tokens and cost
            text += f", {info.cached} cached"
        if info.failed:
            text += f", {info.failed} failed"
        if info.unsent:
            text += f", {info.unsent} not sent"
        if info.provisional:
            text += f", {info.provisional} provisional (local)"
        if not compact:
            text = f"{s.model}: {text}"
    else:
        text = info.scorer
    if s is not None and (s.total_tokens or s.cost):
        sep = " · " if compact else "  ·  "
        text += f"{sep}{_fmt_tokens(s.total_tokens)} tokens"
        text += f"{sep}cost unknown" if s.cost is None else f"{sep}${s.cost:.4f}"
    return text


def triage_text(info: HeaderInfo, *, compact: bool = False) -> str:
    """"· 230 unseen 3★ 2 marked" (compact: " 230• 3★ 2+"); zero stars or marks are left
    out."""
    if not info.total:
        return ""
    if compact:
        parts = [f"{info.unseen}•"] + [f"{n}{c}" for n, c in ((info.starred, "★"),
                                                            (info.marked, "+")) if n]
        return " " + " ".join(parts)
    out = f"  ·  {info.unseen} unseen"
    if info.starred:
        out += f" {info.starred}★"
    if info.marked:
        out += f" {info.marked} marked"
    return out


def _header(info: HeaderInfo, *, compact: bool, topic: str | None = None) -> Text:
    sep = " · " if compact else "  ·  "
    out = Text(no_wrap=True, overflow="ellipsis")
    if not compact:
        out.append(" paperterm ", style="bold reverse")
        out.append("  topic ")
    else:
        out.append(" ")
    out.append(one_line(info.topic if topic is None else topic), style="bold")
    out.append(sep)
    out.append(one_line(info.day), style="bold")
    for flag in info.flags:
        out.append(f" [{flag}]", style="italic")
    out.append(f"{sep}{info.shown}/{info.total}{'' if compact else ' papers'}")
    out.append(triage_text(info, compact=compact))
    filters = " ".join(info.filters)
    if filters and not compact:
        out.append(sep + "filter: ", style="bold")
        out.append(one_line(filters))
    if not compact:
        arrow = sort_arrow(info.sort_key, info.reverse)
        out.append(f"{sep}sort {SORT_LABELS[info.sort_key]} {arrow}")
    out.append(sep)
    out.append(scoring_text(info, compact=compact))
    if filters and compact:  # last: on a narrow screen it is what gets cut
        out.append(sep + "filter: ", style="bold")
        out.append(one_line(filters))
    return out


def header_text(info: HeaderInfo, width: int | None = None) -> Text:
    """The header line; when `width` is too small for the long form, the compact one (the
    sort shows in the column titles anyway)."""
    full = _header(info, compact=False)
    if width is None or full.cell_len <= width:
        return full
    compact = _header(info, compact=True)
    if compact.cell_len > width:  # a long topic gives way first: the day, the counts and
        topic = _shorter_topic(info.topic,  # the filter stay
                               len(one_line(info.topic)) - (compact.cell_len - width))
        compact = _header(info, compact=True, topic=topic)
    if compact.cell_len > width:  # cut here, with an ellipsis: the widget would just crop
        compact.truncate(width, overflow="ellipsis")
    return compact


_FREE = " (free text)"
_TOPIC_MIN = 12  # letters of a topic's name kept, however narrow the screen


def _shorter_topic(topic: str, room: int) -> str:
    """`topic` in about `room` letters, cut with "…" (a free-text topic keeps saying so
    while its name keeps `_TOPIC_MIN` letters)."""
    topic = one_line(topic)
    if len(topic) <= room:
        return topic
    name, free = (topic[: -len(_FREE)], _FREE) if topic.endswith(_FREE) else (topic, "")
    if free and room - len(free) >= _TOPIC_MIN:
        return cut(name, room - len(free)) + free
    return cut(name, max(room, _TOPIC_MIN))


class TopBar(NoticeLine):
    """The header line, laid out for the width it has (a live notice shows instead)."""

    info: reactive[HeaderInfo | None] = reactive(None, always_update=True)

    def normal(self) -> Text:
        if self.info is None:
            return Text()
        return header_text(self.info, self.size.width or None)
