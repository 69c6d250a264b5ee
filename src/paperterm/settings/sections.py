"""Every section of the config, each setting declared once (see `spec`): `Config` is the
top level (the scoring keys sit there too), `[bibtex]`, `[delivery]` and `[zotero]` are its
tables."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperterm.settings.scoring import ScoringSettings
from paperterm.settings.spec import (
    LOADING,
    READER,
    ConfigError,
    between,
    expect,
    section,
    setting,
    str_list,
)

WEBHOOK_FORMATS = ("slack", "discord", "json")
ZOTERO_TARGETS = ("desktop", "web")
ZOTERO_LIBRARY_TYPES = ("user", "group")
DISPLAY = "bibtex and display"  # the help's group of these flags
_CATEGORY = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]+)?$")


def _categories(value: Any, where: str) -> list[str]:
    items = str_list(value, where)
    if not items or any(not _CATEGORY.match(c) for c in items):
        raise ConfigError(f"{where}: expected arXiv categories such as \"cs.LG\", got {value!r}")
    from paperterm.settings.categories import unknown

    problem = unknown(items)
    if problem:
        raise ConfigError(f"{where}: {problem}")
    return items


def _some_of(choices: tuple[str, ...]) -> Any:
    """A list of strings, each one of `choices`."""

    def parse(value: Any, where: str) -> list[str]:
        items = str_list(value, where)
        bad = [v for v in items if v not in choices]
        if bad:
            raise ConfigError(f"{where}: expected some of {list(choices)}, got {bad}")
        return items

    return parse


def _announce_types(value: Any, where: str) -> list[str]:
    from paperterm.models import ANNOUNCE_TYPES

    return _some_of(ANNOUNCE_TYPES)(value, where)


def _enrich(value: Any, where: str) -> list[str]:
    from paperterm.signals import SOURCES

    return list(dict.fromkeys(_some_of(SOURCES)(value, where)))


def _names(value: Any, where: str) -> list[str]:
    return [n.strip() for n in str_list(value, where) if n.strip()]


def _keys(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ConfigError(f"{where.rsplit(': key ', 1)[0]}: [keys] expected action = \"key\" pairs")
    return dict(value)


def _topics(value: Any, where: str) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigError(f"{where.rsplit(': key ', 1)[0]}: [topics.<name>] tables expected")
    return dict(value)


def _emails(value: Any, where: str) -> list[str]:
    items = [value] if isinstance(value, str) else str_list(value, where)
    bad = [a for a in items if "@" not in a or any(c in a for c in "\r\n,<>")]
    if bad:
        raise ConfigError(f"{where}: expected e-mail addresses, got {bad[0]!r}")
    return items


def _text(value: Any, where: str) -> str:
    return str(expect(value, str, where)).strip()


def _library_id(value: Any, where: str) -> str:
    return _text(str(value) if isinstance(value, int) and not isinstance(value, bool)
                 else value, where)


def _language_ok(language: str) -> bool:
    from paperterm.text.hygiene import clean_line

    return bool(language.strip()) and len(language) <= 40 and \
        clean_line(language) == language.strip()


LANGUAGE_EXPECTED = "a language name such as \"English\" or \"Deutsch\" (1-40 characters)"


def language_problem(language: str) -> str | None:
    """None when `language` can name the language of summaries, else what is expected."""
    return None if _language_ok(language) else LANGUAGE_EXPECTED


@dataclass
class BibtexConfig:
    """`[bibtex]`: how entries are written."""

    prefer_journal: bool = setting(
        False, comment="@article with journal when arXiv knows the journal reference")
    unicode: bool = setting(
        False, commands=frozenset({READER, "export"}), group=DISPLAY,
        help="keep UTF-8 in BibTeX (biber/XeLaTeX) instead of LaTeX escapes",
        comment="keep UTF-8 (biber/XeLaTeX) instead of LaTeX escapes")
    key_pattern: str = setting("{author}{year}{title}",
                               help="the citation key: {author}, {year}, {title} words")


@dataclass
class DeliveryConfig:
    """`[delivery]`: where `paperterm digest --send` mails and posts the digest."""

    email_to: list[str] = setting(factory=list, parse=_emails, example='["me@example.org"]',
                                  help="who `digest --send` mails the digest to")
    email_from: str = setting("", example='"paperterm@example.org"', help="the sender")
    smtp_host: str = setting("", example='"smtp.example.org"', help="the SMTP server")
    smtp_port: int = setting(587, check=between(1, 65535), expected="a port 1-65535")
    smtp_starttls: bool = setting(True, help="STARTTLS before logging in")
    smtp_user: str = setting("", example='"me@example.org"',  # the password: the environment
                             comment="password from PAPERTERM_SMTP_PASSWORD")
    webhook_url: str = setting(
        "", check=lambda v: not v or re.match(r"https?://[^\s/]+", v) is not None,
        expected="an http(s):// URL", example='"https://hooks.slack.com/services/..."')
    webhook_format: str = setting(
        "json", choices=WEBHOOK_FORMATS, expected=f"one of {', '.join(WEBHOOK_FORMATS)}",
        example='"slack"', comment="slack | discord | json")
    max_papers: int = setting(20, check=between(1, 1000), expected="1-1000",
                              comment="the top papers a message lists")


@dataclass
class ZoteroConfig:
    """`[zotero]`: where `paperterm zotero` and the reader's Zotero key send papers."""

    send_to: str = setting(
        "desktop", parse=_text, choices=ZOTERO_TARGETS,
        expected=f"one of {', '.join(ZOTERO_TARGETS)}", example='"desktop"',
        comment="desktop (Zotero running here) | web (your zotero.org library)")
    library_id: str = setting(  # the web library: your user ID, or the group's ID
        "", parse=_library_id, check=lambda v: not v or v.isdigit(),
        expected="the library's numeric ID", example='"1234567"',
        comment="for web: your user ID (zotero.org/settings/keys) or a group's")
    library_type: str = setting(
        "user", parse=_text, choices=ZOTERO_LIBRARY_TYPES,
        expected=f"one of {', '.join(ZOTERO_LIBRARY_TYPES)}", example='"user"',
        comment="user | group")
    collection: str = setting(  # "": desktop: the selected one; web: the library root
        "", parse=_text, example='"arXiv inbox"',
        comment="default: desktop: the selected collection; web: the root")


