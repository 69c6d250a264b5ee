"""Every key binding, in one table: the bindings, the footer, the help screen and the command
palette are all built from it. Remap in the config file: `[keys]` with `action = "key"` (several
keys: "a,b"), e.g. `star = "*"`, `quit = "ctrl+q"`."""

from __future__ import annotations

import string
import unicodedata
from typing import NamedTuple

from textual.binding import Binding, BindingType


class KeySpec(NamedTuple):
    id: str  # the name used in [keys]
    keys: str  # default keys, Textual key names, comma separated
    action: str  # a day screen action, "app.<name>" for app-wide ones; for list keys,
    # the list's own action
    description: str  # footer / help
    help: str  # the longer line on the help screen and in the command palette
    show: bool = False  # in the footer
    palette: bool = True  # offer in the command palette


LIST_KEYS: tuple[KeySpec, ...] = (
    KeySpec("down", "down,j", "cursor_down", "Down", "Next paper"),
    KeySpec("up", "up,k", "cursor_up", "Up", "Previous paper"),
    KeySpec("top", "g,home", "cursor_top", "Top", "First paper"),
    KeySpec("bottom", "G,end", "cursor_bottom", "Bottom", "Last paper"),
    KeySpec("page_down", "pagedown", "page_down", "Page down", "One screen down"),
    KeySpec("page_up", "pageup", "page_up", "Page up", "One screen up"),
)

APP_KEYS: tuple[KeySpec, ...] = (
    KeySpec("expand", "enter,space", "toggle_abstract", "More", "Expand / collapse the abstract",
            show=True),
    KeySpec("cards", "v", "triage_cards", "Cards",
            "Quick triage: the unseen papers shown, one card at a time with the full "
            "abstract (* star, d not interested, b save, space later, backspace back, "
            "esc returns to the list at the last card)", show=True),
    KeySpec("unsure_queue", "V", "unsure_queue", "Unsure",
            "Unsure queue: quick triage over the papers the learned ranking is least sure "
            "about (where a star or d teaches it most; each answer retrains it)"),
    KeySpec("zoom_preview", "z", "zoom_preview", "Zoom",
            "Zoom the preview to the full height, the list down to its cursor row (again: "
            "back)"),
    KeySpec("hide_preview", "h", "hide_preview", "Hide preview",
            "Hide the preview: the list takes the whole height (again: show it)"),
    KeySpec("keep_expanded", "E", "keep_expanded", "Keep expanded",
            "Keep abstracts and author lists expanded on every paper (again: collapse)"),
    KeySpec("preview_down", "J", "preview_down", "Preview down",
            "Page the preview down (the list keeps the focus)"),
    KeySpec("preview_up", "K", "preview_up", "Preview up", "Page the preview up"),
    KeySpec("sort", "s", "cycle_sort", "Sort", "Cycle the sort key", show=True),
    KeySpec("reverse", "S", "reverse_sort", "Reverse", "Reverse the sort order"),
    KeySpec("search", "slash", "start_search", "Search",
            "Filter by text in title, authors and abstract (esc clears)", show=True),
    KeySpec("filters", "f", "open_filters", "Filters",
            "Filter panel: relevance, categories, types, unseen, starred", show=True),
    KeySpec("star", "asterisk", "toggle_star", "Star",
            "Star / unstar the paper (starring marks it seen)", show=True),
    KeySpec("not_interested", "d", "not_interested", "Not interested",
            "Not interested: the local ranking learns to put papers like this lower (again: undo)",
            show=True),
    KeySpec("mark", "x", "toggle_mark", "Mark",
            "Mark / unmark for a batch action, then go to the next paper", show=True),
    KeySpec("clear_marks", "X", "clear_marks", "Clear marks", "Clear all marks"),
    KeySpec("next_unseen", "u", "next_unseen", "Next unseen", "Jump to the next unseen paper"),
    KeySpec("prev_unseen", "U", "prev_unseen", "Prev unseen",
            "Jump to the previous unseen paper"),
    KeySpec("seen_above", "A", "seen_above", "Seen above",
            "Mark every paper above the cursor seen"),
    KeySpec("undo", "ctrl+z", "app.undo", "Undo",
            "Undo the last mark change (star, unstar, not interested, mark all above seen)",
            show=True),
    KeySpec("save", "b", "save_bib", "Save .bib",
            "Save the marked papers (or this one) to the .bib file", show=True),
    KeySpec("open", "o", "open_abs", "Open", "Open the abstract page in the browser", show=True),
    KeySpec("pdf", "p", "open_pdf", "PDF", "Open the PDF in the browser"),
    KeySpec("export", "e", "export_as", "Export",
            "Export the marked papers (or this one) as RIS, CSL-JSON, CSV or Markdown notes"),
    KeySpec("zotero", "Z", "send_zotero", "Zotero",
            "Send the marked papers (or this one) to Zotero, desktop or web ([zotero])"),
    KeySpec("copy", "c", "copy_bibtex", "Copy", "Copy the BibTeX entry to the clipboard"),
    KeySpec("rescore", "r", "rescore", "Score", "(Re)score the shown papers"),
    KeySpec("force_rescore", "ctrl+r", "force_rescore", "Rescore",
            "Ask the model again for the shown papers, ignoring cached scores (costs tokens)"),
    KeySpec("topic", "t", "pick_topic", "Topic", "Switch topic", show=True),
    KeySpec("library", "F", "library_search", "Library",
            "Search every cached paper, any day (title, abstract, authors, notes, tags)",
            show=True),
    KeySpec("starred_view", "L", "starred_view", "Starred",
            "The reading list: starred papers of every day", show=True),
    KeySpec("similar", "m", "similar", "Similar", "Cached papers similar to this one"),
    KeySpec("note", "n", "edit_note", "Note", "Write a note and tags on this paper"),
    KeySpec("follow", "at", "follow_author", "Follow",
            "Follow (or unfollow) an author of this paper: @ mark, boost, always sent to "
            "the model"),
    KeySpec("previous_day", "left_square_bracket", "previous_day", "Prev day",
            "The previous announcement day (weekends and holidays skipped)", show=True),
    KeySpec("next_day", "right_square_bracket", "next_day", "Next day",
            "The next announcement day (weekends and holidays skipped)", show=True),
    KeySpec("jump_day", "D", "jump_day", "Go to date", "Open the announcement of a date"),
    KeySpec("this_week", "W", "this_week", "This week",
            "Every paper announced this week, with a day column"),
    KeySpec("summarize", "a", "summarize", "Summary",
            "A 3-5 sentence summary of this paper (needs a model; cached)"),
    KeySpec("theme", "T", "app.cycle_theme", "Theme", "Next colour theme"),
    KeySpec("refresh", "R", "app.refresh_day", "Refresh",
            "Fetch today's announcement from arXiv again"),
    KeySpec("messages", "M", "app.show_messages", "Messages",
            "Message log: every notice of this session, with its time"),
    KeySpec("help", "question_mark", "app.show_help", "Help", "All keys", show=True),
    KeySpec("quit", "q", "app.quit", "Quit", "Quit paperterm", show=True),
)

