"""`paperterm topics`: every topic and the file it comes from."""

from __future__ import annotations

from paperterm.cli.errors import EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config
from paperterm.settings.config import ConfigError
from paperterm.text.hygiene import cut


def run(opts: Options) -> int:
    from paperterm.topics import all_topics

    config = load_user_config(opts)
    try:
        topics = all_topics(config)
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    width = max(len(n) for n in topics)
    for name, topic in sorted(topics.items()):
        marker = "*" if name == config.topic else " "
        first = cut(topic.description.splitlines()[0], 70) if topic.description else ""
        print(f"{marker} {name:<{width}}  {topic.source}\n    {first}")
    return EXIT_OK
