"""The reader: `run_tui(ctx)` shows one loaded day, scored against a topic.

Start-up is kept light: the scoring engine (and litellm, which it imports lazily) is only
imported by the worker thread that runs an LLM scoring pass, after the list is on screen.
"""

from __future__ import annotations

import contextlib
import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import SimpleCommand
from textual.css.query import NoMatches
from textual.theme import BUILTIN_THEMES
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from paperterm.context import AppContext
from paperterm.listing import (
    SCORE_SORTS,
    SORT_KEYS,
    SORT_LABELS,
    Entry,
    FilterState,
    make_entries,
    view,
)
from paperterm.models import Paper, Topic
from paperterm.theming import DEFAULT_THEME
from paperterm.tui.commands import PapertermCommands
from paperterm.tui.filters import FilterScreen
from paperterm.tui.help import HelpScreen
from paperterm.tui.keys import APP_KEYS, bindings, check_keymap, effective_keys
from paperterm.tui.paper_list import ColumnHeader, PaperTable
from paperterm.tui.preview import NO_MATCH, Preview
from paperterm.tui.text import one_line
from paperterm.tui.themes import register_themes, score_defaults

if TYPE_CHECKING:
    from paperterm.scoring.types import RunSummary, Score
    from paperterm.store import Store

ENABLE_LLM_HINT = (
    "Ranked by the local keyword scorer. For LLM scoring pass --model openai/gpt-4o-mini "
    "(or set model = \"...\" in the config file); r rescores."
)
_STATUS = {"scored": "scored", "cached": "cached", "queued": "queued", "unscored": "failed"}


