"""Issue 32 item 1: after a budget stop the papers the model did not reach keep their local
value (as the reader shows them, "~7"), marked `score_from`, and rank by it in `score
--json`, the digest and `eval`: one order everywhere (the reader's `lay_local_under`
ranks them by the same key)."""

from __future__ import annotations

import json
from pathlib import Path

from support.fakellm import Behaviour

from paperterm.day.listing import Entry, sort_entries
from paperterm.day.scores import NOT_REACHED, rank_key
from paperterm.scoring.types import Score

SAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml")


def _config(home, llm) -> None:
    home.config.parent.mkdir(parents=True, exist_ok=True)
    home.config.write_text(f'model = "openai/gpt-4o-mini"\napi_base = "{llm.url}"\n'
                           "topic = \"moe\"\nbatch_size = 10\nconcurrency = 1\n")


def _ones(entries):
    return [{**e, "relevance": 1, "novelty": 1} for e in entries]


def test_papers_the_model_did_not_reach_keep_their_local_value_in_one_order(
        cli, isolated_home, llm):
    _config(isolated_home, llm)
    # the first batch is scored 1/10 by the model (and cached); then the budget stops the run
    llm.push(Behaviour(edit=_ones))
    llm.rule = lambda n, ids: Behaviour(fmt="malformed")
    first = cli("score", "--feed", SAMPLE, "--offline", "--json")
    assert first.returncode in (3, 4), first.stderr
    llm.rule = None
    run = cli("score", "--feed", SAMPLE, "--offline", "--json", "--budget", "0.000001")
    assert run.returncode == 4, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(rows) == 244
    cached = [r for r in rows if r["status"] == "cached"]
    reached_not = [r for r in rows if r["status"] == "unscored"]
    assert len(cached) == 10 and all(r["relevance"] == 1 for r in cached)
    # the old code: relevance null, score_from null, ranked below every 1/10 of the model
    assert reached_not and all(r["relevance"] is not None for r in reached_not)
    assert {r["score_from"] for r in reached_not} == {NOT_REACHED}
    assert all(r["error"] for r in reached_not)
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks) == list(range(1, 245))
    best_local = max(r["relevance"] for r in reached_not)
    assert best_local > 1 and rows[0]["relevance"] == best_local
    assert rows[0]["status"] == "unscored"  # above the model's 1/10s
    assert [r["relevance"] for r in rows] == sorted((r["relevance"] for r in rows),
                                                    reverse=True)

    # the reader's list ranks the same scores by the same key: the same order
    entries = []
    for i, r in enumerate(sorted(rows, key=lambda r: r["id"])):
        e = Entry.__new__(Entry)
        Entry.__init__(e, _paper(r["id"]), i)
        e.set_score(r["relevance"], r["novelty"], "", "failed" if r["status"] == "unscored"
                    else "cached", None, None)
        entries.append(e)
    # (fine scores aside, which JSON does not print: compare by relevance and novelty)
    shown = sort_entries(entries, "relevance")
    keys = [(e.relevance, e.novelty or 0) for e in shown]
    assert keys == [(r["relevance"], r["novelty"] or 0) for r in rows]

    # the digest ranks them too, marked, and lists none under "Unscored"
    digest = cli("digest", "--feed", SAMPLE, "--offline", "--format", "json",
                 "--budget", "0.000001")
    doc = json.loads(digest.stdout)
    assert doc["unscored"] == []
    assert [p["id"] for p in doc["papers"]] == [r["id"] for r in rows]
    assert doc["papers"][0]["score_from"] == NOT_REACHED
    md = cli("digest", "--feed", SAMPLE, "--offline", "--budget", "0.000001").stdout
    assert "## Unscored" not in md
    assert f"**Relevance ~{best_local}/10** (local: the model did not reach it" in md


def _paper(pid: str):
    from paperterm.models import Paper

    return Paper(pid, 1, f"Paper {pid}", ("A B",), "Text.", ("cs.LG",), "cs.LG")


