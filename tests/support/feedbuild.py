"""arXiv RSS feeds built from the real days in tests/fixtures/feeds (JSON Lines), with
replacement items made from them: the same paper with a higher version and a changed
abstract (or title), announced as `replace` or `replace-cross`, as arXiv does."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date, datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from xml.sax.saxutils import escape

FEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"
_EASTERN = timezone(timedelta(hours=-5))


def day_rows(day: str) -> list[dict]:
    """The real papers of `day` ("2026-03-02"), one dict per paper, in announcement order."""
    path = FEEDS / f"day-{day}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def replacement(row: dict, *, version: int = 2, abstract: str | None = None,
                title: str | None = None, cross: bool = False) -> dict:
    """`row` re-announced as a new version: its abstract (default: one sentence added) and
    title as given, type `replace` (`replace-cross` with `cross`)."""
    return {**row, "version": version,
            "abstract": abstract if abstract is not None
            else row["abstract"] + " We add experiments on three more benchmarks.",
            "title": title if title is not None else row["title"],
            "announce_type": "replace-cross" if cross else "replace"}


def _item(row: dict, when: str) -> str:
    version = f"v{row['version']}" if row.get("version") else ""
    cats = "".join(f"      <category>{escape(c)}</category>\n" for c in row["categories"])
    return (
        "    <item>\n"
        f"      <title>{escape(row['title'])}</title>\n"
        f"      <link>https://arxiv.org/abs/{row['id']}</link>\n"
        f"      <description>arXiv:{row['id']}{version} Announce Type: "
        f"{row['announce_type']} \nAbstract: {escape(row['abstract'])}</description>\n"
        f"      <guid isPermaLink=\"false\">oai:arXiv.org:{row['id']}{version}</guid>\n"
        f"{cats}"
        f"      <pubDate>{when}</pubDate>\n"
        f"      <arxiv:announce_type>{row['announce_type']}</arxiv:announce_type>\n"
        "      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>\n"
        f"      <dc:creator>{escape(', '.join(row['authors']))}</dc:creator>\n"
        "    </item>\n")


def rss(day: date, rows: Iterable[dict], categories: str = "cs.LG+cs.AI") -> bytes:
    """The feed rss.arxiv.org serves for `day`: new, cross, replace, replace-cross items."""
    when = format_datetime(datetime(day.year, day.month, day.day, tzinfo=_EASTERN))
    order = {"new": 0, "cross": 1, "replace": 2, "replace-cross": 3}
    items = "".join(_item(r, when) for r in sorted(rows, key=lambda r: order[r["announce_type"]]))
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<rss xmlns:arxiv="http://arxiv.org/schemas/atom" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">\n'
        "  <channel>\n"
        f"    <title>{categories} updates on arXiv.org</title>\n"
        f"    <link>http://rss.arxiv.org/rss/{categories}</link>\n"
        f"    <description>{categories} updates on the arXiv.org e-print archive.</description>\n"
        f'    <atom:link href="https://rss.arxiv.org/rss/{categories}" rel="self" '
        'type="application/rss+xml"/>\n'
        "    <docs>http://www.rssboard.org/rss-specification</docs>\n"
        "    <language>en-us</language>\n"
        f"    <lastBuildDate>{when}</lastBuildDate>\n"
        "    <managingEditor>rss-help@arxiv.org</managingEditor>\n"
        f"    <pubDate>{when}</pubDate>\n"
        "    <skipDays>\n      <day>Saturday</day>\n      <day>Sunday</day>\n    </skipDays>\n"
        f"{items}"
        "  </channel>\n</rss>\n").encode()
