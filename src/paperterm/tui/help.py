"""`?`: every binding, as currently mapped."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from paperterm.tui.bindings import ALL_KEYS, TEXTUAL_KEYS, display_keys, effective_keys


def help_table(keymap: dict[str, str]) -> Table:
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False, expand=True)
    table.add_column("Key", no_wrap=True, style="bold")
    table.add_column("Action")
    table.add_column(Text("[keys] name"), style="italic", no_wrap=True)
    keys, _ = effective_keys(keymap)
    for spec in ALL_KEYS:
        table.add_row(Text(display_keys(keys[spec.id])), Text(spec.help), Text(spec.id))
    for textual_keys, text in TEXTUAL_KEYS:
        table.add_row(Text(textual_keys), Text(text), Text(""))
    return table


class HelpScreen(ModalScreen[None]):
    # parsed when the screen first opens, not before the reader's first paint
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background; }
    #help-box {
        width: 96; max-width: 100%; height: 90%;
        scrollbar-gutter: stable;  /* the scrollbar gets its own column: it covers no key */
        border: round $primary; background: $surface; padding: 0 1;
    }
    #help-title { margin-bottom: 1; }
    #help-foot { margin-top: 1; color: $pt-muted; }
    """
    BINDINGS = [  # noqa: RUF012
        Binding("escape,question_mark", "dismiss", "Close", id="help_close"),
        Binding("j", "scroll_help(1)", "Down", show=False),
        Binding("k", "scroll_help(-1)", "Up", show=False),
        Binding("G,end", "scroll_end_help", "End", show=False),
        Binding("g,home", "scroll_start_help", "Start", show=False),
    ]

    def __init__(self, keymap: dict[str, str]) -> None:
        super().__init__()
        self.keymap = keymap
        self.table = help_table(keymap)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(Text("paperterm keys", style="bold"), id="help-title")
            yield Static(self.table, id="help-table")
            yield Static(
                Text(
                    "Remap in the config file:  [keys]  star = \"*\"  (several keys: \"a,b\").\n"
                    "Marks:  • unseen  ✗ not interested  ★ starred  ✓ saved to .bib  + marked.   "
                    "Scores:  … queued  ! failed (reason in the preview).   "
                    "j/k scroll, g/G start/end, esc closes."
                ),
                id="help-foot",
            )

    def action_scroll_help(self, lines: int) -> None:
        """j/k scroll the keys, as they move in the list."""
        box = self.query_one("#help-box", VerticalScroll)
        box.scroll_relative(y=lines, animate=False)

    def action_scroll_end_help(self) -> None:
        """G: to the last key, as in the list."""
        self.query_one("#help-box", VerticalScroll).scroll_end(animate=False)

    def action_scroll_start_help(self) -> None:
        """g: back to the first key."""
        self.query_one("#help-box", VerticalScroll).scroll_home(animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        if self.is_active:  # a second close key queued behind the first closes nothing
            self.dismiss(result)
