"""Built-in topics (one TOML file each) and topic resolution."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperterm.models import Topic
from paperterm.settings import paths
from paperterm.settings.config import Config, ConfigError, read_toml
from paperterm.topics.tables import understood_table
from paperterm.topics.understand import understood_text

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
    """Built-ins, overridden by files in topics/ next to the config, overridden by [topics.*];
    a file or table that cannot be read is left out (`topic_catalog` says why)."""
    return topic_catalog(config).topics


@dataclass
class TopicCatalog:
    """Every topic that could be read, and each one that could not: the name it would
    define -> why, naming the file and line (`names.located`)."""

    topics: dict[str, Topic]
    broken: dict[str, str]

    def skipped_notice(self) -> str | None:
        """One line saying which topic files were skipped, or None."""
        if not self.broken:
            return None
        return "; ".join(f"skipped topic '{name}' ({why})"
                         for name, why in sorted(self.broken.items()))


def topic_catalog(config: Config) -> TopicCatalog:
    """`all_topics`, with the topic files and [topics.*] tables that cannot be read set
    aside: only a command using one of those stops (`resolve_topic`)."""
    from paperterm.topics.names import located

    topics = builtin_topics()
    broken: dict[str, str] = {}
    # next to the config file, even when that file does not exist (yet): `config --path`
    # shows this folder whether or not there is a config.toml
    folder = (config.path.parent if config.path is not None else paths.config_dir()) / "topics"
    if folder.is_dir():
        for path in sorted(folder.glob("*.toml")):
            try:
                topic = _topic_from_file(path)
            except ConfigError as exc:
                name = _name_in(path)
                broken[name] = located(str(exc), path)
                topics.pop(name, None)
                continue
            topics[topic.name] = topic
            broken.pop(topic.name, None)
    for name, table in config.topics.items():
        origin = str(config.path) if config.path else "config"
        try:
            topics[name] = _topic_from_table(name, table, origin)
        except ConfigError as exc:
            broken[name] = located(str(exc), config.path, name)
            topics.pop(name, None)
            continue
        broken.pop(name, None)
    return TopicCatalog(topics, broken)


def _name_in(path: Path) -> str:
    """The name a topic file that cannot be read would define: its `name`, else its stem."""
    try:
        name = read_toml(path).get("name", path.stem)
    except ConfigError:
        return path.stem
    return name if isinstance(name, str) and name else path.stem


@dataclass
class ResolvedTopic:
    topic: Topic
    notice: str | None = None
    skipped: str | None = None  # topic files that could not be read, skipped (said once)


_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-\+\.]*")
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "of",
    "on", "or", "the", "to", "with", "about", "using", "via", "new",
})


def resolve_topic(name_or_text: str, config: Config, *,
                  config_file: Path | None = None) -> ResolvedTopic:
    """A defined topic by name (up to case), else an ad-hoc topic whose words are its
    keywords. A ConfigError for a topic whose file cannot be read, and for one word within
    a typo of a defined name ("did you mean 'agents'?"; `names.did_you_mean`: the fix in
    `config_file` when the name is that file's `topic`)."""
    from paperterm.topics.names import by_name, did_you_mean

    catalog = topic_catalog(config)
    topics = catalog.topics
    if (why := by_name(name_or_text, catalog.broken)) is not None:
        raise ConfigError(f"topic '{name_or_text.strip()}' cannot be read: {why}")
    skipped = catalog.skipped_notice()
    if (found := by_name(name_or_text, topics)) is not None:
        return ResolvedTopic(found, skipped=skipped)
    if (error := did_you_mean(name_or_text, [*topics, *catalog.broken], config_file)) is not None:
        raise ConfigError(error)
    words = [w for w in _WORD.findall(name_or_text) if w.lower() not in _STOP]
    if not words:
        raise ConfigError(
            f"topic '{name_or_text}' is not defined and has no usable words "
            f"(defined topics: {', '.join(sorted(topics))})"
        )
    topic = understood_text(name_or_text)
    notice = (
        f"Free-text topic '{name_or_text.strip()}' (not a defined topic): ranking against "
        f"these words (defined: {', '.join(sorted(topics))}; see `paperterm topics`)."
    )
    return ResolvedTopic(topic, notice, skipped)
