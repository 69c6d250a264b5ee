"""`t`: switch the topic the day is scored against. A controller held by the day screen:
the topic follows the followed authors, the scores of the old topic go, the new ones come
(a topic read on other categories first loads the day for them).

The switcher offers every defined topic and the free-text topics of this session (the one
the reader started with included, so switching away never loses it), and takes free text:
whatever is typed can be used as a topic (`topics.resolve_topic`, as `--topic` does)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, SimpleProvider
from textual.content import Content

from paperterm.models import Topic
from paperterm.text.hygiene import cut
from paperterm.tui.text import one_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from paperterm.tui.screens.day_view import DayView
    from paperterm.tui.screens.follow_actions import Follows
    from paperterm.tui.screens.scoring import ScoringController


class TopicSwitch:
    def __init__(self, view: DayView, follows: Follows, scoring: ScoringController) -> None:
        self.view = view
        self.follows = follows
        self.scoring = scoring

    def pick(self) -> None:
        """Offer every topic in the command palette, and whatever is typed as free text."""
        from paperterm.settings.config import ConfigError
        from paperterm.topics import all_topics
        from paperterm.tui.palette import SafeCommandPalette

        try:
            topics = all_topics(self.view.session.config)
        except ConfigError as exc:
            self.view.reader.say(str(exc), "error")
            return
        choices = [(one_line(name), topic, cut(topic.description, 100))
                   for name, topic in sorted(topics.items())]
        choices += [(one_line(name), topic, "free text (this session)")
                    for name, topic in self.view.reader.free_topics.items()
                    if name not in topics]
        provider = TopicChoices(self.view.app.screen, [])
        provider.choices = [(name, partial(self.switch, topic), why)
                            for name, topic, why in choices]
        provider.free_text = self.switch_to_text
        self.view.app.push_screen(SafeCommandPalette(
            providers=[provider],  # type: ignore[list-item]  # an instance, as Textual's own
            placeholder="Switch topic… (or type any words: a free-text topic)"))

    def switch_to_text(self, text: str) -> None:
        """Rank against `text`: a defined topic by that name, else free text (said so)."""
        from paperterm.settings.config import ConfigError
        from paperterm.topics import resolve_topic

        try:
            resolved = resolve_topic(text, self.view.session.config)
        except ConfigError as exc:
            self.view.reader.say(str(exc), "error")
            return
        self.switch(resolved.topic)
        if resolved.notice:
            self.view.reader.say(resolved.notice, timeout=8)
        self.say_if_unmatched(resolved.topic)

    def say_if_unmatched(self, topic: Topic) -> None:
        """A free-text topic no paper of the shown day holds a word of (a typo?): said once,
        with "did you mean …?" when a topic or a phrase of the day's words is near it."""
        from paperterm.topics import topic_catalog
        from paperterm.topics.unmatched import unmatched_note

        day = self.view.session.day
        if not topic.adhoc or day.source == "loading":
            return
        note = unmatched_note(topic, day.papers, topic_catalog(self.view.session.config).topics,
                              day.label)
        if note:
            self.view.reader.say(note, "warning", timeout=10)

    def switch(self, topic: Topic, *, same_day: bool = False) -> None:
        """Score the day against `topic` instead; the current run's late scores are dropped.
        A topic read on other categories first loads this day for them (unless `same_day`)."""
        view = self.view
        if not view.alive or (not same_day and view.reader.reload_for_topic(topic)):
            return
        if topic.adhoc:  # offered again by `t` for the rest of the session
            view.reader.free_topics.setdefault(topic.name, topic)
        view.reader.switch_marks_topic(topic.name)  # what was read so far: the old topic's
        view.model.set_topic(self.follows.with_follows(topic))  # the header and preview follow
        # later days open with it (the reader's session; this day's is the model's)
        view.reader.update_session(topic=view.model.topic)
        self.follows.mark_followed()
        view.load_dismissed()
        self.scoring.switch_topic()
        view.model.scores_changed(to_top=True)  # the new topic's ranking, from its top
        view.reader.say(f"Topic: {topic.name}", timeout=3)


FREE_TEXT_SCORE = 1e-3  # below every topic that matches what is typed


class TopicChoices(SimpleProvider):
    """The switcher's entries: `choices` (name, switch to it, what it is) and, for whatever is
    typed, "Use ... as a free-text topic" (`free_text`), so that no query finds nothing.
    Handed to the palette as an instance, as Textual's `search_commands` does."""

    choices: list[tuple[str, Callable[[], None], str]]
    free_text: Callable[[str], None]

    async def discover(self) -> Hits:
        for name, run, why in self.choices:
            yield DiscoveryHit(Content(name), run, text=name, help=why)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        names, offered = set(), set()
        for name, run, why in self.choices:
            names.add(name)
            score = max(matcher.match(name), matcher.match(why) * 0.5)
            if score > 0:
                offered.add(name)
                yield Hit(score, matcher.highlight(name), run, text=name, help=why)
        text = one_line(query).strip()
        if text and text not in names:
            from paperterm.topics.names import is_one_word, near

            guess = near(text, names) if is_one_word(text) else None
            if guess is not None:  # a typo of a topic is that topic, never free text
                if guess in offered:
                    return
                run = next(r for name, r, _ in self.choices if name == guess)
                label = f"Did you mean \u201c{guess}\u201d?"
                yield Hit(1.0, Content(label), run, text=label,  # first: what was meant
                          help="one word is a topic's name; free text takes more words")
                return
            label = f"Use \u201c{text}\u201d as a free-text topic"
            yield Hit(FREE_TEXT_SCORE, Content(label), partial(self.free_text, text),
                      text=label, help="rank the day against these words (as --topic does)")
