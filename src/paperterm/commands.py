"""What each command does; the CLI parses, this wires domain code (and the TUI) together."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from paperterm import paths
from paperterm.cli import EXIT_AUTH, EXIT_OK, EXIT_USAGE, UserError, opt
from paperterm.config import Config, ConfigError, init_config, load_config
from paperterm.models import Day, Paper, Topic, bare_id
from paperterm.store import Store, StoreError

if TYPE_CHECKING:  # imported where used: `config`/`topics` must not load the scoring package
    from paperterm.scoring.types import RunSummary, Score, ScoringSettings

LOCAL_HINT = ("No model configured: ranking by topic keywords. For LLM scoring use "
              "--model openai/gpt-4o-mini (or set `model` in the config).")


def _config(ns: argparse.Namespace) -> Config:
    try:
        return load_config(opt(ns, "config"))
    except ConfigError as exc:
        raise UserError(str(exc)) from None


def _topic(ns: argparse.Namespace, config: Config, notices: list[str]) -> Topic:
    from paperterm.topics import resolve_topic

    try:
        resolved = resolve_topic(opt(ns, "topic") or config.topic, config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    if resolved.notice:
        notices.append(resolved.notice)
    return resolved.topic


def open_store(notices: list[str]) -> Store:
    try:
        store = Store.open(paths.database_file())
    except StoreError as exc:
        raise UserError(str(exc), 1) from None
    if store.notice:
        notices.append(store.notice)
    return store


def _settings(ns: argparse.Namespace, config: Config) -> ScoringSettings:
    from paperterm.scoring.types import ScoringSettings

    settings = ScoringSettings.from_config(
        config,
        model=opt(ns, "model"),
        api_base=opt(ns, "api_base"),
        scorer=opt(ns, "scorer"),
        batch_size=opt(ns, "batch_size"),
        concurrency=opt(ns, "concurrency"),
        rpm=opt(ns, "rpm"),
        timeout=opt(ns, "timeout"),
        budget=opt(ns, "budget"),
    )
    if settings.scorer == "llm" and not settings.model:
        raise UserError("--scorer llm needs a model: --model PROVIDER/MODEL or config `model`")
    return settings


def _load(ns: argparse.Namespace, config: Config, topic: Topic, store: Store,
          notices: list[str]) -> Day:
    from paperterm.loader import LoadError, LoadRequest, load_day

    cats = opt(ns, "categories")
    categories = ([c.strip() for c in cats.split(",") if c.strip()] if cats
                  else list(topic.categories or config.categories))
    req = LoadRequest(
        categories=categories,
        announce_types=list(config.announce_types),
        feed=opt(ns, "feed"),
        date=opt(ns, "date"),
        query=opt(ns, "query"),
        sample=bool(opt(ns, "sample")),
        offline=bool(opt(ns, "offline")),
        max_results=opt(ns, "max_results") or config.max_results,
    )
    try:
        day = load_day(req, store)
    except LoadError as exc:
        raise UserError(str(exc)) from None
    day.notices[:0] = notices
    return day


@dataclass
class Session:
    config: Config
    topic: Topic
    store: Store
    day: Day
    settings: ScoringSettings


def _session(ns: argparse.Namespace) -> Session:
    config = _config(ns)
    notices: list[str] = []
    topic = _topic(ns, config, notices)
    settings = _settings(ns, config)  # a bad flag must fail before any loading
    store = open_store(notices)
    day = _load(ns, config, topic, store, notices)
    return Session(config, topic, store, day, settings)


def _headless_session(ns: argparse.Namespace) -> Session:
    """A session for a command without a screen: its notices go to stderr, one per line."""
    s = _session(ns)
    for notice in s.day.notices:
        print(f"note: {notice}", file=sys.stderr)
    return s


def _bib_path(ns: argparse.Namespace, config: Config) -> Path:
    bib = opt(ns, "bib")
    return Path(bib).expanduser() if bib else config.bib_file


# -- the reader -------------------------------------------------------------------------


def cmd_tui(ns: argparse.Namespace) -> int:
    from paperterm.context import AppContext

    s = _session(ns)
    ctx = AppContext(
        config=s.config,
        day=s.day,
        topic=s.topic,
        settings=s.settings,
        db_path=s.store.path,
        bib_path=_bib_path(ns, s.config),
        unicode_bib=bool(opt(ns, "unicode")) or s.config.bibtex.unicode,
        theme=opt(ns, "theme"),
    )
    s.store.close()
    from paperterm.tui.app import run_tui

    return run_tui(ctx)


# -- headless scoring -------------------------------------------------------------------


def score_day(s: Session, *, progress: bool, out: TextIO = sys.stderr) -> tuple[
        list[Score], RunSummary]:
    """Scores for every paper of the day (cache, LLM or local); one Score per paper."""
    from paperterm import scoring
    from paperterm.scoring.types import RunSummary, Score

    papers = s.day.papers
    if not s.settings.use_llm:
        print(LOCAL_HINT if s.settings.scorer != "local" else "Local keyword scorer.", file=out)
        scores = scoring.local_scores(papers, s.topic)
        summary = RunSummary(model="local", total=len(papers), scored=len(scores))
        return scores, summary
    by_id: dict[str, Score] = {}
    reporter = _Progress(len(papers), out) if progress else None

    def on_scores(batch: list[Score]) -> None:
        for sc in batch:
            by_id[sc.paper_id] = sc
        if reporter:
            reporter.update(list(by_id.values()))

    try:
        summary = scoring.run_scoring(papers, s.topic, s.settings, db_path=s.store.path,
                                      on_scores=on_scores)
    except scoring.ScoringError as exc:
        if reporter:
            reporter.close()
        raise UserError(f"scoring stopped: {exc}", EXIT_AUTH) from None
    if reporter:
        reporter.close()
    scores = [by_id.get(p.id) or Score(p.id, p.version, None, None, "", "unscored",
                                       "no result from the scoring run") for p in papers]
    return scores, summary


class _Progress:
    """A progress bar on a terminal, plain lines otherwise."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total, self.out, self.bar = total, out, None
        self.last_line = -1
        if out.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(file=out), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("scoring", total=total)

    def update(self, scores: list[Score]) -> None:
        from paperterm.scoring.types import status_counts

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
    from paperterm.scoring.types import status_counts

    counts = status_counts(scores)
    cost = "unknown" if summary.cost is None else f"${summary.cost:.4f}"
    lines = [
        f"model: {summary.model}",
        f"tokens: prompt {summary.prompt_tokens:,} / completion {summary.completion_tokens:,} / "
        f"total {summary.total_tokens:,}; cost {cost}; requests {summary.requests}",
        f"papers: total {len(scores)} / scored {counts['scored']} / cached {counts['cached']} / "
        f"unscored {counts['unscored']}",
    ]
    earlier = summary.earlier_prompt_tokens + summary.earlier_completion_tokens
    if counts["cached"] and earlier:
        paid = "unknown" if summary.earlier_cost is None else f"${summary.earlier_cost:.4f}"
        lines.append(f"cached scores: {earlier:,} tokens, {paid}, paid in earlier runs")
    if summary.stopped:
        lines.append(f"stopped: {summary.stopped}")
    lines.extend(summary.notices)
    return "\n".join(lines)


