"""Parse arXiv's RSS 2.0 and Atom feeds (rss.arxiv.org, saved files, arXiv API answers) into
Papers; `make_paper` also builds the Papers of arxiv_api's search results."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from email.utils import parsedate_to_datetime

from lxml import etree

from paperterm.arxiv_id import ArxivId, find_arxiv_id
from paperterm.models import ANNOUNCE_TYPES, Paper
from paperterm.text.hygiene import clean_line, clean_paper

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "dc": "http://purl.org/dc/elements/1.1/",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}


class FeedError(Exception):
    """The file or response is not an arXiv feed we can read."""


class ApiErrorEntry(FeedError):
    """The arXiv API answered with an error entry (a malformed query, say)."""


class ImpossibleFeed(FeedError):
    """An item says something no arXiv feed says (a version of thousands of digits): that
    item is skipped, named in the feed's notice, rather than read with a guess; the rest of
    the feed is read (one bad item never sinks a feed)."""


@dataclass
class ParsedFeed:
    papers: list[Paper]
    day: date | None  # announcement day from the channel's pubDate / updated
    title: str = ""
    skipped: list[str] = field(default_factory=list)  # items we could not read, with why
    categories: tuple[str, ...] = ()  # from the feed's own URL (rss.arxiv.org/rss/cs.LG+cs.AI)
    total: int | None = None  # an arXiv API answer: how many results the query has in all


_FEED_URL = re.compile(r"rss\.arxiv\.org/(?:rss|atom)/([A-Za-z\-]+(?:\.[A-Za-z\-]+)?"
                       r"(?:\+[A-Za-z\-]+(?:\.[A-Za-z\-]+)?)*)")


def _feed_categories(*urls: str | None) -> tuple[str, ...]:
    for url in urls:
        m = _FEED_URL.search(url or "")
        if m:
            return tuple(m.group(1).split("+"))
    return ()


_PARSER_OPTS = dict(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    huge_tree=False,
    remove_comments=True,
)
_DESC = re.compile(  # "arXiv:2602.20191v1 Announce Type: new Abstract: ..."
    r"^\s*(?P<ref>arXiv:\S+)\s+Announce Type:\s*(?P<type>[\w\-]+)\s*(?:Abstract:\s*)?",
    re.S,
)
_HTML = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*"
                   rb"(?:<!doctype\s+html|<html)", re.I | re.S)
_HTML_PAGE = "got an HTML page (an error or maintenance page?), not an RSS or Atom feed"


def _findtext(parent: etree._Element, path: str,
              namespaces: dict[str, str] | None = None) -> str | None:
    """The whole text of the first `path` under `parent` (None if absent). Unlike
    `findtext`, which stops at the first child node, this keeps the text after a child
    element (`<title>A <i>b</i> c</title>` -> "A b c") or an entity reference, which is
    kept literally (`&foo;`: entities are never expanded, see _PARSER_OPTS)."""
    el = parent.find(path, namespaces)
    if el is None:
        return None
    return "".join(el.itertext())


_API_ERROR = "/api/errors"  # arXiv API error entries: <id>http://arxiv.org/api/errors#...</id>


def api_error(entry_id: str | None, message: str | None) -> str | None:
    """The message of an arXiv API error entry (`<title>Error</title>`, id
    `.../api/errors#...`), None for a paper."""
    if _API_ERROR not in (entry_id or ""):
        return None
    return clean_line(message) or clean_line(entry_id)


def split_authors(text: str) -> tuple[str, ...]:
    """Split arXiv's "A, B (Affil, X), C and D" into names, dropping affiliations."""
    names: list[str] = []
    depth = 0
    current: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if depth == 0 and (ch == "," or text.startswith(" and ", i)):
            names.append("".join(current))
            current = []
            i += 5 if ch == " " else 1
            continue
        current.append(ch)
        i += 1
    names.append("".join(current))
    out = []
    for name in names:
        name = re.sub(r"\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*", " ", name)  # affiliation
        name = re.sub(r"\s*\[[^\[\]]*\]\s*", " ", name)  # [affiliation], grouped as above
        name = clean_line(name)
        if name.lower().startswith("and "):
            name = name[4:].strip()
        if name:
            out.append(name)
    return tuple(out)


