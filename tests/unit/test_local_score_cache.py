"""Headless commands reuse the local scorer's cache (per day, topic and scorer version),
as the reader does (issue 10, item 4)."""

from __future__ import annotations

import json

import paperterm.scoring.local as local


def test_score_twice_ranks_once(cli, monkeypatch):
    calls: list[int] = []
    real = local.scores_and_exclusions  # under the keyword scores and the blend alike
    monkeypatch.setattr(local, "scores_and_exclusions",
                        lambda papers, topic, *a: calls.append(len(papers))
                        or real(papers, topic, *a))
    first = cli("score", "--sample", "--topic", "moe", "--json")
    second = cli("score", "--sample", "--topic", "moe", "--json")
    assert first.returncode == second.returncode == 0, first.stderr
    assert calls == [244]  # the second run read the cache
    assert [json.loads(ln) for ln in first.stdout.splitlines()] == [
        json.loads(ln) for ln in second.stdout.splitlines()]
    cli("score", "--sample", "--topic", "agents", "--json")
    assert calls == [244, 244]  # another topic: ranked again
