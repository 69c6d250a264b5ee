"""The local keyword scorer: deterministic, instant and offline.

BM25 over the day's papers (title hits count three times), with the topic's keywords matched
as phrases (a multi-word keyword never matches its words alone), short items of the
description's "relevant" part ("low-rank methods", "sparsity") as weaker phrases, and the
exclude keywords (plus short phrases from a "Not relevant:" part) pushing down. Words are
stemmed with the Snowball English stemmer (PyStemmer).

Calibrated, not ranked against the day: the evidence (the BM25 sum, with a fixed average
length and an IDF that stops growing below 5% of the day) maps to a fine score in [0, 1)
through a fixed curve, and the relevance is 1 + 9 × fine. A specific keyword once in the
abstract gives about 5, in the title and the abstract about 7, two such keywords 9: the same
evidence gives the same value every day. Papers are ranked by the fine score, never by
announcement order.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paperterm.models import Paper, Topic
from paperterm.scoring.local.follow import boost_followed
from paperterm.scoring.local.occurrences import occurrences
from paperterm.scoring.types import Score

K1 = 1.2
B = 0.75
AVG_LEN = 218.0  # title-weighted tokens of an average cs.LG/cs.AI paper (the shared days)
TITLE_WEIGHT = 3.0
KEYWORD_WEIGHT = 1.0
DESCRIPTION_WEIGHT = 0.35  # an item of the description ("low-rank methods")
RELATED_WEIGHT = 0.35  # a related term of an area the topic names (`topics/related.py`)
PHRASE_WORD_WEIGHT = 0.2  # a word of a free-text topic's phrase, alone
MIN_DF_FRACTION = 0.05  # a term rarer than this on the day weighs as much as at this share
EVIDENCE_SCALE = 5.4  # raw evidence -> fine = 1 - exp(-raw / EVIDENCE_SCALE)
EXCLUDE_TITLE_FACTOR = 0.25  # an exclude keyword in the title multiplies the score by this
EXCLUDE_ABSTRACT_FACTOR = 0.6  # ... per mention in the abstract (up to EXCLUDE_MAX_MENTIONS)
EXCLUDE_MAX_MENTIONS = 3
NEGATIVE_DESCRIPTION_FACTOR = 0.7  # a phrase from the description's "Not relevant:" part
COMMON_DF = 0.15  # description items in more of the day's papers than this are ignored
MAX_DESCRIPTION_WORDS = 3  # longer description items are sentences, not terms
MAX_REASON_TERMS = 6
PHRASE_COMMON = (0.05, 0.15)  # a topic's one-word (longer) phrase in more papers is ignored

_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it",
        "its", "of", "on", "or", "the", "to", "with", "about", "using", "via", "new", "other",
        "such", "that", "this", "these", "those", "their", "than", "then", "also", "any", "all",
        "both", "each", "more", "most", "not", "no", "nor", "only", "own", "same", "so", "can",
        "will", "just", "should", "now", "e", "g", "eg", "i", "ie", "etc", "pure", "existing",
        "relevant", "irrelevant", "without", "insight", "methodological", "how", "what", "why",
        "they", "work", "works", "method", "methods", "model", "models", "analysis", "study",
        "approach", "approaches", "papers", "paper", "large", "scale", "based"
    }
)  # fmt: skip
_NOT_RELEVANT = re.compile(r"\b(?:not relevant|irrelevant|exclude[sd]?)\s*:", re.IGNORECASE)
_RELEVANT = re.compile(r"^\s*relevant\s*:", re.IGNORECASE)
_ITEM_SPLIT = re.compile(r"[,;.:()\n]|\band\b|\bor\b|\bvs\b", re.IGNORECASE)


class _Stems(dict[str, str]):
    """word -> stem, each word stemmed on first sight: a lookup is one C-level call. Emptied
    when it holds _STEMS_MAX words (a long session reads many days)."""

    def __missing__(self, word: str) -> str:
        if len(self) >= _STEMS_MAX:
            self.clear()
        stem = self[word] = _stemmer()(word)
        return stem


@functools.cache
def _stemmer() -> Callable[[str], str]:
    """The Snowball stemmer, loaded on the first word (a cached ranking needs none before
    the first paint)."""
    import Stemmer

    return Stemmer.Stemmer("english").stemWord


_STEMS = _Stems()
_STEMS_MAX = 200_000


def words(text: str) -> list[str]:
    """Lower-cased ASCII words (anything else, accented letters included, separates words);
    a day's papers are read by `occurrences.canonical`, which splits them alike."""
    return _TOKEN.findall(text.lower())