def parse_feed(data: bytes) -> ParsedFeed:
    """Parse RSS or Atom bytes; raises FeedError with a clear reason.

    Items that cannot be read are skipped (and listed in `skipped`).
    """
    if not data.strip():
        raise FeedError("empty response (no XML at all)")
    if _HTML.match(data[:1024]):
        raise FeedError(_HTML_PAGE)
    parser = etree.XMLParser(**_PARSER_OPTS)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise FeedError(f"malformed XML: {exc}") from None
    if root is None:
        raise FeedError("no XML document")
    tag = etree.QName(root).localname
    if tag == "rss":
        return _parse_rss(root)
    if tag == "feed":
        return _parse_atom(root)
    if tag.lower() == "html":
        raise FeedError(_HTML_PAGE)
    raise FeedError(f"not an RSS or Atom feed (root element <{tag}>)")


def authors_from_names(names: list[str]) -> tuple[str, ...]:
    """Author names from Atom `<author><name>` elements (or the arxiv package's authors):
    a single name holding a comma-separated list is split, affiliations are dropped."""
    names = [clean_line(n) for n in names]
    if len(names) == 1 and "," in names[0]:
        return split_authors(names[0])
    return tuple(n for name in names for n in split_authors(name))


def _parse_date(text: str | None) -> date | None:
    if not text:
        return None
    text = text.strip()
    try:
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError, IndexError):
        pass
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def _read_items(items: list[etree._Element], read: Callable[[etree._Element], Paper],
                what: str) -> tuple[list[Paper], list[str]]:
    """Papers from feed items, and why those that cannot be read were skipped."""
    papers: list[Paper] = []
    skipped: list[str] = []
    for n, item in enumerate(items, 1):
        try:
            papers.append(read(item))
        except FeedError as exc:  # (ImpossibleFeed too: skipped and named, never the feed)
            skipped.append(f"{what} {n}: {exc}")
        except (ValueError, OverflowError, RecursionError) as exc:  # any other odd value
            skipped.append(f"{what} {n}: {type(exc).__name__}: {str(exc)[:120]}")
    return papers, skipped


def _parse_rss(root: etree._Element) -> ParsedFeed:
    channel = root.find("channel")
    if channel is None:
        raise FeedError("RSS without a <channel>")
    day = (_parse_date(_findtext(channel, "pubDate"))
           or _parse_date(_findtext(channel, "lastBuildDate")))
    papers, skipped = _read_items(list(channel.iterfind("item")), _rss_item, "item")
    self_link = channel.find("atom:link", NS)
    cats = _feed_categories(_findtext(channel, "link"),
                            self_link.get("href") if self_link is not None else None)
    return ParsedFeed(dedupe(papers), day, clean_line(_findtext(channel, "title")), skipped, cats)


_LONG_VERSION = re.compile(r"(\d{4}\.\d{4,5}|[A-Za-z\-]+(?:\.[A-Za-z]{2})?/\d{7})v(\d{5,})")


def _first_id(*candidates: str | None) -> ArxivId:
    for text in candidates:
        long_version = _LONG_VERSION.search(text or "")
        if long_version:
            digits = len(long_version.group(2))
            raise ImpossibleFeed(f"{long_version.group(1)}: a version of {digits} "
                                 "digits is no arXiv version")
        found = find_arxiv_id(text)
        if found:
            return found
    raise FeedError("no arXiv id")


def _rss_item(item: etree._Element) -> Paper:
    desc = _findtext(item, "description") or ""
    m = _DESC.match(desc)
    announce = m.group("type") if m else None
    abstract = desc[m.end():] if m else desc
    in_desc = m.group("ref") if m else None
    pid, version = _first_id(_findtext(item, "guid"), in_desc, _findtext(item, "link"))
    if version is None and in_desc:
        version = _first_id(in_desc).version
    announce = _findtext(item, "arxiv:announce_type", namespaces=NS) or announce or "new"
    categories = tuple(clean_line(c.text) for c in item.iterfind("category") if clean_line(c.text))
    creator = _findtext(item, "dc:creator", namespaces=NS) or ""
    return make_paper(
        pid,
        version,
        title=_findtext(item, "title"),
        authors=split_authors(clean_line(creator)),
        abstract=abstract,
        categories=categories,
        primary=None,
        announce=announce,
        doi=(_findtext(item, "arxiv:DOI", namespaces=NS)
             or _findtext(item, "arxiv:doi", namespaces=NS)),
        journal=_findtext(item, "arxiv:journal_reference", namespaces=NS),
        comment=None,
        published=None,
    )


