"""The day's digest as Markdown or JSON: best papers first, unscored papers never dropped."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from paperterm.arxiv_id import parse_arxiv_id
from paperterm.models import Paper, Topic
from paperterm.scoring.types import RunSummary, Score, has_score, status_counts
from paperterm.sources.revisions import Revision, diff_summary
from paperterm.text.hygiene import clean_line, clean_text
from paperterm.text.texrender import tex_to_unicode as tex

Format = Literal["md", "json"]

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")  # $ is kept: abstracts use $math$
_ENTITY = re.compile(r"&(?=#?\w+;)")
_BULLET = re.compile(r"^([-+>=])")
_NUMBERED = re.compile(r"^(\d+)([.)])")
_SPACE = re.compile(r"\s+")


def md_escape(text: str) -> str:
    """Untrusted text as one line of literal Markdown (no links, HTML, emphasis, tables),
    without terminal escapes or other unsafe characters (hygiene)."""
    text = _SPACE.sub(" ", clean_line(text)).strip()
    text = _ENTITY.sub("&amp;", text)
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = _BULLET.sub(r"\\\1", text)
    return _NUMBERED.sub(r"\1\\\2", text)


def _link(p: Paper) -> str:
    """A Markdown link to the paper's abstract page; an id that is no arXiv id (it could carry
    Markdown of its own) is shown as escaped text, not linked."""
    parsed = parse_arxiv_id(p.versioned_id)
    if parsed is None:
        return f"arXiv:{md_escape(p.versioned_id)}"
    return f"[arXiv:{parsed.versioned}](https://arxiv.org/abs/{parsed.id})"


def clean_json(value: Any) -> Any:
    """`value` (JSON-ready data) with every string through hygiene.clean_text: json.dumps
    escapes C0 controls but passes C1 controls (U+009B CSI), bidi and zero-width
    characters straight to the terminal or file."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(k): clean_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_json(v) for v in value]
    return value


def _order(papers: Sequence[Paper], scores: Mapping[str, Score]) -> list[Paper]:
    """Scored papers in the reader's default order (`services.scores.ranked`)."""
    from paperterm.day.scores import ranked

    return ranked(papers, scores)


@dataclass
class DigestSummaries:
    """Summaries of the digest's top papers and what asking for them cost."""

    language: str
    texts: dict[str, str] = field(default_factory=dict)  # paper id -> summary
    errors: dict[str, str] = field(default_factory=dict)  # paper id -> why there is none
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0
    stopped: str | None = None


def top_papers(papers: Sequence[Paper], scores: Mapping[str, Score], n: int,
               min_relevance: int | None = None) -> list[Paper]:
    """The first `n` papers the digest lists (best first, the relevance filter applied)."""
    ordered = _order(papers, scores)
    shown = [p for p in ordered
             if min_relevance is None or (scores[p.id].relevance or 0) >= min_relevance]
    return shown[:n]


TRIMMED = 400  # the characters of an abstract a digest's top shows


