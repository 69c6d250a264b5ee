"""The day screen's filters: the `/` search box (whole words, "a phrase", prefix*) and the
filter panel (`f`). A controller held by the day screen; the filters themselves are the day
model's (`DayModel.set_filters`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual.actions import SkipAction
from textual.widgets import Input

from paperterm.day.listing import FilterState

if TYPE_CHECKING:
    from paperterm.tui.screens.day_view import DayView


class Filtering:
    def __init__(self, view: DayView) -> None:
        self.view = view
        self.model = view.model

    def set_filters(self, filters: FilterState) -> None:
        """Show what `filters` let through (the list repaints when they changed)."""
        if self.view.alive:
            self.model.set_filters(filters)
        else:
            self.model.filters = filters

    def search_changed(self, text: str) -> None:
        self.set_filters(replace(self.model.filters, text=text))

    def start_search(self) -> None:
        view = self.view
        if isinstance(view.focused, Input):  # a priority binding: "/" typed into a text box
            view.focused.insert_text_at_cursor("/")
            return
        view.search.display = True
        view.run_worker(self._index_for_search, thread=True, exclusive=True, group="index")
        # focus now, not later (Widget.focus defers): keys typed right after "/" are queued
        # already and must land in the search box, not trigger list bindings
        view.set_focus(view.search)

    def _index_for_search(self) -> None:
        """Build every paper's search words off the UI thread while the first word is typed."""
        for e in list(self.model.entries):
            e.search  # noqa: B018 - computed and kept on first access

    def submit_search(self) -> None:
        """enter in the search box: keep the filter, back to the list (at once, not deferred)."""
        view = self.view
        search = view.search
        if view.focused is not search:
            raise SkipAction()
        if not search.value.strip():
            search.display = False
        view.set_focus(view.table)

    def clear_search(self) -> None:
        view = self.view
        search = view.search
        search.display = False
        if search.value:
            search.value = ""
        self.set_filters(replace(self.model.filters, text=""))
        view.set_focus(view.table)

    def open_filters(self) -> None:
        from paperterm.tui.filters import FilterScreen  # on first use: not on the start path

        def done(state: FilterState | None) -> None:
            if state is not None:
                self.set_filters(replace(state, text=self.model.filters.text))

        from paperterm.day.listing import filter_entries

        entries = self.model.entries
        self.view.app.push_screen(FilterScreen(
            self.model.filters, self.model.categories,
            lambda state: len(filter_entries(entries, state)), len(entries)), done)