def _fmt_tokens(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


class TopBar(Static):
    """The header line, laid out for the width it has."""

    def render(self) -> Text:
        return self.app.header_text(self.size.width or None)


class PapertermApp(App[int]):
    """paperterm's reader. `PapertermApp(ctx).run()` or `run_tui(ctx)`."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "paperterm"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS = App.COMMANDS | {PapertermCommands}
    BINDINGS: ClassVar[list[Binding]] = [
        *bindings(APP_KEYS),
        Binding("escape", "clear_search", "Clear filter", show=False, id="clear_search"),
        # priority: keys typed right after enter are queued already and must reach the list
        Binding("enter", "submit_search", show=False, priority=True, id="submit_search"),
    ]

    SCORE_FLUSH_DELAY = 0.1  # coalesce score batches into one repaint per 100 ms
    SEEN_DELAY = 0.8  # the cursor must rest this long on a paper to mark it seen
    SEEN_FLUSH_INTERVAL = 2.0  # write seen marks to the store at most this often

    def __init__(self, ctx: AppContext, *, autoscore: bool = True) -> None:
        super().__init__()
        self.ctx = ctx
        self.topic: Topic = ctx.topic
        self.autoscore = autoscore
        self.entries: list[Entry] = make_entries(ctx.day.papers)
        self.by_id: dict[str, Entry] = {e.id: e for e in self.entries}
        self.categories = sorted({c for e in self.entries for c in e.paper.categories})
        self.filters = FilterState()
        self.sort_key = "relevance"
        self.reverse = False
        self.shown: list[Entry] = list(self.entries)
        self.store: Store | None = None
        self.keymap, key_problems = check_keymap(dict(ctx.config.keys))
        key_problems += effective_keys(self.keymap)[1]
        self.startup_notices: list[tuple[str, str]] = [
            (n, "warning") for n in dict.fromkeys([*ctx.day.notices, *ctx.notices, *key_problems])
        ]
        # scoring state
        self.generation = 0  # bumped on topic switch: late scores of an old run are dropped
        self.scoring = False
        self.summary: RunSummary | None = None
        self.scorer_label = ""
        self._cancel: Any = None
        self._pending_scores: list[tuple[int, Score]] = []
        self._flush_timer: Timer | None = None
        # seen state
        self._seen_timer: Timer | None = None
        self._pending_seen: set[str] = set()
        # themes
        self.theme_names, theme_errors = register_themes(self, ctx.config)
        for err in theme_errors:
            self.startup_notices.append((err, "error"))
        wanted = ctx.theme or ctx.config.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.startup_notices.append(
                (f"theme '{wanted}' not found; using {DEFAULT_THEME} "
                 f"(themes: {', '.join(self.theme_cycle())})", "warning")
            )
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self.theme = wanted

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        table = PaperTable(id="papers")
        yield TopBar(id="topbar")
        yield Input(placeholder="filter: words in title, authors, abstract  (esc clears)",
                    id="search")
        yield ColumnHeader(table, id="columns")
        yield table
        yield Preview(id="preview")
        yield Footer(compact=self.size.width < self.FOOTER_WIDE)

    FOOTER_WIDE = 130  # below this the footer drops its padding so every shown key fits

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(Footer).compact = event.size.width < self.FOOTER_WIDE

    @property
    def table(self) -> PaperTable:
        return self.query_one("#papers", PaperTable)

    @property
    def preview(self) -> Preview:
        return self.query_one("#preview", Preview)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return score_defaults(self.current_theme)

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        self.query_one("#search", Input).display = False
        self._open_store()
        self._start_scoring_on_launch()
        self.refilter()
        self.table.focus()
        self.set_interval(self.SEEN_FLUSH_INTERVAL, self.flush_seen)
        for message, severity in self.startup_notices:
            self.say(message, severity, timeout=10)

    def say(self, message: str, severity: str = "information", timeout: float | None = None):
        """A one-line notice; never parsed as markup (file names and errors are untrusted)."""
        self.notify(one_line(message), severity=severity, timeout=timeout, markup=False)

    def _open_store(self) -> None:
        from paperterm.store import Store, StoreError

        try:
            self.store = Store.open(self.ctx.db_path)
        except (StoreError, OSError) as exc:
            self.store = None
            self.startup_notices.append((f"{exc} Stars and seen marks will not be kept.", "error"))
            return
        if self.store.notice:
            self.startup_notices.append((self.store.notice, "warning"))
        states = self.store.states(self.by_id)
        for pid, st in states.items():
            e = self.by_id.get(pid)
            if e is not None:
                e.seen, e.starred, e.saved, e.bib_key = st.seen, st.starred, st.saved, st.bib_key

    # -- header ---------------------------------------------------------------------------

    def header_text(self, width: int | None = None) -> Text:
        """The header line; when `width` is too small for the long form, a compact one that
        keeps the scoring progress, tokens and cost (the sort shows in the column titles)."""
        full = self._header(compact=False)
        if width is None or full.cell_len <= width:
            return full
        return self._header(compact=True)

    def _header(self, *, compact: bool) -> Text:
        day = self.ctx.day
        sep = " · " if compact else "  ·  "
        out = Text(no_wrap=True, overflow="ellipsis")
        if not compact:
            out.append(" paperterm ", style="bold reverse")
            out.append("  topic ")
        else:
            out.append(" ")
        out.append(one_line(self.topic.name), style="bold")
        out.append(sep)
        out.append(one_line(day.label), style="bold")
        for flag in day.flags:
            out.append(f" [{flag}]", style="italic")
        out.append(f"{sep}{len(self.shown)}/{len(self.entries)}{'' if compact else ' papers'}")
        filters = " ".join(self.filters.describe())
        if filters and not compact:
            out.append(sep + "filter: ", style="bold")
            out.append(one_line(filters))
        if not compact:
            out.append(f"{sep}sort {SORT_LABELS[self.sort_key]}{' ▲' if self.reverse else ''}")
        out.append(sep)
        out.append(self.scoring_text(compact=compact))
        if filters and compact:  # last: on a narrow screen it is what gets cut
            out.append(sep + "filter: ", style="bold")
            out.append(one_line(filters))
        return out

    def scoring_text(self, *, compact: bool = False) -> str:
        s = self.summary
        if self.scoring:
            queued = sum(1 for e in self.entries if e.status == "queued")
            total = s.total if s and s.total else None
            if total:
                done = s.scored + s.cached + s.unscored
                text = f"scoring {done}/{total}"
            else:
                text = f"scoring… {queued} queued"
        elif s is not None:
            # counted over the list: scores read from the cache before the run count too
            counts = {"scored": 0, "cached": 0, "failed": 0}
            for e in self.entries:
                if e.status in counts:
                    counts[e.status] += 1
            text = f"{counts['scored']} scored, {counts['cached']} cached"
            if counts["failed"]:
                text += f", {counts['failed']} failed"
            if not compact:
                text = f"{s.model}: {text}"
        else:
            text = self.scorer_label
        if s is not None and (s.total_tokens or s.cost):
            sep = " · " if compact else "  ·  "
            text += f"{sep}{_fmt_tokens(s.total_tokens)} tokens"
            text += f"{sep}cost unknown" if s.cost is None else f"{sep}${s.cost:.4f}"
        return text

    def update_header(self) -> None:
        try:
            self.query_one("#topbar", TopBar).refresh()
            self.query_one("#columns", ColumnHeader).set_sort(self.sort_key, self.reverse)
        except NoMatches:  # pragma: no cover - during shutdown
            pass

    # -- the list -------------------------------------------------------------------------

    def refilter(self) -> None:
        """Recompute which papers show, in which order; the cursor stays on its paper."""
        self.shown = view(self.entries, self.filters, self.sort_key, self.reverse)
        self.preview.empty_message = self.empty_message()
        self.table.set_entries(self.shown)
        self.update_header()

    def empty_message(self) -> str:
        if self.entries:
            return NO_MATCH
        why = " ".join(one_line(n) for n in self.ctx.day.notices)
        return f"No papers in this announcement ({one_line(self.ctx.day.label)}). {why}".strip()

    @on(PaperTable.CursorMoved)
    def _cursor_moved(self, message: PaperTable.CursorMoved) -> None:
        self.preview.show(message.entry)
        if self._seen_timer is not None:
            self._seen_timer.stop()
            self._seen_timer = None
        e = message.entry
        if e is not None and not e.seen:
            self._seen_timer = self.set_timer(self.SEEN_DELAY, partial(self._rested, e.id))

    def _rested(self, paper_id: str) -> None:
        self._seen_timer = None
        current = self.table.current
        if current is None or current.id != paper_id or current.seen:
            return
        current.seen = True
        self._pending_seen.add(paper_id)
        self.table.refresh_entries()

    def flush_seen(self) -> None:
        if not self._pending_seen:
            return
        ids, self._pending_seen = sorted(self._pending_seen), set()
        if self.store is not None:
            try:
                self.store.mark_seen(ids)
            except Exception as exc:  # the database went away: say so once, keep working
                self.say(f"could not record seen papers: {exc}", "error")
                self.store = None

    @on(ColumnHeader.SortClicked)
    def _sort_clicked(self, message: ColumnHeader.SortClicked) -> None:
        if message.key == self.sort_key:
            self.reverse = not self.reverse
        else:
            self.sort_key, self.reverse = message.key, False
        self.refilter()

    @property
    def current(self) -> Entry | None:
        return self.table.current

    # -- scores ---------------------------------------------------------------------------

    def apply_scores(self, scores: list[Score], generation: int | None = None) -> None:
        """Queue scores for display; they are applied together at most every 100 ms.

        Safe to call from the main thread; worker threads use `call_from_thread`."""
        gen = self.generation if generation is None else generation
        self._pending_scores.extend((gen, s) for s in scores)
        if self._flush_timer is None:
            self._flush_timer = self.set_timer(self.SCORE_FLUSH_DELAY, self.flush_scores)

    def flush_scores(self) -> None:
        self._flush_timer = None
        pending, self._pending_scores = self._pending_scores, []
        changed = False
        for gen, s in pending:
            if gen != self.generation:
                continue
            e = self.by_id.get(s.paper_id)
            if e is None:
                continue
            status = _STATUS.get(s.status, s.status)
            if status == "failed" and e.has_score:
                continue  # a failed retry never hides a score we already have
            e.set_score(s.relevance, s.novelty, s.reason, status, s.error)
            changed = True
        if not changed:
            return
        if self.sort_key in SCORE_SORTS or self.filters.min_relevance is not None:
            self.refilter()
        else:
            self.table.refresh_entries()
            self.update_header()
        self.preview.render_entry()

    def _set_scores_now(self, scores: list[Score], status: str | None = None) -> None:
        for s in scores:
            e = self.by_id.get(s.paper_id)
            if e is not None:
                e.set_score(s.relevance, s.novelty, s.reason,
                            status or _STATUS.get(s.status, s.status), s.error)

    def _start_scoring_on_launch(self) -> None:
        if self.ctx.settings.use_llm:
            self._score_with_llm([e.paper for e in self.entries], use_cache=True)
        else:
            self._score_locally(hint=True)

    def _score_locally(self, *, hint: bool) -> None:
        from paperterm.scoring import local_scores

        self._set_scores_now(local_scores([e.paper for e in self.entries], self.topic), "local")
        self.scorer_label = "local scorer"
        if hint:
            self.startup_notices.append((ENABLE_LLM_HINT, "information"))

    def _score_with_llm(self, papers: list[Paper], *, use_cache: bool) -> None:
        """Show cached scores now, queue the rest and score them on a worker thread."""
        todo = papers
        if use_cache and self.store is not None:
            from paperterm.scoring import cached_scores

            try:
                cached = cached_scores(self.store, papers, self.topic, self.ctx.settings)
            except Exception as exc:
                cached = {}
                self.startup_notices.append((f"score cache unreadable: {exc}", "warning"))
            self._set_scores_now(list(cached.values()), "cached")
            todo = [p for p in papers if p.id not in cached]
        self.scorer_label = self.ctx.settings.model
        if not todo or not self.autoscore:
            return
        for p in todo:
            e = self.by_id[p.id]
            if not e.has_score or e.status in ("local", "failed"):
                e.set_score(None, None, "", "queued")
        # after the list is on screen: the worker imports the engine (and litellm)
        self.scoring = True
        self.call_after_refresh(self.start_scoring, todo)

    def start_scoring(self, papers: list[Paper]) -> None:
        self.cancel_scoring()
        self._cancel = threading.Event()  # run_scoring polls it from its own event loop
        self.scoring = True
        self.summary = None
        self._score_worker(papers, self.topic, self.generation, self._cancel)

    def cancel_scoring(self) -> None:
        if self._cancel is not None:
            self._cancel.set()
            self._cancel = None
        self.scoring = False

    @work(thread=True, group="scoring", exit_on_error=False)
    def _score_worker(self, papers: list[Paper], topic: Topic, gen: int, cancel: Any) -> None:
        from paperterm.scoring import ScoringError, run_scoring

        def hop(fn, *args):
            with contextlib.suppress(RuntimeError):  # RuntimeError: the app has closed
                self.call_from_thread(fn, *args)

        try:
            summary = run_scoring(
                papers,
                topic,
                self.ctx.settings,
                db_path=self.ctx.db_path,
                on_scores=lambda scores: hop(self.apply_scores, list(scores), gen),
                on_progress=lambda s: hop(self._on_progress, s, gen),
                cancel=cancel,
            )
        except ScoringError as exc:
            hop(self._scoring_failed, str(exc), gen)
            return
        except Exception as exc:  # never a traceback in the reader
            hop(self._scoring_failed, f"scoring failed: {type(exc).__name__}: {exc}", gen)
            return
        hop(self._scoring_done, summary, gen, cancel)

    def _on_progress(self, summary: RunSummary, gen: int) -> None:
        if gen == self.generation and self.scoring:
            self.summary = summary
            self.update_header()

    def _scoring_failed(self, message: str, gen: int) -> None:
        if gen != self.generation:
            return
        self.flush_scores()
        self.scoring = False
        for e in self.entries:
            if e.status == "queued":
                e.set_score(None, None, "", "failed", message)
        self.say(message, "error", timeout=12)
        self.refilter()
        self.preview.render_entry()

    def _scoring_done(self, summary: RunSummary, gen: int, cancel: Any) -> None:
        if gen != self.generation or cancel.is_set():
            return
        self.flush_scores()
        self.scoring = False
        self.summary = summary
        for e in self.entries:  # anything the run did not report stays visibly unscored
            if e.status == "queued":
                e.set_score(None, None, "", "failed", summary.stopped or "no score returned")
        for note in summary.notices:
            self.say(note, "warning")
        if summary.stopped:
            self.say(f"Scoring stopped: {summary.stopped}", "warning", timeout=12)
        self.refilter()
        self.preview.render_entry()

    # -- actions: list ---------------------------------------------------------------------

    def action_list_action(self, name: str) -> None:
        getattr(self.table, f"action_{name}")()

    def action_toggle_abstract(self) -> None:
        self.preview.toggle()

    def action_cycle_sort(self) -> None:
        i = SORT_KEYS.index(self.sort_key)
        self.sort_key = SORT_KEYS[(i + 1) % len(SORT_KEYS)]
        self.reverse = False
        self.refilter()
        self.say(f"Sorted by {SORT_LABELS[self.sort_key]}", timeout=2)

    def action_reverse_sort(self) -> None:
        self.reverse = not self.reverse
        self.refilter()

    def action_start_search(self) -> None:
        if isinstance(self.focused, Input):  # a priority binding: "/" typed into a text box
            self.focused.insert_text_at_cursor("/")
            return
        if self.screen is not self.screen_stack[0]:  # a dialog is open
            return
        search = self.query_one("#search", Input)
        search.display = True
        # focus now, not later (Widget.focus defers): keys typed right after "/" are queued
        # already and must land in the search box, not trigger list bindings
        self.screen.set_focus(search)

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.filters.text = event.value
        self.refilter()

    def action_submit_search(self) -> None:
        """enter in the search box: keep the filter, back to the list (at once, not deferred)."""
        search = self.query_one("#search", Input)
        if self.focused is not search:
            raise SkipAction()
        if not search.value.strip():
            search.display = False
        self.screen.set_focus(self.table)

    def action_clear_search(self) -> None:
        search = self.query_one("#search", Input)
        had = bool(self.filters.text) or search.display
        search.display = False
        if search.value:
            search.value = ""  # fires Input.Changed -> refilter
        self.filters.text = ""
        if had:
            self.refilter()
        self.screen.set_focus(self.table)

    def action_open_filters(self) -> None:
        def done(state: FilterState | None) -> None:
            if state is not None:
                state.text = self.filters.text
                self.filters = state
                self.refilter()

        self.push_screen(FilterScreen(self.filters, self.categories), done)

    # -- actions: marks -------------------------------------------------------------------

    def action_toggle_star(self) -> None:
        e = self.current
        if e is None:
            return
        e.starred = not e.starred
        if self.store is not None:
            self.store.set_starred(e.id, e.starred)
        self.table.refresh_entries()

    def action_toggle_mark(self) -> None:
        e = self.current
        if e is None:
            return
        e.marked = not e.marked
        self.table.refresh_entries()

    def action_clear_marks(self) -> None:
        for e in self.entries:
            e.marked = False
        self.table.refresh_entries()

    def targets(self) -> list[Entry]:
        """The marked papers (announcement order), else the one under the cursor."""
        marked = [e for e in self.entries if e.marked]
        if marked:
            return marked
        return [self.current] if self.current is not None else []

    def action_save_bib(self) -> None:
        from paperterm.bibtex import BibError, export_papers

        targets = self.targets()
        if not targets:
            return
        cfg = self.ctx.config.bibtex
        try:
            result = export_papers(
                [e.paper for e in targets],
                self.ctx.bib_path,
                unicode=self.ctx.unicode_bib,
                prefer_journal=cfg.prefer_journal,
                key_pattern=cfg.key_pattern,
            )
        except BibError as exc:
            self.say(f"Not saved: {exc}", "error", timeout=12)
            return
        pairs = [*result.added, *getattr(result, "updated", []), *result.skipped]
        path = result.path or self.ctx.bib_path
        if self.store is not None and pairs:
            self.store.mark_saved(pairs, path)
        for pid, key in pairs:
            e = self.by_id.get(pid)
            if e is not None:
                e.saved, e.bib_key, e.marked = True, key, False
        parts = [f"Saved to {path}:"]
        if result.added:
            parts.append("added " + ", ".join(k for _, k in result.added))
        if result.skipped:
            parts.append("already there " + ", ".join(k for _, k in result.skipped))
        self.say(" ".join(parts), "information", timeout=8)
        for w in result.warnings:
            self.say(w, "warning")
        self.table.refresh_entries()

    # -- actions: outside world --------------------------------------------------------------

    def _open_url(self, url: str) -> None:
        import webbrowser

        try:
            ok = webbrowser.open(url)
        except Exception as exc:
            ok = False
            self.say(f"Could not open a browser ({exc}); the link is {url}", "warning")
            return
        if ok is False:
            self.say(f"No browser found; the link is {url}", "warning")
        else:
            self.say(f"Opening {url}", timeout=3)

    def action_open_abs(self) -> None:
        if self.current is not None:
            self._open_url(self.current.paper.abs_url)

    def action_open_pdf(self) -> None:
        if self.current is not None:
            self._open_url(self.current.paper.pdf_url)

    def action_copy_bibtex(self) -> None:
        e = self.current
        if e is None:
            return
        try:
            from paperterm.bibtex import citation_key, render_entry

            cfg = self.ctx.config.bibtex
            key = e.bib_key or citation_key(e.paper, cfg.key_pattern)
            text = render_entry(e.paper, key, unicode=self.ctx.unicode_bib,
                                prefer_journal=cfg.prefer_journal)
            what = f"BibTeX entry {key}"
        except Exception:
            text, what = e.paper.versioned_id, f"arXiv id {e.paper.versioned_id}"
        self.copy_to_clipboard(text)
        self.say(f"Copied the {what} to the clipboard", timeout=3)

    # -- actions: scoring, topic, theme ---------------------------------------------------------

    def action_rescore(self) -> None:
        papers = [e.paper for e in self.shown]
        if not papers:
            return
        if self.ctx.settings.use_llm:
            self.autoscore = True
            self._score_with_llm(papers, use_cache=True)
            if not self.scoring:
                self.say("Every shown paper already has a score for this topic and model.")
            self.refilter()
        else:
            self._score_locally(hint=False)
            self.refilter()
            self.say(ENABLE_LLM_HINT, timeout=6)

    def action_pick_topic(self) -> None:
        from paperterm.config import ConfigError
        from paperterm.topics import all_topics

        try:
            topics = all_topics(self.ctx.config)
        except ConfigError as exc:
            self.say(str(exc), "error")
            return
        commands = [
            SimpleCommand(
                one_line(name),
                partial(self.switch_topic, topic),
                one_line(topic.description)[:100],
            )
            for name, topic in sorted(topics.items())
        ]
        self.search_commands(commands, placeholder="Switch topic…")

    def switch_topic(self, topic: Topic) -> None:
        self.cancel_scoring()
        self.generation += 1
        self.topic = topic
        self.summary = None
        self._pending_scores.clear()
        for e in self.entries:
            e.set_score(None, None, "", "none")
        if self.ctx.settings.use_llm:
            self.autoscore = True
            self._score_with_llm([e.paper for e in self.entries], use_cache=True)
        else:
            self._score_locally(hint=False)
        self.refilter()
        self.preview.render_entry()
        self.say(f"Topic: {topic.name}", timeout=3)

    def theme_cycle(self) -> list[str]:
        ours = [n for n in self.theme_names if n in self.available_themes]
        builtin = sorted(n for n in BUILTIN_THEMES if n != "textual-ansi")
        return ours + [n for n in builtin if n not in ours]

    def action_cycle_theme(self) -> None:
        names = self.theme_cycle()
        i = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(i + 1) % len(names)]
        self.say(f"Theme: {self.theme}", timeout=2)

    def action_show_help(self) -> None:
        self.push_screen(HelpScreen(self.keymap))

    async def action_quit(self) -> None:
        self.shutdown()
        self.exit(0)

    def shutdown(self) -> None:
        self.cancel_scoring()
        self.flush_seen()

    def on_unmount(self) -> None:
        self.shutdown()
        if self.store is not None:
            with contextlib.suppress(Exception):
                self.store.close()
            self.store = None


def run_tui(ctx: AppContext) -> int:
    """Run the reader until the user quits. Returns the exit code."""
    app = PapertermApp(ctx)
    result = app.run()
    if app.return_code not in (None, 0):
        return app.return_code
    return result or 0


__all__ = ["PapertermApp", "run_tui"]
