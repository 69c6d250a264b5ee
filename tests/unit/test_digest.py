"""Markdown and JSON digests."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from paperterm.models import Paper, Topic
from paperterm.outputs.digest import md_escape, render_digest
from paperterm.scoring import RunSummary, Score

TOPIC = Topic(name="moe", description="Mixture of experts.")


def paper(pid: str, title: str, **kw) -> Paper:
    values = dict(
        id=pid,
        version=1,
        title=title,
        authors=("Ada Lovelace", "Alan Turing"),
        abstract=f"Abstract of {title}.",
        categories=("cs.LG",),
        primary_category="cs.LG",
    )
    values.update(kw)
    return Paper(**values)


@pytest.fixture
def day():
    papers = [
        paper("2602.00001", "Low one"),
        paper("2602.00002", "Top MoE paper"),
        paper("2602.00003", "Middle [evil](http://x) <script>alert(1)</script> *bold*"),
        paper("2602.00004", "Never answered"),
        paper("2602.00005", "Cached one"),
        paper("2602.00006", "Not in the scores at all"),
    ]
    scores = {
        "2602.00001": Score("2602.00001", 1, 2, 3, "barely related", "scored"),
        "2602.00002": Score("2602.00002", 1, 9, 7, "routing | experts", "scored"),
        "2602.00003": Score("2602.00003", 1, 6, None, "matched: moe", "scored"),
        "2602.00004": Score("2602.00004", 1, None, None, "", "unscored", error="timed out"),
        "2602.00005": Score("2602.00005", 1, 6, 8, "from cache", "cached"),
    }
    summary = RunSummary(
        model="openai/gpt-4o-mini",
        total=6,
        scored=3,
        cached=1,
        unscored=2,
        requests=2,
        prompt_tokens=12345,
        completion_tokens=678,
        cost=0.0123,
    )
    return papers, scores, summary


def test_markdown_order_header_and_sections(day):
    papers, scores, summary = day
    md = render_digest(
        "2026-02-25", TOPIC, "openai/gpt-4o-mini", summary, papers, scores, "md", None
    )
    assert md.startswith("# arXiv digest: 2026-02-25\n")
    assert "**Topic:** moe" in md and "**Model:** openai/gpt-4o-mini" in md
    assert "6 total, 3 scored, 1 cached, 2 unscored" in md
    assert "| 12,345 | 678 | 13,023 | $0.0123 |" in md
    # highest first; ties (6 and 6) broken by novelty, then feed order
    order = [md.index(t) for t in ("Top MoE paper", "Cached one", "Middle", "Low one")]
    assert order == sorted(order)
    assert "## 1. Top MoE paper" in md
    assert (
        "**Relevance 9/10** · novelty 7/10 · [arXiv:2602.00002v1](https://arxiv.org/abs/2602.00002)"
        in md
    )
    assert "novelty n/a" in md
    assert "*Ada Lovelace, Alan Turing*" in md
    assert "Abstract of Top MoE paper." in md
    assert "> routing \\| experts" in md
    # unscored at the end, with the reason; a paper with no score at all is listed too
    unscored = md[md.index("## Unscored (2)") :]
    assert "Never answered" in unscored and "timed out" in unscored
    assert "Not in the scores at all" in unscored and "not scored" in unscored
    assert md.index("Low one") < md.index("## Unscored")


def test_markdown_escapes_untrusted_text(day):
    papers, scores, summary = day
    md = render_digest("d", TOPIC, "m", summary, papers, scores, "md", None)
    assert "[evil](http://x)" not in md and "\\[evil\\](http://x)" in md
    assert "<script>" not in md and "\\<script\\>" in md
    assert "\\*bold\\*" in md
    assert md_escape("# heading\nnext") == "\\# heading next"
    assert md_escape("1. item") == "1\\. item"
    assert md_escape("$x^2$ & A&amp;B") == "$x^2$ & A&amp;amp;B"


def test_min_relevance_filters_scored_papers_only(day):
    papers, scores, summary = day
    md = render_digest("d", TOPIC, "m", summary, papers, scores, "md", 7)
    assert "Top MoE paper" in md
    assert "Low one" not in md and "Cached one" not in md
    assert "relevance ≥ 7 (3 scored papers hidden" in md
    assert "unscored papers are all listed" in md
    assert "Never answered" in md and "Not in the scores at all" in md


def test_unknown_cost_and_stop_reason(day):
    papers, scores, summary = day
    summary = replace(summary, cost=None, stopped="budget of $0.50 reached: 2 papers not scored")
    md = render_digest("d", TOPIC, "m", summary, papers, scores, "md", None)
    assert "| unknown |" in md
    assert "**Stopped early:** budget of $0.50 reached: 2 papers not scored" in md
    doc = json.loads(render_digest("d", TOPIC, "m", summary, papers, scores, "json", None))
    assert doc["cost"] is None and doc["stopped"].startswith("budget")


def test_json_digest(day):
    papers, scores, summary = day
    doc = json.loads(
        render_digest("2026-02-25", TOPIC, "openai/gpt-4o-mini", summary, papers, scores, "json", 6)
    )
    assert doc["day"] == "2026-02-25" and doc["topic"] == "moe"
    assert doc["counts"] == {"total": 6, "scored": 3, "cached": 1, "unscored": 2}
    assert doc["tokens"] == {"prompt": 12345, "completion": 678, "total": 13023}
    assert doc["cost"] == 0.0123
    assert [p["id"] for p in doc["papers"]] == ["2602.00002", "2602.00005", "2602.00003"]
    top = doc["papers"][0]
    assert top["relevance"] == 9 and top["novelty"] == 7 and top["status"] == "scored"
    assert top["url"] == "https://arxiv.org/abs/2602.00002"
    assert top["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert doc["hidden"] == 1 and doc["min_relevance"] == 6
    assert {u["id"]: u["error"] for u in doc["unscored"]} == {
        "2602.00004": "timed out",
        "2602.00006": "not scored",
    }
    # unscored papers have the same fields as scored ones (and `error`), as in score --json
    for u in doc["unscored"]:
        assert set(u) == set(top) | {"error"}
        assert u["status"] == "unscored" and u["relevance"] is None and u["abstract"]
    # raw text in JSON: no Markdown escaping
    assert any("[evil](http://x)" in p["title"] for p in doc["papers"])


def test_local_scorer_digest_and_empty_day():
    s = RunSummary(model="")
    md = render_digest("d", TOPIC, "", s, [], {}, "md", None)
    assert "**Model:** local ranking" in md and "No scored papers" in md
    with pytest.raises(ValueError):
        render_digest("d", TOPIC, "", s, [], {}, "html", None)  # type: ignore[arg-type]
