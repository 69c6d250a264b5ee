"""`V` on the day screen: the unsure queue (issue 30 §3). Quick triage's cards
(screens/cards.py) over the papers of the loaded day the learned model is least sure about
(`scoring.local.unsure`; without a learned model yet, the ranking's borderline band), where
a star or a "not interested" teaches it most. Each answer is a mark like any other (the
ranking learns from it at once, `PapertermApp.apply_marks`), is recorded for `paperterm
eval` (`settings.reader_state`), and asks for the queue again: the cards still to come are
the ones the retrained model is least sure about. A controller held by the day screen; the
queue is worked out by a worker (in the reader's ranking process: embedding and training
never hold the reader's interpreter lock) that reports through `UnsureFound`."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from paperterm.day.listing import Entry, sort_entries
from paperterm.services.ranking import LocalRanking
from paperterm.settings.reader_state import record_unsure_answer, unsure_answers
from paperterm.tui.scoring_worker import unsure_in_thread
from paperterm.tui.screens.day_view import DayController
from paperterm.tui.screens.quick_triage import back_at

if TYPE_CHECKING:
    from textual.worker import Worker

    from paperterm.tui.messages import UnsureFound
    from paperterm.tui.screens.cards import TriageCards
    from paperterm.tui.screens.day_view import DayView

TITLE = "Unsure queue"
HOW = {"learned": "the papers your learned ranking is least sure about",
       "borderline": "no learned model yet: the ranking's borderline band"}


class UnsureTriage(DayController):
    """Opens the unsure queue and keeps its cards the least sure ones as answers come."""

    title = TITLE

    def __init__(self, view: DayView) -> None:
        super().__init__(view)
        self._worker: Worker[Any] | None = None  # the search whose answer counts
        self._cards: TriageCards | None = None  # the open queue, refilled after an answer
        self.answers = 0  # given for the topic so far (all sessions), for the header

    def open(self) -> None:
        """Work out the queue (in the background); the cards open when it comes."""
        if not self.view.model.entries:
            self._say("No papers on this day to ask about.", timeout=5)
            return
        self._cards = None
        self._find()
        self._say("Unsure queue: finding the papers the ranking is least sure about…",
                  timeout=3)

    def _find(self) -> None:
        view = self.view
        entries = view.model.entries
        ranked = [e.id for e in sort_entries(entries, "relevance")]
        exclude = frozenset(e.id for e in entries if e.starred or e.saved or e.dismissed)
        where = LocalRanking(view.reader.ranking, self.session.db_path, self.session.open_store)
        self._worker = view.run_worker(
            partial(unsure_in_thread, view, [e.paper for e in entries], view.model.topic, where,
                    self.session.day.label, ranked, exclude),
            name="unsure", group="unsure", thread=True, exit_on_error=False)

    def found(self, message: UnsureFound) -> None:
        """The queue arrived: open the cards, or refill the ones still to come."""
        if message.worker is not self._worker or not self.view.alive:
            return  # a newer search replaced it, or the day is gone
        self._worker = None
        if message.notice:
            self._say(message.notice, "warning")
        by_id = self.view.model.by_id
        deck = [by_id[i] for i in message.ids if i in by_id]
        cards = self._cards
        if cards is not None:
            if cards.is_attached:
                cards.replace_rest(deck)
            return
        if not deck:
            self._say("Unsure queue: nothing left to ask (every paper of the day is starred, "
                      "saved or turned down).", timeout=5)
            return
        from paperterm.tui.screens.cards import TriageCards

        self.answers = len(unsure_answers(self.view.model.topic.name))
        self._cards = TriageCards(self.view, deck, 0, self)  # type: ignore[arg-type]
        self.view.app.push_screen(self._cards, self._closed)
        self._say(f"Unsure queue: {HOW.get(message.how, message.how)}", timeout=4)

    def status(self) -> str:
        n = self.answers
        return f"{n} answer{'s' * (n != 1)} so far"

    def answered(self, cards: TriageCards, entry: Entry, answer: str) -> None:
        """An answer teaches the ranking (the mark did); it is recorded for `eval`, and the
        cards still to come are asked for again, from the retrained model."""
        record_unsure_answer(self.view.model.topic.name, entry.id, answer)
        self.answers = len(unsure_answers(self.view.model.topic.name))
        if cards.current is not None:
            self._find()
        cards.query_one("#card-header").refresh()

    def _closed(self, last: Entry | None) -> None:
        self._cards = None
        self._worker = None
        back_at(self.view, last)
