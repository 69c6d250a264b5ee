"""`v` on the day screen: quick triage, one card per unseen paper shown (screens/cards.py),
back at the last card's paper. A controller held by the day screen."""

from __future__ import annotations

from paperterm.day.listing import Entry
from paperterm.tui.screens.day_view import DayController, DayView


class QuickTriage(DayController):
    def open(self) -> None:
        from paperterm.tui.screens.cards import TriageCards

        view = self.view
        deck = [e for e in view.model.shown if not e.seen]
        if not deck:
            self._say("No unseen paper in the list to triage (f filters, u finds unseen "
                      "papers, esc clears the search)", timeout=5)
            return
        current = view.current
        start = deck.index(current) if current in deck else 0
        view.app.push_screen(TriageCards(view, deck, start),  # type: ignore[arg-type]
                             self._closed)

    def _closed(self, last: Entry | None) -> None:
        back_at(self.view, last)


def back_at(view: DayView, last: Entry | None) -> None:
    """The list's cursor on the last card's paper, once the cards close."""
    if last is None or not view.alive:
        return
    shown = view.model.shown
    if last in shown:
        view.table.moved_by_user = True
        view.table.move_to(shown.index(last))
