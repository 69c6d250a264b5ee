"""The one arXiv id parser: every form arXiv and users write, and what is no id at all."""

from __future__ import annotations

import pytest

from paperterm import models
from paperterm.arxiv_id import ArxivId, bare_id, find_arxiv_id, id_year_month, parse_arxiv_id


@pytest.mark.parametrize(
    ("text", "pid", "version"),
    [
        ("2602.20191", "2602.20191", None),  # new style, five digits (2015 on)
        ("0704.0001", "0704.0001", None),  # new style, four digits (2007-2014)
        ("1412.9999v12", "1412.9999", 12),
        ("2602.20191v2", "2602.20191", 2),
        ("arXiv:2602.20191v2", "2602.20191", 2),
        ("arxiv: 2602.20191", "2602.20191", None),
        ("oai:arXiv.org:2602.20191v1", "2602.20191", 1),
        ("https://arxiv.org/abs/2602.20191v3", "2602.20191", 3),
        ("http://arxiv.org/abs/2602.20191", "2602.20191", None),
        ("https://export.arxiv.org/abs/2602.20191v1", "2602.20191", 1),
        ("https://www.arxiv.org/pdf/2602.20191v2.pdf", "2602.20191", 2),
        ("arxiv.org/pdf/2602.20191/", "2602.20191", None),
        ("solv-int/9901001", "solv-int/9901001", None),  # old style, "v" in the archive
        ("solv-int/9901001v1", "solv-int/9901001", 1),
        ("hep-th/9901001v3", "hep-th/9901001", 3),
        ("math.GT/0309136", "math.GT/0309136", None),  # old style with a subject class
        ("math.gt/0309136v2", "math.GT/0309136", 2),  # arXiv's own case comes back
        ("MATH.GT/0309136", "math.GT/0309136", None),
        ("arXiv:math.GT/0309136v1", "math.GT/0309136", 1),
        ("oai:arXiv.org:hep-th/9901001", "hep-th/9901001", None),
        ("https://arxiv.org/abs/solv-int/9901001v1", "solv-int/9901001", 1),
        ("  2602.20191v2 \n", "2602.20191", 2),
    ],
)
def test_parse_every_form(text, pid, version):
    assert parse_arxiv_id(text) == ArxivId(pid, version)
    assert find_arxiv_id(text) == ArxivId(pid, version)
    assert bare_id(text) == pid


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "2602.201",  # too few digits
        "2602.201912",  # too many
        "12602.20191",
        "hep-th/990100",  # old style has seven digits
        "hep-th/99010011",
        "2602.20191v",  # a version needs a number
        "2602.20191 extra",
        "https://example.org/abs/2602.20191",
        "https://arxiv.org/abs/2602.20191?context=cs",
        "10.1103/PhysRevD.2602.20191x",
    ],
)
def test_parse_rejects_what_is_no_id(text):
    assert parse_arxiv_id(text) is None


def test_none_is_no_id():
    assert parse_arxiv_id(None) is None
    assert find_arxiv_id(None) is None


def test_find_in_surrounding_text():
    desc = "arXiv:2602.20191v2 Announce Type: replace Abstract: We ..."
    assert find_arxiv_id(desc) == ArxivId("2602.20191", 2)
    assert find_arxiv_id("see https://arxiv.org/abs/hep-th/9901001 ff.") == ArxivId(
        "hep-th/9901001", None)
    assert find_arxiv_id("doi 10.48550/arXiv.2602.20191") == ArxivId("2602.20191", None)
    assert find_arxiv_id("no id in here, only 2026.03 and 123456.1234567") is None


def test_versioned_form():
    assert ArxivId("2602.20191", 2).versioned == "2602.20191v2"
    assert ArxivId("solv-int/9901001", None).versioned == "solv-int/9901001"


def test_bare_id_returns_what_is_no_id_stripped():
    assert bare_id("  not-an-id ") == "not-an-id"
    assert bare_id("ABCv3") == "ABCv3"  # not mistaken for an id with a version


def test_models_bare_id_is_the_same_parser():
    assert models.bare_id is bare_id


@pytest.mark.parametrize(("text", "expected"), [
    ("2602.20191", (2026, 2)), ("0704.0001", (2007, 4)), ("1412.9999v3", (2014, 12)),
    ("math.GT/0309136", (2003, 9)), ("hep-th/9901001", (1999, 1)), ("cs/0012007", (2000, 12)),
    ("2613.00001", None), ("not an id", None),
])
def test_id_year_month(text, expected):
    assert id_year_month(text) == expected
