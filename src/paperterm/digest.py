"""The day's digest as Markdown or JSON: best papers first, unscored papers never dropped."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from paperterm.models import Paper, Topic
from paperterm.scoring.types import RunSummary, Score, has_score, status_counts

Format = Literal["md", "json"]

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")  # $ is kept: abstracts use $math$
_ENTITY = re.compile(r"&(?=#?\w+;)")
_BULLET = re.compile(r"^([-+>=])")
_NUMBERED = re.compile(r"^(\d+)([.)])")
_ID = re.compile(r"[^A-Za-z0-9./\-]")
_SPACE = re.compile(r"\s+")


def md_escape(text: str) -> str:
    """Untrusted text as one line of literal Markdown (no links, HTML, emphasis, tables)."""
    text = _SPACE.sub(" ", text or "").strip()
    text = _ENTITY.sub("&amp;", text)
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = _BULLET.sub(r"\\\1", text)
    return _NUMBERED.sub(r"\1\\\2", text)


def _link(p: Paper) -> str:
    return f"[arXiv:{_ID.sub('', p.versioned_id)}]({p.abs_url})"


def _order(papers: Sequence[Paper], scores: Mapping[str, Score]) -> list[Paper]:
    """Scored papers, highest relevance first (then novelty, then feed order)."""
    ranked = [(i, p) for i, p in enumerate(papers) if has_score(scores.get(p.id))]

    def key(item: tuple[int, Paper]) -> tuple[int, int, int]:
        i, p = item
        s = scores[p.id]
        return (-(s.relevance or 0), -(s.novelty or 0), i)

    return [p for _, p in sorted(ranked, key=key)]


def _counts(papers: Sequence[Paper], scores: Mapping[str, Score]) -> dict[str, int]:
    return {"total": len(papers), **status_counts(scores.get(p.id) for p in papers)}


def _unscored_reason(score: Score | None) -> str:
    if score is None:
        return "not scored"
    if score.status == "queued":
        return "still queued"
    return score.error or score.reason or "not scored"


def _cost_text(cost: float | None) -> str:
    if cost is None:
        return "unknown"
    return f"${cost:.4f}"


def render_digest(
    day_label: str,
    topic: Topic,
    model: str,
    summary: RunSummary,
    papers: Sequence[Paper],
    scores: Mapping[str, Score],
    fmt: Format = "md",
    min_relevance: int | None = None,
) -> str:
    """The digest text. `min_relevance` hides scored papers below it; unscored papers are
    always listed (at the end, with the reason)."""
    ordered = _order(papers, scores)
    shown = [
        p
        for p in ordered
        if min_relevance is None or (scores[p.id].relevance or 0) >= min_relevance
    ]
    hidden = len(ordered) - len(shown)
    unscored = [p for p in papers if not has_score(scores.get(p.id))]
    counts = _counts(papers, scores)
    model_label = model or "local keyword scorer"
    if fmt == "json":
        return _json(
            day_label,
            topic,
            model_label,
            summary,
            shown,
            unscored,
            scores,
            counts,
            min_relevance,
            hidden,
        )
    if fmt != "md":
        raise ValueError(f"unknown digest format {fmt!r} (expected 'md' or 'json')")

    out: list[str] = [f"# arXiv digest: {md_escape(day_label)}", ""]
    out.append(f"- **Topic:** {md_escape(topic.name)}")
    out.append(f"- **Model:** {md_escape(model_label)}")
    out.append(
        f"- **Papers:** {counts['total']} total, {counts['scored']} scored, "
        f"{counts['cached']} cached, {counts['unscored']} unscored"
    )
    if summary.stopped:
        out.append(f"- **Stopped early:** {md_escape(summary.stopped)}")
    if min_relevance is not None:
        out.append(
            f"- **Filter:** relevance ≥ {min_relevance} ({hidden} scored papers hidden; "
            "the filter applies to scored papers only, unscored papers are all listed)"
        )
    earlier = summary.earlier_prompt_tokens + summary.earlier_completion_tokens
    out += [
        "",
        "| Run | Prompt tokens | Completion tokens | Total tokens | Cost |",
        "|---|---:|---:|---:|---:|",
        f"| this run | {summary.prompt_tokens:,} | {summary.completion_tokens:,} | "
        f"{summary.total_tokens:,} | {_cost_text(summary.cost)} |",
    ]
    if counts["cached"] and earlier:
        out.append(
            f"| earlier runs, for the cached scores | {summary.earlier_prompt_tokens:,} | "
            f"{summary.earlier_completion_tokens:,} | {earlier:,} | "
            f"{_cost_text(summary.earlier_cost)} |"
        )
    out.append("")
    for rank, p in enumerate(shown, 1):
        s = scores[p.id]
        novelty = f"{s.novelty}/10" if s.novelty is not None else "n/a"
        out.append(f"## {rank}. {md_escape(p.title)}")
        out.append("")
        cached = " · cached" if s.status == "cached" else ""
        out.append(f"**Relevance {s.relevance}/10** · novelty {novelty} · {_link(p)}{cached}")
        out.append("")
        if p.authors:
            out.append(f"*{md_escape(', '.join(p.authors))}*")
            out.append("")
        if s.reason:
            out.append(f"> {md_escape(s.reason)}")
            out.append("")
        out.append(md_escape(p.abstract))
        out.append("")
    if not shown:
        out += ["*No scored papers to show.*", ""]
    if unscored:
        out += [f"## Unscored ({len(unscored)})", ""]
        for p in unscored:
            out.append(
                f"- **{md_escape(p.title)}** · {_link(p)}"
                f" · {md_escape(_unscored_reason(scores.get(p.id)))}"
            )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _paper_json(p: Paper, s: Score | None) -> dict[str, Any]:
    """One paper, the same shape in `papers` and `unscored` (and as `score --json`)."""
    scored = has_score(s)
    out = {
        "id": p.id,
        "version": p.version,
        "title": p.title,
        "authors": list(p.authors),
        "url": p.abs_url,
        "relevance": s.relevance if s and scored else None,
        "novelty": s.novelty if s and scored else None,
        "reason": s.reason if s and scored else "",
        "status": s.status if s and scored else "unscored",
        "abstract": p.abstract,
    }
    if not scored:
        out["error"] = _unscored_reason(s)
    return out


def _json(
    day_label: str,
    topic: Topic,
    model: str,
    summary: RunSummary,
    shown: list[Paper],
    unscored: list[Paper],
    scores: Mapping[str, Score],
    counts: dict[str, int],
    min_relevance: int | None,
    hidden: int,
) -> str:
    doc = {
        "day": day_label,
        "topic": topic.name,
        "model": model,
        "counts": counts,
        "tokens": {
            "prompt": summary.prompt_tokens,
            "completion": summary.completion_tokens,
            "total": summary.total_tokens,
        },
        "cost": summary.cost,  # null: unknown
        "earlier": {  # the requests behind the cached scores, paid in earlier runs
            "prompt": summary.earlier_prompt_tokens,
            "completion": summary.earlier_completion_tokens,
            "cost": summary.earlier_cost,
        },
        "requests": summary.requests,
        "unknown_ids": summary.unknown_ids,
        "stopped": summary.stopped,
        "min_relevance": min_relevance,
        "hidden": hidden,
        "papers": [_paper_json(p, scores[p.id]) for p in shown],
        "unscored": [_paper_json(p, scores.get(p.id)) for p in unscored],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
