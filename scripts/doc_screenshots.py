"""SVG snapshots of the reader for the docs: the dark theme's day list (the README's front
page), the light theme's day list and a quick triage card, on the example announcement (examples/arxiv-2026-02-25.xml), offline, in a fresh
temporary database, with the keyword ranking (no embedding model: the same picture on every
machine).

Usage: python scripts/doc_screenshots.py [OUT_DIR]   (default: docs/img)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "arxiv-2026-02-25.xml"
SIZE = (110, 32)


async def _shoot(theme: str, keys: list[str], out: Path, title: str) -> None:
    import paperterm.scoring.local.semantic as semantic
    from paperterm.day.session import Session
    from paperterm.models import Day
    from paperterm.settings import ScoringSettings
    from paperterm.settings.config import Config
    from paperterm.sources.feeds import parse_feed
    from paperterm.topics import resolve_topic
    from paperterm.tui.app import PapertermApp

    semantic.load_model = lambda: None  # the keyword ranking: the same on every machine
    papers = parse_feed(EXAMPLE.read_bytes()).papers
    config = Config()
    with tempfile.TemporaryDirectory() as tmp:
        day = Day(papers=papers, label="2026-02-25", day=date(2026, 2, 25), source="feed")
        session = Session(config=config, day=day, topic=resolve_topic("moe", config).topic,
                          settings=ScoringSettings(), db_path=Path(tmp) / "db.sqlite3",
                          bib_path=Path(tmp) / "papers.bib", theme=theme)
        app = PapertermApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(*keys)
            await pilot.pause(0.5)
            for line in app.screen.query("NoticeLine"):  # no notice in the picture
                line.notices.clear()
                line.refresh()
            await pilot.pause()
            out.write_text(app.export_screenshot(title=title), encoding="utf-8")
    print(f"wrote {out}")


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0]) if argv else ROOT / "docs" / "img"
    out_dir.mkdir(parents=True, exist_ok=True)
    asyncio.run(_shoot("paperterm-dark", ["j", "j", "asterisk", "j"], out_dir / "reader.svg",
                       "paperterm: the day list"))
    asyncio.run(_shoot("paperterm-light", ["j", "j", "asterisk", "j"], out_dir / "light.svg",
                       "paperterm: the day list, paperterm-light"))
    asyncio.run(_shoot("paperterm-dark", ["v", "asterisk"], out_dir / "card.svg",
                       "paperterm: quick triage (v)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
