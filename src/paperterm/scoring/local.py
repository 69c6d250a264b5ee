"""The local scorer: deterministic, instant and offline.

BM25 over the day's papers (title hits count three times), with the topic's keywords as
phrases (multi-word keywords must match as a phrase), the words of the description's
"relevant" part as weak terms, and the exclude keywords (plus short phrases from a
"Not relevant:" part of the description) pushing down. Raw scores are mapped to 1-10 against
the day's distribution with a saturating curve; a paper matching nothing gets 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score

K1 = 1.2
B = 0.75
TITLE_WEIGHT = 3.0
KEYWORD_WEIGHT = 1.0
DESCRIPTION_WEIGHT = 0.25
EXCLUDE_TITLE_FACTOR = 0.25  # an exclude keyword in the title multiplies the score by this
EXCLUDE_ABSTRACT_FACTOR = 0.6  # ... per mention in the abstract (up to EXCLUDE_MAX_MENTIONS)
EXCLUDE_MAX_MENTIONS = 3
NEGATIVE_DESCRIPTION_FACTOR = 0.7  # a phrase from the description's "Not relevant:" part
COMMON_DF = 0.15  # description words in more of the day's papers than this are ignored
MAX_REASON_TERMS = 6

_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it",
        "its", "of", "on", "or", "the", "to", "with", "about", "using", "via", "new", "other",
        "such", "that", "this", "these", "those", "their", "than", "then", "also", "any", "all",
        "both", "each", "more", "most", "not", "no", "nor", "only", "own", "same", "so", "can",
        "will", "just", "should", "now", "e", "g", "eg", "i", "ie", "etc", "pure", "existing",
        "relevant", "irrelevant", "without", "insight", "methodological"
    }
)  # fmt: skip
_SUFFIXES = (
    "izations", "ization", "isations", "isation", "ations", "ation", "izing", "ized", "izes",
    "ize", "ings", "ing", "ies", "ed", "es", "s", "e",
)  # fmt: skip
_NOT_RELEVANT = re.compile(r"\b(?:not relevant|irrelevant|exclude[sd]?)\s*:", re.IGNORECASE)
_RELEVANT = re.compile(r"^\s*relevant\s*:", re.IGNORECASE)


def _stem(token: str) -> str:
    if len(token) <= 4 or token.isdigit():
        return token
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def tokens(text: str) -> list[str]:
    return [_stem(t) for t in _TOKEN.findall(text.lower())]


@dataclass(frozen=True)
class _Term:
    label: str  # as the user wrote it, for the reason
    seq: tuple[str, ...]  # stemmed tokens, matched as a phrase
    weight: float  # BM25 weight of a positive term; 0 for exclusions
    factor: float = 1.0  # multiplier when an exclusion matches in the abstract
    weak: bool = False  # a description word (ignored when common on the day)


def _phrase_count(doc: list[str], seq: tuple[str, ...]) -> int:
    n = len(seq)
    if n == 1:
        return doc.count(seq[0])
    first = seq[0]
    return sum(1 for i, t in enumerate(doc) if t == first and tuple(doc[i : i + n]) == seq)


def _terms(topic: Topic) -> list[_Term]:
    terms: dict[tuple[str, ...], _Term] = {}

    def add(label: str, weight: float, factor: float = 1.0, weak: bool = False) -> None:
        seq = tuple(tokens(label))
        if not seq or (len(seq) == 1 and (seq[0] in _STOP or len(seq[0]) < 2)):
            return
        if seq not in terms:  # the first (strongest) kind wins: keywords, excludes, ...
            terms[seq] = _Term(label.strip(), seq, weight, factor, weak)

    for kw in topic.keywords:
        add(kw, KEYWORD_WEIGHT)
    for ex in topic.exclude:
        add(ex, 0.0, EXCLUDE_ABSTRACT_FACTOR)
        words = _TOKEN.findall(ex.lower())
        if len(words) >= 2:  # "reinforcement learning" is also written "RL"
            seq = ("".join(w[0] for w in words),)
            terms.setdefault(seq, _Term(ex.strip(), seq, 0.0, EXCLUDE_ABSTRACT_FACTOR))
    description = topic.description
    negative = ""
    m = _NOT_RELEVANT.search(description)
    if m:
        description, negative = description[: m.start()], description[m.end() :]
    description = _RELEVANT.sub("", description)
    for phrase in re.split(r"[,;.:()\n]", negative):
        words = [w for w in _TOKEN.findall(phrase.lower()) if w not in _STOP]
        if 2 <= len(words) <= 3:  # single words there are too broad ("benchmarks")
            add(" ".join(words), 0.0, NEGATIVE_DESCRIPTION_FACTOR)
    for word in _TOKEN.findall(description.lower()):
        if word not in _STOP and len(word) > 2 and not word.isdigit():
            add(word, DESCRIPTION_WEIGHT, weak=True)
    return list(terms.values())


def _scale(raws: list[float]) -> float:
    """The reference raw score (about the 90th percentile of the matching papers)."""
    positive = sorted(r for r in raws if r > 0)
    if not positive:
        return 1.0
    ref = positive[min(len(positive) - 1, int(0.9 * len(positive)))]
    return max(ref, 1e-9)


def local_scores(papers: Sequence[Paper], topic: Topic) -> list[Score]:
    """One Score per paper (same order), relevance 1-10, novelty None, status "scored"."""
    if not papers:
        return []
    terms = _terms(topic)
    titles = [tokens(p.title) for p in papers]
    bodies = [tokens(p.abstract) for p in papers]
    lengths = [TITLE_WEIGHT * len(t) + len(a) for t, a in zip(titles, bodies, strict=True)]
    avg_len = (sum(lengths) / len(lengths)) or 1.0
    n_docs = len(papers)

    # counts[d][k] = weighted term frequency of term k in paper d
    counts: list[list[float]] = []
    df = [0] * len(terms)
    for title, body in zip(titles, bodies, strict=True):
        row = []
        for k, term in enumerate(terms):
            tf = TITLE_WEIGHT * _phrase_count(title, term.seq) + _phrase_count(body, term.seq)
            if tf:
                df[k] += 1
            row.append(tf)
        counts.append(row)
    idf = [math.log(1 + (n_docs - d + 0.5) / (d + 0.5)) for d in df]

    common = COMMON_DF * n_docs if n_docs >= 20 else float("inf")
    raws: list[float] = []
    matched: list[list[tuple[float, _Term]]] = []
    excluded: list[list[str]] = []
    for d, row in enumerate(counts):
        norm = K1 * (1 - B + B * lengths[d] / avg_len)
        raw = 0.0
        factor = 1.0
        hits: list[tuple[float, str]] = []
        negs: list[str] = []
        for k, tf in enumerate(row):
            term = terms[k]
            if not tf:
                continue
            if term.weight <= 0:  # an exclusion: multiplies the score down
                if _phrase_count(titles[d], term.seq):
                    factor *= EXCLUDE_TITLE_FACTOR
                else:  # an abstract that keeps mentioning it is more clearly about it
                    factor *= term.factor ** min(int(tf), EXCLUDE_MAX_MENTIONS)
                negs.append(term.label)
                continue
            if term.weak and df[k] > common:
                continue
            contribution = term.weight * idf[k] * tf * (K1 + 1) / (tf + norm)
            raw += contribution
            hits.append((contribution, term))
        raws.append(raw * factor)
        matched.append(hits)
        excluded.append(negs)

    ref = _scale(raws)
    out: list[Score] = []
    for paper, raw, hits, negs in zip(papers, raws, matched, excluded, strict=True):
        if raw <= 0:
            relevance = 1
        else:
            relevance = 1 + round(9 * (1 - math.exp(-1.5 * raw / ref)))
            relevance = min(10, max(2, relevance))
        out.append(
            Score(
                paper_id=paper.id,
                version=paper.version,
                relevance=relevance,
                novelty=None,
                reason=_reason(hits, negs),
                status="scored",
            )
        )
    return out


def _reason(hits: list[tuple[float, _Term]], negs: list[str]) -> str:
    """'matched: keywords (strongest first), then description words not already shown'."""
    strong = [t for _, t in sorted(hits, key=lambda h: (-h[0], h[1].label)) if not t.weak]
    shown = {tok for t in strong for tok in t.seq}
    weak = [
        t
        for _, t in sorted(hits, key=lambda h: (-h[0], h[1].label))
        if t.weak and t.seq[0] not in shown
    ]
    labels = [t.label for t in strong + weak]
    reason = "matched: " + ", ".join(labels[:MAX_REASON_TERMS]) if labels else "no match"
    if negs:
        reason += "; excluded: " + ", ".join(sorted(set(negs))[:MAX_REASON_TERMS])
    return reason
