"""Parse and validate a model's reply against the batch it was asked about.

Accepted shapes: `{"papers": [...]}` alone, inside prose or inside ``` fences; a bare list of
entries; JSON Lines (one entry object per line); and, from a truncated reply, every entry
object that is complete. Each entry is validated on its own: ids must belong to the batch
(`arXiv:` prefixes, `v2` suffixes and abs URLs tolerated), scores are coerced to integers
1-10 ("8", 8.0, "8/10") or the entry is rejected, the first valid entry for an id wins, and
ids that are not in the batch are counted and ignored.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from paperterm.arxiv_id import bare_id
from paperterm.text.hygiene import clean_line

MAX_REASON = 300
MAX_REPLY_CHARS = 2_000_000  # a longer reply is refused unread (no batch needs 2 MB)

_NUMBER = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*(?:/\s*10(?:\.0+)?)?\s*$")
_THINK_END = re.compile(r"</think\s*>", re.IGNORECASE)
_THINK_START = re.compile(r"<think\s*>", re.IGNORECASE)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.DOTALL)


@dataclass
class ParsedScore:
    relevance: int
    novelty: int | None
    reason: str


@dataclass
class ParsedReply:
    scores: dict[str, ParsedScore] = field(default_factory=dict)  # batch id -> score
    unknown_ids: int = 0  # entries whose id is not in the batch
    rejected: dict[str, str] = field(default_factory=dict)  # batch id -> why (if never valid)
    error: str | None = None  # set when nothing usable was found at all
    broken: bool = False  # the reply cannot be read at all (too large, nested too deeply)


def normalize_id(value: Any) -> str | None:
    """'arXiv:2602.19938v2' -> '2602.19938'; None when it cannot be an id."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        try:
            value = str(value)
        except ValueError:  # an integer too long to print
            return None
    if not isinstance(value, str):
        return None
    return bare_id(value) or None


def coerce_score(value: Any) -> int | None:
    """An integer 1-10 from 8, 8.0, "8", "8/10", " 8 "; None when not such a number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # a 5,000-digit integer
            return None
    elif isinstance(value, str):
        m = _NUMBER.match(value)
        if not m:
            return None
        number = float(m.group(1))
    else:
        return None
    if not math.isfinite(number):
        return None
    rounded = math.floor(number + 0.5)
    if not 1 <= rounded <= 10:
        return None
    return rounded


def _objects_in(text: str) -> list[Any]:
    """Top-level JSON values found in text, left to right (objects and arrays)."""
    decoder = json.JSONDecoder()
    found: list[Any] = []
    i, n = 0, len(text)
    while i < n:
        j_obj, j_arr = text.find("{", i), text.find("[", i)
        starts = [j for j in (j_obj, j_arr) if j != -1]
        if not starts:
            break
        j = min(starts)
        try:
            value, end = decoder.raw_decode(text, j)
        except RecursionError:  # nested deeper than Python recurses: not a usable reply
            raise ValueError("the reply's JSON is nested too deeply") from None
        except ValueError:
            i = j + 1
            continue
        found.append(value)
        i = end
    return found


def _entries_from(value: Any) -> Iterable[dict[str, Any]]:
    if isinstance(value, dict):
        papers = value.get("papers")
        if isinstance(papers, list):
            yield from (e for e in papers if isinstance(e, dict))
        elif "id" in value:
            yield value
        else:  # {"scores": [...]} or similar: any list of entry objects inside
            for v in value.values():
                if isinstance(v, list) and any(isinstance(e, dict) and "id" in e for e in v):
                    yield from (e for e in v if isinstance(e, dict))
                    break
    elif isinstance(value, list):
        for e in value:
            if isinstance(e, dict):
                yield from _entries_from(e)


def extract_entries(text: str) -> tuple[list[dict[str, Any]], bool]:
    """All candidate entry objects in a reply, in order, and whether any JSON was found."""
    text = text.strip()
    if not text:
        return [], False
    candidates = [text]
    fenced = _FENCE.findall(text)
    if fenced:
        candidates = [*fenced, text]
    found = False
    for candidate in candidates:
        values = _objects_in(candidate)
        found = found or any(isinstance(v, dict) for v in values)
        entries = [e for v in values for e in _entries_from(v)]
        if entries:
            return entries, True
    return [], found


def answer_part(text: str) -> str:
    """The answer without the model's reasoning: what follows the last `</think>` (a
    reasoning template puts the opening tag in the prompt, so the reply may hold only the
    closing one; the draft before it is never the answer), and nothing of a `<think>`
    that was never closed."""
    ends = list(_THINK_END.finditer(text))
    if ends:
        text = text[ends[-1].end():]
    start = _THINK_START.search(text)
    if start:
        text = text[: start.start()]
    return text


def _clean_reason(value: Any) -> str:
    """Model text on one clean line (no escapes or controls), at most MAX_REASON long."""
    text = clean_line(value)
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


def parse_reply(text: str | None, batch_ids: Iterable[str]) -> ParsedReply:
    """Validated scores for the ids of one batch, from the model's reply text."""
    wanted = {normalize_id(i) or i: i for i in batch_ids}
    out = ParsedReply()
    if text and len(text) > MAX_REPLY_CHARS:
        out.error = f"the reply was too large ({len(text) / 1e6:.1f} MB)"
        out.broken = True
        return out
    text = answer_part(text or "")
    try:
        entries, found = extract_entries(text)
    except ValueError as exc:
        out.error, out.broken = str(exc), True
        return out
    if not entries:
        if not found:
            out.error = "the reply contained no JSON scores" if text else "the reply was empty"
        return out
    for entry in entries:
        key = normalize_id(entry.get("id"))
        if key is None or key not in wanted:
            out.unknown_ids += 1
            continue
        pid = wanted[key]
        if pid in out.scores:
            continue  # first valid entry wins
        relevance = coerce_score(entry.get("relevance"))
        raw_novelty = entry.get("novelty")
        novelty = coerce_score(raw_novelty)
        if relevance is None:
            why = f"invalid relevance {entry.get('relevance')!r}"
            out.rejected.setdefault(pid, clean_line(why))
            continue
        if raw_novelty is not None and novelty is None:
            out.rejected.setdefault(pid, clean_line(f"invalid novelty {raw_novelty!r}"))
            continue
        out.scores[pid] = ParsedScore(relevance, novelty, _clean_reason(entry.get("reason")))
        out.rejected.pop(pid, None)
    return out
