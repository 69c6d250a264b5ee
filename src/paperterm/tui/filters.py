"""`f`: the filter panel (minimum relevance, categories, announce types, unseen, starred,
with code). `enter` applies (space ticks), and the panel counts the papers the filters as
set would leave, as they change."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, SelectionList, Static

from paperterm.day.listing import FilterState
from paperterm.models import ANNOUNCE_TYPES

LISTS_MAX = 14  # rows of the category and type lists when the terminal has room
LISTS_MIN = 4
OTHER_ROWS = 19  # the panel's rows besides the lists, borders and margins included


class CategoryList(SelectionList[str]):
    """The categories: `o` keeps only the one under the cursor, `n` none."""

    BINDINGS = [  # noqa: RUF012
        Binding("o", "only_this", "Only this"),
        Binding("n", "none", "None"),
    ]

    def action_only_this(self) -> None:
        i = self.highlighted
        if i is not None:
            self.deselect_all()
            self.select(self.get_option_at_index(i).value)

    def action_none(self) -> None:
        self.deselect_all()


class FilterScreen(ModalScreen[FilterState | None]):
    """Edits every filter but the text one; returns the new state (None: cancelled).
    `count`: how many papers a state leaves (of `total`), shown live."""

    # parsed when the panel first opens, not before the reader's first paint
    DEFAULT_CSS = """
    FilterScreen { align: center middle; background: $background; }
    #filter-box {
        width: 84; max-width: 100%; height: auto; max-height: 95%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    #filter-title { text-style: bold; }
    #filter-count { margin-bottom: 1; }
    .filter-row { height: auto; margin-bottom: 1; }
    .filter-row Label { padding: 1 1 0 0; }
    #min-relevance { width: 12; }
    #filter-lists { height: 14; margin-bottom: 1; }
    #categories, #types {
        width: 1fr; height: 100%; border: round $primary 50%;
        border-title-color: $pt-accent; border-subtitle-color: $pt-muted;
    }
    .filter-row Button { margin-right: 2; }
    .filter-row:last-child { margin-bottom: 0; }  /* no scrollbar at 80x24 */
    .filter-row Checkbox { padding: 0; }  /* the four side by side fit 80 columns */
    """

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "cancel", "Cancel", id="filters_cancel"),
        Binding("ctrl+s", "apply", "Apply", id="filters_apply"),
        # priority: on a checkbox or a list, enter applies too (space ticks)
        Binding("enter", "enter", "Apply", priority=True, show=False),
    ]

    def __init__(self, state: FilterState, categories: list[str],
                 count: Callable[[FilterState], int] | None = None, total: int = 0) -> None:
        super().__init__()
        self.state = state
        self.categories = categories
        self.count = count
        self.total = total

    def compose(self) -> ComposeResult:
        s = self.state
        with VerticalScroll(id="filter-box"):
            yield Label("Filters  (enter: apply, space: tick, esc: cancel)", id="filter-title")
            yield Static(id="filter-count")
            with Horizontal(classes="filter-row"):
                yield Label("Minimum relevance (0-10, empty: any) ")
                yield Input(
                    value="" if s.min_relevance is None else str(s.min_relevance),
                    placeholder="any",
                    type="integer",
                    max_length=2,
                    id="min-relevance",
                )
            with Horizontal(classes="filter-row"):
                yield Checkbox("Unseen only", s.unseen_only, id="unseen")
                yield Checkbox("New to me", s.new_only, id="new")
                yield Checkbox("Starred only", s.starred_only, id="starred")
                yield Checkbox("With code only", s.code_only, id="code")
            with Horizontal(id="filter-lists"):
                yield CategoryList(
                    *[(c, c, c in s.categories) for c in self.categories],
                    id="categories",
                )
                yield SelectionList[str](
                    *[(t, t, t in s.announce_types) for t in ANNOUNCE_TYPES],
                    id="types",
                )
            with Horizontal(classes="filter-row"):
                yield Button("Apply", variant="primary", id="apply")
                yield Button("Clear all", id="clear")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        if not self.query("#categories"):  # closed before its fields came (keys typed fast)
            return
        categories = self.query_one("#categories", SelectionList)
        categories.border_title = "Categories (any of)"
        categories.border_subtitle = "o: only this · n: none"
        self.query_one("#types", SelectionList).border_title = "Announce types"
        self._fit_lists(self.app.size.height)
        self.show_count()
        self.query_one("#min-relevance", Input).focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_lists(event.size.height)

    def _fit_lists(self, height: int) -> None:
        """The lists as tall as the terminal allows, so the checkboxes and buttons stay on
        screen at 80x24."""
        lists = self.query("#filter-lists")
        if lists:
            lists.first().styles.height = max(LISTS_MIN, min(LISTS_MAX, height - OTHER_ROWS))

    def show_count(self) -> None:
        """How many papers the filters as set now leave."""
        if self.count is None or not self.query("#filter-count"):
            return
        n = self.count(self.collect())
        self.query_one("#filter-count", Static).update(
            f"{n} of {self.total} papers match" + ("" if n else ": nothing would show"))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.show_count()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.show_count()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        self.show_count()

    def action_enter(self) -> None:
        """enter: a focused button does what it says; anywhere else, apply."""
        focused = self.focused
        if isinstance(focused, Button):
            focused.press()
        else:
            self.action_apply()

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
