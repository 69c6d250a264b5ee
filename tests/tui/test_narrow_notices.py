"""Issue 32, low: at 80 columns a notice stands in the header line's place, cut at the
width. The first start's hint was cut before the model to pass ("…pass --model openai/gpt-4o-"),
and a failed `[` / `]` said the day it could not load first, so the day on screen was hidden
(header and notice alike) while the notice was up. Both are read off the header line as the
terminal shows it, at 80x24."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from support.fakearxiv import closed_port

from paperterm.models import Paper
from paperterm.sources.loader import LoadRequest
from paperterm.store import Store

NARROW = (80, 24)
FEED = "cs.AI+cs.LG"


def _papers(tag: str, n: int = 3) -> list[Paper]:
    return [Paper(f"2603.{tag}{i:02d}", 1, f"{tag} paper {i} on sparse experts",
                  ("A. Author",), "An abstract about experts.", ("cs.LG",), "cs.LG")
            for i in range(n)]


async def test_the_first_start_hint_shows_the_model_to_pass_at_80_columns(
        make_session, make_app, probe, until):
    app = make_app(make_session())
    async with app.run_test(size=NARROW) as pilot:
        p = probe(app)
        await until(pilot, lambda: "LLM scoring" in p.header_notice())
        assert "--model openai/gpt-4o-mini" in p.header_notice()


async def test_a_failed_step_names_the_day_shown_first_at_80_columns(
        make_session, make_app, probe, until, monkeypatch):
    """Today is Thu 03-05; 03-02 and 03-04 are cached, 03-03 is not and arXiv is down."""
    dead = closed_port()
    monkeypatch.setenv("PAPERTERM_RSS_URL", f"http://127.0.0.1:{dead}/rss/{{cats}}")
    monkeypatch.setenv("PAPERTERM_ARXIV_API_URL", f"http://127.0.0.1:{dead}/api/query?{{}}")
    monkeypatch.setenv("PAPERTERM_TODAY", "2026-03-05")
    session = make_session(_papers("04"))
    store = Store.open(session.db_path)
    store.papers.save_day(FEED, date(2026, 3, 2), _papers("02"), source="rss")
    store.papers.save_day(FEED, date(2026, 3, 4), _papers("04"), source="rss")
    store.close()
    day = replace(session.day, label="2026-03-04", day=date(2026, 3, 4), source="cache")
    req = LoadRequest(categories=["cs.LG", "cs.AI"], announce_types=["new", "cross"])
    app = make_app(replace(session, day=day, request=req), autoscore=False)
    async with app.run_test(size=NARROW) as pilot:
        p = probe(app)
        await pilot.pause()
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: app.session.day.label == "2026-03-02"
                    and p.said("2026-03-03"))
        await pilot.pause()
        line = p.header_notice()
        assert "2026-03-03" in line  # the notice is up
        assert "2026-03-02" in line  # and says the day on screen
