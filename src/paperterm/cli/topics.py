"""`paperterm topics`: every topic and the file it comes from; `topics show NAME|TEXT` (how
a topic was understood and the top 10 of the latest cached day); `topics new NAME
--from-text FILE|-` (a topic file written from a text, after showing how it was
understood)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from paperterm.cli.errors import EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config, open_store
from paperterm.models import Paper, Topic
from paperterm.settings.config import Config, ConfigError
from paperterm.text.hygiene import cut

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
TOP = 10


def run(opts: Options) -> int:
    """Every topic (one that cannot be read is listed with why: only commands using it
    stop, and it is said once on stderr); `topics show` and `topics new`."""
    config = load_user_config(opts)
    if opts.topics_action == "show":
        return _show(opts, config)
    if opts.topics_action == "new":
        return _new(opts, config)
    from paperterm.topics import topic_catalog


    try:
        catalog = topic_catalog(config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    topics = catalog.topics
    width = max(len(n) for n in [*topics, *catalog.broken])
    rows = [(name, topic.source, topic.description) for name, topic in topics.items()]
    rows += [(name, "cannot be read", why) for name, why in catalog.broken.items()]
    for name, source, description in sorted(rows):
        marker = "*" if name == config.topic else " "
        first = cut(description.splitlines()[0], 70) if description else ""
        print(f"{marker} {name:<{width}}  {source}\n    {first}")
    if (notice := catalog.skipped_notice()) is not None:
        print(f"paperterm: {notice}", file=sys.stderr)
    return EXIT_OK


def _understanding_lines(topic: Topic) -> list[str]:
    from paperterm.topics.tables import description_derived, understanding_of

    u = understanding_of(topic)
    lines = [f"topic: {topic.name} ({topic.source})"]
    if description_derived(topic):
        lines.append(f"description (made from its keywords, for the LLM): {topic.description}")
    if topic.keywords:
        lines.append("keywords: " + ", ".join(topic.keywords))
    if topic.exclude:
        lines.append("exclude: " + ", ".join(topic.exclude))
    lines += u.lines()
    if u.form == "structured" or not (topic.areas or topic.adhoc):
        from paperterm.services.ranking import topic_areas, turned_down

        lines.append("areas the closeness is measured to:")
        lines += [f"  - {cut(a, 110)}" for a in topic_areas(topic)]
        down = turned_down(topic)
        if down:
            lines.append("turned down:")
            lines += [f"  - {cut(d, 110)}" for d in down]
    return lines


def _show(opts: Options, config: Config) -> int:
    from paperterm.topics import resolve_topic

    text = (opts.topic_text or config.topic or "").strip()
    if not text:
        raise UserError("topics show: name a topic or give a text (topics show \"…\")")
    try:
        resolved = resolve_topic(text, config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    topic = resolved.topic
    print("\n".join(_understanding_lines(topic)))
    if topic.adhoc:
        print("(free text: not a defined topic)")
    _top(topic, config)
    return EXIT_OK


def _top(topic: Topic, config: Config) -> None:
    """The top 10 of the latest cached day, with why each is there."""
    from paperterm.services.ranking import latest_day_ranked

    notices: list[str] = []
    store = open_store(notices)
    try:  # offline so far: the bundled sample day is the one shown
        feed, day, papers, scores = latest_day_ranked(store, topic, config.categories)
    finally:
        store.close()
    if day is None or not papers:
        print(f"\nno cached day for {feed} yet: run paperterm once to see the top {TOP}")
        return
    order = sorted(range(len(papers)), key=lambda i: (
        -(scores[i].relevance or 0), -(scores[i].fine or 0.0), i))
    if (note := _unmatched_note(topic, papers, config, day.isoformat())) is not None:
        print(f"note: {note}", file=sys.stderr)
    print(f"\ntop {TOP} of {day.isoformat()} ({len(papers)} papers, local ranking):")
    for rank, i in enumerate(order[:TOP], 1):
        s = scores[i]
        print(f"{rank:3}. {s.relevance or 0:>2}  {cut(papers[i].title, 90)}\n"
              f"        {papers[i].id}  why: {cut(s.reason, 120)}")


def _unmatched_note(topic: Topic, papers: list[Paper], config: Config, day: str,
                    ) -> str | None:
    from paperterm.topics import topic_catalog
    from paperterm.topics.unmatched import unmatched_note

    return unmatched_note(topic, papers, topic_catalog(config).topics, day)


def _new(opts: Options, config: Config) -> int:
    from paperterm.io import limits
    from paperterm.settings import paths
    from paperterm.topics import _topic_from_file
    from paperterm.topics.tables import topic_file_text
    from paperterm.topics.understand import nothing_to_rank_by, understand

    name = (opts.topic_text or "").strip()
    if not _NAME.match(name):
        raise UserError(f"topics new: {name!r} is not a topic name "
                        "(letters, digits, '-', '_' and '.', at most 64)")
    source = opts.from_text
    if not source:
        raise UserError("topics new: give the text with --from-text FILE (or - for stdin)")
    try:
        raw = (limits.read_stdin("stdin", limits.MAX_TEXT_FILE) if source == "-"
               else limits.read_path(Path(source), source, limits.MAX_TEXT_FILE))
    except OSError as exc:
        raise UserError(f"topics new: cannot read {source}: {exc.strerror or exc}") from None
    except (limits.InputTooLarge, limits.InputTooSlow) as exc:
        raise UserError(f"topics new: {exc}") from None
    text = raw.decode("utf-8", errors="replace").strip()
    if not text:
        raise UserError(f"topics new: {source} holds no text")
    if (why := nothing_to_rank_by(understand(text))) is not None:
        raise UserError(f"topics new: {source} holds nothing to rank by: {why}")
    folder = (config.path.parent if config.path is not None else paths.config_dir()) / "topics"
    target = folder / f"{name}.toml"
    if target.exists():
        raise UserError(f"topics new: {target} exists (remove it or choose another name)")
    content = topic_file_text(name, text)
    from paperterm.io.atomic import atomic_write

    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(target, content.encode("utf-8"))
    try:
        topic = _topic_from_file(target)
    except ConfigError as exc:  # never expected: what was written is read back
        target.unlink()
        raise UserError(f"topics new: {exc}") from None
    print("\n".join(_understanding_lines(topic)))
    print(f"\nwritten: {target} (use it with --topic {name}; edit it to change it)",
          file=sys.stderr)
    return EXIT_OK