def stem(word: str) -> str:
    """The Snowball stem of a lower-cased word."""
    return _STEMS[word]


def tokens(text: str) -> list[str]:
    """Lower-cased words, stemmed."""
    return list(map(_STEMS.__getitem__, words(text)))


@dataclass(frozen=True)
class _Term:
    label: str  # as the user wrote it, for the reason
    seq: tuple[str, ...]  # stemmed tokens, matched as a phrase
    weight: float  # BM25 weight of a positive term; 0 for exclusions
    factor: float = 1.0  # multiplier when an exclusion matches in the abstract
    weak: bool = False  # a description item (ignored when common on the day)
    common: float = 1.0  # ignored in more than this share of the papers (a topic's phrase)
    related: bool = False  # a related term of an area the topic names (weak too)
    exact: str = ""  # matched only as written (an acronym such as "ZeRO"): `_as_written`


def description_items(text: str) -> list[str]:
    """The short items of a description ("low-rank methods", "sparsity"): the pieces between
    punctuation and "and"/"or", without stop words, of at most MAX_DESCRIPTION_WORDS words."""
    out = []
    for piece in _ITEM_SPLIT.split(text):
        words = [w for w in _TOKEN.findall(piece.lower()) if w not in _STOP]
        if 1 <= len(words) <= MAX_DESCRIPTION_WORDS and not (
                len(words) == 1 and (len(words[0]) <= 2 or words[0].isdigit())):
            out.append(" ".join(words))
    return out


def _split(description: str) -> tuple[str, str]:
    negative = ""
    m = _NOT_RELEVANT.search(description)
    if m:
        description, negative = description[: m.start()], description[m.end() :]
    return _RELEVANT.sub("", description), negative


def _terms(topic: Topic) -> list[_Term]:
    terms: dict[tuple[str, ...], _Term] = {}

    def add(label: str, weight: float, factor: float = 1.0, weak: bool = False,
            common: float = 1.0, related: bool = False) -> None:
        seq = tuple(tokens(label))
        if not seq or (len(seq) == 1 and (seq[0] in _STOP or len(seq[0]) < 2)):
            return
        if seq not in terms:  # the first (strongest) kind wins: keywords, excludes, ...
            label = label.strip()
            exact = label if related and _acronym(label) else ""
            terms[seq] = _Term(label, seq, weight, factor, weak, common, related, exact)

    # free text ("speculative decoding"): its phrase is the topic, its words alone only
    # weak hints ("encoder-decoder" is not about it)
    stems = {kw: tokens(kw) for kw in topic.keywords}
    in_phrase = {w for s in stems.values() if len(s) > 1 for w in s} if topic.adhoc else set()
    for kw in topic.keywords:
        if len(stems[kw]) == 1 and stems[kw][0] in in_phrase:
            add(kw, PHRASE_WORD_WEIGHT, weak=True)
        else:
            add(kw, KEYWORD_WEIGHT)
    for ex in topic.exclude:
        add(ex, 0.0, EXCLUDE_ABSTRACT_FACTOR)
        words = _TOKEN.findall(ex.lower())
        acronym = "".join(w[0] for w in words)
        # "reinforcement learning" is also written "RL" ("image segmentation" never "is")
        if len(words) >= 2 and acronym not in _STOP:
            seq = (acronym,)
            terms.setdefault(seq, _Term(ex.strip(), seq, 0.0, EXCLUDE_ABSTRACT_FACTOR))
    for phrase in topic.phrases:  # understood from the topic's words: unless common
        add(phrase, KEYWORD_WEIGHT, common=PHRASE_COMMON[min(len(tokens(phrase)), 2) - 1]
            if not phrase.isupper() else 1.0)
    if topic.areas or topic.turned_down:  # understood (topics/understand.py)
        description = "; ".join(topic.areas) or _split(topic.description)[0]
        negative = "; ".join(topic.turned_down)
    else:
        description, negative = _split(topic.description)
    for item in description_items(negative):
        if len(item.split()) >= 2:  # single words there are too broad ("benchmarks")
            add(item, 0.0, NEGATIVE_DESCRIPTION_FACTOR)
    # a topic without keywords (free text) is its description: its items count in full
    weight = DESCRIPTION_WEIGHT if topic.keywords or topic.phrases else KEYWORD_WEIGHT
    for item in description_items(description):
        add(item, weight, weak=bool(topic.keywords or topic.phrases))
    for term in topic_related(topic):  # "quantization" for a topic naming model compression
        add(term, RELATED_WEIGHT, weak=True, related=True)
    return list(terms.values())


