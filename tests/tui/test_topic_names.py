"""Issue 32 item 2: a free-text topic says so on screen (the header), not only in a notice
that may hide behind "(+1 more)"; a defined topic's header names it plainly."""

from __future__ import annotations


async def test_the_header_says_a_topic_is_free_text(make_session, make_app, probe, size):
    app = make_app(make_session(topic="sparse attention kernels"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert "sparse attention kernels (free text)" in probe(app).header()


async def test_a_defined_topic_typed_in_another_case_is_that_topic(make_session, make_app,
                                                                    probe, size):
    app = make_app(make_session(topic="MoE"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        header = probe(app).header()
        assert "moe" in header and "free text" not in header
