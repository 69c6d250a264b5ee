"""Everything the user made, as one JSON file (`paperterm library export|import`): the
library's records and what the ranking learned from, written out and merged back
(`store.library_io`). The file's format, and the learned tables an import checks, are
named here for the command's checks of a file before anything is imported."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from paperterm.models import Paper
from paperterm.store.library_io import FORMAT, FORMAT_VERSION, LEARNED, ImportCounts, dumps

if TYPE_CHECKING:
    from paperterm.store import Store

__all__ = ["FORMAT", "FORMAT_VERSION", "LEARNED", "Exported", "ImportCounts", "Imported",
           "export_library", "import_library"]

Records = list[dict[str, object]]
Learned = dict[str, list[dict[str, object]]]


class Exported(NamedTuple):
    """The file's text, how many paper records it holds, and the learned rows by table."""

    text: str
    papers: int
    learned: Learned


class Imported(NamedTuple):
    """What the import changed (`counts`) and how many learned rows were not there yet."""

    counts: ImportCounts
    taught: int


def export_library(store: Store, exported_at: str) -> Exported:
    """The library file of `store`, stamped `exported_at`."""
    records = store.library.library_records()
    learned = store.library.learned_records()
    return Exported(dumps(records, exported_at, learned), len(records), learned)


def import_library(store: Store, records: Records, papers: list[Paper], days: dict[str, str],
                   learned: Learned) -> Imported:
    """Merge a checked library file into `store`: its records (with their papers and those
    papers' days), then the learned rows."""
    counts = store.library.import_records(records, papers, days)
    return Imported(counts, store.library.import_learned(learned))