@functools.lru_cache(maxsize=32)
def topic_related(topic: Topic) -> tuple[str, ...]:
    """The related terms (`topics/related.py`) of the areas `topic` names in its name,
    phrases or relevant parts, without what it excludes or turns down; none for a topic
    with keywords of its own (the built-in ones, a keywords file): its keywords say which
    words count (on the built-in topic the related terms cost 2 picks within the top 30%).
    Worked out once per topic: every ranking and every search keystroke asks."""
    from paperterm.topics.related import related_terms

    if topic.keywords:
        return ()
    if topic.areas or topic.turned_down:
        relevant, negative = list(topic.areas), list(topic.turned_down)
    else:
        description, turned = _split(topic.description)
        relevant, negative = [description], [turned]
    return tuple(related_terms([topic.name, *topic.phrases, *relevant],
                               [*topic.exclude, *negative], tokens))


def _idf(df: int, n_docs: int) -> float:
    """BM25's IDF of a term in `df` of `n_docs` papers, as a share of the day (comparable
    between days of any size) that stops growing below MIN_DF_FRACTION."""
    share = max(df / n_docs, MIN_DF_FRACTION)
    return math.log(1 + (1 - share + 0.5 / n_docs) / (share + 0.5 / n_docs))


def fine_score(raw: float) -> float:
    """Evidence -> [0, 1): the same raw evidence gives the same value on every day."""
    return 1 - math.exp(-max(raw, 0.0) / EVIDENCE_SCALE)


def relevance_of(fine: float, matched: bool = True) -> int:
    """The 1-10 value of a fine score: 1 only for a paper that matched nothing."""
    if not matched:
        return 1
    return min(10, max(2, 1 + round(9 * fine)))


# a matched term: (-contribution, label, index, kind (0 a keyword or phrase, 1 a topic word,
# 2 a related term), count in title, in abstract), so that plain tuple order is strongest
# first, then by label
_Hit = tuple[float, str, int, int, int, int]


def local_scores(papers: Sequence[Paper], topic: Topic) -> list[Score]:
    """One Score per paper (same order), relevance 1-10 with its fine score, novelty None,
    status "scored"."""
    scores = [score for score, _ in scores_and_exclusions(papers, topic)]
    return boost_followed(scores, papers, topic)  # followed authors (follow.py)


def _acronym(label: str) -> bool:
    """Whether a related term is one word written with two capitals or more ("ZeRO",
    "CLIP", "MoE"): its lower-cased stem is often an ordinary word ("zero-shot",
    "gradient clipping"), so it counts only where a paper writes it as the table does."""
    return " " not in label and sum(c.isupper() for c in label) >= 2


@functools.lru_cache(maxsize=256)
def _written(label: str) -> re.Pattern[str]:
    # as written, a whole word, or its plural ("VAEs"): "ZeRO-3" yes, "Zero-shot" no
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(label)}s?(?![A-Za-z0-9])")


def _as_written(papers: Sequence[Paper], terms: list[_Term],
                found: list[dict[int, tuple[int, int]]], df: list[int]) -> None:
    """Keep an exact term's occurrences (in `found`, and its count in `df`) only where the
    paper writes it as the term does, counted as written."""
    exact = [k for k, t in enumerate(terms) if t.exact]
    if not exact:
        return
    for paper, row in zip(papers, found, strict=True):
        for k in exact:
            if k not in row:
                continue
            pattern = _written(terms[k].exact)
            counts = (len(pattern.findall(paper.title)), len(pattern.findall(paper.abstract)))
            if any(counts):
                row[k] = counts
            else:
                del row[k]
                df[k] -= 1


def _occurrences(papers: Sequence[Paper], terms: list[_Term]) -> tuple[
        list[dict[int, tuple[int, int]]], list[int], list[float]]:
    """Per paper, term index -> (count in title, count in abstract) where it occurs; the
    document frequency of each term; each paper's title-weighted length."""
    found, df, sizes = occurrences(papers, terms, _STEMS.__getitem__)
    _as_written(papers, terms, found, df)
    return found, df, [TITLE_WEIGHT * t + a for t, a in sizes]