def _parse_atom(root: etree._Element) -> ParsedFeed:
    for entry in root.iterfind("atom:entry", NS):
        error = api_error(_findtext(entry, "atom:id", namespaces=NS),
                          _findtext(entry, "atom:summary", namespaces=NS))
        if error is not None:
            raise ApiErrorEntry(f"the arXiv API answered with an error: {error}")
    day = _parse_date(_findtext(root, "atom:updated", namespaces=NS))
    papers, skipped = _read_items(list(root.iterfind("atom:entry", NS)), _atom_entry, "entry")
    if papers and any(p.announce_type == "api" for p in papers):
        day = None  # an API search result is not an announcement day
        papers = [replace(p, announce_type="new") for p in papers]
    cats = _feed_categories(_findtext(root, "atom:id", namespaces=NS),
                            *(ln.get("href") for ln in root.iterfind("atom:link", NS)))
    total = clean_line(_findtext(root, "opensearch:totalResults", namespaces=NS))
    return ParsedFeed(dedupe(papers), day, clean_line(_findtext(root, "atom:title", namespaces=NS)),
                      skipped, cats if day else (),
                      int(total) if total.isdigit() and len(total) < 19 else None)


def _atom_entry(entry: etree._Element) -> Paper:
    summary = _findtext(entry, "atom:summary", namespaces=NS) or ""
    m = _DESC.match(summary)
    abstract = summary[m.end():] if m else summary
    pid, version = _first_id(_findtext(entry, "atom:id", namespaces=NS),
                             *(ln.get("href") for ln in entry.iterfind("atom:link", NS)))
    announce = _findtext(entry, "arxiv:announce_type", namespaces=NS) or (
        m.group("type") if m else "api"
    )
    names = [_findtext(a, "atom:name", namespaces=NS) or ""
             for a in entry.iterfind("atom:author", NS)]
    authors = authors_from_names(names) if names else split_authors(
        clean_line(_findtext(entry, "dc:creator", namespaces=NS)))
    categories = tuple(c.get("term", "") for c in entry.iterfind("atom:category", NS)
                       if c.get("term"))
    primary_el = entry.find("arxiv:primary_category", NS)
    published = _findtext(entry, "atom:published", namespaces=NS)
    return make_paper(
        pid,
        version,
        title=_findtext(entry, "atom:title", namespaces=NS),
        authors=authors,
        abstract=abstract,
        categories=categories,
        primary=primary_el.get("term") if primary_el is not None else None,
        announce=announce,
        doi=_findtext(entry, "arxiv:doi", namespaces=NS) or _findtext(entry, "arxiv:DOI",
                                                                          namespaces=NS),
        journal=_findtext(entry, "arxiv:journal_ref", namespaces=NS)
        or _findtext(entry, "arxiv:journal_reference", namespaces=NS),
        comment=_findtext(entry, "arxiv:comment", namespaces=NS),
        published=_iso(published),
    )


def _iso(text: str | None) -> str | None:
    d = _parse_date(text)
    return d.isoformat() if d else None


def make_paper(pid: str, version: int | None, *, title: str | None, authors: tuple[str, ...],
               abstract: str, categories: tuple[str, ...], primary: str | None, announce: str,
               doi: str | None, journal: str | None, comment: str | None,
               published: str | None) -> Paper:
    """A Paper with every text field cleaned (hygiene.clean_paper), the primary category
    first; raises FeedError without a title. Feed items and arXiv API results alike."""
    title = clean_line(title)
    if not title:
        raise FeedError(f"{pid}: no title")
    announce = clean_line(announce).lower()
    if announce not in (*ANNOUNCE_TYPES, "api"):
        announce = "new"
    categories = tuple(c for c in map(clean_line, categories) if c)
    primary = clean_line(primary)
    if primary and primary not in categories:
        categories = (primary, *categories)
    elif primary:
        categories = (primary, *(c for c in categories if c != primary))
    return clean_paper(Paper(
        id=pid,
        version=version,
        title=title,
        authors=authors,
        abstract=abstract,
        categories=categories,
        primary_category=primary or (categories[0] if categories else ""),
        announce_type=announce,
        doi=doi,
        journal_ref=journal,
        comment=comment,
        published=published,
    ))


def dedupe(papers: list[Paper]) -> list[Paper]:
    """One paper per id (keeps the first announcement, the highest version)."""
    seen: dict[str, int] = {}
    out: list[Paper] = []
    for p in papers:
        if p.id in seen:
            i = seen[p.id]
            if (p.version or 0) > (out[i].version or 0):
                out[i] = p
            continue
        seen[p.id] = len(out)
        out.append(p)
    return out