def cmd_score(ns: argparse.Namespace) -> int:
    s = _headless_session(ns)
    scores, summary = score_day(s, progress=True)
    by_id = {p.id: p for p in s.day.papers}
    if opt(ns, "json"):
        for sc in scores:
            row = {"id": sc.paper_id, "version": sc.version, "title": by_id[sc.paper_id].title,
                   "relevance": sc.relevance, "novelty": sc.novelty, "reason": sc.reason,
                   "status": sc.status}
            if sc.status == "unscored":
                row["error"] = sc.error or "not scored"
            print(json.dumps(row, ensure_ascii=False))
        print(format_summary(summary, scores), file=sys.stderr)
    else:
        print(format_summary(summary, scores))
    return EXIT_OK


def cmd_digest(ns: argparse.Namespace) -> int:
    from paperterm.digest import render_digest

    s = _headless_session(ns)
    scores, summary = score_day(s, progress=True)
    text = render_digest(s.day.label, s.topic, summary.model, summary, s.day.papers,
                         {sc.paper_id: sc for sc in scores}, opt(ns, "format") or "md",
                         opt(ns, "min_relevance"))
    output = opt(ns, "output")
    if output and output != "-":
        _write_text(Path(output), text)
        print(f"digest written to {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _write_text(path: Path, text: str) -> None:
    from paperterm.atomic import atomic_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror or exc})", 1) from None


