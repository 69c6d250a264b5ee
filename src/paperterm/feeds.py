"""Parse arXiv's RSS 2.0 and Atom feeds (rss.arxiv.org and the arXiv API) into Papers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from email.utils import parsedate_to_datetime

from lxml import etree

from paperterm.models import ANNOUNCE_TYPES, Paper

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "dc": "http://purl.org/dc/elements/1.1/",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}


class FeedError(Exception):
    """The file or response is not an arXiv feed we can read."""


@dataclass
class ParsedFeed:
    papers: list[Paper]
    day: date | None  # announcement day from the channel's pubDate / updated
    title: str = ""
    skipped: list[str] = field(default_factory=list)  # items we could not read, with why
    categories: tuple[str, ...] = ()  # from the feed's own URL (rss.arxiv.org/rss/cs.LG+cs.AI)


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
_ID = re.compile(r"(?:arXiv:|oai:arXiv\.org:|arxiv\.org/abs/|arxiv\.org/pdf/)?"
                 r"(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v(?P<v>\d+))?")
_DESC = re.compile(
    r"^\s*arXiv:(?P<id>\S+?)(?:v(?P<v>\d+))?\s+Announce Type:\s*(?P<type>[\w\-]+)\s*"
    r"(?:Abstract:\s*)?",
    re.S,
)
_HTML = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*"
                   rb"(?:<!doctype\s+html|<html)", re.I | re.S)
_HTML_PAGE = "got an HTML page (an error or maintenance page?), not an RSS or Atom feed"
_WS = re.compile(r"\s+")
_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _clean(text: str | None) -> str:
    return _WS.sub(" ", _CTRL.sub("", text or "")).strip()


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
        name = _clean(name)
        if name.lower().startswith("and "):
            name = name[4:].strip()
        if name:
            out.append(name)
    return tuple(out)


def parse_feed(data: bytes) -> ParsedFeed:
    """Parse RSS or Atom bytes; raises FeedError with a clear reason."""
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


def _parse_rss(root: etree._Element) -> ParsedFeed:
    channel = root.find("channel")
    if channel is None:
        raise FeedError("RSS without a <channel>")
    day = _parse_date(channel.findtext("pubDate")) or _parse_date(channel.findtext("lastBuildDate"))
    papers: list[Paper] = []
    skipped: list[str] = []
    for n, item in enumerate(channel.iterfind("item"), 1):
        try:
            papers.append(_rss_item(item))
        except FeedError as exc:
            skipped.append(f"item {n}: {exc}")
    self_link = channel.find("atom:link", NS)
    cats = _feed_categories(channel.findtext("link"),
                            self_link.get("href") if self_link is not None else None)
    return ParsedFeed(_dedupe(papers), day, _clean(channel.findtext("title")), skipped, cats)


def _ids_from(*candidates: str | None) -> tuple[str, int | None]:
    for text in candidates:
        if text:
            m = _ID.search(text)
            if m:
                return m.group("id"), int(m.group("v")) if m.group("v") else None
    raise FeedError("no arXiv id")


def _rss_item(item: etree._Element) -> Paper:
    desc = item.findtext("description") or ""
    m = _DESC.match(desc)
    announce = m.group("type") if m else None
    abstract = desc[m.end():] if m else desc
    guid, link = item.findtext("guid"), item.findtext("link")
    pid, version = _ids_from(guid, m.group("id") + (f"v{m.group('v')}" if m.group("v") else "")
                             if m else None, link)
    if version is None and m and m.group("v"):
        version = int(m.group("v"))
    announce = item.findtext("arxiv:announce_type", namespaces=NS) or announce or "new"
    categories = tuple(_clean(c.text) for c in item.iterfind("category") if _clean(c.text))
    creator = item.findtext("dc:creator", namespaces=NS) or ""
    return _make_paper(
        pid,
        version,
        title=item.findtext("title"),
        authors=split_authors(_clean(creator)),
        abstract=abstract,
        categories=categories,
        primary=None,
        announce=announce,
        doi=item.findtext("arxiv:DOI", namespaces=NS) or item.findtext("arxiv:doi", namespaces=NS),
        journal=item.findtext("arxiv:journal_reference", namespaces=NS),
        comment=None,
        published=None,
    )


def _parse_atom(root: etree._Element) -> ParsedFeed:
    day = _parse_date(root.findtext("atom:updated", namespaces=NS))
    papers: list[Paper] = []
    skipped: list[str] = []
    for n, entry in enumerate(root.iterfind("atom:entry", NS), 1):
        try:
            papers.append(_atom_entry(entry))
        except FeedError as exc:
            skipped.append(f"entry {n}: {exc}")
    if papers and any(p.announce_type == "api" for p in papers):
        day = None  # an API search result is not an announcement day
        papers = [_with_type(p, "new") for p in papers]
    cats = _feed_categories(root.findtext("atom:id", namespaces=NS),
                            *(ln.get("href") for ln in root.iterfind("atom:link", NS)))
    return ParsedFeed(_dedupe(papers), day, _clean(root.findtext("atom:title", namespaces=NS)),
                      skipped, cats if day else ())


def _with_type(p: Paper, announce: str) -> Paper:
    from dataclasses import replace

    return replace(p, announce_type=announce)


def _atom_entry(entry: etree._Element) -> Paper:
    summary = entry.findtext("atom:summary", namespaces=NS) or ""
    m = _DESC.match(summary)
    abstract = summary[m.end():] if m else summary
    pid, version = _ids_from(entry.findtext("atom:id", namespaces=NS),
                             *(ln.get("href") for ln in entry.iterfind("atom:link", NS)))
    announce = entry.findtext("arxiv:announce_type", namespaces=NS) or (
        m.group("type") if m else "api"
    )
    names = [_clean(a.findtext("atom:name", namespaces=NS))
             for a in entry.iterfind("atom:author", NS)]
    if len(names) == 1 and "," in names[0]:
        authors = split_authors(names[0])
    elif names:
        authors = tuple(n for name in names for n in split_authors(name))
    else:
        authors = split_authors(_clean(entry.findtext("dc:creator", namespaces=NS)))
    categories = tuple(c.get("term", "") for c in entry.iterfind("atom:category", NS)
                       if c.get("term"))
    primary_el = entry.find("arxiv:primary_category", NS)
    published = entry.findtext("atom:published", namespaces=NS)
    return _make_paper(
        pid,
        version,
        title=entry.findtext("atom:title", namespaces=NS),
        authors=authors,
        abstract=abstract,
        categories=categories,
        primary=primary_el.get("term") if primary_el is not None else None,
        announce=announce,
        doi=entry.findtext("arxiv:doi", namespaces=NS) or entry.findtext("arxiv:DOI",
                                                                          namespaces=NS),
        journal=entry.findtext("arxiv:journal_ref", namespaces=NS)
        or entry.findtext("arxiv:journal_reference", namespaces=NS),
        comment=entry.findtext("arxiv:comment", namespaces=NS),
        published=_iso(published),
    )


def _iso(text: str | None) -> str | None:
    d = _parse_date(text)
    return d.isoformat() if d else None


def _make_paper(pid: str, version: int | None, *, title: str | None, authors: tuple[str, ...],
                abstract: str, categories: tuple[str, ...], primary: str | None, announce: str,
                doi: str | None, journal: str | None, comment: str | None,
                published: str | None) -> Paper:
    title = _clean(title)
    if not title:
        raise FeedError(f"{pid}: no title")
    announce = announce.strip().lower()
    if announce not in (*ANNOUNCE_TYPES, "api"):
        announce = "new"
    if primary and primary not in categories:
        categories = (primary, *categories)
    elif primary:
        categories = (primary, *(c for c in categories if c != primary))
    return Paper(
        id=pid,
        version=version,
        title=title,
        authors=authors,
        abstract=_clean(abstract),
        categories=categories,
        primary_category=primary or (categories[0] if categories else ""),
        announce_type=announce,
        doi=_clean(doi) or None,
        journal_ref=_clean(journal) or None,
        comment=_clean(comment) or None,
        published=published,
    )


def _dedupe(papers: list[Paper]) -> list[Paper]:
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
