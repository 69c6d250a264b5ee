"""Config file: defaults, loading and strict validation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from paperterm import paths, tomlread
from paperterm.settings import (
    RESPONSE_FORMATS,
    ModelOptions,
    ScoringSettings,
    declared,
    starter_lines,
)


class ConfigError(Exception):
    """A config (or topic/theme) file the user must fix; the message says where and how."""


@dataclass
class BibtexConfig:
    prefer_journal: bool = False
    unicode: bool = False
    key_pattern: str = "{author}{year}{title}"


@dataclass
class DeliveryConfig:
    """`[delivery]`: where `paperterm digest --send` mails and posts the digest."""

    email_to: list[str] = field(default_factory=list)
    email_from: str = ""
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_starttls: bool = True
    smtp_user: str = ""  # the password comes from PAPERTERM_SMTP_PASSWORD
    webhook_url: str = ""
    webhook_format: str = "json"  # slack | discord | json
    max_papers: int = 20  # the top papers a message lists


WEBHOOK_FORMATS = ("slack", "discord", "json")


@dataclass
class ZoteroConfig:
    """`[zotero]`: where `paperterm zotero` and the reader's Zotero key send papers."""

    send_to: str = "desktop"  # desktop (the running app's connector) | web (zotero.org)
    library_id: str = ""  # the web library: your user ID, or the group's ID
    library_type: str = "user"  # user | group
    collection: str = ""  # the collection to file papers in ("" : desktop: the selected
    # one; web: the library root)


ZOTERO_TARGETS = ("desktop", "web")
ZOTERO_LIBRARY_TYPES = ("user", "group")


@dataclass
class Config:
    categories: list[str] = field(default_factory=lambda: ["cs.LG", "cs.AI"])
    announce_types: list[str] = field(default_factory=lambda: ["new", "cross"])
    topic: str = "moe"
    scoring: ScoringSettings = field(default_factory=ScoringSettings)  # top-level keys in TOML
    max_results: int = 200
    theme: str = "paperterm-dark"
    bib_path: str = ""
    language: str = "English"  # summaries are written in it
    expand_abstracts: bool = False  # the reader keeps abstracts expanded across papers
    bibtex: BibtexConfig = field(default_factory=BibtexConfig)
    keys: dict[str, str] = field(default_factory=dict)
    topics: dict[str, dict[str, Any]] = field(default_factory=dict)
    follow: list[str] = field(default_factory=list)  # followed authors, for every topic
    delivery: DeliveryConfig = field(default_factory=DeliveryConfig)
    zotero: ZoteroConfig = field(default_factory=ZoteroConfig)
    enrich: list[str] = field(default_factory=list)  # links | hf | s2: the reader adds them
    path: Path | None = None  # where it was read from (None: defaults only)

    @property
    def bib_file(self) -> Path:
        return Path(self.bib_path).expanduser() if self.bib_path else paths.default_bib_file()


_TYPE_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
_CATEGORY = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]+)?$")


def _expect(value: Any, typ: type, where: str) -> Any:
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise ConfigError(f"{where}: expected a number in range, got one of "
                              f"{len(str(abs(value)))} digits") from None
    if typ is int and isinstance(value, bool):
        raise ConfigError(f"{where}: expected {_TYPE_NAMES[typ]}, got {value!r}")
    if not isinstance(value, typ):
        raise ConfigError(f"{where}: expected {_TYPE_NAMES[typ]}, got {value!r}")
    return value


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return list(value)


