"""Following authors from the reader: `A` offers the authors of the paper under the cursor
(followed ones to unfollow); their papers get the `@` mark and, with the local scorer, a
boost. Follows are kept in the store, next to the config's `follow` lists. A mixin of
`DayScreen`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from paperterm.follows import Followed, clean_author, following, merged, name_key
from paperterm.models import Topic
from paperterm.session import Session
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from textual.app import App

    from paperterm.listing import Entry
    from paperterm.tui.host import Reader
    from paperterm.tui.paper_list import PaperTable
    from paperterm.tui.preview import Preview


class FollowActions:
    session: Session
    topic: Topic
    entries: list[Entry]
    current: Entry | None
    reader: Reader
    table: PaperTable
    preview: Preview
    app: App[int]
    _refilter: Callable[..., None]
    _score_locally: Callable[..., None]

    def _with_follows(self, topic: Topic) -> Topic:
        """`topic` following the config's authors and those followed in the reader."""
        store = self.reader.store
        try:
            stored = store.followed_authors() if store is not None else []
        except Exception:  # an unreadable table only loses the reader's follows
            stored = []
        return following(topic, self.session.config.follow, stored)

    def _start_following(self) -> None:
        """At start: the topic follows every followed author; their papers are marked."""
        self.topic = self._with_follows(self.topic)
        self._mark_followed()

    def _mark_followed(self) -> None:
        followed = Followed(self.topic.follow)
        for e in self.entries:
            e.followed = bool(followed.authors_of(e.paper))

    def action_follow_author(self) -> None:
        """Pick one of the paper's authors to follow (or, when followed, to unfollow)."""
        from textual.command import SimpleCommand

        e = self.current
        if e is None:
            return
        if not e.paper.authors:
            self.reader.say("This paper lists no authors to follow.", timeout=4)
            return
        followed = Followed(self.topic.follow)
        commands = []
        for author in dict.fromkeys(clean_author(a) for a in e.paper.authors):
            on = followed.follows(author)
            label = f"{'Unfollow' if on else 'Follow'} {one_line(author)}"
            commands.append(SimpleCommand(label, partial(self.set_follow, author, not on),
                                          "followed: @ mark and a boost" if not on else ""))
        self.app.search_commands(commands, placeholder="Follow which author?")

    def set_follow(self, author: str, on: bool) -> None:
        """Follow (or unfollow) `author`: stored, marked, and the local ranking redone."""
        key = name_key(author)
        self.reader.write_store(f"following {author}",
                                lambda store: store.set_followed(author, key, on))
        base = self.session.config.follow
        if not on and any(name_key(n) == key for n in base):
            self.reader.say(f"{author} is followed in the config file (follow = [...]); "
                            "remove them there", "warning")
        names = [n for n in self.topic.follow if name_key(n) != key]
        self.topic = replace(self.topic, follow=merged(names, [author] if on else []))
        self._mark_followed()
        if not self.session.settings.use_llm:
            self._score_locally(hint=False)
        self._refilter()
        self.preview.render_entry()
        self.reader.say(f"{'Following' if on else 'No longer following'} {author}", timeout=4)
