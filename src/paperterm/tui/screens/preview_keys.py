"""The preview's keys on the day view: expand or collapse the abstract, keep every abstract
expanded, page the preview, zoom it to the screen's height or hide it. A controller held by
the day screen; the preview draws."""

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

    def zoom(self) -> None:
        """z: the preview takes the height, the list shrinks to its cursor row (again: back)."""
        screen, table = self.view.table.screen, self.view.table
        screen.set_class(not screen.has_class("-zoom"), "-zoom")
        screen.remove_class("-no-preview")
        screen.call_after_refresh(table.move_to, table.cursor)  # keep it in sight

    def hide(self) -> None:
        """h: hide the preview, the list takes its height (again: show it)."""
        screen = self.view.table.screen
        hide = not screen.has_class("-no-preview")
        screen.set_class(hide, "-no-preview")
        screen.remove_class("-zoom")
        if not hide:
            self.view.preview.render_entry()
