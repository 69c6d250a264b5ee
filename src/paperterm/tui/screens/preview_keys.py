"""The preview's keys on the day view: expand or collapse the abstract, keep every abstract
expanded, page the preview. A controller held by the day screen; the preview draws."""

from __future__ import annotations

from paperterm.tui.screens.day_view import DayController


class PreviewKeys(DayController):
    def toggle_abstract(self) -> None:
        self.view.preview.toggle()

    def keep_expanded(self) -> None:
        """E: every paper opens with its abstract expanded (again: collapsed)."""
        preview = self.view.preview
        keep = not preview.keep_expanded
        preview.set_keep_expanded(keep)
        self._say("Abstracts stay expanded" if keep else "Abstracts collapse again", timeout=2)

    def page_down(self) -> None:
        self.view.preview.page(down=True)

    def page_up(self) -> None:
        self.view.preview.page(down=False)
