"""The marks vocabulary: which fields a paper can be marked with, one change to them
(`MarkChange`, what `services.marks.MarksService` publishes) and everything marked on one
paper (`PaperMarks`). Plain data, shared by the day model, the services and the views."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

Field = Literal["starred", "saved", "seen", "dismissed", "note", "tags"]
FIELDS: tuple[Field, ...] = ("starred", "saved", "seen", "dismissed", "note", "tags")
Value = bool | str | tuple[str, ...]
Listener = Callable[[Sequence["MarkChange"]], None]


class MarkChange(NamedTuple):
    """One field set to one value for these papers. "dismissed" is for the service's topic."""

    ids: tuple[str, ...]
    field: str  # one of FIELDS
    value: Value


@dataclass(frozen=True)
class PaperMarks:
    """Everything the user marked on one paper (dismissed: for the service's topic)."""

    starred: bool = False
    saved: bool = False
    seen: bool = False
    dismissed: bool = False
    note: str = ""
    tags: tuple[str, ...] = ()

    def get(self, field: str) -> Value:
        value: Value = getattr(self, field)
        return value

    def with_value(self, field: str, value: Value) -> PaperMarks:
        changed: dict[str, Any] = {field: value}
        return replace(self, **changed)


NO_MARKS = PaperMarks()
