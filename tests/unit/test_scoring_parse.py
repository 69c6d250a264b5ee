"""Reply parsing and validation (pure functions)."""

from __future__ import annotations

import json

import pytest

from paperterm.scoring.parse import coerce_score, normalize_id, parse_reply

IDS = ["2602.19938", "2602.20191", "2602.20309"]


def entry(pid, rel=5, nov=5, reason="r"):
    return {"id": pid, "relevance": rel, "novelty": nov, "reason": reason}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (8, 8), (8.0, 8), ("8", 8), ("8/10", 8), (" 8 / 10 ", 8), (7.6, 8), ("10", 10), (1, 1),
        (0, None), (11, None), ("11/10", None), (-3, None), ("high", None), (True, None),
        (None, None), ([8], None), (float("nan"), None), ("8/100", None),
    ],
)  # fmt: skip
def test_coerce_score(value, expected):
    assert coerce_score(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2602.19938", "2602.19938"),
        ("2602.19938v2", "2602.19938"),
        ("arXiv:2602.19938v12", "2602.19938"),
        ("ARXIV:2602.19938", "2602.19938"),
        ("https://arxiv.org/abs/2602.19938v1", "2602.19938"),
        ("hep-th/9901001v1", "hep-th/9901001"),
        (None, None),
        (True, None),
    ],
)
def test_normalize_id(value, expected):
    assert normalize_id(value) == expected


def test_plain_object():
    reply = parse_reply(json.dumps({"papers": [entry(i, 7, 3) for i in IDS]}), IDS)
    assert reply.error is None and reply.unknown_ids == 0
    assert {k: (v.relevance, v.novelty) for k, v in reply.scores.items()} == {
        i: (7, 3) for i in IDS
    }


def test_fenced_with_prose_around_and_braces_in_prose():
    body = json.dumps({"papers": [entry(IDS[0], 9)]}, indent=2)
    text = f"Scores {{as requested}} [see below]:\n```json\n{body}\n```\nThanks {{:}}"
    reply = parse_reply(text, IDS)
    assert reply.scores[IDS[0]].relevance == 9


def test_json_lines_and_bare_list():
    lines = "\n".join(json.dumps(entry(i, 4)) for i in IDS)
    assert set(parse_reply(lines, IDS).scores) == set(IDS)
    assert set(parse_reply(json.dumps([entry(i) for i in IDS]), IDS).scores) == set(IDS)


def test_truncated_reply_salvages_complete_entries():
    full = json.dumps({"papers": [entry(i) for i in IDS]})
    cut = full[: full.index(IDS[2]) + 4]
    reply = parse_reply(cut, IDS)
    assert set(reply.scores) == set(IDS[:2])


def test_garbage_and_empty():
    assert parse_reply("I cannot help with that.", IDS).error is not None
    assert parse_reply("", IDS).error == "the reply was empty"
    assert parse_reply(None, IDS).scores == {}
    empty = parse_reply('{"papers": []}', IDS)
    assert empty.scores == {} and empty.error is None  # valid JSON, every paper missing


def test_unknown_versioned_duplicate_and_rejected():
    entries = [
        entry("arXiv:2602.19938v2", 0),  # invalid relevance: rejected ...
        entry("2602.19938v2", 6, reason="  first\n valid  "),  # ... then first valid wins
        entry("2602.19938", 9),
        entry("9999.00001", 10),  # not in the batch
        entry("2602.20191", 5, 42),  # novelty out of range: rejected
        {"id": "2602.20309", "relevance": "3/10"},  # no novelty: accepted with None
        {"relevance": 10},  # no id
    ]
    reply = parse_reply(json.dumps({"papers": entries}), IDS)
    assert reply.scores["2602.19938"].relevance == 6
    assert reply.scores["2602.19938"].reason == "first valid"
    assert "2602.20191" not in reply.scores and "novelty" in reply.rejected["2602.20191"]
    assert reply.scores["2602.20309"].novelty is None
    assert reply.unknown_ids == 2
    assert "2602.19938" not in reply.rejected


def test_long_reason_truncated():
    reply = parse_reply(json.dumps({"papers": [entry(IDS[0], reason="x" * 1000)]}), IDS)
    assert len(reply.scores[IDS[0]].reason) == 300
