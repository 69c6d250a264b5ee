"""A prefilter chosen by recall (issue 20, item 3): `--prefilter auto` sends the smallest top
part of the day whose expected recall is at least 90%, from the curve measured on the
development days (shipped in the package) or, once there are enough, from where the user's
own starred papers fell in the local ranking; the run summary says what it sent. Through
the command line and litellm to the fake server."""

from __future__ import annotations

import json
import math
import re
from datetime import date
from pathlib import Path

import pytest
from test_prefilter import local_top, sent_ids

from paperterm.scoring import recall
from paperterm.scoring.prefilter import quota
from paperterm.store import Store

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"
MODEL = "openai/gpt-4o-mini"


def test_the_recall_curve_of_positions_and_the_share_it_chooses():
    # ten positives: at 1%, 3%, ... 17% of their days, the last at 95%
    positions = [0.01 + 0.02 * k for k in range(9)] + [0.95]
    curve = recall.curve_of(positions)
    assert dict(curve)[0.05] == pytest.approx(0.2)  # 1% and 3% (5% is the 6th of 100)
    assert dict(curve)[0.2] == pytest.approx(0.9)
    assert recall.smallest_share(curve) == 0.2
    assert recall.expected_recall(curve, 0.2) == pytest.approx(0.9)
    assert recall.expected_recall(curve, 0.175) == pytest.approx((0.7 + 0.9) / 2)
    assert recall.smallest_share(curve, 1.0) == 1.0  # the 95% one needs the whole day


def test_the_shipped_curve_rises_and_chooses_the_part_it_promises():
    curve = recall.shipped_curve()
    shares = [s for s, _ in curve]
    assert shares == list(recall.STEPS)
    assert [r for _, r in curve] == sorted(r for _, r in curve)
    share = recall.smallest_share(curve)
    assert recall.expected_recall(curve, share) >= recall.TARGET
    earlier = [s for s in shares if s < share]
    assert all(recall.expected_recall(curve, s) < recall.TARGET for s in earlier)
    assert recall.summary_line(96, 302, 0.904) == "sent 96 of 302, expected to hold 9 of 10 picks"


def test_cli_prefilter_auto_sends_the_part_the_curve_chose_and_says_so(cli, llm, day, topic):
    r = cli("score", "--feed", str(FEED), "--topic", "moe", "--model", MODEL,
            "--api-base", llm.url, "--json", "--prefilter", "auto")
    assert r.returncode == 0, r.stderr
    share = recall.smallest_share(recall.shipped_curve())
    n = quota(share, len(day))
    assert sorted(sent_ids(llm)) == sorted(local_top(day, topic, n))
    m = re.search(r"prefilter auto: sent (\d+) of (\d+), expected to hold (\d) of 10 picks "
                  r"\(calibrated on development days\)", r.stderr)
    assert m, r.stderr
    assert (int(m[1]), int(m[2]), int(m[3])) == (n, len(day), 9)
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert sum(row["status"] == "prefiltered" for row in rows) == len(day) - n


def test_the_config_key_takes_auto(cli, llm, isolated_home, day):
    isolated_home.config.parent.mkdir(parents=True)
    isolated_home.config.write_text('prefilter = "auto"\n')
    r = cli("score", "--feed", str(FEED), "--topic", "moe", "--model", MODEL,
            "--api-base", llm.url)
    assert r.returncode == 0, r.stderr
    assert re.search(r"prefilter auto: sent \d+ of 244", r.stdout)  # the summary
    isolated_home.config.write_text('prefilter = "most"\n')
    bad = cli("score", "--feed", str(FEED))
    assert bad.returncode == 2 and '"auto"' in bad.stderr and "Traceback" not in bad.stderr


def test_enough_own_stars_calibrate_auto_from_where_they_fell(db, day, topic):
    store = Store.open(db)
    try:
        store.papers.save_day("cs.AI+cs.LG", date(2026, 2, 25), day, source="rss")
        top = local_top(day, topic, 60)
        # the user's 30 stars under moe: all within the top 60 of 244 of their day
        for pid in top[:recall.MIN_OWN_POSITIVES:2] + top[1:recall.MIN_OWN_POSITIVES:2]:
            store.marks.set_starred(pid, True, topic=topic.name)
        fewer = recall.choose(store, topic)  # 30 stars: their own curve
        assert fewer.source == "your 30 starred and saved papers"
        own = recall.curve_of(recall.own_positions(store, topic))
        assert fewer.share == recall.smallest_share(own) < recall.smallest_share(
            recall.shipped_curve())
        assert fewer.share <= math.ceil(30 / 244 / 0.05) * 0.05 + 1e-9
        # another topic's stars do not count for this one
        assert recall.choose(store, replace_name(topic, "agents")).source == (
            "development days")
        store.marks.set_starred(top[0], False, topic=topic.name)  # 29: the shipped curve
        assert recall.choose(store, topic).source == "development days"
    finally:
        store.close()


def replace_name(topic, name):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(topic, name=name)


def test_a_fixed_part_says_what_it_is_expected_to_hold(cli, llm, day):
    """The QA walk: `--prefilter 0.3` said how many papers it did not send but not how many
    of the picks it is expected to keep (8 of 10 by the development days), the silence the
    issue was about."""
    r = cli("score", "--feed", str(FEED), "--topic", "moe", "--model", MODEL,
            "--api-base", llm.url, "--prefilter", "0.3")
    assert r.returncode == 0, r.stderr
    n = quota(0.3, len(day))
    held = math.floor(recall.expected_recall(recall.shipped_curve(), n / len(day)) * 10)
    assert held == 8
    assert (f"prefilter 0.3: sent {n} of {len(day)}, expected to hold {held} of 10 picks "
            "(calibrated on development days)") in r.stdout
    r = cli("score", "--feed", str(FEED), "--topic", "moe", "--model", MODEL,
            "--api-base", llm.url, "--prefilter", "40")
    # (papers the model scored before are sent too: they cost nothing)
    assert re.search(r"prefilter 40: sent \d+ of 244, expected to hold [0-9] of 10 picks",
                     r.stdout)
