"""Summaries on demand (issue 13, item 6): the summary task, `paperterm summarize ID...` and
`digest --summaries N`, through litellm over real HTTP to the fake server."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from support.fakellm import Behaviour, FakeLLM, expected_summary, is_summary_request

from paperterm.models import Paper
from paperterm.scoring import PROMPT_VERSION
from paperterm.scoring.summary import (
    MAX_SENTENCES,
    SUMMARY_KIND,
    SummaryTask,
    summarize_papers,
    tidy_summary,
)
from paperterm.settings import ScoringSettings
from paperterm.sources.feeds import parse_feed
from paperterm.store import opener

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
MODEL = "openai/gpt-4o-mini"


@pytest.fixture(scope="module")
def day() -> list[Paper]:
    return parse_feed(FEED.read_bytes()).papers


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-summaries")


@pytest.fixture
def llm():
    with FakeLLM() as fake:
        yield fake


def summary_requests(llm: FakeLLM) -> list[dict]:
    return [r for r in llm.requests if is_summary_request(r)]


# -- the task ----------------------------------------------------------------------------


def test_the_summary_task_has_its_own_cache_key_per_language():
    english = SummaryTask("English")
    assert english.key.kind == SUMMARY_KIND != PROMPT_VERSION
    assert SummaryTask(" english ").key == english.key  # case and spacing are no new language
    assert SummaryTask("Deutsch").key != english.key


def test_the_summary_prompt_asks_for_3_to_5_sentences_in_the_language(day):
    task = SummaryTask("Deutsch")
    system, user = task.build_messages(day[:2])
    assert "3 to 5 sentences" in system["content"]
    for part in ("problem", "method", "result", "Deutsch"):
        assert part in system["content"]
    assert f'<paper id="{day[0].id}">' in user["content"] and day[1].title[:30] in user["content"]
    assert task.response_schema is not None and task.response_schema["type"] == "json_schema"


def test_a_reply_is_parsed_cleaned_and_cut_to_five_sentences(day):
    papers = day[:3]
    long = " ".join(f"Sentence number {i} says something." for i in range(1, 9))
    reply = "Here you go:\n```json\n" + json.dumps({"papers": [
        {"id": f"arXiv:{papers[0].id}v9", "summary": "It works\x1b[2J well. \u202eReally."},
        {"id": papers[1].id, "summary": long},
        {"id": papers[2].id, "summary": "   "},
        {"id": "1111.11111", "summary": "not asked"},
    ]}) + "\n```"
    parsed = SummaryTask().parse(reply, papers)
    assert parsed.results[papers[0].id].text == "It works well. Really."
    assert parsed.results[papers[0].id].version == papers[0].version
    cut = parsed.results[papers[1].id].text
    assert cut.endswith("number 5 says something.") and "number 6" not in cut
    assert papers[2].id not in parsed.results and parsed.rejected[papers[2].id]
    assert parsed.unknown_ids == 1
    assert SummaryTask().parse("no json here", papers).error
    assert tidy_summary("E.g. this works, e.g. here. And 3.5 points. Fine.") == (
        "E.g. this works, e.g. here. And 3.5 points. Fine.")
    assert len(tidy_summary("A. B. C. D. E. F. G.").split(". ")) == MAX_SENTENCES


def test_summaries_are_cached_per_paper_version_model_and_language(key, llm, tmp_path, day):
    db = tmp_path / "db.sqlite3"
    settings = ScoringSettings(model=MODEL, api_base=llm.url, timeout=10)
    papers = day[:3]
    got, run = summarize_papers(papers, settings, "English", open_store=opener(db))
    assert {pid: s.text for pid, s in got.items()} == {
        p.id: expected_summary(p.id) for p in papers}
    assert run.requests == 1 and run.total_tokens > 0 and run.cost and run.cost > 0
    # the same again: from the cache, no request
    again, rerun = summarize_papers(papers, settings, "english", open_store=opener(db))
    assert {s.status for s in again.values()} == {"cached"} and rerun.requests == 0
    # another language, another model, a new version of one paper: asked again
    _, other = summarize_papers(papers[:1], settings, "Deutsch", open_store=opener(db))
    assert other.requests == 1 and "Deutsch" in llm.requests[-1]["messages"][0]["content"]
    _, model2 = summarize_papers(papers[:1], replace(settings, model="openai/gpt-4o"),
                                 "English", open_store=opener(db))
    assert model2.requests == 1
    newer = replace(papers[0], version=(papers[0].version or 1) + 1)
    fresh, v2 = summarize_papers([newer], settings, "English", open_store=opener(db))
    assert v2.requests == 1 and fresh[newer.id].status == "done"
    conn = sqlite3.connect(db)
    kinds = dict(conn.execute("SELECT prompt_version, count(*) FROM scores GROUP BY 1"))
    conn.close()
    assert kinds == {SUMMARY_KIND: 6}


def test_summaries_go_in_small_batches(key, llm, tmp_path, day):
    settings = ScoringSettings(model=MODEL, api_base=llm.url, timeout=10, batch_size=25)
    got, run = summarize_papers(day[:12], settings, "English",
                                open_store=opener(tmp_path / "db.sqlite3"))
    assert len(got) == 12 and all(s.ok for s in got.values())
    assert run.requests == 3 and max(len(llm.ids_of(r)) for r in llm.requests) == 5


def test_a_summary_failure_names_summaries_and_counts_papers_right(key, llm, tmp_path, day):
    # issue 22: it read "no valid score" and "1 papers"
    llm.default = Behaviour(content='{"papers": []}')  # paid for, never a summary
    settings = ScoringSettings(model=MODEL, api_base=llm.url, timeout=10, concurrency=1)
    got, run = summarize_papers(day[:16], settings, "English",
                                open_store=opener(tmp_path / "db.sqlite3"))
    errors = [s.error or "" for s in got.values()]
    assert errors[0].startswith("no valid summary after 2 requests")
    assert run.stopped is not None and "no valid summary" in run.stopped
    assert run.stopped.endswith(": 1 paper not sent"), run.stopped
    assert not any("score" in e for e in errors)


# -- paperterm summarize -----------------------------------------------------------------


def cache_day(cli) -> None:
    done = cli("score", "--feed", str(FEED), "--scorer", "local")
    assert done.returncode == 0, done.stderr


def test_summarize_prints_summaries_of_cached_papers_and_reruns_free(cli, key, llm, day):
    cache_day(cli)
    ids = [day[0].id, day[5].id]
    r = cli("summarize", *ids, "--model", MODEL, "--api-base", llm.url)
    assert r.returncode == 0, r.stderr
    for p in (day[0], day[5]):
        assert p.title[:40] in r.stdout and expected_summary(p.id) in r.stdout.replace(
            "\n  ", " ")
    assert "2 new, 0 cached, 0 failed" in r.stderr and "cost $" in r.stderr
    assert "English" in summary_requests(llm)[0]["messages"][0]["content"]
    before = llm.count
    again = cli("summarize", *ids, "--model", MODEL, "--api-base", llm.url, "--json")
    assert again.returncode == 0 and llm.count == before
    rows = [json.loads(line) for line in again.stdout.splitlines()]
    assert [(r["id"], r["status"], r["language"]) for r in rows] == [
        (i, "cached", "English") for i in ids]
    assert rows[0]["summary"] == expected_summary(ids[0])


def test_summarize_uses_the_configured_language(cli, key, llm, day, isolated_home):
    cache_day(cli)
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(
        f'model = "{MODEL}"\napi_base = "{llm.url}"\nlanguage = "Deutsch"\n')
    r = cli("summarize", day[1].id)
    assert r.returncode == 0, r.stderr
    assert "Write the summaries in Deutsch" in llm.requests[-1]["messages"][0]["content"]
    flag = cli("summarize", day[1].id, "--language", "Français")
    assert flag.returncode == 0 and "Français" in llm.requests[-1]["messages"][0]["content"]


def test_summarize_refuses_clearly(cli, key, llm, day, isolated_home):
    cache_day(cli)
    no_model = cli("summarize", day[0].id)
    assert no_model.returncode == 2 and "summaries need a model" in no_model.stderr
    unknown = cli("summarize", "2101.00001", "--model", MODEL, "--api-base", llm.url)
    assert unknown.returncode == 2 and "not in the cache: 2101.00001" in unknown.stderr
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('language = ""\n')
    bad = cli("summarize", day[0].id, "--model", MODEL)
    assert bad.returncode == 2 and "'language'" in bad.stderr
    assert llm.count == 0
    isolated_home.config.write_text("")
    llm.push(Behaviour(status=401))
    denied = cli("summarize", day[0].id, "--model", MODEL, "--api-base", llm.url)
    assert denied.returncode == 3 and "summaries stopped" in denied.stderr
    assert "Traceback" not in denied.stderr and len(denied.stderr.strip().splitlines()) == 1


def test_summarize_respects_the_budget(cli, key, llm, day):
    cache_day(cli)
    r = cli("summarize", day[0].id, day[1].id, "--model", MODEL, "--api-base", llm.url,
            "--budget", "0.000001")
    assert r.returncode == 1 and llm.count == 0
    assert "no summary: " in r.stdout and "budget" in r.stdout
    assert ("stopped before a request that could exceed the budget of $1e-06; spent $0; "
            "2 papers not scored") in r.stderr  # issue 22: not "budget reached", "1 papers"


# -- digest --summaries N ----------------------------------------------------------------


def test_digest_adds_summaries_to_the_top_papers(cli, key, llm, day):
    args = ("digest", "--feed", str(FEED), "--model", MODEL, "--api-base", llm.url,
            "--summaries", "3", "--format", "json")
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    top = doc["papers"][:3]
    assert [p["summary"] for p in top] == [expected_summary(p["id"]) for p in top]
    assert all("summary" not in p for p in doc["papers"][3:])
    assert {i for r in summary_requests(llm) for i in llm.ids_of(r)} == {p["id"] for p in top}
    assert doc["summaries"]["language"] == "English" and doc["summaries"]["cost"] > 0
    md = cli(*args[:-2])
    assert md.returncode == 0
    assert md.stdout.count("**Summary:**") == 3 and "| summaries (English) |" in md.stdout
    first = md.stdout.split("## 1. ")[1].split("## 2. ")[0]
    assert f"**Summary:** {expected_summary(top[0]['id'])}" in first


def test_digest_summaries_need_a_model_before_anything_loads(cli, llm):
    r = cli("digest", "--feed", str(FEED), "--summaries", "3")
    assert r.returncode == 2 and "--summaries: summaries need a model" in r.stderr
    assert r.stdout == ""