@dataclass
class Config:
    """The whole config file; every field is declared once, here or in its section."""

    categories: list[str] = setting(
        factory=lambda: ["cs.LG", "cs.AI"], parse=_categories, commands=LOADING | {"eval"},
        group="loading",
        help="comma-separated arXiv categories (overrides config)", metavar="CATS",
        before="arXiv categories to load (one RSS request for all of them).")
    announce_types: list[str] = setting(
        factory=lambda: ["new", "cross"], parse=_announce_types,
        before="Which announcements to show: new, cross, replace, replace-cross.")
    topic: str = setting(
        "moe", commands=LOADING | {"star", "unstar", "learn", "starred", "eval"},
        group="loading",
        metavar="NAME",
        complete="topics",
        help="a defined topic, or free text used as keywords",
        before="Topic used when --topic is not given (built-in: moe, agents, interpretability).")
    follow: list[str] = setting(  # followed authors, for every topic
        factory=list, parse=_names, example='["Tri Dao", "Noam Shazeer"]',
        before="Authors whose papers get a marker and a boost (also `follow = [...]` inside "
               "a topic):")
    scoring: ScoringSettings = section(ScoringSettings, inline=True)
    max_results: int = setting(
        200, check=between(1, 10_000), expected="at least 1 (at most 10000)",
        commands=LOADING, group="loading", help="for --query / --date",
        comment="for --query and --date")
    theme: str = setting(
        "paperterm-dark", commands=frozenset({READER, "themes"}), complete="themes",
        group=DISPLAY,
        help="theme name (see `paperterm themes`)")
    language: str = setting(  # summaries are written in it
        "English", check=_language_ok, expected=LANGUAGE_EXPECTED,
        commands=frozenset({"digest", "summarize"}), metavar="LANG",
        help="language of the summaries (default: config `language`)",
        comment="summaries (`paperterm summarize`, digest --summaries) are written in it")
    digest_max: int = setting(
        20, check=between(1, 100_000), expected="1-100000",
        comment="the top papers `paperterm digest` lists (--all: every paper)")
    confirm_cost: float = setting(  # the reader's `t` and `score` on a terminal ask first
        0.10, check=between(0, 1_000_000), expected="0 (never ask) or more dollars",
        comment="dollars: a model run expected to cost more is shown with its estimate "
                "and asked for first (a topic switch, `score` on a terminal); 0 = never ask")
    expand_abstracts: bool = setting(  # the reader keeps abstracts expanded across papers
        False, comment="the reader shows whole abstracts on every paper (E toggles)")
    bib_path: str = setting(
        "", flag="--bib", commands=frozenset({READER, "export", "learn", "config"}),
        metavar="FILE", complete="file", group=DISPLAY,
        help="the .bib file (the reader and export save to it, learn reads it)",
        example='"~/papers/references.bib"')
    bibtex: BibtexConfig = section(BibtexConfig)
    delivery: DeliveryConfig = section(
        DeliveryConfig, example="commented",
        before="Where `paperterm digest --send` delivers (the SMTP password comes from the "
               "environment\nvariable PAPERTERM_SMTP_PASSWORD, never from this file):")
    enrich: list[str] = setting(  # links | hf | s2: the reader adds them
        factory=list, parse=_enrich, example='["links", "hf", "s2"]',
        before="Enrichment the reader adds to each day (cached; hf and s2 go online, never "
               "with\n--offline): code links in abstracts, Hugging Face daily papers, "
               "Semantic Scholar\n(key from the environment variable S2_API_KEY). "
               "`paperterm enrich` does it on demand.")
    zotero: ZoteroConfig = section(
        ZoteroConfig, example="commented",
        before="Where `paperterm zotero` and the reader's Zotero key (Z) send papers. The "
               "web library's\nAPI key comes from the environment variable ZOTERO_API_KEY, "
               "never from this file:")
    keys: dict[str, str] = setting(factory=dict, parse=_keys, block='[keys]\nstar = "*"\n'
                                                                   'quit = "q"',
                                   help="the reader's keys: action = key (see the help, `?`)")
    topics: dict[str, dict[str, Any]] = setting(
        factory=dict, parse=_topics,
        before="A topic of your own (or put one TOML file per topic into topics/ next to "
               "this file):",
        block='[topics.retrieval]\n'
              'description = """Dense and sparse retrieval, retrieval-augmented generation.\n'
              'Not relevant: pure applications that use RAG without studying it."""\n'
              'keywords = ["retrieval", "RAG", "dense retrieval", "reranking"]\n'
              'exclude = ["recommendation"]')
    path: Path | None = None  # where it was read from (None: defaults only); no key

    @property
    def bib_file(self) -> Path:
        from paperterm.settings import paths

        return Path(self.bib_path).expanduser() if self.bib_path else paths.default_bib_file()
