"""From parsed options to a Session: config, topic, scoring settings, store, the loaded day."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from paperterm.cli.errors import EXIT_INSTEAD, EXIT_OK, EXIT_UNSCORED, UserError
from paperterm.cli.options import Options
from paperterm.day.session import Session
from paperterm.models import Day, Topic
from paperterm.services.marks import MarksService
from paperterm.services.storage import Store, StoreError
from paperterm.settings import ScoringSettings, paths
from paperterm.settings.config import Config, ConfigError, load_config
from paperterm.topics.follows import with_follows


def load_user_config(opts: Options) -> Config:
    try:
        return load_config(opts.config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None


def bib_path(opts: Options, config: Config) -> Path:
    return opts.bib.expanduser() if opts.bib else config.bib_file


def _topic(opts: Options, config: Config, notices: list[str]) -> Topic:
    from paperterm.topics import resolve_topic

    try:
        resolved = resolve_topic(opts.topic or config.topic, config,
                                 config_file=None if opts.topic else config.path)
    except ConfigError as exc:
        where = ("" if opts.topic or config.path is None or str(config.path) in str(exc)
                 else f"{config.path}: topic: ")  # (a typo's fix names the file itself)
        raise UserError(where + str(exc)) from None
    notices.extend(n for n in (resolved.skipped, resolved.notice) if n)
    return resolved.topic


def _unmatched(topic: Topic, day: Day, config: Config) -> str | None:
    """The note for a free-text topic no paper of `day` holds a word of (`unmatched`)."""
    from paperterm.topics import topic_catalog
    from paperterm.topics.unmatched import unmatched_note

    if not topic.adhoc:
        return None
    return unmatched_note(topic, day.papers, topic_catalog(config).topics, day.label)


def _settings(opts: Options, config: Config) -> ScoringSettings:
    settings = config.scoring.with_overrides(**opts.scoring)
    if settings.scorer == "llm" and not settings.model:
        raise UserError("--scorer llm needs a model: --model PROVIDER/MODEL or config `model`")
    return settings


def open_store(notices: list[str], *, reading: bool = False) -> Store:
    """The database; `reading`: for a command that only reads, so that a disk too full to
    open it as usual still gives the results (`Store.open_for_reading`)."""
    try:
        path = paths.database_file()
        store = Store.open_for_reading(path) if reading else Store.open(path)
    except StoreError as exc:
        raise UserError(str(exc), 1) from None
    if store.notice:
        notices.append(store.notice)
    return store


def scored_store(opts: Options) -> tuple[Store, Topic, ScoringSettings]:
    """The database, topic and scoring settings of a command that ranks cached papers by
    the topic (eval); what opening them had to say is said on stderr. The caller closes
    the store."""
    store, topic, settings = listing_store(opts, strict=True)
    assert topic is not None
    return store, topic, settings


def listing_store(opts: Options, *, strict: bool = False,
                  ) -> tuple[Store, Topic | None, ScoringSettings]:
    """`scored_store` for a command that lists cached papers with their scores but does not
    rank by the topic (search, starred): a config topic that is not defined (a typo, a
    topic file that cannot be read) does not stop it; it is said once on stderr and the
    papers are listed without scores (topic None). A `--topic` given still must be one."""
    notices: list[str] = []
    store = open_store(notices, reading=True)
    try:
        config = load_user_config(opts)
        try:
            topic: Topic | None = with_follows(_topic(opts, config, notices), config.follow,
                                               store)
        except UserError as exc:
            if strict or opts.topic:
                raise
            topic = None
            notices.append(f"{exc}; listed without scores")
        settings = _settings(opts, config)
    except BaseException:
        store.close()
        raise
    for notice in notices:
        print(f"note: {notice}", file=sys.stderr)
    return store, topic, settings


def open_marks(opts: Options, config: Config | None = None) -> MarksService:
    """The marks service over the database (close its store), for --topic, else the
    config's topic (`config`: already loaded, else read here); free text that names no
    defined topic, and what opening the database had to say, are said on stderr."""
    notices: list[str] = []
    topic = _topic(opts, config or load_user_config(opts), notices)
    store = open_store(notices)
    for notice in notices:
        print(f"note: {notice}", file=sys.stderr)
    return MarksService(store, topic.name)


def load_request(opts: Options, config: Config, topic: Topic):  # -> LoadRequest
    from paperterm.services.days import LoadRequest

    day = opts.date
    if day is not None and day.weekday() >= 5:  # as the reader's `D`: the Friday before
        from paperterm.services.dates import asked_day

        day, said = asked_day(day)
        if said and opts.command != "tui":
            print(f"note: {said}", file=sys.stderr)
    return LoadRequest(
        categories=opts.category_list or list(topic.categories or config.categories),
        announce_types=list(config.announce_types),
        feed=opts.feed,
        date=day,
        query=opts.query,
        sample=opts.sample,
        offline=opts.offline,
        since=opts.since if opts.command != "search" else None,
        refresh=opts.refresh,
        max_results=opts.max_results or config.max_results,
    )


def open_session(opts: Options, load: Callable[[Store], Day] | None = None, *,
                 defer_network: bool = False) -> Session:
    """Load the day the options ask for (or what `load` makes of the store), with the store
    left open (`session.close()`).

    With `defer_network` (the reader), a day that needs the network is not loaded here: the
    session's day is empty and `session.pending` says what to load in the background."""
    from paperterm.services.days import LoadError, open_day

    config = load_user_config(opts)
    notices: list[str] = []
    topic = _topic(opts, config, notices)
    settings = _settings(opts, config)  # a bad flag must fail before any loading
    store = open_store(notices)
    pending = None
    try:
        topic = with_follows(topic, config.follow, store)
        req = load_request(opts, config, topic)
        if load is not None:
            day = load(store)
        else:  # the reader shows what it has at once, and fetches `pending` meanwhile
            try:
                opened = open_day(req, store, defer_network=defer_network)
            except LoadError as exc:
                raise UserError(str(exc)) from None
            day, pending = opened.day, opened.pending
    except BaseException:
        store.close()
        raise
    if pending is None:  # a free-text topic no paper of the day matches (a typo?): said once
        notices.extend(n for n in [_unmatched(topic, day, config)] if n)
    day.notices[:0] = notices
    return Session(
        config=config, day=day, topic=topic, settings=settings, db_path=store.path,
        bib_path=bib_path(opts, config), unicode_bib=opts.unicode or config.bibtex.unicode,
        theme=opts.theme, store=store, pending=pending, request=req,
        categories_fixed=opts.category_list is not None,
    )


def open_headless_session(opts: Options, load: Callable[[Store], Day] | None = None,
                          ) -> Session:
    """A session for a command without a screen: its notices go to stderr, one per line."""
    s = open_session(opts, load)
    for notice in s.day.notices:
        print(f"note: {notice}", file=sys.stderr)
    return s


def honoured(s: Session, code: int) -> int:
    """`code`, or EXIT_INSTEAD when the `--date`/`--query` asked for could not be loaded and
    the command worked on another day (said once more, last, on stderr)."""
    if not s.day.instead:
        return code
    print(f"paperterm: {s.day.instead}", file=sys.stderr)
    return EXIT_INSTEAD if code in (EXIT_OK, EXIT_UNSCORED) else code
