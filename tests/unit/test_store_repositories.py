"""The store as repositories over one database: the holder, the stand-in that keeps nothing,
and the factory handed to threads."""

from __future__ import annotations

import inspect
import threading
from datetime import date

from paperterm.day.session import Session
from paperterm.models import Paper
from paperterm.store import Store, StoreError, open_or_unavailable, opener
from paperterm.store.db import Database, Queries
from paperterm.store.repositories import Repository

REPOSITORIES = ("papers", "marks", "scores", "library", "enrichment", "deliveries", "zotero",
                "health")


def _paper(pid: str) -> Paper:
    return Paper(id=pid, version=1, title=f"Title {pid}", authors=("A. Author",),
                 abstract="An abstract.", categories=("cs.LG",), primary_category="cs.LG")


def test_the_store_is_a_plain_holder_of_repositories_over_one_connection(tmp_path):
    assert Store.__bases__ == (object,)
    store = Store.open(tmp_path / "db.sqlite3")
    try:
        repos = [getattr(store, name) for name in REPOSITORIES]
        assert all(isinstance(r, (Repository, Queries)) and r.db is store.db for r in repos)
        for r in repos:  # composed, not stacked: at most one base besides object
            assert len([c for c in type(r).__bases__ if c is not object]) <= 1
        assert not isinstance(store, Database)
    finally:
        store.close()


def test_each_public_method_lives_in_one_repository(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    try:
        owners: dict[str, list[str]] = {}
        for name in REPOSITORIES:
            repo = getattr(store, name)
            surface = [m for m, v in vars(repo).items() if callable(v)] or [
                m for m, _ in inspect.getmembers(type(repo), inspect.isfunction)]
            for method in surface:
                if not method.startswith("_") and method not in ("transaction", "select_in"):
                    owners.setdefault(method, []).append(name)
        assert {m: o for m, o in owners.items() if len(o) > 1} == {}
        assert {"all_tags", "tagged_ids", "positive_sources"}.isdisjoint(owners)  # dead code
    finally:
        store.close()


def test_a_write_through_one_repository_is_read_through_another(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    try:
        store.papers.save_day("cs.LG", date(2026, 3, 2), [_paper("2603.00001")], source="rss")
        with store.transaction():  # the holder's transaction is the repositories'
            store.marks.set_starred("2603.00001", True)
        assert store.marks.starred_ids() == {"2603.00001"}
        assert [h.paper.id for h in store.library.search("title")] == ["2603.00001"]
    finally:
        store.close()


def test_an_unavailable_store_reads_empty_keeps_nothing_and_says_why():
    store = Store.unavailable("cannot write the database")
    assert not store.available and store.problem == "cannot write the database"
    assert not store.zotero.available  # what a repository's user checks before promising
    store.marks.set_starred("2603.00001", True)  # works, in memory only
    assert store.marks.states(["2603.00002"]) == {}
    assert store.library.search("anything") == []
    store.close()
    store.close()  # closing twice is harmless
    assert store.closed


def test_a_factory_opens_one_store_per_call_usable_in_its_own_thread(tmp_path):
    open_store = opener(tmp_path / "db.sqlite3")
    seen: list[int] = []

    def worker() -> None:
        store = open_store()
        try:
            store.papers.save_day("cs.LG", None, [_paper("2603.00003")], source="rss")
            seen.append(store.papers.paper_count())
        finally:
            store.close()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [1]
    store = open_store()
    assert store.available and store.library.cached_papers(["2603.00003"])
    store.close()


def test_a_factory_that_fails_gives_a_stand_in_saying_why(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")

    def failing() -> Store:
        raise StoreError("cannot open it")

    assert open_or_unavailable(failing).problem == "cannot open it"
    stand_in = open_or_unavailable(opener(blocked / "db.sqlite3"))
    assert not stand_in.available and "is a file, not a folder" in (stand_in.problem or "")
    assert str(blocked) in (stand_in.problem or "")


def test_a_session_without_a_store_has_a_stand_in(tmp_path):
    from paperterm.models import Day, Topic
    from paperterm.settings import ScoringSettings
    from paperterm.settings.config import Config

    s = Session(config=Config(), day=Day([], "empty", None, "sample"),
                topic=Topic(name="t", description=""), settings=ScoringSettings(),
                db_path=tmp_path / "db.sqlite3", bib_path=tmp_path / "refs.bib")
    assert not s.store.available
    s.close()
    assert s.store.closed
    opened = s.open_store()  # the session's factory opens its real database
    assert opened.available and opened.path == tmp_path / "db.sqlite3"
    opened.close()