def _read_regular(path: Path) -> bytes:
    """The bytes of `path`, refusing a FIFO, device or directory: it is opened without
    blocking and checked before reading (reading a FIFO or /dev/zero never ends)."""
    import os

    from paperterm.atomic import not_regular

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        what = not_regular(os.fstat(fd))
        if what is not None:
            raise ConfigError(f"{path}: is {what}, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into a ConfigError naming the file."""
    try:
        text = _read_regular(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomlread.loads(text)
    except tomlread.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def parse_config(data: dict[str, Any], origin: str) -> Config:
    """Validate a parsed TOML table into a Config; unknown keys are errors."""
    cfg = Config()
    simple = {f.name: f.type for f in fields(Config)
              if f.name not in ("path", "scoring", "delivery", "zotero", "enrich")}
    scoring = {d.name: d for d in declared()}
    for key, value in data.items():
        where = f"{origin}: key '{key}'"
        if key in scoring:
            d = scoring[key]
            value = _expect(value, d.type, where)
            problem = d.problem(value)
            if problem:
                shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "..."
                raise ConfigError(f"{where}: expected {problem}, got {shown}")
            setattr(cfg.scoring, key, value)
        elif key in ("categories", "announce_types"):
            items = _str_list(value, where)
            if key == "categories":
                bad = [c for c in items if not _CATEGORY.match(c)]
                if bad or not items:
                    raise ConfigError(
                        f"{where}: expected arXiv categories such as \"cs.LG\", got {value!r}"
                    )
            else:
                from paperterm.models import ANNOUNCE_TYPES

                bad = [a for a in items if a not in ANNOUNCE_TYPES]
                if bad:
                    raise ConfigError(
                        f"{where}: expected some of {list(ANNOUNCE_TYPES)}, got {bad}"
                    )
            setattr(cfg, key, items)
        elif key == "enrich":
            cfg.enrich = _parse_enrich(value, where)
        elif key == "follow":
            cfg.follow = [n.strip() for n in _str_list(value, where) if n.strip()]
        elif key == "bibtex":
            cfg.bibtex = _parse_bibtex(value, f"{origin}: [bibtex]")
        elif key == "delivery":
            cfg.delivery = _parse_delivery(value, f"{origin}: [delivery]")
        elif key == "zotero":
            cfg.zotero = _parse_zotero(value, f"{origin}: [zotero]")
        elif key == "keys":
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise ConfigError(f"{origin}: [keys] expected action = \"key\" pairs")
            cfg.keys = dict(value)
        elif key == "models":
            cfg.scoring.models = _parse_models(value, origin)
        elif key == "topics":
            if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
                raise ConfigError(f"{origin}: [topics.<name>] tables expected")
            cfg.topics = dict(value)
        elif key in simple:
            typ = {"str": str, "int": int, "float": float, "bool": bool}[str(simple[key])]
            setattr(cfg, key, _expect(value, typ, where))
        else:
            known = ", ".join(sorted([*simple, *scoring, "models", "enrich"]))
            raise ConfigError(f"{origin}: unknown key '{key}' (known keys: {known})")
    _check_ranges(cfg, origin)
    return cfg


def _parse_enrich(value: Any, where: str) -> list[str]:
    from paperterm.enrich.signals import SOURCES

    items = _str_list(value, where)
    bad = [v for v in items if v not in SOURCES]
    if bad:
        raise ConfigError(f"{where}: expected some of {list(SOURCES)}, got {bad}")
    return list(dict.fromkeys(items))


def _parse_bibtex(value: Any, where: str) -> BibtexConfig:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table")
    out = BibtexConfig()
    for key, v in value.items():
        if key in ("prefer_journal", "unicode"):
            setattr(out, key, _expect(v, bool, f"{where} key '{key}'"))
        elif key == "key_pattern":
            out.key_pattern = _expect(v, str, f"{where} key '{key}'")
        else:
            raise ConfigError(
                f"{where}: unknown key '{key}' (known: prefer_journal, unicode, key_pattern)"
            )
    return out


def _parse_delivery(value: Any, where: str) -> DeliveryConfig:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table")
    out = DeliveryConfig()
    types = {f.name: {"str": str, "int": int, "bool": bool}.get(str(f.type), list)
             for f in fields(DeliveryConfig)}
    for key, v in value.items():
        at = f"{where} key '{key}'"
        if key not in types:
            raise ConfigError(f"{where}: unknown key '{key}' (known: {', '.join(types)})")
        if key == "email_to":
            v = [v] if isinstance(v, str) else _str_list(v, at)
            bad = [a for a in v if "@" not in a or any(c in a for c in "\r\n,<>")]
            if bad:
                raise ConfigError(f"{at}: expected e-mail addresses, got {bad[0]!r}")
        else:
            v = _expect(v, types[key], at)
        if key == "smtp_port" and not 1 <= v <= 65535:
            raise ConfigError(f"{at}: expected a port 1-65535, got {v}")
        if key == "max_papers" and not 1 <= v <= 1000:
            raise ConfigError(f"{at}: expected 1-1000, got {v}")
        if key == "webhook_format" and v not in WEBHOOK_FORMATS:
            raise ConfigError(f"{at}: expected one of {', '.join(WEBHOOK_FORMATS)}, got {v!r}")
        if key == "webhook_url" and v and not re.match(r"https?://[^\s/]+", v):
            raise ConfigError(f"{at}: expected an http(s):// URL, got {v!r}")
        setattr(out, key, v)
    return out


_MODEL_KEYS = ("max_tokens", "response_format", "system_role", "context", "input_price",
               "output_price", "extra")
_PRICE_LIMIT = 100_000.0  # dollars per million tokens: far above any real price


def _parse_models(value: Any, origin: str) -> dict[str, ModelOptions]:
    """`[models."<model>"]` tables: request shaping and prices for one model each."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigError(f'{origin}: [models."<model>"] tables expected')
    return {name: _parse_model(table, f'{origin}: [models."{name}"]')
            for name, table in value.items()}


def _parse_model(table: dict[str, Any], where: str) -> ModelOptions:
    values: dict[str, Any] = {}
    for key, v in table.items():
        at = f"{where} key '{key}'"
        if key in ("max_tokens", "context"):
            v = _expect(v, int, at)
            low = 0 if key == "max_tokens" else 256
            if not low <= v <= 10_000_000:
                raise ConfigError(f"{at}: expected {low} to 10000000 tokens, got {v!r}")
        elif key in ("input_price", "output_price"):
            v = _expect(v, float, at)
            if not (0 <= v <= _PRICE_LIMIT):  # also refuses nan and inf
                raise ConfigError(f"{at}: expected dollars per million tokens, 0 to "
                                  f"{_PRICE_LIMIT:g}, got {v!r}")
        elif key == "response_format":
            if v not in RESPONSE_FORMATS:
                raise ConfigError(f"{at}: expected one of {', '.join(RESPONSE_FORMATS)}, "
                                  f"got {v!r}")
        elif key == "system_role":
            v = _expect(v, bool, at)
        elif key == "extra":
            if not isinstance(v, dict):
                raise ConfigError(f"{at}: expected a table of request parameters, got {v!r}")
            v = dict(v)
        else:
            raise ConfigError(f"{where}: unknown key '{key}' (known: {', '.join(_MODEL_KEYS)})")
        values[key] = v
    options = ModelOptions(**values)
    if (options.input_price is None) != (options.output_price is None):
        raise ConfigError(f"{where}: set both input_price and output_price (dollars per "
                          "million tokens), or neither")
    return options


def _parse_zotero(value: Any, where: str) -> ZoteroConfig:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table")
    out = ZoteroConfig()
    known = [f.name for f in fields(ZoteroConfig)]
    for key, v in value.items():
        at = f"{where} key '{key}'"
        if key not in known:
            raise ConfigError(f"{where}: unknown key '{key}' (known: {', '.join(known)})")
        if key == "library_id" and isinstance(v, int) and not isinstance(v, bool):
            v = str(v)
        v = _expect(v, str, at).strip()
        if key == "library_id" and v and not v.isdigit():
            raise ConfigError(f"{at}: expected the library's numeric ID, got {v!r}")
        choices = {"send_to": ZOTERO_TARGETS, "library_type": ZOTERO_LIBRARY_TYPES}.get(key)
        if choices and v not in choices:
            raise ConfigError(f"{at}: expected one of {', '.join(choices)}, got {v!r}")
        setattr(out, key, v)
    return out


def _check_ranges(cfg: Config, origin: str) -> None:
    checks = [("max_results", 1 <= cfg.max_results <= 10_000, "at least 1 (at most 10000)"),
              ("language", language_problem(cfg.language) is None,
               language_problem(cfg.language) or "")]
    for key, ok, expected in checks:
        if not ok:
            got = getattr(cfg, key)
            raise ConfigError(f"{origin}: key '{key}': expected {expected}, got {got!r}")


def language_problem(language: str) -> str | None:
    """None when `language` can name the language of summaries, else what is expected."""
    from paperterm.hygiene import clean_line

    if not language.strip() or len(language) > 40 or clean_line(language) != language.strip():
        return "a language name such as \"English\" or \"Deutsch\" (1-40 characters)"
    return None


def load_config(explicit: str | Path | None = None) -> Config:
    """Load the resolved config file; a missing file means defaults."""
    path = paths.config_file(explicit)
    if not path.exists():
        if explicit:
            raise ConfigError(f"{path}: config file not found")
        return Config()
    cfg = parse_config(read_toml(path), str(path))
    cfg.path = path
    return cfg


STARTER_CONFIG = '''\
# paperterm configuration. Every key is optional; the values shown are the defaults.
# Docs: README.md, section "Configuration".

# arXiv categories to load (one RSS request for all of them).
categories = ["cs.LG", "cs.AI"]
# Which announcements to show: new, cross, replace, replace-cross.
announce_types = ["new", "cross"]
# Topic used when --topic is not given (built-in: moe, agents, interpretability).
topic = "moe"
# Authors whose papers get a marker and a boost (also `follow = [...]` inside a topic):
# follow = ["Tri Dao", "Noam Shazeer"]

# LLM scoring through litellm. Empty model = the local keyword scorer.
# API keys come from the provider's usual environment variables
# (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ...), never from this file.
{scoring}

max_results = 200      # for --query and --date
theme = "paperterm-dark"
language = "English"   # summaries (`paperterm summarize`, digest --summaries) are written in it
expand_abstracts = false  # the reader shows whole abstracts on every paper (E toggles)
# bib_path = "~/papers/references.bib"

[bibtex]
prefer_journal = false  # @article with journal when arXiv knows the journal reference
unicode = false         # keep UTF-8 (biber/XeLaTeX) instead of LaTeX escapes
key_pattern = "{author}{year}{title}"

# Where `paperterm digest --send` delivers (the SMTP password comes from the environment
# variable PAPERTERM_SMTP_PASSWORD, never from this file):
# [delivery]
# email_to = ["me@example.org"]
# email_from = "paperterm@example.org"
# smtp_host = "smtp.example.org"
# smtp_port = 587
# smtp_starttls = true
# smtp_user = "me@example.org"
# webhook_url = "https://hooks.slack.com/services/..."
# webhook_format = "slack"   # slack | discord | json
# max_papers = 20            # the top papers a message lists
# Request shaping and prices for one model (prices: dollars per million tokens).
# [models."anthropic/claude-sonnet-4-20250514"]
# input_price = 3.0
# output_price = 15.0
# max_tokens = 4000             # default: the batch's expected reply with headroom
# response_format = "auto"      # auto | json_schema | json_object | none
# system_role = true            # false: instructions folded into the user message
# context = 200000              # the context window: batches are sized to fit it
# extra = { temperature = 0 }   # passed through, e.g. ollama's num_ctx

# Enrichment the reader adds to each day (cached; hf and s2 go online, never with
# --offline): code links in abstracts, Hugging Face daily papers, Semantic Scholar
# (key from the environment variable S2_API_KEY). `paperterm enrich` does it on demand.
# enrich = ["links", "hf", "s2"]

# Where `paperterm zotero` and the reader's Zotero key (Z) send papers. The web library's
# API key comes from the environment variable ZOTERO_API_KEY, never from this file:
# [zotero]
# send_to = "desktop"        # desktop (Zotero running here) | web (your zotero.org library)
# library_id = "1234567"     # for web: your user ID (zotero.org/settings/keys) or a group's
# library_type = "user"      # user | group
# collection = "arXiv inbox" # default: desktop: the selected collection; web: the root

# [keys]
# star = "*"
# quit = "q"

# A topic of your own (or put one TOML file per topic into topics/ next to this file):
# [topics.retrieval]
# description = """Dense and sparse retrieval, retrieval-augmented generation.
# Not relevant: pure applications that use RAG without studying it."""
# keywords = ["retrieval", "RAG", "dense retrieval", "reranking"]
# exclude = ["recommendation"]
'''.replace("{scoring}", "\n".join(starter_lines()))


def init_config(explicit: str | Path | None = None) -> tuple[Path, bool]:
    """Write the starter config unless one exists. Returns (path, written)."""
    path = paths.config_file(explicit)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(STARTER_CONFIG)
    return path, True
