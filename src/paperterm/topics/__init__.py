"""Built-in topics (one TOML file each) and topic resolution."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperterm.models import Topic
from paperterm.settings import paths
from paperterm.settings.config import Config, ConfigError, read_toml
from paperterm.topics.understand import understood_table, understood_text

_TOPIC_KEYS = {"name", "description", "keywords", "exclude", "categories", "follow",
               "foundational"}


def _topic_from_table(name: str, table: dict[str, Any], source: str) -> Topic:
    unknown = set(table) - _TOPIC_KEYS
    if unknown:
        raise ConfigError(
            f"{source}: topic '{name}': unknown key(s) {sorted(unknown)} "
            f"(known: {', '.join(sorted(_TOPIC_KEYS))})"
        )
    desc = table.get("description", "")
    if not isinstance(desc, str):
        raise ConfigError(f"{source}: topic '{name}': key 'description' expected a string")
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("keywords", "exclude", "categories", "follow"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: topic '{name}': key '{key}' expected a list of strings")
        lists[key] = tuple(value)
    foundational = table.get("foundational")
    if foundational is not None and not isinstance(foundational, bool):
        raise ConfigError(f"{source}: topic '{name}': key 'foundational' expected true or false")
    if not desc.strip() and not lists["keywords"]:
        raise ConfigError(f"{source}: topic '{name}': give it a 'description' or 'keywords'")
    return understood_table(name, desc, lists, foundational, source)


def _topic_from_file(path: Path, source: str | None = None) -> Topic:
    table = read_toml(path) if source is None else _read_resource(path)
    name = table.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{path}: key 'name' expected a non-empty string")
    return _topic_from_table(name, table, source or str(path))


def _read_resource(path: Path) -> dict[str, Any]:
    from paperterm.settings import tomlread

    return tomlread.loads(path.read_text(encoding="utf-8"))


def builtin_topics() -> dict[str, Topic]:
    out: dict[str, Topic] = {}
    # the package folder itself (importlib.resources costs a hundredth of start-up here)
    for entry in sorted(Path(__file__).parent.glob("*.toml")):
        if entry.is_file():
            topic = _topic_from_file(entry, source="built-in")
            out[topic.name] = topic
    return out


def all_topics(config: Config) -> dict[str, Topic]:
    """Built-ins, overridden by files in topics/ next to the config, overridden by [topics.*]."""
    topics = builtin_topics()
    # next to the config file, even when that file does not exist (yet): `config --path`
    # shows this folder whether or not there is a config.toml
    folder = (config.path.parent if config.path is not None else paths.config_dir()) / "topics"
    if folder.is_dir():
        for path in sorted(folder.glob("*.toml")):
            topic = _topic_from_file(path)
            topics[topic.name] = topic
    for name, table in config.topics.items():
        origin = str(config.path) if config.path else "config"
        topics[name] = _topic_from_table(name, table, origin)
    return topics


@dataclass
class ResolvedTopic:
    topic: Topic
    notice: str | None = None


_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-\+\.]*")
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "of",
    "on", "or", "the", "to", "with", "about", "using", "via", "new",
})


def resolve_topic(name_or_text: str, config: Config) -> ResolvedTopic:
    """A defined topic by name, else an ad-hoc topic whose words are its keywords."""
    topics = all_topics(config)
    if name_or_text in topics:
        return ResolvedTopic(topics[name_or_text])
    words = [w for w in _WORD.findall(name_or_text) if w.lower() not in _STOP]
    if not words:
        raise ConfigError(
            f"topic '{name_or_text}' is not defined and has no usable words "
            f"(defined topics: {', '.join(sorted(topics))})"
        )
    topic = understood_text(name_or_text)
    notice = (
        f"'{name_or_text}' is not a defined topic: using it as free text "
        f"(defined: {', '.join(sorted(topics))}; see `paperterm topics`)."
    )
    return ResolvedTopic(topic, notice)
