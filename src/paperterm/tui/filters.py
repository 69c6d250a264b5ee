"""`f`: the filter panel (minimum relevance, categories, announce types, unseen, starred,
with code)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, SelectionList

from paperterm.listing import FilterState
from paperterm.models import ANNOUNCE_TYPES


class FilterScreen(ModalScreen[FilterState | None]):
    """Edits every filter but the text one; returns the new state (None: cancelled)."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "cancel", "Cancel", id="filters_cancel"),
        Binding("ctrl+s", "apply", "Apply", id="filters_apply"),
    ]

    def __init__(self, state: FilterState, categories: list[str]) -> None:
        super().__init__()
        self.state = state
        self.categories = categories

    def compose(self) -> ComposeResult:
        s = self.state
        with VerticalScroll(id="filter-box"):
            yield Label("Filters  (enter or ctrl+s: apply, esc: cancel)", id="filter-title")
            with Horizontal(classes="filter-row"):
                yield Label("Minimum relevance (0-10, empty: any) ")
                yield Input(
                    value="" if s.min_relevance is None else str(s.min_relevance),
                    placeholder="any",
                    type="integer",
                    max_length=2,
                    id="min-relevance",
                )
            with Horizontal(id="filter-lists"):
                yield SelectionList[str](
                    *[(c, c, c in s.categories) for c in self.categories],
                    id="categories",
                )
                yield SelectionList[str](
                    *[(t, t, t in s.announce_types) for t in ANNOUNCE_TYPES],
                    id="types",
                )
            with Horizontal(classes="filter-row"):
                yield Checkbox("Unseen only", s.unseen_only, id="unseen")
                yield Checkbox("New to me", s.new_only, id="new")
                yield Checkbox("Starred only", s.starred_only, id="starred")
                yield Checkbox("With code only", s.code_only, id="code")
            with Horizontal(classes="filter-row"):
                yield Button("Apply", variant="primary", id="apply")
                yield Button("Clear all", id="clear")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        if not self.query("#categories"):  # closed before its fields came (keys typed fast)
            return
        self.query_one("#categories", SelectionList).border_title = "Categories (any of)"
        self.query_one("#types", SelectionList).border_title = "Announce types"
        self.query_one("#min-relevance", Input).focus()

    def collect(self) -> FilterState:
        raw = self.query_one("#min-relevance", Input).value.strip()
        try:
            min_rel = max(0, min(10, int(raw))) if raw else None
        except ValueError:
            min_rel = None
        return FilterState(
            text=self.state.text,
            min_relevance=min_rel,
            categories=frozenset(self.query_one("#categories", SelectionList).selected),
            announce_types=frozenset(self.query_one("#types", SelectionList).selected),
            unseen_only=self.query_one("#unseen", Checkbox).value,
            new_only=self.query_one("#new", Checkbox).value,
            starred_only=self.query_one("#starred", Checkbox).value,
            code_only=self.query_one("#code", Checkbox).value,
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_apply()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "apply":
            self.action_apply()
        elif event.button.id == "clear":
            self.dismiss(FilterState(text=self.state.text))
        else:
            self.action_cancel()

    def action_apply(self) -> None:
        # not for a key queued behind the one that closed the panel, nor before (or after)
        # its fields are there: keys mashed fast reached it without its lists
        if self.is_active and self.query("#categories"):
            self.dismiss(self.collect())

    def action_cancel(self) -> None:
        if self.is_active:
            self.dismiss(None)
