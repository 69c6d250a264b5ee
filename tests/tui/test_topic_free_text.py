"""The topic switcher takes free text (issue 32, item 9): `t` then any words offers them as
a free-text topic (it said "No matches found"), and a free-text topic the reader started
with is offered again after switching away."""

from __future__ import annotations


def _shows_topic(p, name: str) -> bool:
    """The header names the topic ("topic moe ·", or at first "moe ·" where it is short of
    room)."""
    header = " ".join(p.header().split()).replace(" (free text) ·", " ·")  # free text says so
    return f"topic {name} ·" in header or header.startswith(f"{name} ·")


def _options(app) -> list[str]:
    return [str(o.prompt) for o in app.screen.query_one("CommandList").options]


async def _type_in_switcher(pilot, app, until, text: str) -> None:
    await pilot.press("t")
    await until(pilot, lambda: app.screen.__class__.__name__ == "SafeCommandPalette")
    await pilot.press(*text)


async def test_free_text_in_the_topic_switcher(make_session, make_app, probe, until, size):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await _type_in_switcher(pilot, app, until, "speculative decoding")
        await until(pilot, lambda: any("speculative decoding" in o for o in _options(app)))
        assert "No matches found" not in " ".join(_options(app))
        await pilot.press("enter")
        await until(pilot, lambda: _shows_topic(p, "speculative decoding"))
        assert p.day.topic.adhoc and p.day.topic.name == "speculative decoding"
        assert p.said("not a defined topic")  # said, as --topic says it


async def test_a_free_text_topic_started_with_is_not_lost(make_session, make_app, probe,
                                                          until, size):
    app = make_app(make_session(topic="speculative decoding"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        assert _shows_topic(p, "speculative decoding")
        await _type_in_switcher(pilot, app, until, "moe")
        await until(pilot, lambda: any(o.startswith("moe") for o in _options(app)))
        await pilot.press("enter")
        await until(pilot, lambda: _shows_topic(p, "moe"))
        await _type_in_switcher(pilot, app, until, "specul")
        # offered as a topic of this session, not only as the words typed
        await until(pilot, lambda: any(o.startswith("speculative decoding")
                                       for o in _options(app)))
        await pilot.press("enter")
        await until(pilot, lambda: _shows_topic(p, "speculative decoding"))
        assert p.day.topic.adhoc


async def test_a_typo_of_a_topic_in_the_switcher_is_that_topic(make_session, make_app, probe,
                                                                until, size):
    """The walk: `t` then `agnets` offered "Use 'agnets' as a free-text topic", which then
    failed with "did you mean 'agents'?"; the switcher offers the topic instead."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await _type_in_switcher(pilot, app, until, "agnets")
        await until(pilot, lambda: bool(_options(app)) and _options(app)[0].startswith(
            ("agents", "Did you mean \u201cagents\u201d")))
        assert not any("free-text" in o for o in _options(app))
        await pilot.press("enter")
        await until(pilot, lambda: _shows_topic(p, "agents"))
        assert not p.day.topic.adhoc


async def test_at_80x24_a_long_free_text_topic_gives_way_to_the_day_counts_and_filter(
        make_session, make_app, probe, until):
    """A new-user walk: at 80x24 a long free-text topic filled the header, and the day, the
    counts and `filter: "…"` were gone. The topic is cut ("…") first."""
    topic = "efficient inference for large language models on edge devices"
    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        p = probe(app)
        await _type_in_switcher(pilot, app, until, topic)
        await until(pilot, lambda: any(topic in o for o in _options(app)))
        await pilot.press("enter")
        await until(pilot, lambda: p.day.topic.name == topic)
        await pilot.press("slash", *"model", "enter")
        await until(pilot, lambda: 'filter: "model"' in p.header())
        header = p.header()
        assert "2026-02-25" in header and f"/{len(p.day.model.entries)}" in header
        assert header.lstrip().startswith("efficient infer") and "… · 2026-02-25" in header


async def test_a_free_text_topic_no_paper_holds_a_word_of_is_said_with_a_fix(
        make_session, make_app, probe, until, size):
    """A new-user walk: a typo ("spekulative decodng") ranked the day by the topic's cues
    alone, silently. Said once, with the phrase of the day's own words it is a typo of."""
    app = make_app(make_session(), autoscore=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await _type_in_switcher(pilot, app, until, "spekulative decodng")
        await until(pilot, lambda: any("spekulative decodng" in o for o in _options(app)))
        await pilot.press("enter")
        await until(pilot, lambda: p.day.topic.name == "spekulative decodng")
        said = [m for m in p.notices("warning") if "contains any word of the topic" in m]
        assert said == ["No paper of 2026-02-25 contains any word of the topic 'spekulative "
                        "decodng': did you mean 'speculative decoding'?"]
        await until(pilot, lambda: "did you mean 'speculative decoding'" in p.header_notice())
