"""Build an arXiv RSS file (exactly as rss.arxiv.org serves it) from a JSONL day.

Usage: python scripts/make_sample_feed.py DAY.jsonl OUT.xml [--atom]
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from xml.sax.saxutils import escape

RSS_HEAD = """<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" \
xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" \
version="2.0">
  <channel>
    <title>cs.LG, cs.AI updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/cs.LG+cs.AI</link>
    <description>cs.LG, cs.AI updates on the arXiv.org e-print archive.</description>
    <atom:link href="https://rss.arxiv.org/rss/cs.LG+cs.AI" rel="self" type="application/rss+xml"/>
    <docs>http://www.rssboard.org/rss-specification</docs>
    <language>en-us</language>
    <lastBuildDate>{build}</lastBuildDate>
    <managingEditor>rss-help@arxiv.org</managingEditor>
    <pubDate>{pub}</pubDate>
    <skipDays>
      <day>Saturday</day>
      <day>Sunday</day>
    </skipDays>
"""

RSS_ITEM = """    <item>
      <title>{title}</title>
      <link>https://arxiv.org/abs/{id}</link>
      <description>arXiv:{vid} Announce Type: {type} 
Abstract: {abstract}</description>
      <guid isPermaLink="false">oai:arXiv.org:{vid}</guid>
{categories}
      <pubDate>{pub}</pubDate>
      <arxiv:announce_type>{type}</arxiv:announce_type>
      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
      <dc:creator>{authors}</dc:creator>
    </item>
"""

ATOM_HEAD = """<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom" \
xmlns:dc="http://purl.org/dc/elements/1.1/">
  <id>http://rss.arxiv.org/atom/cs.LG+cs.AI</id>
  <title>cs.LG, cs.AI updates on arXiv.org</title>
  <updated>{iso}T00:00:00-05:00</updated>
  <link href="http://rss.arxiv.org/atom/cs.LG+cs.AI" rel="self" type="application/atom+xml"/>
  <subtitle>cs.LG, cs.AI updates on the arXiv.org e-print archive.</subtitle>
"""

ATOM_ENTRY = """  <entry>
    <id>oai:arXiv.org:{vid}</id>
    <title>{title}</title>
    <updated>{iso}T05:00:00.000Z</updated>
    <link href="https://arxiv.org/abs/{id}" rel="alternate" type="text/html"/>
    <summary>arXiv:{vid} Announce Type: {type} 
Abstract: {abstract}</summary>
{categories}
    <published>{iso}T00:00:00-05:00</published>
    <arxiv:announce_type>{type}</arxiv:announce_type>
    <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
{authors}
  </entry>
"""


def build(jsonl: Path, atom: bool = False) -> str:
    day = date.fromisoformat(jsonl.stem.removeprefix("day-"))
    pub = day.strftime("%a, %d %b %Y 00:00:00 -0500")
    build_date = day.strftime("%a, %d %b %Y 05:00:00 +0000")
    papers = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line]
    order = {"new": 0, "cross": 1, "replace": 2, "replace-cross": 3}
    papers.sort(key=lambda p: order.get(p["announce_type"], 9))  # arXiv's order, stable
    out = [ATOM_HEAD.format(iso=day.isoformat()) if atom else RSS_HEAD.format(build=build_date,
                                                                              pub=pub)]
    for p in papers:
        vid = p["id"] + (f"v{p['version']}" if p["version"] else "")
        fields = dict(id=p["id"], vid=vid, type=p["announce_type"], title=escape(p["title"]),
                      abstract=escape(p["abstract"]), pub=pub, iso=day.isoformat())
        if atom:
            cats = "\n".join(f'    <category term="{escape(c)}" scheme="http://arxiv.org/schemas/atom"/>'
                             for c in p["categories"])
            authors = "\n".join(f"    <author>\n      <name>{escape(a)}</name>\n    </author>"
                                for a in p["authors"])
            out.append(ATOM_ENTRY.format(categories=cats, authors=authors, **fields))
        else:
            cats = "\n".join(f"      <category>{escape(c)}</category>" for c in p["categories"])
            out.append(RSS_ITEM.format(categories=cats, authors=escape(", ".join(p["authors"])),
                                       **fields))
    out.append("</feed>\n" if atom else "  </channel>\n</rss>\n")
    return "".join(out)


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    Path(args[1]).write_text(build(Path(args[0]), atom="--atom" in sys.argv), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