# -- BibTeX -----------------------------------------------------------------------------


def select_for_export(ns: argparse.Namespace, s: Session) -> list[Paper]:
    papers = s.day.papers
    ids = opt(ns, "ids")
    if ids:
        wanted = [bare_id(i) for i in ids]
        known = {p.id: p for p in papers}
        missing = [i for i in wanted if i not in known]
        if missing:
            raise UserError(f"not in the loaded day: {', '.join(missing)} "
                            "(load the right day with --feed/--date/--query)")
        papers = [known[i] for i in dict.fromkeys(wanted)]
    if opt(ns, "starred"):
        starred = s.store.starred_ids()
        papers = [p for p in papers if p.id in starred]
    minimum = opt(ns, "min_relevance")
    if minimum:
        scores, _ = score_day(s, progress=True)
        rel = {sc.paper_id: sc.relevance for sc in scores}
        papers = [p for p in papers if (rel.get(p.id) or 0) >= minimum]
    return papers


def cmd_export(ns: argparse.Namespace) -> int:
    from paperterm.bibtex import BibError, export_papers

    s = _headless_session(ns)
    papers = select_for_export(ns, s)
    output = opt(ns, "output")
    target: Path | str = "-" if output == "-" else Path(output or _bib_path(ns, s.config))
    bib = s.config.bibtex
    try:
        result = export_papers(papers, target, unicode=bool(opt(ns, "unicode")) or bib.unicode,
                               prefer_journal=bib.prefer_journal, key_pattern=bib.key_pattern,
                               update=bool(opt(ns, "update")))
    except BibError as exc:
        raise UserError(str(exc), 1) from None
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if target == "-":
        sys.stdout.write(result.text)
        return EXIT_OK
    s.store.mark_saved([*result.added, *result.skipped, *result.updated], result.path or target)
    print(f"{target}: {len(result.added)} added, {len(result.skipped)} already present"
          + (f", {len(result.updated)} updated" if result.updated else ""), file=sys.stderr)
    return EXIT_OK


# -- config, topics, themes -------------------------------------------------------------


def cmd_config(ns: argparse.Namespace) -> int:
    explicit = opt(ns, "config")
    if opt(ns, "init"):
        path, written = init_config(explicit)
        if written:
            print(f"wrote {path}")
            return EXIT_OK
        print(f"paperterm: {path} already exists; not overwritten", file=sys.stderr)
        return EXIT_USAGE
    config_path = paths.config_file(explicit)
    problem: UserError | None = None
    try:  # the paths are most wanted when the file is broken: print them regardless
        config = _config(ns)
    except UserError as exc:
        config, problem = Config(), exc
    print(f"config:   {config_path}{'' if config_path.exists() else '  (not found: defaults)'}")
    print(f"topics:   {config_path.parent / 'topics'}")
    print(f"themes:   {config_path.parent / 'themes'}")
    print(f"data:     {paths.data_dir()}")
    print(f"database: {paths.database_file()}")
    invalid = "  (default: the config is invalid)" if problem else ""
    print(f"bib:      {_bib_path(ns, config)}{invalid}")
    if problem:
        raise problem
    return EXIT_OK


def cmd_topics(ns: argparse.Namespace) -> int:
    from paperterm.topics import all_topics

    config = _config(ns)
    try:
        topics = all_topics(config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    width = max(len(n) for n in topics)
    for name, topic in sorted(topics.items()):
        marker = "*" if name == config.topic else " "
        first = topic.description.splitlines()[0][:70]
        print(f"{marker} {name:<{width}}  {topic.source}\n    {first}")
    return EXIT_OK


def cmd_themes(ns: argparse.Namespace) -> int:
    from paperterm.theming import list_themes

    config = _config(ns)
    current = opt(ns, "theme") or config.theme
    from paperterm.tui.themes import builtin_theme_names

    ours = list_themes(config)
    names = {name for name, _ in ours}
    builtin = [(name, "textual built-in") for name in builtin_theme_names() if name not in names]
    for name, source in [*ours, *builtin]:
        print(f"{'*' if name == current else ' '} {name:<24} {source}")
    return EXIT_OK
