"""Two-stage LLM scoring (issue 12, item 6): `--prefilter F` sends only the local top part of
the day (plus followed authors and papers like the user's stars) to the model, through
litellm over real HTTP to the fake server; the rest keep their local score."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from paperterm.models import Paper
from paperterm.scoring.local import rank_locally
from paperterm.scoring.prefilter import (
    NOT_SENT,
    Positive,
    quota,
    similar_to,
    split_day,
)
from paperterm.scoring.types import RunSummary, Score, status_counts
from paperterm.store import Positive as StoredPositive
from paperterm.store import Store

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
MODEL = "openai/gpt-4o-mini"
_ID = re.compile(r'<paper id="([^"]+)">')


def sent_ids(llm) -> list[str]:
    """Every paper id the fake server was asked about, in request order."""
    out = []
    for body in llm.requests:
        for m in body["messages"]:
            if m.get("role") == "user":
                out.extend(_ID.findall(str(m.get("content", ""))))
    return out


def blend_scores(day: list[Paper], topic, store: Store | None = None) -> list[Score]:
    """The reader's default local ranking (the blend), which the prefilter sends the top of
    (with what `store` taught it, else untaught)."""
    if store is not None:
        return rank_locally(store, day, topic) or []
    store = Store.unavailable("ranked without a cache")
    try:
        return rank_locally(store, day, topic, day="d") or []
    finally:
        store.close()


def local_top(day: list[Paper], topic, n: int, store: Store | None = None) -> list[str]:
    """The local top n as the reader ranks it: by value, equal values by the fine score."""
    scores = {s.paper_id: (s.relevance, s.fine or 0.0)
              for s in blend_scores(day, topic, store)}
    order = sorted(range(len(day)), key=lambda i: (-scores[day[i].id][0],
                                                   -scores[day[i].id][1], i))
    return [day[i].id for i in order[:n]]


def score_json(cli, llm, *extra: str):
    r = cli("score", "--feed", str(FEED), "--topic", "moe", "--model", MODEL,
            "--api-base", llm.url, "--json", *extra)
    return r, [json.loads(line) for line in r.stdout.splitlines()]


# -- the value --------------------------------------------------------------------------


def test_a_fraction_is_a_share_of_the_day_and_a_count_is_a_count():
    assert quota(0.3, 244) == 74  # rounded up: never fewer than asked
    assert quota(0.001, 244) == 1
    assert quota(40, 244) == 40
    assert quota(400, 244) == 244
    assert quota(0, 244) == 244  # off: everything


@pytest.mark.parametrize("bad", ["2.5", "-0.3", "nan", "abc"])
def test_a_prefilter_that_is_neither_fraction_nor_count_is_refused_in_one_line(cli, bad):
    r = cli("score", "--feed", str(FEED), "--prefilter", bad)
    assert r.returncode == 2
    assert "--prefilter" in r.stderr and "Traceback" not in r.stderr


def test_the_config_key_is_checked_like_the_flag(cli, isolated_home):
    isolated_home.config.parent.mkdir(parents=True)
    isolated_home.config.write_text("prefilter = 1.5\n")
    r = cli("score", "--feed", str(FEED))
    assert r.returncode == 2
    assert "prefilter" in r.stderr and "count of papers" in r.stderr


# -- the split ---------------------------------------------------------------------------


def test_the_split_sends_the_top_part_followed_authors_and_kept_papers(day, topic):
    local = blend_scores(day, topic)
    bottom = day[-1]  # the last paper of the announcement: not in a top of 10
    assert bottom.id not in local_top(day, topic, 10)
    followed = replace(topic, follow=(bottom.authors[0],))
    split = split_day(day, local, 10, followed, keep=frozenset({day[-2].id}))
    sent = {p.id for p in split.send}
    assert sent == set(local_top(day, topic, 10)) | {bottom.id, day[-2].id}
    assert split.why[bottom.id].startswith("followed: ")
    assert len(split.held) == len(day) - len(sent)
    held = {s.paper_id: s for s in split.held}
    by_id = {s.paper_id: s for s in local}
    some = next(iter(held.values()))
    assert some.status == "prefiltered" and some.reason.startswith(NOT_SENT)
    assert some.relevance == by_id[some.paper_id].relevance  # its local score, kept


def test_papers_like_a_star_are_found_and_unrelated_ones_are_not(day):
    target = day[-1]
    liked = Positive("2101.00001", target.title, target.abstract[:400])
    found = similar_to(day, [liked])
    assert target.id in found and found[target.id] == " ".join(target.title.split())
    assert len(found) <= 3  # a close match, not the whole day
    # a star that is itself on the day is no reason to send it: only its neighbours count
    assert target.id not in similar_to(day, [Positive(target.id, target.title,
                                                      target.abstract)])


def test_prefiltered_scores_count_as_scored_not_unscored():
    scores = [Score("1", 1, 3, None, NOT_SENT, "prefiltered"), Score("2", 1, 7, 5, "", "scored")]
    assert status_counts(scores) == {"scored": 1, "cached": 0, "unscored": 0, "prefiltered": 1}
    assert "prefiltered" not in status_counts(scores[1:])


def test_an_unknown_price_is_said_to_be_the_cost_in_the_summary():
    """With a model of unknown price the summary read "saved about 49,114 tokens, unknown"."""
    from paperterm.cli.scoring_run import format_summary

    scores = [Score("1", 1, 3, None, NOT_SENT, "prefiltered"), Score("2", 1, 7, 5, "", "cached")]
    summary = RunSummary(model="openai/x", cost=None, earlier_prompt_tokens=10,
                         earlier_cost=None, prefiltered=1, saved_tokens=49114, saved_cost=None)
    text = format_summary(summary, scores)
    assert "saved about 49,114 tokens, cost unknown" in text
    assert "cached scores: 10 tokens, cost unknown, paid in earlier runs" in text


# -- through the command line and the fake server ----------------------------------------


def test_score_prefilter_sends_only_the_local_top_part(cli, llm, day, topic):
    r, rows = score_json(cli, llm, "--prefilter", "0.3")
    assert r.returncode == 0, r.stderr  # the papers not sent count as scored
    top = local_top(day, topic, 74)
    assert sorted(sent_ids(llm)) == sorted(top)
    by_id = {row["id"]: row for row in rows}
    assert len(rows) == len(day)
    local = {s.paper_id: s for s in blend_scores(day, topic)}
    held = [row for row in rows if row["status"] == "prefiltered"]
    assert len(held) == len(day) - 74
    for row in held:
        assert row["relevance"] == local[row["id"]].relevance
        assert row["reason"].startswith("not sent (prefilter)")
    assert all(by_id[i]["status"] == "scored" for i in top)
    assert "not sent (prefilter) 170" in r.stderr
    assert re.search(r"prefilter: 170 papers not sent .*saved about [\d,]+ tokens, \$0\.\d{4}",
                     r.stderr)


def test_a_count_sends_that_many_and_saved_tokens_follow_the_run(cli, llm):
    r, _ = score_json(cli, llm, "--prefilter", "40")
    assert r.returncode == 0
    assert len(sent_ids(llm)) == 40
    m = re.search(r"tokens: prompt ([\d,]+) / completion ([\d,]+)", r.stderr)
    assert m
    spent = sum(int(g.replace(",", "")) for g in m.groups())
    saved = int(re.search(r"saved about ([\d,]+) tokens", r.stderr)[1].replace(",", ""))
    # the same tokens per paper as the run, for the 204 papers not sent
    assert saved == pytest.approx(spent * 204 / 40, rel=0.01)


def test_followed_authors_and_papers_like_stars_are_sent_too(cli, llm, day, topic,
                                                             isolated_home):
    top = set(local_top(day, topic, 20))
    outside = [p for p in day if p.id not in top]
    by_author, like_star = outside[-1], outside[-5]
    isolated_home.config.parent.mkdir(parents=True)
    isolated_home.config.write_text(f'follow = ["{by_author.authors[0]}"]\n')
    cli("score", "--feed", str(FEED), "--scorer", "local")  # caches the day
    store = Store.open(isolated_home.db)
    try:
        store.library.replace_positives("bib:/refs.bib", [StoredPositive(
            "2101.00002", like_star.title, like_star.abstract)], "moe")
        top = set(local_top(day, topic, 20, store))  # what the positive taught it moves it
    finally:
        store.close()
    r, _ = score_json(cli, llm, "--prefilter", "20")
    assert r.returncode == 0, r.stderr
    sent = set(sent_ids(llm))
    assert top | {by_author.id, like_star.id} <= sent
    assert re.search(r"prefilter: also sent 1 paper by followed authors and [1-4] like",
                     r.stderr)
    assert len(sent) <= 20 + 4  # a few extras, not the day


def test_papers_with_a_cached_llm_score_keep_it_and_cost_nothing(cli, llm, day):
    first, _ = score_json(cli, llm)  # a full run: every paper cached
    assert first.returncode == 0
    llm.requests.clear()
    again, rows = score_json(cli, llm, "--prefilter", "0.3")
    assert again.returncode == 0
    assert sent_ids(llm) == []
    assert {row["status"] for row in rows} == {"cached"}


def test_digest_prefilter_lists_every_paper(cli, llm, day):
    r = cli("digest", "--feed", str(FEED), "--model", MODEL, "--api-base", llm.url,
            "--prefilter", "0.3", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["counts"]["prefiltered"] == len(day) - 74
    assert doc["counts"]["unscored"] == 0
    saved = doc["prefilter_saved"]
    assert saved["papers"] == len(day) - 74 and saved["tokens"] > 0 and saved["cost"] > 0
    md = cli("digest", "--feed", str(FEED), "--model", MODEL, "--api-base", llm.url,
             "--prefilter", "0.3")
    assert md.returncode == 0
    assert re.search(r"170 not sent \(prefilter\), saved about [\d,]+ tokens", md.stdout)


def test_the_saved_estimate_uses_earlier_runs_when_this_one_sent_nothing():
    from paperterm.scoring.prefilter import estimate_saved

    held = [Score("1", 1, 2, None, NOT_SENT, "prefiltered")]
    paper = Paper("1", 1, "t" * 40, (), "a" * 400, ("cs.LG",), "cs.LG")
    summary = RunSummary(model=MODEL, earlier_prompt_tokens=900, earlier_completion_tokens=100,
                         earlier_cost=0.01)
    estimate_saved(summary, held, [paper])
    assert summary.prefiltered == 1
    assert summary.saved_tokens > 110  # the text alone is 110 tokens
    assert summary.saved_cost == pytest.approx(summary.saved_tokens * 0.01 / 1000)


def test_stars_saves_and_learned_papers_are_the_positives(cli, isolated_home, day):
    from paperterm.scoring.prefilter import stored_positives

    cli("score", "--feed", str(FEED), "--scorer", "local")  # caches the day's papers
    store = Store.open(isolated_home.db)
    try:
        store.marks.set_starred(day[3].id, True, topic="moe")
        store.marks.mark_saved([(day[5].id, "key5")], isolated_home.home / "refs.bib", topic="moe")
        store.library.replace_positives(
            "bib:/refs.bib", [StoredPositive("2101.00003", "A title", "")], "moe")
        store.marks.set_starred(day[4].id, True, topic="agents")  # another topic's: not a positive
        store.marks.mark_saved([(day[6].id, "key6")], isolated_home.home / "refs.bib")  # in bulk
        store.library.replace_positives("bib:/refs.bib", [StoredPositive("2101.00004", "B", "")],
                                        "agents")
        got = {q.id: q for q in stored_positives(store, "moe")}
    finally:
        store.close()
    assert set(got) == {day[3].id, day[5].id, "2101.00003"}
    assert got[day[3].id].title == day[3].title and got[day[5].id].text == day[5].abstract
