"""A topic file's (or `[topics.NAME]` table's) topic, as understood (`understand.py`): a
description in any of its forms beside keywords, or none (its keywords carry it: the LLM
reads a description made from them, `derived_description`); and the topic file `topics new`
writes from a text."""

from __future__ import annotations

from paperterm.models import Topic
from paperterm.topics.understand import (
    Understanding,
    ranking_areas,
    turns_down_domains,
    understand,
)

__all__ = ["derived_description", "description_derived", "table_understanding",
           "topic_file_text", "understanding_of", "understood_table"]


def derived_description(keywords: tuple[str, ...] | list[str],
                        exclude: tuple[str, ...] | list[str]) -> str:
    """The description of a topic file without one (what the LLM prompt reads and `topics
    show` prints): its keywords, then what it excludes."""
    text = f"Relevant: {', '.join(keywords)}." if keywords else ""
    if exclude:
        text += f"{' ' if text else ''}Not relevant: {', '.join(exclude)}."
    return text


def table_understanding(description: str, keywords: tuple[str, ...] | list[str],
                        exclude: tuple[str, ...] | list[str],
                        foundational: bool | None = None) -> Understanding:
    """How a topic file's (or `[topics.NAME]` table's) description is understood: a short
    one beside keywords is the keywords form (its keywords carry it; the ranking measures
    closeness to the name, description and keywords as one text)."""
    if not description.strip():  # its keywords are the text closeness is measured to
        u = Understanding("keywords", areas=[", ".join(keywords)] if keywords else [])
    else:
        u = understand(description, free_text=not keywords)
        if keywords and u.form == "one line" and len(u.areas) <= 1:
            u = Understanding("keywords")
    if u.form == "keywords" and exclude:  # what it turns down is what it excludes
        u.turned_down = [", ".join(exclude)]
    if foundational is not None:
        u.foundational = foundational
        u.why_foundational = "the topic says so" if foundational else ""
    elif not u.foundational and turns_down_domains([*exclude, *u.excluded]):
        u.foundational, u.why_foundational = True, "it turns application domains down"
    return u


def description_derived(topic: Topic) -> bool:
    """Whether `topic` (a table's) has the description `derived_description` gave it: its
    file has none."""
    return not topic.adhoc and topic.description == derived_description(topic.keywords,
                                                                        topic.exclude)


def understanding_of(topic: Topic) -> Understanding:
    """How `topic` was understood, for `topics show`: a free-text topic's text; a table's
    description (none when it was derived from its keywords: never read as written) beside
    its keywords. Foundational as the topic has it: why, as its words give it, or "the
    topic says so" when its file says otherwise."""
    if topic.adhoc:
        return understand(topic.name)
    description = "" if description_derived(topic) else topic.description
    u = table_understanding(description, topic.keywords, topic.exclude)
    if u.foundational != topic.foundational:
        u.foundational = topic.foundational
        u.why_foundational = "the topic says so"
    return u


def understood_table(name: str, description: str, lists: dict[str, tuple[str, ...]],
                     foundational: bool | None, source: str) -> Topic:
    """The topic of a table (`lists`: keywords, exclude, categories, follow)."""
    keywords, exclude = lists["keywords"], lists["exclude"]
    u = table_understanding(description, keywords, exclude, foundational)
    exclude = tuple(dict.fromkeys([*exclude, *u.excluded]))
    return Topic(
        name=name,
        description=description.strip() or derived_description(keywords, exclude),
        keywords=keywords,
        exclude=exclude,
        categories=lists["categories"],
        source=source,
        follow=lists["follow"],
        foundational=u.foundational,
        areas=ranking_areas(u),
        turned_down=tuple(u.turned_down),
        phrases=tuple(u.phrases),
    )


def _toml_string(text: str) -> str:
    """`text` as a TOML multi-line basic string."""
    body = (text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
            .replace("\t", "\\t").replace("\r", ""))
    body = "".join(c if c == "\n" or c >= " " else f"\\u{ord(c):04x}" for c in body)
    return f'"""\n{body}\n"""'


def topic_file_text(name: str, text: str) -> str:
    """A topic file for `text` (in any of the forms): its words as the description (read
    again the same way each time it is loaded), and whether it asks for foundational
    work, said where it can be changed."""
    u = understand(text)
    return (f"# written by `paperterm topics new {name}`; how it is understood: "
            f"`paperterm topics show {name}`\n"
            f'name = "{name}"\n'  # a checked name: letters, digits, "-", "_", "."
            f"description = {_toml_string(text.strip())}\n"
            "# keywords = [\"...\"]   # phrases that must match (optional)\n"
            "# exclude = [\"...\"]    # words that push a paper down (optional)\n"
            f"# theory and analysis lift a paper, application domains lower it"
            f"{' (' + u.why_foundational + ')' if u.why_foundational else ''}\n"
            f"foundational = {'true' if u.foundational else 'false'}\n")
