"""Pilot tests of the reader: every binding and behaviour of the TUI."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from paperterm.config import BibtexConfig, Config
from paperterm.context import AppContext
from paperterm.feeds import parse_feed
from paperterm.listing import SORT_KEYS
from paperterm.models import Day, Paper
from paperterm.scoring.types import RunSummary, Score, ScoringSettings
from paperterm.store import Store
from paperterm.topics import resolve_topic
from paperterm.tui.app import PapertermApp
from paperterm.tui.help import HelpScreen

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "arxiv-2026-02-25.xml"
SIZE = (120, 40)
HOSTILE_TITLE = "[bold red]x[/] [link=http://e]y \x1b[31mz"

_PAPERS: list[Paper] | None = None


def example_papers() -> list[Paper]:
    global _PAPERS
    if _PAPERS is None:
        _PAPERS = parse_feed(EXAMPLE.read_bytes()).papers
    return list(_PAPERS)


def make_ctx(
    tmp_path: Path,
    papers: list[Paper] | None = None,
    *,
    config: Config | None = None,
    settings: ScoringSettings | None = None,
    topic: str = "moe",
    notices: list[str] | None = None,
    day_notices: list[str] | None = None,
    source: str = "feed",
) -> AppContext:
    config = config or Config()
    day = Day(
        papers=example_papers() if papers is None else papers,
        label="2026-02-25",
        day=date(2026, 2, 25),
        source=source,
        notices=list(day_notices or []),
    )
    return AppContext(
        config=config,
        day=day,
        topic=resolve_topic(topic, config).topic,
        settings=settings or ScoringSettings(),
        db_path=tmp_path / "db.sqlite3",
        bib_path=tmp_path / "papers.bib",
        notices=list(notices or []),
    )


def hostile_papers() -> list[Paper]:
    papers = example_papers()
    papers[0] = replace(
        papers[0],
        title=HOSTILE_TITLE,
        authors=("[i]Mallory\x1b]0;pwned\x07", "Eve [/]"),
        abstract="Text with \x1b[2J an erase, [blink]markup[/blink], \x07 a bell, "
        "\x9b31m a C1 CSI, unmatched [ bracket and $\\alpha$ and $\\mathcal{O}(n)$.",
    )
    return papers


def notices(app: PapertermApp) -> list[str]:
    return [n.message for n in app._notifications]


def row_text(app: PapertermApp, y: int) -> str:
    return app.table.render_line(y).text


def screen_text(app: PapertermApp) -> str:
    """The plain text of every visible row of the list."""
    height = app.table.scrollable_content_region.height
    return "\n".join(row_text(app, y) for y in range(height))


def cursor_visible(app: PapertermApp) -> bool:
    top = int(app.table.scroll_y)
    return top <= app.table.cursor < top + app.table.scrollable_content_region.height


class QuietApp(PapertermApp):
    SEEN_DELAY = 60.0  # no seen marks unless a test wants them


async def until(pilot, condition, seconds: float = 5.0) -> None:
    """Wait for a timer-driven change (score coalescing, seen marks) without a fixed sleep."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await pilot.pause(0.02)
    assert condition(), "condition not reached in time"


# -- launch, header, local scoring --------------------------------------------------------------


