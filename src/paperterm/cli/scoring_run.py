"""Scoring a loaded day without a screen: progress on stderr, a summary, one Score per paper."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from paperterm.cli.errors import EXIT_AUTH, EXIT_OK, EXIT_STOPPED, EXIT_UNSCORED, UserError
from paperterm.day.session import Session

if TYPE_CHECKING:  # imported where used: loading the scoring package costs start-up time
    from paperterm.services.scoring import RunSummary, Score

LOCAL_HINT = ("No model configured: ranking locally (topic keywords, closeness to the topic, "
              "what you starred). For LLM scoring use "
              "--model openai/gpt-4o-mini (or set `model` in the config).")


def score_day(s: Session, *, progress: bool, out: TextIO | None = None,
              fresh: bool = False) -> tuple[list[Score], RunSummary]:
    """Scores for every paper of the day (cache, LLM or local; `services.scoring`); one
    Score per paper. Messages and progress go to `out` (default: the current sys.stderr)."""
    out = out if out is not None else sys.stderr
    from paperterm.services import scoring as service

    papers = s.day.papers
    if not s.settings.use_llm:
        print(LOCAL_HINT if s.settings.scorer != "local" else "Local scorer.", file=out)
    _confirm(s, out)
    by_id: dict[str, Score] = {}
    failed: list[service.ScoringFailed] = []
    reporter = Progress(len(papers), out) if progress and s.settings.use_llm else None

    def on_event(event: service.ScoringEvent) -> None:
        if isinstance(event, service.ScoresArrived):
            by_id.update((sc.paper_id, sc) for sc in event.scores)
            if reporter:
                reporter.update(list(by_id.values()))
        elif isinstance(event, service.ScoringFailed):
            failed.append(event)

    try:
        summary = service.score_day(
            papers, s.topic, s.settings, open_store=s.open_store, on_event=on_event,
            day=s.day.day.isoformat() if s.day.day else None,
            whole_day=(s.day.label, papers), fresh=fresh)
    finally:
        if reporter:
            reporter.close()
    if summary is None:
        from paperterm.services.scoring import ScoringError

        exc = failed[0].exception
        if isinstance(exc, ScoringError):
            raise UserError(f"scoring stopped: {exc}", EXIT_AUTH) from None
        raise exc
    if not s.settings.use_llm:  # the local ranking: a score for each paper it ranked
        return [by_id[p.id] for p in papers if p.id in by_id], summary
    scores = service.one_per_paper(papers, by_id)
    if any(sc.status == "unscored" for sc in scores):
        # the papers the model did not reach keep their local value, as the day list shows
        from paperterm.day.scores import local_stand_ins
        from paperterm.services.storage import open_or_unavailable

        store = open_or_unavailable(s.open_store)
        try:
            kept = local_stand_ins(store, papers, s.topic, {sc.paper_id: sc for sc in scores},
                                   day=s.day.label)
        finally:
            store.close()
        scores = [kept[p.id] for p in papers]
    return scores, summary


def _confirm(s: Session, out: TextIO) -> None:
    """On a terminal, a model run expected to cost more than config `confirm_cost` shows its
    estimate and asks once; no is a UserError (nothing spent). Never asked without a
    terminal (cron: `--budget` caps it)."""
    if not (s.settings.use_llm and sys.stdin.isatty() and out.isatty()):
        return
    from paperterm.services.scoring import ask_first

    ask = ask_first(s.day.papers, s.topic, s.settings, s.open_store, s.config.confirm_cost,
                    then="go ahead? [y/N] ")
    if ask is None:
        return
    print(ask, end="", file=out, flush=True)
    try:
        answer = input()
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UserError("not scored: the run was not confirmed (config `confirm_cost` sets "
                        "when to ask; 0 never asks)", 1)


def exit_code(summary: RunSummary, scores: list[Score]) -> int:
    """What a cron job can act on: 0 every paper scored, cached or deliberately not sent;
    3 the run was stopped (repeated failures; auth/model/endpoint errors raise earlier);
    4 it finished, but some papers were left unscored (budget, failed batches)."""
    from paperterm.services.scoring import Halt, status_counts

    if summary.halted is not None and (summary.halted.fatal
                                       or summary.halted is Halt.FAILURE_STREAK):
        return EXIT_STOPPED
    if status_counts(scores)["unscored"]:
        return EXIT_UNSCORED
    return EXIT_OK


class Progress:
    """A progress bar on a terminal, plain lines otherwise."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total, self.out, self.bar = total, out, None
        self.last_line = -1
        if out.isatty():
            from rich.console import Console
            from rich.progress import Progress as Bar

            self.bar = Bar(console=Console(file=out), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("scoring", total=total)

    def update(self, scores: list[Score]) -> None:
        from paperterm.services.scoring import status_counts

        done = len(scores)
        counts = status_counts(scores)
        detail = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        if self.bar is not None:
            self.bar.update(self.task, completed=done, description=f"scoring ({detail})")
        elif done * 10 // max(self.total, 1) != self.last_line or done == self.total:
            self.last_line = done * 10 // max(self.total, 1)
            print(f"scoring: {done}/{self.total} papers ({detail})", file=self.out, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def format_summary(summary: RunSummary, scores: list[Score]) -> str:
    from paperterm.services.scoring import status_counts

    counts = status_counts(scores)
    cost = "unknown" if summary.cost is None else f"${summary.cost:.4f}"
    lines = [
        f"model: {summary.model}",
        f"tokens: prompt {summary.prompt_tokens:,} / completion {summary.completion_tokens:,} / "
        f"total {summary.total_tokens:,}; cost {cost}; requests {summary.requests}",
        f"papers: total {len(scores)} / scored {counts['scored']} / cached {counts['cached']} / "
        f"unscored {counts['unscored']}"
        + (f" / not sent (prefilter) {counts['prefiltered']}" if "prefiltered" in counts
           else ""),
    ]
    earlier = summary.earlier_prompt_tokens + summary.earlier_completion_tokens
    if counts["cached"] and earlier:
        paid = "cost unknown" if summary.earlier_cost is None else f"${summary.earlier_cost:.4f}"
        lines.append(f"cached scores: {earlier:,} tokens, {paid}, paid in earlier runs")
    if summary.prefiltered:
        saved = "cost unknown" if summary.saved_cost is None else f"${summary.saved_cost:.4f}"
        lines.append(f"prefilter: {summary.prefiltered} papers not sent (local score kept); "
                     f"saved about {summary.saved_tokens:,} tokens, {saved}")
    if summary.stopped:
        lines.append(summary.stop_line)
    lines.extend(summary.notices)
    return "\n".join(lines)
