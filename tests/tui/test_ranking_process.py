"""The local ranking runs beside the reader, not in it (issue 21, item 4): embedding the day
and learning from the marks never hold the reader's interpreter, so keys stay quick. A
ranking process that dies leaves the reader ranking by itself, saying so; quitting stops it.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from support.waiting import wait_for

import paperterm.scoring.local.semantic as semantic
from paperterm.scoring.local import rank_locally
from paperterm.scoring.ranking_process import RankingProcess, RankingProcessFailed
from paperterm.store import Store

pytestmark = pytest.mark.usefixtures("embedding_model")


def _cached_day(session, papers) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(session.db_path)  # the day is cached, as the loader leaves it
    store.papers.save_day("cs.LG+cs.AI", session.day.day, papers, source="rss")
    store.close()


def _blended(p) -> bool:  # type: ignore[no-untyped-def]
    return any("close to the topic" in e.reason for e in p.shown)


async def test_the_blend_is_made_in_the_ranking_process(make_session, make_app, probe, size,
                                                        until, example_papers, monkeypatch,
                                                        ranking_cpu):
    monkeypatch.setattr(semantic, "_model", None)  # none loaded here by an earlier test
    session = make_session()
    _cached_day(session, example_papers)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: _blended(p), seconds=30, cpu=ranking_cpu(app),
                    what="the blend")
        child = app.ranking.pid
        assert child is not None and child != os.getpid(), app.said
        assert semantic._model is None  # the embedding model was loaded over there only
    # quitting stopped it (a child at nice 10 on a loaded machine takes its time to go)
    wait_for(lambda: app.ranking.pid is None, 60, what="the ranking process ending")
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)


async def test_a_killed_ranking_process_is_started_again(make_session, make_app, probe, size,
                                                         until, example_papers, ranking_cpu):
    session = make_session()
    _cached_day(session, example_papers)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        children = ranking_cpu(app)  # both: the first and the one started again
        await until(pilot, lambda: _blended(p), seconds=30, cpu=children, what="the blend")
        killed = app.ranking.pid
        os.kill(killed, signal.SIGKILL)
        await until(pilot, lambda: app.ranking.pid is None)  # gone between two rankings
        target = next(e for e in p.shown if e.paper.title.startswith("MoBiQuant"))
        before = target.fine
        p.to_paper(target.id)
        await pilot.press("asterisk")  # a star ranks the day again
        await until(pilot, lambda: target.fine != before, seconds=60, cpu=children,
                    what="the ranking after the star, in a new process")
        assert target.fine > before and app.ranking.pid not in (None, killed)
        assert not p.notices("warning", "error")


async def test_a_ranking_process_that_fails_leaves_the_reader_ranking(
        make_session, make_app, probe, size, until, example_papers, monkeypatch):
    import paperterm.scoring.ranking_process as process

    monkeypatch.setattr(process, "CHILD", "import sys; sys.exit(3)")  # a broken install
    session = make_session()
    _cached_day(session, example_papers)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: _blended(p), what="the blend, made in the reader")
        assert p.said("the ranking process stopped") and p.said("ranking in the reader instead")
        assert not app.ranking.usable and app.is_running
        target = next(e for e in p.shown if e.paper.title.startswith("MoBiQuant"))
        before, said = target.fine, len(p.notices())
        p.to_paper(target.id)
        await pilot.press("asterisk")  # ranked again, here, without a second notice
        await until(pilot, lambda: target.fine != before, what="the ranking after the star")
        assert not any("ranking process" in n for n in p.notices()[said:])


@pytest.mark.timeout(120)  # quitting that waited for the ranking below would never end
async def test_quitting_during_a_ranking_does_not_wait_for_it(
        make_session, make_app, probe, size, until, example_papers, monkeypatch):
    import paperterm.scoring.ranking_process as process

    # a ranking that never ends: quitting that waited for it would never end either (with a
    # real one the difference is a few seconds, which a loaded machine blurs)
    monkeypatch.setattr(process, "CHILD", "import time; time.sleep(3600)")
    session = make_session(example_papers * 1)
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.ranking.pid is not None, what="the ranking process")
        child = app.ranking.pid
        started = time.monotonic()
        await pilot.press("q")
    assert time.monotonic() - started < 60, "quitting waited for the ranking"
    assert app.return_code == 0
    wait_for(lambda: app.ranking.pid is None, 60, what="the ranking process ending")
    with pytest.raises(ProcessLookupError):  # killed, not left behind
        os.kill(child, 0)


def test_the_process_ranks_as_the_caller_would(tmp_path, example_papers, make_session):
    session = make_session()
    process = RankingProcess()
    try:
        there = process.rank(session.db_path, example_papers, session.topic, day="d",
                             keywords_only=True)
        again = process.rank(session.db_path, example_papers, session.topic, day="d",
                             keywords_only=True)  # the papers are not sent again
    finally:
        process.close()
    store = Store.open(session.db_path)
    try:
        here = rank_locally(store, example_papers, session.topic, day="d", keywords_only=True)
    finally:
        store.close()
    assert there == again == here and len(here) == len(example_papers)
    with pytest.raises(RankingProcessFailed, match="closed"):
        process.rank(session.db_path, example_papers, session.topic, keywords_only=True)