def trim(text: str, limit: int = TRIMMED) -> str:
    """`text` cut at a word boundary before `limit` characters, with "…" when cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


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
    summaries: DigestSummaries | None = None,
    instead: str = "",
    top: int | None = None,
    revised: Sequence[Revision] = (),
) -> str:
    """The digest text. `min_relevance` hides scored papers below it; unscored papers are
    always listed (at the end, with the reason). `summaries` adds those of the top papers.
    `instead`: the day asked for could not be loaded, and what this digest shows instead.
    `top`: Markdown lists only the best `top` scored papers, abstracts trimmed (None: every
    paper, whole abstracts); JSON always has every paper.
    `revised`: kept papers that came back revised ("Revised papers you kept")."""
    ordered = _order(papers, scores)
    shown = [
        p
        for p in ordered
        if min_relevance is None or (scores[p.id].relevance or 0) >= min_relevance
    ]
    hidden = len(ordered) - len(shown)
    from paperterm.day.scores import rankable

    unscored = [p for p in papers if not rankable(scores.get(p.id))]
    counts = _counts(papers, scores)
    model_label = model or "local ranking"
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
            summaries,
            instead,
            revised,
        )
    if fmt != "md":
        raise ValueError(f"unknown digest format {fmt!r} (expected 'md' or 'json')")

    out: list[str] = [f"# arXiv digest: {md_escape(day_label)}", ""]
    if instead:
        out.append(f"- **Not the day asked for:** {md_escape(instead)}")
    out.append(f"- **Topic:** {md_escape(topic.name)}")
    out.append(f"- **Model:** {md_escape(model_label)}")
    out.append(
        f"- **Papers:** {counts['total']} total, {counts['scored']} scored, "
        f"{counts['cached']} cached, {counts['unscored']} unscored"
        + (f", {counts['prefiltered']} not sent (prefilter), saved about "
           f"{summary.saved_tokens:,} tokens, "
           f"{'cost unknown' if summary.saved_cost is None else _cost_text(summary.saved_cost)}"
           if "prefiltered" in counts else "")
    )
    if summary.stopped:
        out.append(f"- **Stopped early:** {md_escape(summary.stopped)}")
    if top is not None and len(shown) > top:
        out.append(f"- **Shown:** the top {top} of {_ranked_text(shown, scores)} "
                   "(`--all` lists every one, config `digest_max` sets how many)")
        shown = shown[:top]
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
    if summaries is not None:
        out.append(_summaries_row(summaries))
    out.append("")
    if summaries is not None and summaries.stopped:
        out += [f"*Summaries stopped early: {md_escape(summaries.stopped)}*", ""]
    for rank, p in enumerate(shown, 1):
        s = scores[p.id]
        novelty = f"{s.novelty}/10" if s.novelty is not None else "n/a"
        out.append(f"## {rank}. {md_escape(tex(p.title))}")
        out.append("")
        cached = " · cached" if s.status == "cached" else ""
        if s.status == "unscored":  # a local stand-in: the model did not reach it
            out.append(f"**Relevance ~{s.relevance}/10** (local: the model did not reach it, "
                       f"{md_escape(_unscored_reason(s))}) · {_link(p)}")
        else:
            out.append(f"**Relevance {s.relevance}/10** · novelty {novelty} · {_link(p)}"
                       f"{cached}")
        out.append("")
        if p.authors:
            out.append(f"*{md_escape(', '.join(tex(a) for a in p.authors))}*")
            out.append("")
        if s.reason:
            out.append(f"> {md_escape(s.reason)}")
            out.append("")
        if summaries is not None and p.id in summaries.texts:
            out.append(f"**Summary:** {md_escape(summaries.texts[p.id])}")
            out.append("")
        elif summaries is not None and p.id in summaries.errors:
            out.append(f"*No summary: {md_escape(summaries.errors[p.id])}*")
            out.append("")
        abstract = tex(p.abstract)
        out.append(md_escape(abstract if top is None else trim(abstract)))
        out.append("")
    if not shown:
        out += ["*No scored papers to show.*", ""]
    out += revised_section(revised)
    if unscored:
        out += [f"## Unscored ({len(unscored)})", ""]
        listed = unscored if top is None else unscored[:top]
        for p in listed:
            out.append(
                f"- **{md_escape(tex(p.title))}** · {_link(p)}"
                f" · {md_escape(_unscored_reason(scores.get(p.id)))}"
            )
        if len(listed) < len(unscored):
            out.append(f"- … and {len(unscored) - len(listed)} more (`--all` lists them)")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


REVISED_HEADING = "Revised papers you kept"


def revised_line(rev: Revision) -> str:
    """One revision as a Markdown list item: title, link, versions, what changed."""
    return (f"- **{md_escape(tex(rev.new.title))}** · {_link(rev.new)} · {rev.label} · "
            f"{diff_summary(rev)}")


def revised_section(revised: Sequence[Revision]) -> list[str]:
    """The "Revised papers you kept" section's Markdown lines (none without revisions)."""
    if not revised:
        return []
    return [f"## {REVISED_HEADING} ({len(revised)})", "", *map(revised_line, revised), ""]


def revised_json(rev: Revision) -> dict[str, Any]:
    return {"id": rev.id, "version": rev.new.version, "revised_from": rev.old.version,
            "title": tex(rev.new.title), "url": rev.new.abs_url,
            "title_changed": rev.title_changed, "abstract_changed": rev.abstract_changed,
            "changes": diff_summary(rev)}


