"""Issue 10, item 10 in the reader: the `/` filter matches words, and the preview highlights
what the filter matched and the topic's keywords."""

from __future__ import annotations

from dataclasses import replace

from paperterm.tui.preview import SEARCH_MATCH, TOPIC_MATCH


def _styled(text, style: str) -> list[str]:
    return [text.plain[s.start:s.end] for s in text.spans if str(s.style) == style]


async def test_filter_matches_words_and_the_preview_highlights_them(
        make_session, make_app, probe, example_papers, size, until):
    papers = list(example_papers)
    papers[0] = replace(papers[0], title="Routing tokens in MoE layers",
                        abstract="We route tokens to experts. A sparse mixture-of-experts.")
    papers[1] = replace(papers[1], title="Scaling laws", authors=("Moein Khalili",),
                        abstract="Nothing about routing.")
    app = make_app(make_session(papers))
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        await pilot.press("slash", *"moe")
        await until(pilot, lambda: len(p.shown) < len(papers))
        ids = [e.id for e in p.shown]
        assert papers[0].id in ids and papers[1].id not in ids  # "MoE" is not "Moein"
        await pilot.press("enter")
        p.to_paper(papers[0].id)
        await pilot.pause()
        preview = p.preview
        title = preview.highlighted("Routing tokens in MoE layers")
        assert _styled(title, SEARCH_MATCH) == ["MoE"]
        abstract = preview.highlighted(p.abstract())
        assert "mixture-of-experts" in _styled(abstract, TOPIC_MATCH)  # a moe keyword
        await pilot.press("slash")
        p.day.search.value = '"mixture of experts"'
        await until(pilot, lambda: p.day.filters.text == '"mixture of experts"')
        assert papers[0].id in [e.id for e in p.shown]
        abstract = preview.highlighted(p.abstract())
        assert _styled(abstract, SEARCH_MATCH) == ["mixture-of-experts"]