_REFERENCE_DF: dict[tuple[int, int, tuple[_Term, ...]], list[int]] = {}
_REFERENCE_DF_MAX = 32


def _reference_df(reference: Sequence[Paper], terms: list[_Term]) -> list[int]:
    """The terms' document frequencies in the fixed reference, counted once per topic (a
    search in the library ranks a few papers against it at every keystroke)."""
    key = (id(reference), len(reference), tuple(terms))
    df = _REFERENCE_DF.get(key)
    if df is None:
        if len(_REFERENCE_DF) >= _REFERENCE_DF_MAX:
            _REFERENCE_DF.clear()
        df = _REFERENCE_DF[key] = _occurrences(reference, terms)[1]
    return list(df)


def scores_and_exclusions(papers: Sequence[Paper], topic: Topic,
                          reference: Sequence[Paper] | None = None,
                          ) -> list[tuple[Score, float]]:
    """`local_scores`, each with the factor (1: none) its exclusions multiplied it by. With
    `reference` (a fixed set of ordinary papers), how common a term is comes from it instead
    of the day: then nothing in a paper's score depends on the other papers of the day."""
    if not papers:
        return []
    terms = _terms(topic)
    found, df, lengths = _occurrences(papers, terms)
    n_docs = len(papers)
    if reference:
        df = _reference_df(reference, terms)
        n_docs = len(reference)
    idf = [_idf(d, n_docs) for d in df]

    common = COMMON_DF * n_docs if n_docs >= 20 else float("inf")
    out: list[tuple[Score, float]] = []
    for d, row in enumerate(found):
        norm = K1 * (1 - B + B * lengths[d] / AVG_LEN)
        raw = 0.0
        factor = 1.0
        hits: list[_Hit] = []
        negs: list[str] = []
        for k, (in_title, in_abstract) in sorted(row.items()):
            term = terms[k]
            if term.weight <= 0:  # an exclusion: multiplies the score down
                if in_title:
                    factor *= EXCLUDE_TITLE_FACTOR
                else:  # an abstract that keeps mentioning it is more clearly about it
                    factor *= term.factor ** min(in_abstract, EXCLUDE_MAX_MENTIONS)
                negs.append(term.label)
                continue
            if (term.weak and df[k] > common) or df[k] > term.common * n_docs:
                continue
            tf = TITLE_WEIGHT * in_title + in_abstract
            contribution = term.weight * idf[k] * tf * (K1 + 1) / (tf + norm)
            raw += contribution
            kind = 2 if term.related else int(term.weak)
            hits.append((-contribution, term.label, k, kind, in_title, in_abstract))
        fine = fine_score(raw * factor)
        out.append((Score(paper_id=papers[d].id, version=papers[d].version,
                          relevance=relevance_of(fine, bool(hits)), novelty=None,
                          reason=_reason(hits, negs), status="scored", fine=fine), factor))
    return out


def related_only(score: Score) -> bool:
    """Whether only related terms of the topic's areas matched (`_reason` puts them last)."""
    return score.reason.startswith("related: ")


def _where(hit: _Hit) -> str:
    _, label, _, _, in_title, in_abstract = hit
    parts = ["title"] if in_title else []
    if in_abstract:
        parts.append(f"{in_abstract}× abstract" if in_abstract > 1 else "abstract")
    return f"{label} ({', '.join(parts)})"


def _reason(hits: list[_Hit], negs: list[str]) -> str:
    """What matched and where: 'matched: keyword (title, 2× abstract), ...; topic words:
    description items; excluded: ...', strongest first."""
    ordered = sorted(hits) if len(hits) > 1 else hits
    strong = [_where(h) for h in ordered if not h[3]][:MAX_REASON_TERMS]
    weak = [h[1] for h in ordered if h[3] == 1][:MAX_REASON_TERMS]
    related = [h[1] for h in ordered if h[3] == 2][:MAX_REASON_TERMS]
    parts = []
    if strong:
        parts.append("matched: " + ", ".join(strong))
    if weak:
        parts.append("topic words: " + ", ".join(weak))
    if related:
        parts.append("related: " + ", ".join(related))
    reason = "; ".join(parts) or "no match"
    if negs:
        reason += "; excluded: " + ", ".join(sorted(set(negs))[:MAX_REASON_TERMS])
    return reason


SCORER_VERSION = "bm25-6"  # bump when the scores above would change: old cache rows go unused
