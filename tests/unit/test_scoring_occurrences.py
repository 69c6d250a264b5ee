"""The one-pass term finder gives what matching every stemmed word gives (the straightforward
way, written out here as the oracle), on real days and on the cases that could trip it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paperterm.models import Paper, Topic
from paperterm.scoring.local import keywords as local
from paperterm.scoring.local.occurrences import _IRREGULAR, _prefix, canonical, occurrences
from paperterm.topics import builtin_topics

FEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"


def _day(name: str) -> list[Paper]:
    rows = [json.loads(line) for line in (FEEDS / name).read_text().splitlines()]
    return [Paper(r["id"], r["version"], r["title"], tuple(r["authors"]), r["abstract"],
                  tuple(r["categories"]), r["announce_type"]) for r in rows]


DAYS = [_day("day-2026-02-25.jsonl"), _day("day-2026-03-02.jsonl")]
TOPICS = [*builtin_topics().values(),
          Topic(name="free", keywords=(), description="graph neural networks for molecules "
                "and protein design; not relevant: vision transformers, robotics"),
          Topic(name="mixed", description="", exclude=("reinforcement learning",),
                keywords=("mixing", "mixture of experts", "KV cache", "scalability",
                          "dying", "x", "time series"))]


def _oracle(papers: list[Paper], terms: list) -> tuple[list[dict], list[int], list[tuple]]:
    """Stem every word, then count each term's stems as a run of neighbouring words."""
    found, df = [], [0] * len(terms)
    for p in papers:
        title, body = local.tokens(p.title), local.tokens(p.abstract)
        row = {}
        for k, term in enumerate(terms):
            n = len(term.seq)
            counts = tuple(sum(tuple(ws[i:i + n]) == term.seq for i in range(len(ws)))
                           for ws in (title, body))
            if any(counts):
                row[k] = counts
                df[k] += 1
        found.append(row)
    return found, df, [(len(local.words(p.title)), len(local.words(p.abstract)))
                       for p in papers]


@pytest.mark.parametrize("topic", TOPICS, ids=lambda t: t.name)
@pytest.mark.parametrize("day", range(len(DAYS)))
def test_every_occurrence_on_a_real_day_is_found(day, topic):
    terms = local._terms(topic)
    papers = DAYS[day]
    found, df, sizes = occurrences(papers, terms, local._STEMS.__getitem__)
    assert (found, df, sizes) == _oracle(papers, terms)
    assert sum(map(len, found)) > 0


def test_a_short_prefix_does_not_hide_a_longer_term():
    """"mixing" (stem mix) and "mixture of experts" (mixtur …) both start with "mix": the
    word "mixture" must still lead on to the whole phrase."""
    topic = Topic(name="t", description="", keywords=("mixing", "mixture of experts", "expert"))
    terms = local._terms(topic)
    papers = [Paper("1", 1, "Sparse mixture of experts, mixing experts", (),
                    "Mixtures-of-Experts; the mixed expert.", (), "new")]
    found, _, _ = occurrences(papers, terms, local._STEMS.__getitem__)
    label = {t.label: k for k, t in enumerate(terms)}
    assert found[0][label["mixture of experts"]] == (1, 1)
    assert found[0][label["mixing"]] == (1, 1)  # "mixing", "mixed"
    assert found[0][label["expert"]] == (2, 2)
    assert found == _oracle(papers, terms)[0]


def test_irregular_stems_are_found():
    topic = Topic(name="t", description="", keywords=("dying", "lying", "tying", "skies"))
    terms = local._terms(topic)
    papers = [Paper("1", 1, "Dying stars, lying agents, tying weights under clear skies", (),
                    "The star dies; the sky.", (), "new")]
    found, _, _ = occurrences(papers, terms, local._STEMS.__getitem__)
    assert found == _oracle(papers, terms)[0]
    assert len(found[0]) == 4


def test_every_word_of_the_real_days_starts_with_its_stem_prefix():
    vocabulary = {w for day in DAYS for p in day for w in local.words(f"{p.title} {p.abstract}")}
    vocabulary |= {"reliability", "possibilities", "hoping", "skies", "studies", "happily",
                   "generously", "conditional", "organization", "activities", "dying"}
    stem = local._stemmer()
    misses = {w for w in vocabulary
              if not w.startswith(_prefix(stem(w))) and w.encode() not in
              {v for forms in _IRREGULAR.values() for v in forms}}
    assert len(vocabulary) > 5000 and not misses


@pytest.mark.parametrize("text", [
    "Mixture-of-Experts (MoE) with 8×7B; naïve Rémi's KV-cache, ÆON İstanbul ß Ǆ 2:4 sparsity",
    "", "   ", "ＡＢＣ full-width, e\u0301 combining, tab\tand\nnewline", "αβγ x_1^2 $O(n)$",
    "a NUL\0inside", "Kelvin \u212a and UPPER case", "\n",
])
def test_canonical_bytes_hold_the_words_of_the_plain_split(text):
    joined, sizes = canonical([text, "Second TEXT", text])
    fields = joined.split(b"\n")
    assert [f.decode().split() for f in fields] == [local.words(t)
                                                   for t in (text, "Second TEXT", text)]
    assert sizes == [len(re.findall(r"[a-z0-9]+", t.lower()))
                     for t in (text, "Second TEXT", text)]
    assert all(f.startswith(b" ") and f.endswith(b" ") for f in fields)


def test_no_papers_or_no_terms():
    terms = local._terms(TOPICS[0])
    assert occurrences([], terms, local._STEMS.__getitem__) == ([], [0] * len(terms), [])
    papers = DAYS[0][:2]
    found, df, sizes = occurrences(papers, [], local._STEMS.__getitem__)
    assert found == [{}, {}] and df == [] and sizes == _oracle(papers, [])[2]


@pytest.mark.parametrize("chunk", [1, 2, 7])
def test_texts_read_in_small_chunks_give_the_same_counts(monkeypatch, chunk):
    """The day is read a chunk of texts at a time (each regex pass holds the GIL): where the
    chunks end changes nothing, titles and abstracts included."""
    from paperterm.scoring.local import occurrences as module

    monkeypatch.setattr(module, "CHUNK", chunk)
    terms = local._terms(TOPICS[-1])
    papers = DAYS[1][:25]
    assert occurrences(papers, terms, local._STEMS.__getitem__) == _oracle(papers, terms)