async def test_launch_local_scorer_ranks_and_says_how_to_enable_llm(tmp_path):
    app = QuietApp(make_ctx(tmp_path, day_notices=["arXiv unreachable: showing the cache"],
                            source="cache"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert len(app.shown) == 244
        rels = [e.relevance for e in app.shown]
        assert all(r is not None for r in rels)
        assert rels == sorted(rels, reverse=True)
        header = app.header_text().plain
        assert "moe" in header and "2026-02-25" in header and "[cached]" in header
        assert "244/244" in header
        said = " ".join(notices(app))
        assert "--model openai/gpt-4o-mini" in said
        assert "arXiv unreachable" in said
        assert app.current is app.shown[0]
        assert app.preview.entry is app.shown[0]


async def test_movement_keys(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        t = app.table
        await pilot.press("j", "j", "down")
        assert t.cursor == 3
        await pilot.press("k", "up")
        assert t.cursor == 1
        await pilot.press("G")
        assert t.cursor == 243 and cursor_visible(app)
        await pilot.press("g")
        assert t.cursor == 0 and t.scroll_y == 0
        await pilot.press("pagedown")
        page = t.cursor
        assert page > 5 and cursor_visible(app)
        await pilot.press("pagedown", "pageup")
        assert t.cursor == page
        await pilot.press("end")
        assert t.cursor == 243
        await pilot.press("home")
        assert t.cursor == 0
        await pilot.press("j")
        assert app.preview.entry is app.shown[1]


async def test_click_row_moves_cursor(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#papers", offset=(10, 4))
        assert app.table.cursor == 4


async def test_expand_collapse_abstract_and_tab_focus(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        # find a paper with a long abstract
        long = max(app.shown, key=lambda e: len(e.paper.abstract))
        app.table.move_to_id(long.id)
        await pilot.pause()
        pv = app.preview
        assert pv.collapsible and not pv.expanded
        assert pv.query_one("#pv-abstract").has_class("collapsed")
        await pilot.press("enter")
        assert pv.expanded and not pv.query_one("#pv-abstract").has_class("collapsed")
        await pilot.press("space")
        assert not pv.expanded
        await pilot.press("tab")
        assert app.focused is pv
        await pilot.press("space")  # works from the preview too
        assert pv.expanded
        await pilot.press("tab")
        assert app.focused is app.table
        await pilot.press("j")  # another paper starts collapsed
        assert not pv.expanded


async def test_inline_tex_readable(tmp_path):
    papers = example_papers()
    papers[0] = replace(papers[0], title="Good$\\to$Minor in $O(N^2)$ with $\\alpha$-nets",
                        abstract="We use $\\alpha=0.5$ and $\\mathcal{O}(n)$ memory.")
    app = QuietApp(make_ctx(tmp_path, papers))
    async with app.run_test(size=SIZE) as pilot:
        app.table.move_to_id(papers[0].id)
        await pilot.pause()
        meta = app.preview.meta_text().plain
        assert "Good→Minor in O(N²) with α-nets" in meta
        abstract = app.preview.abstract_plain()
        assert "α=0.5" in abstract and "$\\mathcal{O}(n)$" in abstract


# -- sorting ------------------------------------------------------------------------------


async def test_sort_cycle_reverse_and_cursor_stays_on_paper(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["j"] * 30)
        reading = app.current
        screen_row = app.table.cursor - int(app.table.scroll_y)
        seen_keys = []
        for _ in SORT_KEYS:
            await pilot.press("s")
            seen_keys.append(app.sort_key)
            assert app.current is reading
            assert cursor_visible(app)
            row = app.table.cursor - int(app.table.scroll_y)
            # the same screen row as before this sort, unless a list edge makes it impossible
            at_bottom = int(app.table.scroll_y) >= int(app.table.max_scroll_y)
            assert row == screen_row or app.table.cursor < screen_row or at_bottom
            screen_row = row
        assert set(seen_keys) == set(SORT_KEYS)
        assert app.sort_key == "relevance"
        await pilot.press("s", "s", "s")  # title
        assert app.sort_key == "title"
        titles = [e.paper.title.casefold() for e in app.shown]
        assert titles == sorted(titles)
        await pilot.press("S")
        assert app.reverse
        assert [e.paper.title.casefold() for e in app.shown] == sorted(titles, reverse=True)
        assert app.current is reading and cursor_visible(app)
        await pilot.press("s", "s")  # order of announcement
        assert app.sort_key == "order"
        assert [e.order for e in app.shown] == list(range(244))


async def test_header_click_sorts_and_toggles(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        from paperterm.tui.paper_list import layout

        width = app.table.scrollable_content_region.width
        xs = {c.key: x for c, x, _ in layout(width)}
        await pilot.click("#columns", offset=(xs["title"] + 1, 0))
        assert app.sort_key == "title" and not app.reverse
        await pilot.click("#columns", offset=(xs["title"] + 1, 0))
        assert app.sort_key == "title" and app.reverse
        await pilot.click("#columns", offset=(xs["cat"] + 1, 0))
        assert app.sort_key == "category"
        cats = [e.paper.primary_category for e in app.shown]
        assert cats == sorted(cats)
        await pilot.click("#columns", offset=(xs["rel"] + 1, 0))
        assert app.sort_key == "relevance"


# -- filters ------------------------------------------------------------------------------


async def test_text_filter_live_and_escape_clears(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        assert app.focused.id == "search"
        await pilot.press(*"mixture")
        n_mixture = len(app.shown)
        assert 0 < n_mixture < 244
        assert all("mixture" in e.search for e in app.shown)
        await pilot.press("space", *"experts")
        assert len(app.shown) <= n_mixture
        assert all("mixture" in e.search and "experts" in e.search for e in app.shown)
        assert '"mixture experts"' in app.header_text().plain
        # author names are searched too
        await pilot.press("escape")
        assert len(app.shown) == 244 and app.filters.text == ""
        assert app.focused is app.table
        author = app.entries[5].paper.authors[-1]
        await pilot.press("slash", *author.split()[-1].lower(), "enter")
        assert app.entries[5] in app.shown
        assert app.focused is app.table
        await pilot.press("escape")
        assert len(app.shown) == 244


async def test_filter_panel_combined_with_text(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"model", "enter")
        by_text = len(app.shown)
        await pilot.press("f")
        await pilot.pause()
        from textual.widgets import Checkbox, Input, SelectionList

        from paperterm.tui.filters import FilterScreen

        screen = app.screen
        assert isinstance(screen, FilterScreen)
        screen.query_one("#min-relevance", Input).value = "3"
        screen.query_one("#types", SelectionList).select("new")
        screen.query_one("#categories", SelectionList).select("cs.LG")
        screen.query_one("#starred", Checkbox).value = False
        await pilot.click("#apply")
        await pilot.pause()
        assert not isinstance(app.screen, FilterScreen)
        f = app.filters
        assert f.min_relevance == 3 and f.announce_types == {"new"} and f.text == "model"
        assert 0 < len(app.shown) < by_text
        for e in app.shown:
            assert e.relevance >= 3 and e.paper.announce_type == "new"
            assert "cs.LG" in e.paper.categories and "model" in e.search
        header = app.header_text().plain
        assert "rel≥3" in header and "type new" in header and "cat cs.LG" in header
        # unseen only + starred only
        await pilot.press("asterisk")
        starred = app.current
        await pilot.press("f")
        await pilot.pause()
        app.screen.query_one("#starred", Checkbox).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.shown == [starred]
        await pilot.press("f")
        await pilot.pause()
        await pilot.click("#clear")
        await pilot.pause()
        assert app.filters.min_relevance is None and not app.filters.starred_only
        assert app.filters.text == "model"
        # escape in the panel cancels
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, FilterScreen)


async def test_unseen_only_filter(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        for e in app.shown[:10]:
            e.seen = True
        app.filters.unseen_only = True
        app.refilter()
        await pilot.pause()
        assert len(app.shown) == 234 and all(not e.seen for e in app.shown)
        assert "unseen" in app.header_text().plain


# -- marks, stars, seen, saving -------------------------------------------------------------


async def test_star_persists_and_marks(tmp_path):
    ctx = make_ctx(tmp_path)
    app = QuietApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        first = app.current
        await pilot.press("asterisk")
        assert first.starred
        assert "★" in row_text(app, 0)
        await pilot.press("x", "j", "x", "j")
        assert [e.marked for e in app.shown[:3]] == [True, True, False]
        assert row_text(app, 0).rstrip().endswith("★") or "+" in row_text(app, 0)
        await pilot.press("X")
        assert not any(e.marked for e in app.entries)
        await pilot.press("k", "x", "x")
        assert not app.shown[1].marked
    store = Store(ctx.db_path)
    assert store.states([first.id])[first.id].starred
    store.close()
    # restarting shows the star
    app2 = QuietApp(ctx)
    async with app2.run_test(size=SIZE) as pilot:
        assert app2.by_id[first.id].starred
        await pilot.press("asterisk")  # the cursor is on the same first paper
        assert not app2.by_id[first.id].starred


async def test_seen_marked_when_cursor_rests_and_written_in_batches(tmp_path):
    ctx = make_ctx(tmp_path)

    class FastSeen(PapertermApp):
        SEEN_DELAY = 0.6  # long enough that three quick key presses pass under load
        SEEN_FLUSH_INTERVAL = 0.2

    app = FastSeen(ctx)
    async with app.run_test(size=SIZE) as pilot:
        first = app.shown[0]
        await until(pilot, lambda: first.seen)
        await pilot.press("j", "j", "j")  # passing over rows quickly does not mark them
        assert not app.shown[1].seen and not app.shown[2].seen
        await until(pilot, lambda: app.shown[3].seen)
        assert "•" not in row_text(app, 3)
        await until(pilot, lambda: not app._pending_seen)
        store = Store(ctx.db_path)
        states = store.states([e.id for e in app.shown[:4]])
        store.close()
        assert states[first.id].seen and states[app.shown[3].id].seen
        assert app.shown[1].id not in states


async def test_save_marked_to_bib_then_already_present(tmp_path):
    ctx = make_ctx(tmp_path)
    app = QuietApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        a, b = app.shown[0], app.shown[1]
        await pilot.press("x", "j", "x", "b")
        await pilot.pause()
        text = ctx.bib_path.read_text(encoding="utf-8")
        assert a.paper.id in text and b.paper.id in text
        assert a.saved and b.saved and a.bib_key and b.bib_key
        assert not a.marked and not b.marked
        said = notices(app)[-1]
        assert str(ctx.bib_path) in said and a.bib_key in said and b.bib_key in said
        assert "✓" in row_text(app, 0)
        # again, only the current paper: already present
        await pilot.press("b")
        await pilot.pause()
        said = notices(app)[-1]
        assert "already there" in said and b.bib_key in said
    store = Store(ctx.db_path)
    st = store.states([a.id, b.id])
    store.close()
    assert st[a.id].saved and st[a.id].bib_key == a.bib_key and st[b.id].saved


async def test_save_error_is_a_notice(tmp_path):
    ctx = make_ctx(tmp_path)
    ctx.bib_path.write_text("@article{broken,\n  title = {unclosed\n", encoding="utf-8")
    bad_pattern = make_ctx(tmp_path, config=Config(bibtex=BibtexConfig(key_pattern="{nope}")))
    for c in (ctx, bad_pattern):
        app = QuietApp(c)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("b")
            await pilot.pause()
            last = app._notifications._notifications
            errors = [n for n in last.values() if n.severity == "error"]
            assert errors and errors[-1].message.startswith("Not saved")
            assert not app.current.saved


# -- outside world: browser, clipboard ---------------------------------------------------------


async def test_open_abs_pdf_and_copy(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url) or True)
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        p = app.current.paper
        await pilot.press("o", "p")
        assert opened == [f"https://arxiv.org/abs/{p.id}", f"https://arxiv.org/pdf/{p.versioned_id}"]
        copied: list[str] = []
        monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
        await pilot.press("c")
        assert len(copied) == 1
        assert copied[0].lstrip().startswith("@") and p.id in copied[0]


async def test_no_browser_is_a_notice(tmp_path, monkeypatch):
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: False)
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        assert "No browser found" in notices(app)[-1]


# -- hostile text -----------------------------------------------------------------------------


async def test_hostile_text_is_literal(tmp_path):
    papers = hostile_papers()
    app = QuietApp(make_ctx(tmp_path, papers))
    async with app.run_test(size=SIZE) as pilot:
        app.table.move_to_id(papers[0].id)
        await pilot.pause()
        y = app.table.cursor - int(app.table.scroll_y)
        cell = row_text(app, y)
        assert "[bold red]x[/] [link=http://e]y z" in cell
        assert "\x1b" not in cell and "[i]Mallory" in cell
        meta = app.preview.meta_text().plain
        assert "[bold red]x[/] [link=http://e]y z" in meta
        assert "[i]Mallory, Eve [/]" in meta
        assert "\x1b" not in meta and "\x07" not in meta and "pwned" not in meta
        abstract = app.preview.abstract_plain()
        assert "[blink]markup[/blink]" in abstract and "unmatched [ bracket" in abstract
        assert not any(ch in abstract for ch in "\x1b\x07\x9b")
        # the whole screen renders, and no cell of it carries a hostile style or link
        for strip in [app.table.render_line(y)]:
            for seg in strip:
                assert seg.style is None or not seg.style.link
        svg = app.export_screenshot()
        assert "[bold red]x[/]" in svg.replace("&#160;", " ")
        await pilot.press("slash", *"mallory", "enter")
        assert app.shown == [app.by_id[papers[0].id]]


async def test_hostile_reason_and_notice(tmp_path):
    app = QuietApp(make_ctx(tmp_path, notices=["[red]weekend[/] \x1b[31m no announcements"]))
    async with app.run_test(size=SIZE) as pilot:
        e = app.current
        app.apply_scores([Score(e.id, e.paper.version, 9, 9, "[b]great[/b] \x1b[5mfit", "scored")])
        await until(pilot, lambda: "great" in app.preview.meta_text().plain)
        meta = app.preview.meta_text().plain
        assert "[b]great[/b] fit" in meta and "\x1b" not in meta
        assert any("[red]weekend[/]" in n for n in notices(app))


# -- live scores ----------------------------------------------------------------------------


def _scores_for(entries, rel=lambda i: 10 - i % 10):
    return [
        Score(e.id, e.paper.version, rel(i), 5, f"reason {i}", "scored")
        for i, e in enumerate(entries)
    ]


async def test_live_scores_from_a_thread_coalesce_and_keep_cursor(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        for e in app.entries:
            e.set_score(None, None, "", "queued")
        app.refilter()
        await pilot.press(*["j"] * 12)
        reading = app.current
        assert "…" in row_text(app, 0)
        calls = {"refilter": 0}
        original = app.refilter

        def counting() -> None:
            calls["refilter"] += 1
            original()

        app.refilter = counting  # type: ignore[method-assign]
        batches = [app.entries[i : i + 20] for i in range(0, 244, 20)]

        def feed() -> None:
            for batch in batches:
                app.call_from_thread(app.apply_scores, _scores_for(batch))

        worker = threading.Thread(target=feed)
        worker.start()
        while worker.is_alive():  # call_from_thread needs the event loop running
            await pilot.pause(0.01)
        await until(pilot, lambda: all(e.relevance is not None for e in app.entries))
        assert calls["refilter"] < len(batches)  # coalesced, not one repaint per batch
        assert app.current is reading and cursor_visible(app)
        rels = [e.relevance for e in app.shown]
        assert rels == sorted(rels, reverse=True)
        assert "reason" in app.preview.meta_text().plain


async def test_failed_scores_show_bang_and_reason(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        for e in app.entries:
            e.set_score(None, None, "", "queued")
        app.sort_key = "order"
        app.refilter()
        app.table.move_to(0)
        e0 = app.shown[0]
        app.apply_scores([Score(e0.id, e0.paper.version, None, None, "", "unscored",
                                error="the model's answer had no score for it")])
        await until(pilot, lambda: row_text(app, 0).split()[0] == "!")
        assert "!" in row_text(app, 0) and "…" in row_text(app, 1)
        assert "answer had no score" in app.preview.meta_text().plain


def _fake_run(scores_for, summary, error=None, gate=None):
    """A stand-in for paperterm.scoring.run_scoring."""

    def run_scoring(papers, topic, settings, *, db_path, on_scores=None, on_progress=None,
                    cancel=None):
        if gate is not None:
            gate.wait(5)
        if error is not None:
            raise error
        done = RunSummary(model=settings.model, total=len(papers))
        for i in range(0, len(papers), 10):
            batch = papers[i : i + 10]
            on_scores([Score(p.id, p.version, *scores_for(p), "fake", "scored") for p in batch])
            done.scored += len(batch)
            done.prompt_tokens += 1000
            done.cost = (done.cost or 0) + 0.001
            on_progress(done)
        summary.total = len(papers)
        summary.scored = len(papers)
        return summary

    return run_scoring


async def test_llm_scoring_starts_itself_with_cache_first(tmp_path, monkeypatch):
    import paperterm.scoring as scoring

    settings = ScoringSettings(model="openai/fake-model")
    ctx = make_ctx(tmp_path, settings=settings)
    papers = ctx.day.papers
    # cache scores for the first 50 papers
    from paperterm.scoring.cache import NewScore, save_request

    store = Store(ctx.db_path)
    save_request(store, model=settings.model, topic=ctx.topic, n_papers=50, prompt_tokens=1,
                 completion_tokens=1, cost=0.0,
                 scores=[NewScore(p, 7, 3, "cached reason") for p in papers[:50]])
    store.close()
    seen_ids: list[list[str]] = []
    gate = threading.Event()
    summary = RunSummary(model=settings.model, prompt_tokens=12000, completion_tokens=3000,
                         cost=0.0123)
    fake = _fake_run(lambda p: (4, 6), summary, gate=gate)

    def spy(papers, *a, **k):
        seen_ids.append([p.id for p in papers])
        return fake(papers, *a, **k)

    monkeypatch.setattr(scoring, "run_scoring", spy, raising=False)
    if not hasattr(scoring, "ScoringError"):
        monkeypatch.setattr(scoring, "ScoringError", RuntimeError, raising=False)
    app = QuietApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cached = [app.by_id[p.id] for p in papers[:50]]
        assert all(e.status == "cached" and e.relevance == 7 for e in cached)
        assert all(app.by_id[p.id].status == "queued" for p in papers[50:])
        assert app.scoring and "scoring" in app.header_text().plain
        gate.set()
        await until(pilot, lambda: not app.scoring, 15)
        assert not app.scoring
        assert seen_ids == [[p.id for p in papers[50:]]]
        assert all(app.by_id[p.id].relevance == 4 for p in papers[50:])
        header = app.header_text().plain
        assert "15.0k tokens" in header and "$0.0123" in header
        assert not any("--model" in n for n in notices(app))


async def test_scoring_error_and_budget_are_notices(tmp_path, monkeypatch):
    import paperterm.scoring as scoring

    class FakeScoringError(Exception):
        pass

    err_cls = getattr(scoring, "ScoringError", FakeScoringError)
    monkeypatch.setattr(scoring, "ScoringError", err_cls, raising=False)
    settings = ScoringSettings(model="openai/fake-model")
    monkeypatch.setattr(scoring, "run_scoring", _fake_run(
        None, None, error=err_cls("authentication failed: set OPENAI_API_KEY")), raising=False)
    app = QuietApp(make_ctx(tmp_path, settings=settings))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.scoring, 15)
        assert any("OPENAI_API_KEY" in n for n in notices(app))
        assert all(e.status == "failed" for e in app.entries)
        assert row_text(app, 0).split()[0] == "!"

    stopped = RunSummary(model=settings.model, stopped="budget of $0.01 reached")

    def half(papers, topic, settings, *, db_path, on_scores, on_progress, cancel=None):
        on_scores([Score(p.id, p.version, 5, 5, "ok", "scored") for p in papers[:10]])
        return stopped

    monkeypatch.setattr(scoring, "run_scoring", half, raising=False)
    app = QuietApp(make_ctx(tmp_path, settings=settings))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.scoring, 15)
        assert any("budget of $0.01 reached" in n for n in notices(app))
        assert sum(e.relevance == 5 for e in app.entries) == 10
        assert sum(e.status == "failed" for e in app.entries) == 234


async def test_rescore_local_and_llm(tmp_path, monkeypatch):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        before = [e.relevance for e in app.entries]
        await pilot.press("r")
        assert [e.relevance for e in app.entries] == before
        assert "--model" in notices(app)[-1]

    import paperterm.scoring as scoring

    if not hasattr(scoring, "ScoringError"):
        monkeypatch.setattr(scoring, "ScoringError", RuntimeError, raising=False)
    calls: list[int] = []

    def fake(papers, topic, settings, *, db_path, on_scores, on_progress, cancel=None):
        calls.append(len(papers))
        on_scores([Score(p.id, p.version, 8, 2, "llm", "scored") for p in papers])
        return RunSummary(model=settings.model, total=len(papers), scored=len(papers))

    monkeypatch.setattr(scoring, "run_scoring", fake, raising=False)
    app = QuietApp(make_ctx(tmp_path, settings=ScoringSettings(model="openai/fake")))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.scoring, 15)
        assert calls == [244]
        await pilot.press("slash", *"mixture", "enter")
        shown = len(app.shown)
        for e in app.shown:
            e.set_score(None, None, "", "failed", "boom")
        await pilot.press("r")
        await until(pilot, lambda: not app.scoring, 15)
        assert calls == [244, shown]
        assert all(e.relevance == 8 for e in app.shown)


# -- topic, theme, palette, help, keys, quit -----------------------------------------------------


async def test_switch_topic_with_picker(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        before = {e.id: e.relevance for e in app.entries}
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*"agents")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.topic.name == "agents"
        assert "agents" in app.header_text().plain
        after = {e.id: e.relevance for e in app.entries}
        assert after != before and all(v is not None for v in after.values())


async def test_cycle_theme_and_builtin(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "paperterm-dark"
        names = app.theme_cycle()
        assert {"paperterm-dark", "paperterm-light", "paperterm-solarized"} <= set(names)
        assert "nord" in names  # Textual's own themes too
        await pilot.press("T")
        assert app.theme == names[1]
        ctx = make_ctx(tmp_path)
        ctx.theme = "nord"
    app = QuietApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "nord"
        assert app.get_css_variables()["score-high"]


async def test_broken_theme_file_is_a_notice(tmp_path):
    cfg_dir = tmp_path / "cfg"
    (cfg_dir / "themes").mkdir(parents=True)
    (cfg_dir / "themes" / "broken.toml").write_text("name = [unclosed", encoding="utf-8")
    (cfg_dir / "themes" / "mine.toml").write_text(
        (ROOT / "themes" / "paperterm-light.toml").read_text(encoding="utf-8").replace(
            'name = "paperterm-light"', 'name = "mine"'), encoding="utf-8")
    config = Config(theme="broken", path=cfg_dir / "config.toml")
    app = QuietApp(make_ctx(tmp_path, config=config))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "paperterm-dark"
        said = " ".join(notices(app))
        assert "broken.toml" in said and "theme 'broken' not found" in said
        assert "mine" in app.theme_cycle()


async def test_command_palette_runs_actions(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"star / unstar")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.current.starred
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"last paper")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.table.cursor == 243


async def test_palette_provider_lists_every_action(tmp_path):
    from paperterm.tui.commands import PapertermCommands
    from paperterm.tui.keys import ALL_KEYS

    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE):
        provider = PapertermCommands(app.screen)
        names = [name for name, _, _ in provider._commands()]
        assert names == [k.help for k in ALL_KEYS]
        hits = [h async for h in provider.discover()]
        assert len(hits) == len(ALL_KEYS)


async def test_help_lists_every_binding_and_closes(tmp_path):
    from paperterm.tui.keys import ALL_KEYS

    app = QuietApp(make_ctx(tmp_path, config=Config(keys={"star": "z"})))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.table
        keys = [str(c) for c in table.columns[0]._cells]
        actions = [str(c) for c in table.columns[1]._cells]
        for spec in ALL_KEYS:
            assert spec.help in actions, spec.help
        assert "z" in keys[actions.index("Star / unstar the paper")]
        assert "ctrl+p" in keys and "j" in keys[actions.index("Next paper")]
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_keys_remap_from_config(tmp_path):
    config = Config(keys={"star": "z", "down": "n", "nonsense": "y"})
    app = QuietApp(make_ctx(tmp_path, config=config))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert app.table.cursor == 1
        await pilot.press("z")
        assert app.current.starred
        await pilot.press("asterisk")  # no longer bound
        assert app.current.starred
        assert any("unknown action 'nonsense'" in n for n in notices(app))


async def test_quit(tmp_path):
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_empty_day_and_no_matches(tmp_path):
    app = QuietApp(make_ctx(tmp_path, papers=[], day_notices=["No announcements on weekends."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", "enter", "asterisk", "x", "b", "o", "c", "s", "r")
        assert app.current is None
        assert "0/0" in app.header_text().plain
        assert any("weekends" in n for n in notices(app))
    app = QuietApp(make_ctx(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"zzzqqqxxx")
        assert app.shown == [] and app.current is None
        assert "No paper matches" in app.preview.meta_text().plain
        await pilot.press("escape")
        assert app.current is not None


@pytest.mark.parametrize("n", [5000])
async def test_five_thousand_rows_filter_and_sort(tmp_path, n):
    base = example_papers()
    papers = [replace(base[i % len(base)], id=f"2602.{i:05d}") for i in range(n)]
    app = QuietApp(make_ctx(tmp_path, papers))
    async with app.run_test(size=SIZE) as pilot:
        assert len(app.shown) == n
        await pilot.press("G")
        assert app.table.cursor == n - 1 and cursor_visible(app)
        await pilot.press("s", "slash", *"expert", "escape")
        assert len(app.shown) == n


# -- end to end with the real engine and a fake OpenAI-compatible server ---------------------


async def _wait_scoring_done(app: PapertermApp, pilot, seconds: float = 60) -> None:
    for _ in range(int(seconds / 0.05)):
        await pilot.pause(0.05)
        if not app.scoring:
            return
    raise AssertionError("scoring did not finish")


async def test_llm_scoring_end_to_end_with_fake_server(tmp_path, monkeypatch):
    from fakellm import Behaviour, FakeLLM, expected_scores

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers = example_papers()[:40]
    with FakeLLM() as llm:
        llm.push(Behaviour(), Behaviour(drop=(papers[5].id,)))  # one paper left out
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url,
                                   batch_size=10, concurrency=2)
        ctx = make_ctx(tmp_path, papers, settings=settings)
        app = QuietApp(ctx)
        async with app.run_test(size=SIZE) as pilot:
            await _wait_scoring_done(app, pilot)
            assert llm.count >= 4  # 40 papers in batches of 10, plus the re-asked one
            scored = [e for e in app.entries if e.relevance is not None]
            assert len(scored) >= 39
            for e in scored:
                assert (e.relevance, e.novelty) == expected_scores(e.id)
            rels = [e.relevance for e in app.shown if e.relevance is not None]
            assert rels == sorted(rels, reverse=True)
            assert "tokens" in app.header_text().plain
        # a second start reads everything from the cache: no request at all
        before = llm.count
        app = QuietApp(make_ctx(tmp_path, papers, settings=settings))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.2)
            cached = [e for e in app.entries if e.status == "cached"]
            assert len(cached) >= 39
            await _wait_scoring_done(app, pilot)
        assert llm.count - before <= 1  # at most the one paper that was left out


async def test_llm_auth_failure_is_a_notice(tmp_path, monkeypatch):
    from fakellm import Behaviour, FakeLLM

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    papers = example_papers()[:10]
    with FakeLLM() as llm:
        llm.default = Behaviour(status=401, error_message="Incorrect API key provided")
        settings = ScoringSettings(model="openai/gpt-4o-mini", api_base=llm.url, batch_size=5)
        app = QuietApp(make_ctx(tmp_path, papers, settings=settings))
        async with app.run_test(size=SIZE) as pilot:
            await _wait_scoring_done(app, pilot)
            errors = [n for n in app._notifications._notifications.values()
                      if n.severity in ("error", "warning")]
            assert errors, notices(app)
            assert all(e.relevance is None for e in app.entries)
            assert row_text(app, 0).split()[0] == "!"


async def test_keys_typed_right_after_slash_go_to_the_search_box(tmp_path):
    """A fast typist's keys are queued before "/" is handled: none may reach the list
    (where "b" would save and "q" would quit)."""
    from textual import events

    app = QuietApp(make_ctx(tmp_path, example_papers()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for ch in "/mobiq":
            app.post_message(events.Key("slash" if ch == "/" else ch, ch))
        await until(pilot, lambda: app.query_one("#search").value == "mobiq")
        assert app.is_running
        assert app.query_one("#search").value == "mobiq"
        assert [e.paper.id for e in app.shown] == ["2602.20191"]
        assert not (tmp_path / "papers.bib").exists()
        # "/" inside the search box is text, not a new search
        await pilot.press("slash")
        assert app.query_one("#search").value == "mobiq/"


async def test_keys_typed_right_after_enter_in_the_search_box_go_to_the_list(tmp_path):
    """`/ word enter j x` typed in one burst: enter keeps the filter and hands the keys that
    follow to the list (they were queued before enter was handled)."""
    from textual import events

    app = QuietApp(make_ctx(tmp_path, example_papers()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"quantization")
        await pilot.pause()
        shown = len(app.shown)
        for key, ch in (("enter", "\r"), ("j", "j"), ("x", "x")):
            app.post_message(events.Key(key, ch))
        await until(pilot, lambda: len(app.shown) > 1 and app.shown[1].marked)
        assert app.query_one("#search").value == "quantization"
        assert len(app.shown) == shown
        assert app.focused is app.table
        assert app.table.cursor == 1
        assert app.shown[1].marked


async def test_footer_keeps_help_and_quit_on_an_80_column_terminal(tmp_path):
    app = QuietApp(make_ctx(tmp_path, example_papers()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from textual.widgets import Footer

        footer = app.query_one(Footer)
        assert footer.compact
        visible = [w for w in footer.query("FooterKey")
                   if w.region.width and w.region.right <= 80]
        labels = " ".join(f"{w.key_display} {w.description}" for w in visible)
        assert "Help" in labels and "Quit" in labels, labels
