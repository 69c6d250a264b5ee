"""`t`: switch the topic the day is scored against. A controller held by the day screen:
the topic follows the followed authors, the scores of the old topic go, the new ones come
(a topic read on other categories first loads the day for them)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from paperterm.models import Topic
from paperterm.text.hygiene import cut
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from paperterm.tui.screens.day_view import DayView
    from paperterm.tui.screens.follow_actions import Follows
    from paperterm.tui.screens.scoring import ScoringController


class TopicSwitch:
    def __init__(self, view: DayView, follows: Follows, scoring: ScoringController) -> None:
        self.view = view
        self.follows = follows
        self.scoring = scoring

    def pick(self) -> None:
        """Offer every topic in the command palette."""
        from textual.command import SimpleCommand

        from paperterm.settings.config import ConfigError
        from paperterm.topics import all_topics

        try:
            topics = all_topics(self.view.session.config)
        except ConfigError as exc:
            self.view.reader.say(str(exc), "error")
            return
        commands = [
            SimpleCommand(one_line(name), partial(self.switch, topic),
                          cut(topic.description, 100))
            for name, topic in sorted(topics.items())
        ]
        self.view.app.search_commands(commands, placeholder="Switch topic…")

    def switch(self, topic: Topic, *, same_day: bool = False) -> None:
        """Score the day against `topic` instead; the current run's late scores are dropped.
        A topic read on other categories first loads this day for them (unless `same_day`)."""
        view = self.view
        if not view.alive or (not same_day and view.reader.reload_for_topic(topic)):
            return
        view.reader.switch_marks_topic(topic.name)  # what was read so far: the old topic's
        view.topic = self.follows.with_follows(topic)
        view.session = replace(view.session, topic=view.topic)
        view.reader.session = replace(view.reader.session, topic=view.topic)  # later days
        self.follows.mark_followed()
        view.load_dismissed()
        self.scoring.switch_topic()
        view.refilter(to_top=True)
        view.preview.render_entry()
        view.reader.say(f"Topic: {topic.name}", timeout=3)
