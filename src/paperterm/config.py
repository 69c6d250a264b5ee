"""Config file: defaults, loading and strict validation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from paperterm import paths, tomlread


class ConfigError(Exception):
    """A config (or topic/theme) file the user must fix; the message says where and how."""


@dataclass
class BibtexConfig:
    prefer_journal: bool = False
    unicode: bool = False
    key_pattern: str = "{author}{year}{title}"


@dataclass
class Config:
    categories: list[str] = field(default_factory=lambda: ["cs.LG", "cs.AI"])
    announce_types: list[str] = field(default_factory=lambda: ["new", "cross"])
    topic: str = "moe"
    model: str = ""
    api_base: str = ""
    scorer: str = "auto"  # auto | llm | local
    batch_size: int = 20
    concurrency: int = 4
    rpm: float = 0.0
    timeout: float = 60.0
    budget: float = 0.0  # 0 = no budget
    include_authors: bool = False
    max_results: int = 200
    theme: str = "paperterm-dark"
    bib_path: str = ""
    bibtex: BibtexConfig = field(default_factory=BibtexConfig)
    keys: dict[str, str] = field(default_factory=dict)
    topics: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Path | None = None  # where it was read from (None: defaults only)

    @property
    def bib_file(self) -> Path:
        return Path(self.bib_path).expanduser() if self.bib_path else paths.default_bib_file()


_TYPE_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
_CATEGORY = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]+)?$")


def _expect(value: Any, typ: type, where: str) -> Any:
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if typ is int and isinstance(value, bool):
        raise ConfigError(f"{where}: expected {_TYPE_NAMES[typ]}, got {value!r}")
    if not isinstance(value, typ):
        raise ConfigError(f"{where}: expected {_TYPE_NAMES[typ]}, got {value!r}")
    return value


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return list(value)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into a ConfigError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
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
    simple = {f.name: f.type for f in fields(Config)}
    for key, value in data.items():
        where = f"{origin}: key '{key}'"
        if key in ("categories", "announce_types"):
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
        elif key == "bibtex":
            cfg.bibtex = _parse_bibtex(value, f"{origin}: [bibtex]")
        elif key == "keys":
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise ConfigError(f"{origin}: [keys] expected action = \"key\" pairs")
            cfg.keys = dict(value)
        elif key == "topics":
            if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
                raise ConfigError(f"{origin}: [topics.<name>] tables expected")
            cfg.topics = dict(value)
        elif key in simple and key != "path":
            typ = {"str": str, "int": int, "float": float, "bool": bool}[str(simple[key])]
            setattr(cfg, key, _expect(value, typ, where))
        else:
            known = ", ".join(sorted(k for k in simple if k != "path"))
            raise ConfigError(f"{origin}: unknown key '{key}' (known keys: {known})")
    _check_ranges(cfg, origin)
    return cfg


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


def _check_ranges(cfg: Config, origin: str) -> None:
    checks = [
        ("batch_size", cfg.batch_size >= 1, "at least 1"),
        ("concurrency", cfg.concurrency >= 1, "at least 1"),
        ("rpm", cfg.rpm >= 0, "0 (no limit) or more"),
        ("timeout", cfg.timeout > 0, "more than 0 seconds"),
        ("budget", cfg.budget >= 0, "0 (no budget) or more dollars"),
        ("max_results", cfg.max_results >= 1, "at least 1"),
        ("scorer", cfg.scorer in ("auto", "llm", "local"), "\"auto\", \"llm\" or \"local\""),
    ]
    for key, ok, expected in checks:
        if not ok:
            got = getattr(cfg, key)
            raise ConfigError(f"{origin}: key '{key}': expected {expected}, got {got!r}")


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

# LLM scoring through litellm. Empty model = the local keyword scorer.
# API keys come from the provider's usual environment variables
# (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ...), never from this file.
# model = "openai/gpt-4o-mini"
# api_base = "http://localhost:11434"   # e.g. for ollama
scorer = "auto"        # auto | llm | local
batch_size = 20        # papers per request
concurrency = 4        # requests in flight
rpm = 0                # requests per minute, 0 = unlimited
timeout = 60           # seconds per request
budget = 0             # dollars per run, 0 = no limit
include_authors = false

max_results = 200      # for --query and --date
theme = "paperterm-dark"
# bib_path = "~/papers/references.bib"

[bibtex]
prefer_journal = false  # @article with journal when arXiv knows the journal reference
unicode = false         # keep UTF-8 (biber/XeLaTeX) instead of LaTeX escapes
key_pattern = "{author}{year}{title}"

# [keys]
# star = "*"
# quit = "q"

# A topic of your own (or put one TOML file per topic into topics/ next to this file):
# [topics.retrieval]
# description = """Dense and sparse retrieval, retrieval-augmented generation.
# Not relevant: pure applications that use RAG without studying it."""
# keywords = ["retrieval", "RAG", "dense retrieval", "reranking"]
# exclude = ["recommendation"]
'''


def init_config(explicit: str | Path | None = None) -> tuple[Path, bool]:
    """Write the starter config unless one exists. Returns (path, written)."""
    path = paths.config_file(explicit)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(STARTER_CONFIG)
    return path, True
