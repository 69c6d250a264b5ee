"""`paperterm digest`: the day's top papers as Markdown or JSON, to stdout or a file;
`--send` mails it and posts it to a webhook (see `paperterm.outputs.delivery`); `--summaries N`
adds a 3-5 sentence summary to each of the top N."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.cli.errors import EXIT_ERROR, EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.scoring_run import exit_code, score_day
from paperterm.cli.session import honoured, load_user_config, open_headless_session

if TYPE_CHECKING:
    from paperterm.day.session import Session
    from paperterm.models import Paper
    from paperterm.outputs.digest import DigestSummaries, Format
    from paperterm.services.history import Revision
    from paperterm.services.scoring import RunSummary, Score


def run(opts: Options) -> int:
    from paperterm.outputs.digest import render_digest
    from paperterm.services.history import revisions

    if opts.summaries:  # refused before anything is loaded or scored
        from paperterm.cli.summarize import NEEDS_MODEL

        config = load_user_config(opts)
        if not config.scoring.with_overrides(**opts.scoring).model:
            raise UserError(f"--summaries: {NEEDS_MODEL}")
    target = output_target(opts.output)  # refused before any loading or paid scoring
    s = open_headless_session(opts)
    try:
        if s.day.no_announcement:
            return _no_announcement(opts, s, target)
        if opts.send:
            _check_delivery(s)
        scores, summary = score_day(s, progress=True)
        by_id = {sc.paper_id: sc for sc in scores}
        summaries = add_summaries(s, opts, by_id, summary) if opts.summaries else None
        revised = list(revisions(s.store, s.day.papers, follow=s.topic.follow).values())
        text = render_digest(s.day.label, s.topic, summary.model, summary, s.day.papers,
                             by_id, _format(opts), opts.min_relevance, summaries,
                             instead=s.day.instead, top=_top(opts, s), revised=revised)
        if target is not None:
            write_text(target, text)
            print(f"digest written to {opts.output}", file=sys.stderr)
        elif opts.output == "-" or not opts.send:
            sys.stdout.write(text)
        if opts.send and s.day.instead:
            print(f"paperterm: not sent: {s.day.instead}", file=sys.stderr)
        elif opts.send:
            return honoured(s, _send(opts, s, {sc.paper_id: sc for sc in scores},
                                     summary.model, revised))
    finally:
        s.close()
    return honoured(s, exit_code(summary, scores))


def _top(opts: Options, s: Session) -> int | None:
    """How many papers the Markdown digest lists: config `digest_max` (at least the papers
    given summaries); None with --all: every paper, whole abstracts."""
    if opts.all_papers:
        return None
    return max(s.config.digest_max, opts.summaries or 0)


def _format(opts: Options) -> Format:
    """The digest's format: the parser allows only "md" and "json"."""
    return "json" if opts.format == "json" else "md"


def _no_announcement(opts: Options, s: Session, target: Path | None) -> int:
    """Today had no announcement: a digest that says so, nothing scored, nothing sent."""
    from paperterm.outputs.digest import render_no_announcement

    text = render_no_announcement(s.day.no_announcement, s.topic, _format(opts))
    if target is not None:
        write_text(target, text)
        print(f"digest written to {opts.output}", file=sys.stderr)
    elif opts.output == "-" or not opts.send:
        sys.stdout.write(text)
    if opts.send:
        print(f"nothing sent: {s.day.no_announcement}", file=sys.stderr)
    return EXIT_OK


def output_target(output: str | None) -> Path | None:
    """The real file `-o` writes to (None: stdout); a directory, FIFO, device or read-only
    file is refused with one line, a symlink is written through."""
    from paperterm.io.atomic import TargetError, writable_target

    if not output or output == "-":
        return None
    try:
        return writable_target(output)
    except TargetError as exc:
        raise UserError(str(exc), 1) from None


def _check_delivery(s: Session) -> None:
    cfg = s.config.delivery
    if not cfg.email_to and not cfg.webhook_url:
        raise UserError("--send: nowhere to send the digest: set email_to or webhook_url "
                        "under [delivery] in the config (paperterm config --path shows it)")
    if cfg.email_to and not cfg.smtp_host:
        raise UserError("--send: [delivery] email_to is set but smtp_host is not")


def _send(opts: Options, s: Session, scores: dict, model: str,
          revised: list[Revision]) -> int:
    from paperterm.outputs.delivery import DigestMessage, deliver, top_picks

    cfg = s.config.delivery
    message = DigestMessage(
        day=s.day.label, topic=s.topic.name, model=model or "local ranking",
        total=len(s.day.papers),
        picks=top_picks(s.day.papers, scores, cfg.max_papers, opts.min_relevance),
        revised=tuple(revised))
    done = deliver(message, cfg, s.store.deliveries, force=opts.force)
    for what in done.sent:
        print(f"sent: {what}", file=sys.stderr)
    for what in done.skipped:
        print(f"already sent for {s.day.label}, not sent again (--force sends anyway): {what}",
              file=sys.stderr)
    for why in done.failed:
        print(f"paperterm: not sent: {why}", file=sys.stderr)
    return EXIT_ERROR if done.failed else EXIT_OK


def add_summaries(s: Session, opts: Options, scores: dict[str, Score],
                  scoring: RunSummary) -> DigestSummaries:
    """Summaries of the digest's top `opts.summaries` papers, within what is left of the
    budget after scoring."""
    from dataclasses import replace

    from paperterm.cli.summarize import format_run, summarize
    from paperterm.outputs.digest import DigestSummaries, top_papers

    language = opts.language or s.config.language
    out = DigestSummaries(language)
    top: list[Paper] = top_papers(s.day.papers, scores, opts.summaries or 0, opts.min_relevance)
    if not top:
        return out
    settings = s.settings
    if settings.budget > 0:
        left = settings.budget - (scoring.cost or 0.0)
        if left <= 0:
            out.stopped = f"the budget (${settings.budget:.4f}) was spent on scoring"
            out.errors = {p.id: "budget reached" for p in top}
            print(f"summaries: skipped, {out.stopped}", file=sys.stderr)
            return out
        settings = replace(settings, budget=left)
    got, run = summarize(top, settings, language, s.open_store)
    out.texts = {pid: r.text for pid, r in got.items() if r.ok}
    out.errors = {pid: r.error or "no summary" for pid, r in got.items() if not r.ok}
    out.prompt_tokens, out.completion_tokens, out.cost = (
        run.prompt_tokens, run.completion_tokens, run.cost)
    out.stopped = run.stopped
    print(format_run(run, got.values(), language), file=sys.stderr)
    return out


def write_text(path: Path, text: str) -> None:
    from paperterm.io.atomic import TargetError, atomic_write, writable_target

    try:
        path = writable_target(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"))
    except TargetError as exc:
        raise UserError(str(exc), 1) from None
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror or exc})", 1) from None
