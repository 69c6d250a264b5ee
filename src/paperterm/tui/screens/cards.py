"""Quick triage: the day's unseen papers shown, one card at a time with the full abstract.

`*` stars, `d` says not interested, `b` saves to the .bib file (each goes on to the next
card and marks the paper seen), `space` leaves it for later (unseen), `backspace` goes
back a card, `esc` returns to the list with its cursor on the last card's paper. A thin
screen over the day screen: the marks go through the reader's one marks service (via the
day screen's `PaperActions`), so the list shows them at once; the card is the day's
`Preview`, expanded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen

from paperterm.day.listing import Entry
from paperterm.day.model import DayChange
from paperterm.tui.bindings import CARD_KEYS, bindings
from paperterm.tui.footer import FittingFooter
from paperterm.tui.notices import NoticeLine
from paperterm.tui.preview import Preview
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from paperterm.day.model import DayModel
    from paperterm.tui.screens.paper_actions import PaperActions
    from paperterm.tui.screens.triage import Triage


class CardDay(Protocol):
    """The day screen, as the cards use it: its model, topic and session, its triage (seen
    marks) and its paper actions (star, not interested, save)."""

    model: DayModel  # its topic and session too
    triage: Triage
    papers: PaperActions
    FOOTER_WIDE: int


class Deck(Protocol):
    """Where a deck of cards comes from, when it is not the list's unseen papers (the unsure
    queue, screens/unsure.py): its title, what the header adds, and each answer given."""

    title: str

    def status(self) -> str:
        """What the header says of the deck ("5 answers so far")."""

    def answered(self, cards: TriageCards, entry: Entry, answer: str) -> None:
        """`entry` was starred, saved or turned down ("starred", "saved", "dismissed")."""


class CardHeader(NoticeLine):
    """ "Quick triage · 12 of 40 · moe · 2026-02-25 · 2★ 1✗ 3 later" (or a notice)."""

    def __init__(self, cards: TriageCards) -> None:
        super().__init__(id="card-header")
        self.cards = cards

    def normal(self) -> Text:
        c = self.cards
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f" {c.source.title if c.source else 'Quick triage'} ", style="bold reverse")
        where = min(c.at + 1, len(c.deck))
        out.append(f"  {where} of {len(c.deck)}", style="bold")
        if c.source is not None:
            out.append(f"  ·  {c.source.status()}", style="bold")
        out.append(f"  ·  {one_line(c.day.model.topic.name)}"
                   f"  ·  {one_line(c.day.model.session.day.label)}")
        starred = sum(e.starred for e in c.deck)
        dismissed = sum(e.dismissed for e in c.deck)
        out.append(f"  ·  {starred}★ {dismissed}✗ {len(c.later)} later")
        return out


class TriageCards(Screen[Entry | None]):
    """One card per paper of `deck`, starting at `start`; dismissed with the last card's
    entry (the list puts its cursor there)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(CARD_KEYS)

    def __init__(self, day: CardDay, deck: list[Entry], start: int = 0,
                 source: Deck | None = None) -> None:
        super().__init__()
        self.day = day
        self.deck = deck
        self.at = start
        self.source = source  # None: the list's unseen papers
        self.later: set[str] = set()
        self._stop_observing = day.model.subscribe(self._marks_changed)

    def compose(self) -> ComposeResult:
        yield CardHeader(self)
        yield Preview(id="card", topic=lambda: self.day.model.topic.name)
        yield FittingFooter(compact=self.app.size.width < self.day.FOOTER_WIDE)

    @property
    def card(self) -> Preview:
        return self.query_one("#card", Preview)

    @property
    def current(self) -> Entry | None:
        return self.deck[self.at] if self.at < len(self.deck) else None

    def on_mount(self) -> None:
        card = self.card
        card.keep_expanded = True  # the full abstract
        card.empty_message = self._end_message()
        self.set_focus(card)  # arrows and page keys scroll a long card
        self._show()

    def on_unmount(self) -> None:
        self._stop_observing()

    def _end_message(self) -> str:
        n = len(self.deck)
        return (f"All {n} card{'s' * (n != 1)} done ({len(self.later)} left for later). "
                "esc returns to the list; backspace goes back a card.")

    def _show(self) -> None:
        card = self.card
        card.empty_message = self._end_message()
        card.show(self.current, expanded=True)
        self.query_one(CardHeader).refresh()

    def _marks_changed(self, change: DayChange) -> None:
        if change.state and not change.fields and "topic" not in change.state:
            return  # the run's progress, the session: nothing a card shows
        if self.is_attached and self.is_mounted:
            self._bring_back(change)
            self._show()  # a mark given here, undone, or given elsewhere

    def _bring_back(self, change: DayChange) -> None:
        """A star or "not interested" taken back (ctrl+z) on a card already passed: that
        card shows again, to be answered anew."""
        if not change.fields & {"starred", "dismissed"}:
            return
        back = [i for i, e in enumerate(self.deck[: self.at]) if e.id in change.ids
                and not ("starred" in change.fields and e.starred)
                and not ("dismissed" in change.fields and e.dismissed)]
        if back:
            self.at = back[-1]

    def replace_rest(self, rest: list[Entry]) -> None:
        """The cards after this one are `rest` from now on (those shown, this one included,
        stay: a card is never swapped under the reader's eyes)."""
        keep = self.deck[: self.at + 1]
        kept = {e.id for e in keep}
        self.deck[:] = keep + [e for e in rest if e.id not in kept]
        self._show()

    def _answered(self, entry: Entry, answer: str) -> None:
        if self.source is not None:
            self.source.answered(self, entry, answer)

    def _next(self, *, seen: bool = True) -> None:
        e = self.current
        if e is None:
            return
        if seen:
            self.later.discard(e.id)
            self.day.triage.mark_seen([e])
        self.at += 1
        self._show()

    def action_star(self) -> None:
        e = self.current
        if e is not None:
            if not e.starred:
                self.day.papers.toggle_star(e, say=False)
            self._next()
            self._answered(e, "starred")

    def action_not_interested(self) -> None:
        e = self.current
        if e is not None:
            if not e.dismissed:
                self.day.papers.not_interested(e)
            self._next()
            self._answered(e, "dismissed")

    def action_save(self) -> None:
        e = self.current
        if e is not None:
            self.day.papers.save_entries([e])
            self._next()
            self._answered(e, "saved")

    def action_later(self) -> None:
        e = self.current
        if e is not None:
            self.later.add(e.id)
            self._next(seen=False)

    def action_back(self) -> None:
        if self.at > 0:
            self.at -= 1
            self._show()

    def action_done(self) -> None:
        last = self.current or (self.deck[-1] if self.deck else None)
        self.dismiss(last)