# The quick triage cards (`cards`): one paper at a time; each mark goes on to the next card.
CARD_KEYS: tuple[KeySpec, ...] = (
    KeySpec("card_star", "asterisk", "star", "Star", "Star the paper, next card", show=True),
    KeySpec("card_not_interested", "d", "not_interested", "Not interested",
            "Not interested (the ranking learns), next card", show=True),
    KeySpec("card_save", "b", "save", "Save", "Save it to the .bib file, next card",
            show=True),
    KeySpec("card_later", "space", "later", "Later", "Leave it unseen for later, next card",
            show=True),
    KeySpec("card_back", "backspace", "back", "Back", "The previous card", show=True),
    KeySpec("card_undo", "ctrl+z", "app.undo", "Undo", "Undo the last mark", show=True),
    KeySpec("card_done", "escape", "done", "List",
            "Back to the list, its cursor on this card's paper", show=True),
)

# Bindings Textual provides, listed on the help screen.
TEXTUAL_KEYS: tuple[tuple[str, str], ...] = (
    ("tab / shift+tab", "Move focus between the list and the preview"),
    ("ctrl+p", "Command palette: every action by name"),
    ("click a column title", "Sort by that column (again: reverse)"),
)

ALL_KEYS = LIST_KEYS + APP_KEYS
KEY_IDS = frozenset(k.id for k in ALL_KEYS)


# Handled by the app before the key reaches the focused widget, so that keys typed right
# after it (already queued) go to the search box instead of the list.
PRIORITY_ACTIONS = frozenset({"start_search"})


# The footer shows bindings in order and cuts what does not fit (a wide terminal shows the
# library's and the days' keys too, F, L, [ and ]): on a narrow terminal the
# way out and the way to every other key must stay visible, and undo once there is a mark
# to take back (the footer hides it until then).
FOOTER_FIRST = ("help", "quit", "undo")
# and last, where a wide terminal has room for it once every other key shows: `d`'s label
# is long, and after `*` it would push Topic and Open out of a 120-column footer
FOOTER_LAST = ("not_interested",)


