"""The reader's search box never waits for its query (issue 20, item 6: at 20,000 cached
papers each keystroke ran the whole search before the letter showed, 155-204 ms under
load); and a hit shows the score its day list shows."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from support.olderday import older_day

from paperterm.day.session import Session
from paperterm.store import Library, SearchHit, Store
from paperterm.tui.screens.library import LibraryScreen

GATE_TIMEOUT = 3.0  # a search blocked longer than this goes on (the old code blocked the keys)


class HeldLibrary(Library):
    """Searches wait until `gate` opens; each search's query is recorded as it starts."""

    def __init__(self, db: Any, gate: threading.Event, started: list[str]) -> None:
        super().__init__(db)
        self.gate, self.started = gate, started
        search = self.search  # a repository's surface is its attributes (composed)

        def held(query: str, **kwargs: Any) -> list[SearchHit]:
            self.started.append(query)
            self.gate.wait(GATE_TIMEOUT)
            return search(query, **kwargs)

        self.search = held  # type: ignore[method-assign]


class HeldStore(Store):
    """A real store whose full-text search is held at a gate."""

    def __init__(self, path: Path, gate: threading.Event, started: list[str]) -> None:
        super().__init__(path)
        self.library = HeldLibrary(self.db, gate, started)


def held_session(session: Session, gate: threading.Event, started: list[str]) -> Session:
    """The session, its stores for worker threads held at the gate."""

    class Held(Session):
        def open_store(self) -> Store:
            return HeldStore(self.db_path, gate, started)

    return Held(**{f.name: getattr(session, f.name) for f in fields(session)})


async def test_typing_echoes_each_letter_at_once_while_a_slow_search_runs(
        make_session, make_app, size, until):
    gate, started = threading.Event(), []
    session = make_session()
    older_day(session.db_path)
    app = make_app(held_session(session, gate, started), autoscore=False)
    async with app.run_test(size=size) as pilot:
        # the reader's own store is held too: a search on the keys' thread blocks them
        app.store.library = HeldLibrary(app.store.db, gate, started)
        await pilot.press("F")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        box = screen.query_one("#library-query")
        typed = ""
        for part in ("zebrafish", " -schools"):
            for letter in part:
                t = time.perf_counter()
                await pilot.press("minus" if letter == "-" else
                                  "space" if letter == " " else letter)
                typed += letter
                assert time.perf_counter() - t < GATE_TIMEOUT / 3, "the key waited"
                assert box.value == typed  # type: ignore[attr-defined]
                assert typed in box.render_line(0).text  # type: ignore[attr-defined]
            if part == "zebrafish":  # typing pauses: a search has started, and is held
                await until(pilot, lambda: len(started) == 1)
        # one search at a time: the first (of the word, or of a prefix typed before a
        # pause) is held, and no other has started
        assert "zebrafish".startswith(started[0]) and len(started) == 1
        assert screen.hits == []
        shown: list[list[str]] = []
        show = screen.show_results
        screen.show_results = lambda hits, scores: (  # type: ignore[method-assign]
            shown.append([h.paper.id for h in hits]), show(hits, scores))[-1]
        gate.set()
        await until(pilot, lambda: [h.paper.id for h in screen.hits][:1] == ["2602.00001"])
        await until(pilot, lambda: not screen.workers)
        # the held search ended after the box had moved on: its hits were dropped, and only
        # the newest query ran after it
        assert started[1:] == ["zebrafish -schools"]
        assert shown == [["2602.00001"]]


async def test_a_hit_in_the_search_box_shows_the_score_of_its_day_list(
        make_session, make_app, probe, size, until, cli, isolated_home):
    """The day list's first values (keywords, the blend not there: no embedding model here)
    are what the search box and `search --json` show, marked provisional ("~7")."""
    from dataclasses import replace

    session = replace(make_session(), db_path=isolated_home.db)
    store = Store.open(session.db_path)  # the loader caches the day it shows
    store.papers.save_day("cs.AI+cs.LG", session.day.day, session.day.papers, source="feed")
    store.close()
    app = make_app(session, autoscore=False)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: p.shown[0].relevance is not None)
        day_list = {e.id: e.relevance for e in p.day.entries}
        top = p.shown[0].paper
        word = max((w for w in top.title.split() if w.isalpha()), key=len).lower()
        await pilot.press("F", *word)
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: top.id in [h.paper.id for h in screen.hits])
        i = [h.paper.id for h in screen.hits].index(top.id)
        row = str(screen.query_one("#library-results").get_option_at_index(i).prompt)
        assert row.startswith(f"~{day_list[top.id]} ")
    rows = json.loads(cli("search", word, "--json", "--limit", "500").stdout)
    assert rows and {r["score_from"] for r in rows} == {"keywords (provisional)"}
    assert {r["id"]: r["relevance"] for r in rows} == {
        r["id"]: day_list[r["id"]] for r in rows}


async def test_a_search_that_fails_leaves_the_box_searching(make_session, make_app, size,
                                                            until):
    failed: list[str] = []

    class FailingLibrary(Library):
        """The first search fails as a disk going bad would."""

        def __init__(self, db: Any) -> None:
            super().__init__(db)
            search = self.search  # a repository's surface is its attributes (composed)

            def failing(query: str, **kwargs: Any) -> list[SearchHit]:
                if not failed:
                    failed.append(query)
                    raise OSError("disk I/O error")
                return search(query, **kwargs)

            self.search = failing  # type: ignore[method-assign]

    class Failing(Session):
        def open_store(self) -> Store:
            store = Store(self.db_path)
            store.library = FailingLibrary(store.db)
            return store

    session = make_session()
    older_day(session.db_path)
    app = make_app(Failing(**{f.name: getattr(session, f.name) for f in fields(session)}),
                   autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("F", *"zebrafish")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: failed and not screen.workers)
        assert screen.hits == []  # the failed search: nothing found, no crash
        await pilot.press("space", *"larvae")
        await until(pilot, lambda: [h.paper.id for h in screen.hits][:1] == ["2602.00001"])