def test_rank_key_puts_a_local_stand_in_by_its_value():
    model_one = Score("a", 1, 1, 1, "", "cached")
    stand_in = Score("b", 1, 8, None, "", "unscored", "budget reached", 0.5)
    nothing = Score("c", 1, None, None, "", "unscored", "budget reached")
    keys = sorted([(rank_key(model_one, 0), "a"), (rank_key(stand_in, 1), "b"),
                   (rank_key(nothing, 2), "c")])
    assert [k[1] for k in keys] == ["b", "a", "c"]


def test_a_paper_the_model_did_not_reach_shows_the_blend_the_day_shows_without_a_model(
        cli, isolated_home, llm):
    """The stand-in is the day's blend (`rank_locally`), the value `score --json` gives the
    same day without a model; it was the keyword-only score."""
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('topic = "moe"\n')
    plain = cli("score", "--feed", SAMPLE, "--offline", "--json")
    assert plain.returncode == 0, plain.stderr
    blend = {r["id"]: r["relevance"] for r in map(json.loads, plain.stdout.splitlines())}
    _config(isolated_home, llm)
    run = cli("score", "--feed", SAMPLE, "--offline", "--json", "--budget", "0.000001")
    assert run.returncode == 4, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert {r["score_from"] for r in rows} == {NOT_REACHED}
    assert {r["id"]: r["relevance"] for r in rows} == blend
    doc = json.loads(cli("digest", "--feed", SAMPLE, "--offline", "--format", "json",
                         "--budget", "0.000001").stdout)
    assert {p["id"]: p["relevance"] for p in doc["papers"]} == {
        pid: rel for pid, rel in blend.items() if rel}


def test_the_digest_header_says_the_ranking_is_local_when_the_model_scored_none(
        cli, isolated_home, llm):
    """It said "the top 20 of 244 scored papers" when the model had scored 0."""
    _config(isolated_home, llm)
    md = cli("digest", "--feed", SAMPLE, "--offline", "--budget", "0.000001").stdout
    assert "scored papers" not in md
    assert ("- **Shown:** the top 20 of 244 papers, ranked locally (the model scored 0 of "
            "244)") in md
    assert llm.count == 0


def test_the_day_list_lays_under_the_values_score_json_and_the_digest_give():
    """One owner of what a paper the model did not reach shows (issue 29): the day list's
    `lay_local_under` gives each waiting entry what `with_stand_ins` gives the same paper;
    an entry the model scored, and a local score without a relevance, change nothing."""
    from paperterm.day.listing import make_entries
    from paperterm.day.score_states import lay_local_under
    from paperterm.day.scores import with_stand_ins

    papers = [_paper(pid) for pid in "abcde"]
    entries = make_entries(papers)
    by_id = {e.id: e for e in entries}
    by_id["a"].set_score(None, None, "", "queued")
    by_id["b"].set_score(None, None, "", "failed", "budget reached")
    by_id["c"].set_score(None, None, "", "unsent", "not sent: budget")
    by_id["d"].set_score(9, 4, "the model's", "scored")
    by_id["e"].set_score(None, None, "", "failed", "timeout")
    local = [Score("a", 1, 7, 3, "keywords a", "scored", None, 0.7),
             Score("b", 1, 5, 2, "keywords b", "scored", None, 0.5),
             Score("c", 1, 3, 1, "keywords c", "scored", None, 0.3),
             Score("d", 1, 2, 1, "keywords d", "scored", None, 0.2),
             Score("e", 1, None, None, "", "scored")]
    run = {"a": Score("a", 1, None, None, "", "queued"),
           "b": Score("b", 1, None, None, "", "unscored", "budget reached"),
           "c": Score("c", 1, None, None, "", "unscored", "not sent: budget"),
           "d": Score("d", 1, 9, 4, "the model's", "scored"),
           "e": Score("e", 1, None, None, "", "unscored", "timeout")}

    assert lay_local_under(by_id, local) == 3
    kept = with_stand_ins(run, {s.paper_id: s for s in local})
    for e in entries:
        k = kept[e.id]
        assert (e.relevance, e.novelty, e.reason, e.fine) == (
            k.relevance, k.novelty, k.reason, k.fine), e.id
    assert [e.status for e in entries] == ["queued", "failed", "unsent", "scored", "failed"]
    assert by_id["b"].error == "budget reached"
