"""ctrl+p: the command palette offers every action of the key table, with its key, and the
screens that have no key ("Evaluate ranking")."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

from paperterm.tui.bindings import ALL_KEYS, LIST_KEYS, display_keys, effective_keys

EVALUATE = "Evaluate ranking: how each scorer (keywords, blend, learned, LLMs) ranks your picks"


class PapertermCommands(Provider):
    def _commands(self) -> list[tuple[str, Callable[[], Awaitable[None]], str]]:
        app = self.app
        keymap = getattr(app, "keymap", {})
        list_ids = {k.id for k in LIST_KEYS}
        effective, _ = effective_keys(keymap)
        out: list[tuple[str, Callable[[], Awaitable[None]], str]] = []
        for spec in ALL_KEYS:
            if not spec.palette:
                continue
            action = f"list_action('{spec.action}')" if spec.id in list_ids else spec.action
            keys = display_keys(effective[spec.id]) or "none"
            out.append((spec.help, partial(self._run, action), keys))
        out.append((EVALUATE, self._evaluate, "none"))
        return out

    async def _run(self, action: str) -> None:
        await self.screen.run_action(action)  # the screen the palette was opened on

    async def _evaluate(self) -> None:
        from paperterm.tui.host import reader_of
        from paperterm.tui.screens.evaluation import EvaluationScreen

        await self.app.push_screen(EvaluationScreen(reader_of(self.app).session))

    async def discover(self) -> Hits:
        for name, run, keys in self._commands():
            # plain text: "([zotero])" is no markup tag to drop
            yield DiscoveryHit(Content(name), run, text=name, help=escape(f"key: {keys}"))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, run, keys in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(escape(name)), run, text=name,
                          help=escape(f"key: {keys}"))
