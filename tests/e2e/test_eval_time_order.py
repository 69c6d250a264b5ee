"""`paperterm eval` that a user can trust (issue 30, section 4; issue 32, item 7): the
learned ranking is taught only by the marks of earlier days, `--curve` prints its learning
curve, each row says its seconds (and a model's dollars) per day, and a model that scored
part of a day is counted over the papers it scored, saying how many it skipped. Real days
(tests/fixtures/feeds), real SQLite, labels through `paperterm star`."""

from __future__ import annotations

import json
from datetime import date

import pytest
from support.realdays import save_days

from paperterm.scoring.cache import save_answer
from paperterm.scoring.task import ScoringTask
from paperterm.settings.config import Config
from paperterm.store import ScoreRow, Store
from paperterm.topics import resolve_topic
from paperterm.topics.follows import with_follows

FEB25, MAR02 = "2026-02-25", "2026-03-02"
PICKS = {FEB25: ["2602.21081", "2602.20191", "2602.20309", "2602.21144", "2602.20175"],
         MAR02: ["2602.24059", "2602.23722", "2602.23367"]}


@pytest.fixture
def days(isolated_home):  # type: ignore[no-untyped-def]
    return save_days(isolated_home.db)


def evaluate(cli, *args: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    proc = cli("eval", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return {row["scorer"]: row for row in json.loads(proc.stdout)}


def taught_by(db, day: date, stars: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    """The day's order as the blend taught only by these stars ranks it."""
    from paperterm.scoring.local.blend import blended
    from paperterm.services.evaluation import ranked_ids
    from paperterm.store import Example

    store = Store.open(db)
    try:
        topic = with_follows(resolve_topic("moe", Config()).topic, [], store)
        papers = store.papers.day_papers("cs.AI+cs.LG", day)
        known = {p.id: p for d in (date(2026, 2, 25), date(2026, 3, 2))
                 for p in store.papers.day_papers("cs.AI+cs.LG", d)}
        examples = [Example(i, known[i].title, known[i].abstract, "starred") for i in stars]
        return ranked_ids(papers, blended(store, papers, topic, examples) or [])
    finally:
        store.close()


def in_top_2x(ranked: list[str], picks: list[str]) -> int:
    return sum(pid in picks for pid in ranked[:2 * len(picks)])


def test_learned_is_taught_by_earlier_days_only(cli, days, isolated_home):
    """Before, the learned ranking of 02-25 was taught by the stars of 03-02 (the other
    days, later ones too): a learner measured on its future."""
    from paperterm.scoring.metrics import ndcg_at

    cli("star", *PICKS[FEB25], *PICKS[MAR02])
    got = {d["day"]: d for d in evaluate(cli)["learned"]["per_day"]}
    untaught = taught_by(isolated_home.db, date(2026, 2, 25), [])
    assert got[FEB25]["in_top_2x"] == in_top_2x(untaught, PICKS[FEB25])
    assert got[FEB25]["ndcg_at_20"] == pytest.approx(
        ndcg_at(untaught, set(PICKS[FEB25]), 20), abs=1e-4)
    later = taught_by(isolated_home.db, date(2026, 2, 25), PICKS[MAR02])
    assert ndcg_at(later, set(PICKS[FEB25]), 20) != pytest.approx(
        got[FEB25]["ndcg_at_20"], abs=1e-4)  # the future's stars would have shown
    earlier = taught_by(isolated_home.db, date(2026, 3, 2), PICKS[FEB25])
    assert got[MAR02]["ndcg_at_20"] == pytest.approx(
        ndcg_at(earlier, set(PICKS[MAR02]), 20), abs=1e-4)


def test_curve_prints_the_learning_curve(cli, days, isolated_home):
    cli("star", *PICKS[FEB25], *PICKS[MAR02])
    proc = cli("eval", "--curve")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "after your first N marks" in lines[0]
    assert lines[1].split() == ["marks", "days", "picks", "in", "top", "2x", "untaught",
                                "P@10", "s/day"]
    row = lines[2].split()  # the first 5 marks (02-25's), measured on 03-02
    assert row[:3] == ["5", "1", "3"]
    earlier = taught_by(isolated_home.db, date(2026, 3, 2), PICKS[FEB25])
    assert int(row[3]) == in_top_2x(earlier, PICKS[MAR02])
    # the last row: all the marks (issue 32: it had none), each day taught every mark of
    # the days before it, on the first row's days (here 03-02 taught 02-25's 5 stars)
    last = lines[3].split()
    assert last[:4] == ["all", "8", "1", "3"] and last[4] == row[3], lines
    assert lines[4] == ""
    records = json.loads(cli("eval", "--curve", "--json").stdout)
    assert [(r["marks"], r["all"], r["days"], r["picks"]) for r in records] == [
        (5, False, 1, 3), (8, True, 1, 3)]
    assert records[0]["seconds_per_day"] > 0
    assert records[1]["in_top_2x"] == evaluate(cli)["learned"]["per_day"][-1]["in_top_2x"]
    assert cli("eval", "--curve", "--gold", "x", "--date", MAR02).returncode == 2


def test_too_few_marks_for_a_curve_is_said(cli, days):
    cli("star", *PICKS[MAR02])
    proc = cli("eval", "--curve")
    assert proc.returncode == 0 and "no learning curve yet" in proc.stdout


def test_eval_offline_is_accepted(cli, days):
    """Scripts written against an earlier release pass --offline: a documented no-op."""
    cli("star", *PICKS[MAR02])
    assert cli("eval", "--offline", "--json").returncode == 0


def test_a_model_is_counted_over_the_papers_it_scored(cli, days, isolated_home):
    """Issue 32, item 7: a model that scored 100 papers of 03-02, two picks on top and the
    third pick not reached, was counted over the whole day (the unscored pick last: 2 of 3)
    and judged against the local ranking on every paper."""
    for ids in PICKS.values():
        cli("star", *ids)
    store = Store.open(isolated_home.db)
    try:
        topic = with_follows(resolve_topic("moe", Config()).topic, [], store)
        papers = store.papers.day_papers("cs.AI+cs.LG", date(2026, 3, 2))
        chosen = [p for p in papers if p.id in PICKS[MAR02][:2]]
        chosen += [p for p in papers if p.id not in PICKS[MAR02]][:98]
        rows = [ScoreRow(p.id, p.version or 0, 9 if p.id in PICKS[MAR02] else 2, 5, "r")
                for p in chosen]
        save_answer(store.scores, ScoringTask(topic), model="openai/gpt-test",
                    n_papers=len(rows), prompt_tokens=1000, completion_tokens=100,
                    cost=0.02, rows=rows, day=MAR02)
    finally:
        store.close()
    got = evaluate(cli)
    model = got["openai/gpt-test"]
    assert model["picks"] == 2 and model["in_top_2x"] == 2
    assert model["skipped"] == len(papers) - 100
    assert model["per_day"][0]["skipped"] == len(papers) - 100
    assert model["cost_per_day"] == pytest.approx(0.02)
    assert got["blend"]["seconds_per_day"] > 0 and got["blend"]["cost_per_day"] is None
    text = cli("eval").stdout
    assert f"it skipped {len(papers) - 100} paper(s)" in text
    assert "(2 picks among the scored; " in text
    assert "$0.0200" in text  # dollars per day
    verdict = text.strip().splitlines()[-1]
    assert "over the papers it scored" in verdict
