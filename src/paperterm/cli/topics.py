"""`paperterm topics`: every topic and the file it comes from."""

from __future__ import annotations

from paperterm.cli.errors import EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import load_user_config
from paperterm.settings.config import ConfigError
from paperterm.text.hygiene import cut


def run(opts: Options) -> int:
    """Every topic; one that cannot be read is listed with why (only commands using it
    stop), and said once on stderr."""
    import sys

    from paperterm.topics import topic_catalog

    config = load_user_config(opts)
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
