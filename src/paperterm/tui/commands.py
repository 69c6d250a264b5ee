"""ctrl+p: the command palette offers every action of the key table, with its key."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

from paperterm.tui.keys import ALL_KEYS, LIST_KEYS, display_keys, effective_keys


class PapertermCommands(Provider):
    def _commands(self) -> list[tuple[str, str, str]]:
        app = self.app
        keymap = getattr(app, "keymap", {})
        list_ids = {k.id for k in LIST_KEYS}
        effective, _ = effective_keys(keymap)
        out = []
        for spec in ALL_KEYS:
            if not spec.palette:
                continue
            action = f"list_action('{spec.action}')" if spec.id in list_ids else spec.action
            keys = display_keys(effective[spec.id]) or "none"
            out.append((spec.help, action, keys))
        return out

    async def _run(self, action: str) -> None:
        await self.screen.run_action(action)  # the screen the palette was opened on

    async def discover(self) -> Hits:
        for name, action, keys in self._commands():
            # plain text: "([zotero])" is no markup tag to drop
            yield DiscoveryHit(Content(name), partial(self._run, action), text=name,
                               help=escape(f"key: {keys}"))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, action, keys in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(escape(name)), partial(self._run, action),
                          text=name, help=escape(f"key: {keys}"))
