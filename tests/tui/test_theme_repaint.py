"""A theme switch repaints the preview (issue 32, Low): after `T` to the light theme the
preview's metadata and reason lines kept the dark theme's colours (2.69:1) until the cursor
moved; every letter of the preview reads at 4.5:1 at once."""

from __future__ import annotations

from dataclasses import replace

from support.contrast import measure, report, screen_lines


async def test_t_repaints_the_preview_in_the_new_theme(make_session, make_app, probe, until):
    app = make_app(replace(make_session(), theme="paperterm-dark"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        p = probe(app)
        preview = p.preview
        top = preview.region.y
        names = app.theme_cycle()
        steps = (names.index("paperterm-light") - names.index("paperterm-dark")) % len(names)
        await pilot.press(*["T"] * steps)
        await until(pilot, lambda: app.theme == "paperterm-light")

        def preview_cells():
            return measure(screen_lines(app)[top: preview.region.bottom], "truecolor")

        # (waits for the repaint; on the old code the preview kept the dark theme's colours
        # until the cursor moved)
        try:
            await until(pilot, lambda: not preview_cells()[1])
        finally:
            counted, low = preview_cells()
            assert counted > 100
            assert not low, "the preview still has the old theme's colours:\n" + report(low, 5)
