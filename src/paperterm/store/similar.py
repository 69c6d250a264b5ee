"""Papers similar to one cached paper, in bounded time whatever the cache size.

Candidates come from the full-text index: the paper's most distinctive words (weighted by
how rarely they occur in the cache), searched over everything. The cost of ranking grows
with the postings read, so only words held by fewer than COMMON papers are used (at most
MAX_TERMS of them); when every word of the paper is that common, only the NEWEST papers
cached are ranked. (`paperterm.scoring.similar` re-ranks them by embeddings when cached.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from paperterm.store.db import Queries
from paperterm.store.fts import WEIGHTS
from paperterm.store.papers import _row_paper

COMMON = 4_000  # a word in this many papers is too common to rank all of them by
NEWEST = 20_000  # ... then only the papers cached last are ranked
MAX_TERMS = 14
VOCAB_LOOKUPS = 30  # words of the paper whose document counts are looked up

_TERM = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset(re.findall(r"\w+",
    "the and for with that this from are was were which their these those into than then "
    "also can has have not our its over such using use used via based new show shows paper "
    "propose proposed approach method methods results model models while where when how "
    "both between more most other each only well large across however they them"))

def word_weights(title: str, abstract: str) -> dict[str, int]:
    """Each content word of the paper with its weight (title words count three times)."""
    words: dict[str, int] = {}
    for text, weight in ((title, 3), (abstract, 1)):
        for w in _TERM.findall(text.lower()):
            if w not in _STOP:
                words[w] = words.get(w, 0) + weight
    return words


def choose_terms(words: Mapping[str, int], docs: Mapping[str, int], total: int,
                 ) -> tuple[list[str], bool]:
    """The words to search for, most distinctive first, and whether they are rare enough to
    rank every paper holding them (else only the newest papers are ranked).

    `docs` counts are capped at COMMON; a word only this paper holds finds nothing else."""
    def weight(w: str) -> float:
        return words[w] * math.log(1 + total / max(1, docs.get(w, 1)))

    ranked = sorted(words, key=lambda w: (-weight(w), w))
    rare = [w for w in ranked if 1 < docs.get(w, 0) < COMMON][:MAX_TERMS]
    if rare:
        return rare, True
    return [w for w in ranked if docs.get(w, 0) > 1][:3], False


class SimilarQueries(Queries):
    def similar(self, paper_id: str, *, limit: int = 20, terms: int = MAX_TERMS,
                topic_fp: str | None = None):  # -> list[SearchHit]
        """Cached papers most like this one, best first (at most `limit`)."""
        from paperterm.store.library import SearchHit

        row = self.conn.execute(
            "SELECT title, abstract FROM papers WHERE id = ? ORDER BY version DESC LIMIT 1",
            (paper_id,)).fetchone()
        if row is None:
            return []
        words = word_weights(row[0], row[1])
        looked_up = sorted(words, key=lambda w: -words[w])[:VOCAB_LOOKUPS]
        docs = self._vocab_counts(looked_up)
        total_row = self.conn.execute("SELECT max(doc), count(*) FROM fts_docs").fetchone()
        chosen, fits = choose_terms({w: words[w] for w in looked_up}, docs,
                                    max(1, total_row[1] or 1))
        chosen = chosen[:terms]
        if not chosen:
            return []
        expr = " OR ".join(f'"{w}"' for w in chosen)
        window = "" if fits else f"AND paper_fts.rowid > {int(total_row[0]) - NEWEST}"
        weights = ", ".join(str(w) for w in WEIGHTS)
        ranked = self.conn.execute(
            f"""SELECT d.id, bm25(paper_fts, {weights}) AS rank
                FROM paper_fts JOIN fts_docs d ON d.doc = paper_fts.rowid
                WHERE paper_fts MATCH ? {window} ORDER BY rank LIMIT ?""",
            (expr, limit + 1)).fetchall()
        order = [(r[0], r[1]) for r in ranked if r[0] != paper_id][:limit]
        return self._hits(order, topic_fp, SearchHit)

    def _vocab_counts(self, words: list[str]) -> dict[str, int]:
        """How many cached papers hold each word (in any field), counted up to COMMON: the
        cost is bounded by COMMON postings per word, whatever the cache size."""
        out: dict[str, int] = {}
        for w in words:
            out[w] = self.conn.execute(
                """SELECT count(*) FROM (SELECT rowid FROM paper_fts
                   WHERE paper_fts MATCH ? LIMIT ?)""", (f'"{w}"', COMMON)).fetchone()[0]
        return out

    def _hits(self, order: list[tuple[str, float]], topic_fp: str | None, hit):  # -> list
        from paperterm.store.library import _ANNOUNCED, _DAY, _LATEST

        if not order:
            return []
        score = ("(SELECT relevance FROM scores s WHERE s.id = p.id AND s.topic_fp = ? "
                 "AND s.relevance IS NOT NULL ORDER BY s.created_at DESC LIMIT 1)"
                 if topic_fp else "NULL")
        rows = {r["id"]: r for r in self.select_in(
            f"""SELECT p.*, {_ANNOUNCED}, {_DAY} AS day, {score} AS relevance
                FROM papers p WHERE {_LATEST} AND p.id IN ({{marks}})""",
            [topic_fp] if topic_fp else [], [i for i, _ in order])}
        return [hit(_row_paper(rows[i]), rows[i]["day"], rows[i]["abstract"][:300], rank,
                    rows[i]["relevance"]) for i, rank in order if i in rows]
