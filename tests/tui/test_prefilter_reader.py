"""`--prefilter` in the reader (issue 12, item 6): only the local top part of the day goes to
the model; the rest show their local score, dimmed, until `r` asks for them."""

from __future__ import annotations

from dataclasses import replace

from paperterm.scoring import local_scores


async def test_the_reader_sends_only_the_local_top_part(make_session, make_app, probe, size,
                                                        until, fake_scoring, llm_settings,
                                                        example_papers):
    session = make_session(settings=replace(llm_settings, prefilter=0.3))
    local = {s.paper_id: s for s in local_scores(example_papers, session.topic)}
    order = sorted(range(len(example_papers)),
                   key=lambda i: (-local[example_papers[i].id].relevance,
                                  -(local[example_papers[i].id].fine or 0.0), i))
    top = {example_papers[i].id for i in order[:74]}
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await until(pilot, lambda: len(fake_scoring.runs) == 1 and not p.day.scoring)
        assert set(fake_scoring.runs[0].ids) == top
        held = [e for e in p.day.entries if e.id not in top]
        assert len(held) == 170
        for e in held:
            assert e.status == "prefilter" and e.relevance == local[e.id].relevance
            assert e.reason.startswith("not sent (prefilter)")
        assert all(p.entry(i).relevance == 4 for i in top)  # the fake model's score
        await until(pilot, lambda: p.said("Prefilter: 170 papers not sent"))
        p.to_paper(held[0].id)
        await until(pilot, lambda: "not sent (prefilter)" in p.meta())
        assert "(local ranking)" in p.meta()
        # r sends the shown papers the model has not scored, held ones included
        target = held[0]
        # whole words: the / filter matches words, not substrings
        await pilot.press("slash", *" ".join(target.paper.title.split()[:5]), "enter")
        await until(pilot, lambda: target in p.shown)
        await pilot.press("r")
        await until(pilot, lambda: len(fake_scoring.runs) == 2 and not p.day.scoring)
        assert target.id in fake_scoring.runs[1].ids
        assert target.status == "scored" and target.relevance == 4