def _summaries_row(summaries: DigestSummaries) -> str:
    total = summaries.prompt_tokens + summaries.completion_tokens
    return (f"| summaries ({md_escape(summaries.language)}) | {summaries.prompt_tokens:,} | "
            f"{summaries.completion_tokens:,} | {total:,} | {_cost_text(summaries.cost)} |")


def _paper_json(p: Paper, s: Score | None, model: str) -> dict[str, Any]:
    """One paper, the same shape in `papers` and `unscored` (and as `score --json`); a
    paper the model did not reach shows its local value (`score_from` says so)."""
    from paperterm.day.scores import NOT_REACHED, PREFILTER, is_stand_in

    stand_in = is_stand_in(s)
    scored = has_score(s) or stand_in
    out = {
        "id": p.id,
        "version": p.version,
        "title": tex(p.title),
        "authors": [tex(a) for a in p.authors],
        "url": p.abs_url,
        "relevance": s.relevance if s and scored else None,
        "novelty": s.novelty if s and scored else None,
        "reason": s.reason if s and scored else "",
        "status": s.status if s and scored else "unscored",
        "score_from": (None if s is None or not scored else NOT_REACHED if stand_in
                       else PREFILTER if s.status == "prefiltered" else model),
        "abstract": tex(p.abstract),
    }
    if not has_score(s):
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
    summaries: DigestSummaries | None = None,
    instead: str = "",
    revised: Sequence[Revision] = (),
) -> str:
    doc: dict[str, Any] = {
        "day": day_label,
        "instead": instead or None,
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
        **({"prefilter_saved": {"papers": summary.prefiltered, "tokens": summary.saved_tokens,
                                "cost": summary.saved_cost}} if summary.prefiltered else {}),
        "min_relevance": min_relevance,
        "hidden": hidden,
        "papers": [_paper_json(p, scores[p.id], model) for p in shown],
        "unscored": [_paper_json(p, scores.get(p.id), model) for p in unscored],
        "revised": [revised_json(r) for r in revised],
    }
    if summaries is not None:
        for entry in doc["papers"]:
            pid = entry["id"]
            if pid in summaries.texts or pid in summaries.errors:
                entry["summary"] = summaries.texts.get(pid)
                if pid not in summaries.texts:
                    entry["summary_error"] = summaries.errors[pid]
        doc["summaries"] = {
            "language": summaries.language,
            "tokens": {"prompt": summaries.prompt_tokens,
                       "completion": summaries.completion_tokens,
                       "total": summaries.prompt_tokens + summaries.completion_tokens},
            "cost": summaries.cost,
            "stopped": summaries.stopped,
        }
    return json.dumps(clean_json(doc), ensure_ascii=False, indent=2) + "\n"


def _ranked_text(shown: Sequence[Paper], scores: Mapping[str, Score]) -> str:
    """What ranks `shown`: "268 scored papers" when the model reached each; else how many
    the model scored and that the others are ranked by their local value (a budget stop)."""
    from paperterm.day.scores import is_stand_in

    if not any(is_stand_in(scores.get(p.id)) for p in shown):
        return f"{len(shown)} scored papers"
    model = sum(1 for p in shown if (s := scores.get(p.id)) is not None
                and s.status in ("scored", "cached"))
    if not model:
        return f"{len(shown)} papers, ranked locally (the model scored 0 of {len(shown)})"
    return (f"{len(shown)} papers (the model scored {model} of {len(shown)}; the others "
            "are ranked locally, marked ~)")


def render_no_announcement(reason: str, topic: Topic, fmt: Format = "md") -> str:
    """The digest of a day without an announcement (weekend, holiday): says so, and lists
    nothing (never the last day's papers again)."""
    if fmt == "json":
        doc: dict[str, object] = {"day": None, "topic": topic.name,
                                  "no_announcement": reason, "papers": [], "unscored": []}
        return json.dumps(clean_json(doc), ensure_ascii=False, indent=2) + "\n"
    return (f"# arXiv digest: no announcement\n\n- **Topic:** {md_escape(topic.name)}\n\n"
            f"*No new papers: {md_escape(reason)}.*\n")
