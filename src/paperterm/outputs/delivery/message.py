"""The digest as a message: the top papers with scores, reasons and links, as Markdown (the
plain-text part), HTML, Slack and Discord text, or JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paperterm.models import Paper
from paperterm.outputs.digest import REVISED_HEADING, md_escape, revised_json, revised_section
from paperterm.scoring.types import Score
from paperterm.sources.revisions import Revision, diff_summary

DISCORD_LIMIT = 2000  # characters in one Discord message


@dataclass(frozen=True)
class Pick:
    paper: Paper
    score: Score


@dataclass(frozen=True)
class DigestMessage:
    day: str
    topic: str
    model: str
    total: int  # papers in the day
    picks: list[Pick]  # the top papers, best first
    revised: tuple[Revision, ...] = ()  # kept papers come back revised, not yet told about

    @property
    def subject(self) -> str:
        return (f"arXiv digest {self.day} · {self.topic} · top {len(self.picks)} of "
                f"{self.total}")


def top_picks(papers: Sequence[Paper], scores: Mapping[str, Score], limit: int,
              min_relevance: int | None = None) -> list[Pick]:
    """Scored papers, best first (the one order: `services.scores.ranked`, as the digest
    file and the reader), at most `limit`."""
    from paperterm.day.scores import ranked

    picks = [Pick(p, scores[p.id]) for p in ranked(papers, scores)
             if min_relevance is None or (scores[p.id].relevance or 0) >= min_relevance]
    return [Pick(_shown(x.paper), x.score) for x in picks[:limit]]


def _shown(p: Paper) -> Paper:
    """The paper with its title and authors' TeX as Unicode, as the digest shows them."""
    from dataclasses import replace

    from paperterm.text.texrender import tex_to_unicode as tex

    return replace(p, title=tex(p.title), authors=tuple(tex(a) for a in p.authors))


def _marks(s: Score) -> str:
    from paperterm.day.scores import is_stand_in

    if is_stand_in(s):
        return f"relevance ~{s.relevance}/10 (local: the model did not reach it)"
    novelty = f" · novelty {s.novelty}/10" if s.novelty is not None else ""
    return f"relevance {s.relevance}/10{novelty}"


def to_markdown(m: DigestMessage) -> str:
    out = [f"# arXiv digest: {md_escape(m.day)}", "",
           f"Topic **{md_escape(m.topic)}** · {md_escape(m.model)} · top {len(m.picks)} of "
           f"{m.total} papers", ""]
    for rank, pick in enumerate(m.picks, 1):
        p, s = pick.paper, pick.score
        out.append(f"{rank}. **[{md_escape(p.title)}]({p.abs_url})** ({_marks(s)})  ")
        authors = md_escape(p.first_author)
        out.append(f"   {authors} · [PDF]({p.pdf_url})" + ("  " if s.reason else ""))
        if s.reason:
            out.append(f"   *{md_escape(s.reason)}*")
        out.append("")
    if not m.picks:
        out += ["*No scored papers to show.*", ""]
    out += revised_section(m.revised)
    return "\n".join(out)


def to_html(markdown: str) -> str:
    """Markdown to an HTML e-mail body; raw HTML in the text stays text."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).render(markdown)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n"
            f"<body style=\"font-family: sans-serif; max-width: 50em\">\n{body}</body></html>\n")


def _slack_escape(text: str) -> str:
    return " ".join(text.split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_slack(m: DigestMessage) -> dict[str, Any]:
    lines = [f"*arXiv digest {_slack_escape(m.day)}* · topic {_slack_escape(m.topic)} · "
             f"top {len(m.picks)} of {m.total}"]
    for rank, pick in enumerate(m.picks, 1):
        p, s = pick.paper, pick.score
        title = _slack_escape(p.title).replace("|", "¦")
        line = f"{rank}. <{p.abs_url}|{title}> ({_marks(s)})"
        if s.reason:
            line += f"\n      _{_slack_escape(s.reason)}_"
        lines.append(line)
    if m.revised:
        lines.append(f"*{REVISED_HEADING}*")
        lines += [f"• <{r.new.abs_url}|{_slack_escape(r.new.title).replace('|', '¦')}> "
                  f"{r.label} · {diff_summary(r)}" for r in m.revised]
    return {"text": "\n".join(lines)}


def to_discord(m: DigestMessage) -> dict[str, Any]:
    """Discord's Markdown, cut at whole papers to fit its 2,000 characters."""
    head = f"**arXiv digest {md_escape(m.day)}** · topic {md_escape(m.topic)}"
    lines = [head]
    if m.revised:  # first: a few lines, and told only once
        lines.append(f"**{REVISED_HEADING}**")
        lines += [f"- [{md_escape(r.new.title)}](<{r.new.abs_url}>) {r.label} · "
                  f"{diff_summary(r)}" for r in m.revised]
    for rank, pick in enumerate(m.picks, 1):
        p, s = pick.paper, pick.score
        line = f"{rank}. [{md_escape(p.title)}](<{p.abs_url}>) ({_marks(s)})"
        if s.reason:
            line += f"\n    *{md_escape(s.reason)}*"
        more = f"… and {len(m.picks) - rank + 1} more"
        if len("\n".join([*lines, line, more])) > DISCORD_LIMIT:
            lines.append(more)
            break
        lines.append(line)
    return {"content": "\n".join(lines)[:DISCORD_LIMIT], "allowed_mentions": {"parse": []}}


def to_json(m: DigestMessage) -> dict[str, Any]:
    return {
        "day": m.day, "topic": m.topic, "model": m.model, "total": m.total,
        "papers": [{"id": x.paper.id, "version": x.paper.version, "title": x.paper.title,
                    "authors": list(x.paper.authors), "url": x.paper.abs_url,
                    "pdf": x.paper.pdf_url, "relevance": x.score.relevance,
                    "novelty": x.score.novelty, "reason": x.score.reason} for x in m.picks],
        "revised": [revised_json(r) for r in m.revised],
    }