def bindings(specs: tuple[KeySpec, ...]) -> list[BindingType]:
    def rank(k: KeySpec) -> int:
        if k.id in FOOTER_LAST:
            return len(FOOTER_FIRST) + 1
        return FOOTER_FIRST.index(k.id) if k.id in FOOTER_FIRST else len(FOOTER_FIRST)

    ordered = sorted(specs, key=rank)  # stable: the rest keep their order
    return [
        Binding(k.keys, k.action, k.description, show=k.show, id=k.id,
                priority=k.action in PRIORITY_ACTIONS)
        for k in ordered
    ]


def check_keymap(keys: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The usable part of a [keys] table, and a notice per unknown action."""
    good: dict[str, str] = {}
    problems: list[str] = []
    for action, key in keys.items():
        if action not in KEY_IDS:
            problems.append(
                f"[keys] unknown action '{action}' (known: {', '.join(sorted(KEY_IDS))})"
            )
        elif not key.strip():
            problems.append(f"[keys] '{action}': empty key")
        elif bad := [k for k in key.split(",") if not is_key_name(k.strip())]:
            problems.append(
                f"[keys] '{action}': {', '.join(repr(k.strip()) for k in bad)} is not a key "
                "name (e.g. \"s\", \"ctrl+q\", \"f5\", \"pageup\", \"space\"); the default "
                "key is kept"
            )
        else:
            good[action] = key.strip()
    return good, problems


_MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")


def is_key_name(key: str) -> bool:
    """A key Textual can bind: one printable character, or a key name ("f5", "pageup",
    "asterisk"), after any modifiers ("ctrl+shift+")."""
    from textual.keys import Keys, key_to_character

    if len(key) == 1:
        return key.isprintable()
    *mods, base = key.split("+")
    if not base or any(m not in _MODIFIERS for m in mods):
        return False
    if len(base) == 1:
        return base.isprintable()
    names = {k.value.rsplit("+", 1)[-1] for k in Keys}
    return base in names or key_to_character(base) is not None or base in _PUNCTUATION_NAMES


def _punctuation_name(char: str) -> str:
    """The name Textual gives a printable punctuation key ("/" is "slash", "@" is "at"):
    its Unicode name, with Textual's shorter names where it has them."""
    from textual.keys import KEY_NAME_REPLACEMENTS

    name = unicodedata.name(char).lower().replace("-", "_").replace(" ", "_")
    return KEY_NAME_REPLACEMENTS.get(name, name)


_PUNCTUATION_NAMES = frozenset(_punctuation_name(c) for c in string.punctuation)


def _split(keys: str) -> list[str]:
    from paperterm.tui.compat import character_to_key  # "*" -> "asterisk", as Textual does

    return [character_to_key(k) if len(k) == 1 else k
            for k in (k.strip() for k in keys.split(",")) if k]


def effective_keys(keymap: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The keys each action really answers to once `keymap` is applied, and a notice per
    clash: a remapped key wins over another action's default (Textual drops that binding),
    except that the list's own keys win over app keys while the list has focus."""
    list_ids = {k.id for k in LIST_KEYS}
    keys = {k.id: _split(keymap.get(k.id, k.keys)) for k in ALL_KEYS}
    problems: list[str] = []
    for rid in keymap:
        if rid not in keys:
            continue
        for oid in keys:
            if oid == rid:
                continue
            for key in [k for k in keys[rid] if k in keys[oid]]:
                shown = display_keys(key)
                if oid in keymap:
                    problems.append(f"[keys] {rid} and {oid} are both mapped to '{shown}'")
                elif oid in list_ids and rid not in list_ids:
                    keys[rid].remove(key)
                    problems.append(f"[keys] {rid} = '{shown}': the list uses '{shown}' for "
                                    f"{oid}; pick another key for {rid}")
                else:
                    keys[oid].remove(key)
                    left = ("now has no key (ctrl+p still runs it)" if not keys[oid]
                            else f"keeps {display_keys(','.join(keys[oid]))}")
                    problems.append(f"[keys] {rid} = '{shown}' takes '{shown}' from {oid}, "
                                    f"which {left}")
    return {i: ",".join(k) for i, k in keys.items()}, problems


def keymap_problems(keys: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The usable part of a [keys] table and everything to say about it: unknown actions,
    bad key names, and each binding a remapped key displaced (`[keys] star = "s"` takes
    `s` from sort)."""
    good, problems = check_keymap(keys)
    return good, problems + effective_keys(good)[1]


def display_keys(keys: str) -> str:
    """'down,j' -> 'down / j'; 'asterisk' -> '*'."""
    from textual.keys import format_key

    return " / ".join(format_key(k.strip()) for k in keys.split(",") if k.strip())
