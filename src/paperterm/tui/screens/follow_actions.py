"""Following authors from the reader: `A` offers the authors of the paper under the cursor
(followed ones to unfollow); their papers get the `@` mark and, with the local scorer, a
boost. Follows are kept in the store, next to the config's `follow` lists. A controller held
by the day screen."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from paperterm.models import Topic
from paperterm.topics.follows import Followed, clean_author, merged, name_key, with_follows
from paperterm.tui.screens.day_view import DayController
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from paperterm.tui.screens.day_view import DayView
    from paperterm.tui.screens.scoring import ScoringController


class Follows(DayController):
    def __init__(self, view: DayView, scoring: ScoringController) -> None:
        super().__init__(view)
        self.model = view.model
        self.scoring = scoring

    def with_follows(self, topic: Topic) -> Topic:
        """`topic` following the config's authors and those followed in the reader."""
        return with_follows(topic, self.session.config.follow, self.view.reader.store)

    def start(self) -> None:
        """At start: the topic follows every followed author; their papers are marked."""
        self.model.set_topic(self.with_follows(self.model.topic))
        self.mark_followed()

    def mark_followed(self) -> None:
        followed = Followed(self.model.topic.follow)
        for e in self.model.entries:
            e.followed = bool(followed.authors_of(e.paper))

    def pick_author(self) -> None:
        """Pick one of the paper's authors to follow (or, when followed, to unfollow)."""
        from textual.command import SimpleCommand

        e = self.view.current
        if e is None:
            return
        if not e.paper.authors:
            self.view.reader.say("This paper lists no authors to follow.", timeout=4)
            return
        followed = Followed(self.model.topic.follow)
        commands = []
        for author in dict.fromkeys(clean_author(a) for a in e.paper.authors):
            on = followed.follows(author)
            label = f"{'Unfollow' if on else 'Follow'} {one_line(author)}"
            commands.append(SimpleCommand(label, partial(self.set_follow, author, not on),
                                          "followed: @ mark and a boost" if not on else ""))
        self.view.app.search_commands(commands, placeholder="Follow which author?")

    def set_follow(self, author: str, on: bool) -> None:
        """Follow (or unfollow) `author`: stored, marked, and the local ranking redone."""
        reader = self.view.reader
        key = name_key(author)
        if not reader.write_store(f"following {author}",  # not saved: not shown as made
                                  lambda store: store.marks.set_followed(author, key, on)):
            return
        base = self.session.config.follow
        if not on and any(name_key(n) == key for n in base):
            reader.say(f"{author} is followed in the config file (follow = [...]); "
                       "remove them there", "warning")
        names = [n for n in self.model.topic.follow if name_key(n) != key]
        self.model.set_topic(replace(self.model.topic,
                                     follow=merged(names, [author] if on else [])))
        self.mark_followed()
        if not self.session.settings.use_llm:
            self.scoring.score_locally(hint=False)
        self.model.scores_changed()  # the @ marks, the followed authors' lift
        reader.say(f"{'Following' if on else 'No longer following'} {author}", timeout=4)
