"""The shared real days (`../shared/data` next to the repository: a day per JSON line file,
gold-dev/ picks), found from the repository root upwards; tests that need them skip
cleanly where they are absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperterm.models import Paper

ROOT = Path(__file__).resolve().parents[2]


def shared_data() -> Path | None:
    """The shared data folder (`shared/data` beside the repository or above it), or None."""
    for folder in ROOT.parents:
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    return None


def need_shared(*names: str) -> Path:
    """The shared data folder, or skip the test when it (or one of `names` in it) is absent."""
    data = shared_data()
    if data is None or not all((data / n).exists() for n in names):
        pytest.skip("the shared real days (../shared/data) are not here")
    return data


def load_day(path: Path) -> list[Paper]:
    """A day file's papers."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        out.append(Paper(d["id"], d["version"], d["title"], tuple(d["authors"]), d["abstract"],
                         tuple(d["categories"]), d["primary_category"], d["announce_type"],
                         comment=d.get("arxiv_comment")))
    return out


def gold_picks(data: Path, day: str) -> set[str]:
    """The ids the judge picked on `day` (gold-dev/gold-<day>.jsonl)."""
    text = (data / "gold-dev" / f"gold-{day}.jsonl").read_text(encoding="utf-8")
    return {json.loads(line)["id"] for line in text.splitlines() if line.strip()}


def gold_days(gold_dir: Path, days: list[Path]) -> list[tuple[str, list[Paper], set[str]]]:
    """(day, papers, picks) of each day that has a gold file."""
    out = []
    for path in days:
        gold_path = gold_dir / f"gold-{path.stem[4:]}.jsonl"
        if gold_path.exists():
            picks = {json.loads(line)["id"] for line in gold_path.read_text().splitlines()
                     if line.strip()}
            out.append((path.stem[4:], load_day(path), picks))
    return out
