"""`e` in the reader: pick a format, the marked papers (or the current one) are exported."""

from __future__ import annotations

import csv
import io

import rispy

from paperterm.tui.export_actions import export_as


async def _export(pilot, app, until, fmt: str) -> None:
    from textual.command import CommandList

    day = app.screen
    await pilot.press("e")
    await until(pilot, lambda: app.screen is not day)
    await pilot.press(*fmt)
    await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is day)


async def test_e_exports_the_marked_papers_as_ris(make_session, make_app, probe, size, until,
                                                  isolated_home):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        first, second = p.shown[0], p.shown[1]
        announced = [e.paper.id for e in p.day.model.entries]
        await pilot.press("x", "x")
        await _export(pilot, app, until, "ris")
        await until(pilot, lambda: p.said("as ris to"))
    files = list((isolated_home.home / "exports").glob("*.ris"))
    assert len(files) == 1
    entries = rispy.loads(files[0].read_text(encoding="utf-8"))
    # the two marked papers, in announcement order (the list's top two need not be)
    want = sorted([first, second], key=lambda e: announced.index(e.paper.id))
    assert [e["urls"][0] for e in entries] == [e.paper.abs_url for e in want]


async def test_e_writes_a_markdown_note_for_the_current_paper(make_session, make_app, probe,
                                                              size, until, isolated_home):
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        p = probe(app)
        current = p.current
        await _export(pilot, app, until, "markdown")
        await until(pilot, lambda: p.said("1 note written"))
    note = isolated_home.home / "notes" / f"{current.id}.md"
    assert note.read_text(encoding="utf-8").startswith(f'---\nid: "{current.id}"')


def test_export_errors_are_a_notice_not_a_crash(tmp_path, example_papers):
    blocked = tmp_path / "file"
    blocked.write_text("x")
    out = export_as(example_papers[:1], "csv", blocked, "{author}{year}")
    assert out.error and out.message.startswith("Not exported:")
    bad = export_as(example_papers[:1], "csv", tmp_path, "{nope}")
    assert bad.error and "nope" in bad.message
    ok = export_as(example_papers[:2], "csv", tmp_path, "{author}{year}", now=0)
    rows = list(csv.DictReader(io.StringIO(ok.path.read_text(encoding="utf-8"), newline="")))
    assert [r["id"] for r in rows] == [p.id for p in example_papers[:2]]
