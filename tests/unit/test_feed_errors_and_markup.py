"""Issue 9, items 16-17: an arXiv API error entry is an error, never a paper; an entity
reference or a child element inside <title> or <description> never truncates the text."""

from __future__ import annotations

import pytest
from support.fakearxiv import Reply

from paperterm.sources import arxiv_api, http
from paperterm.sources.feeds import FeedError, parse_feed

API_ERROR = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"
      xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <link href="http://arxiv.org/api/query?search_query=&amp;id_list=2602.20191v9" rel="self"/>
  <title type="html">ArXiv Query: search_query=&amp;id_list=2602.20191v9</title>
  <id>http://arxiv.org/api/yTnyQdU5Lni5mcW3V6Ewc2tCUNI</id>
  <updated>2026-02-25T00:00:00-05:00</updated>
  <opensearch:totalResults>1</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  <opensearch:itemsPerPage>10</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_2602.20191v9</id>
    <title>Error</title>
    <summary>incorrect id format for 2602.20191v9</summary>
    <updated>2026-02-25T00:00:00-05:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format_for_2602.20191v9"
          rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>
"""

RSS = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE rss [<!ENTITY nbsp2 "x">]>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
     xmlns:arxiv="http://arxiv.org/schemas/atom">
<channel><title>cs.LG updates on arXiv.org</title><link>http://rss.arxiv.org/rss/cs.LG</link>
<pubDate>Wed, 25 Feb 2026 00:00:00 -0500</pubDate>
<item>
  <title>{title}</title>
  <link>https://arxiv.org/abs/2602.20191</link>
  <description>arXiv:2602.20191v1 Announce Type: new
Abstract: {abstract}</description>
  <guid isPermaLink="false">oai:arXiv.org:2602.20191v1</guid>
  <category>cs.LG</category>
  <arxiv:announce_type>new</arxiv:announce_type>
  <dc:creator>Ada Lovelace</dc:creator>
</item>
</channel></rss>
"""


def test_an_api_error_entry_is_an_error_not_a_paper() -> None:
    with pytest.raises(FeedError, match=r"incorrect id format for 2602\.20191v9"):
        parse_feed(API_ERROR)


@pytest.mark.parametrize("published", [False, True])
def test_an_api_error_from_a_search_is_an_error_not_a_paper(fake_arxiv, published) -> None:
    # arXiv's error entries carry no <published> (the arxiv package dropped them: "no
    # papers"); with or without one, the entry is the error message
    body = API_ERROR.replace(b"</updated>\n    <link",
                             b"</updated><published>2026-02-25T00:00:00Z</published><link"
                             ) if published else API_ERROR
    fake_arxiv.route("/api/", Reply(body))
    with pytest.raises(http.NetworkError, match="incorrect id format"):
        arxiv_api.search("id_list=2602.20191v9", 10, timeout=5)


@pytest.mark.parametrize("title,expected", [
    ("Sparse <i>mixtures</i> of experts scale", "Sparse mixtures of experts scale"),
    ("Before &nbsp2; after the entity", "Before &nbsp2; after the entity"),
    ("Q&amp;A with <b>bold</b> &amp; <sub>sub</sub> text", "Q&A with bold & sub text"),
])
def test_markup_inside_title_never_truncates(title: str, expected: str) -> None:
    data = RSS.format(title=title, abstract="We study <em>routing</em> and the rest stays.")
    (p,) = parse_feed(data.encode()).papers
    assert p.title == expected
    assert p.abstract == "We study routing and the rest stays."


def test_an_entity_inside_the_description_keeps_the_rest() -> None:
    data = RSS.format(title="T", abstract="Costs &nbsp2; nothing; the end.")
    (p,) = parse_feed(data.encode()).papers
    assert p.abstract.endswith("nothing; the end.")
