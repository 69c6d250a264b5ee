"""What the reader shows of a paper's enrichment: one small value object per paper, made
from the cached answers of each source."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

SOURCES = ("links", "hf", "s2")  # offline first
ONLINE = frozenset({"hf", "s2"})


@dataclass(frozen=True)
class Signals:
    upvotes: int | None = None  # Hugging Face daily papers
    stars: int | None = None  # of the GitHub repository Hugging Face names
    citations: int | None = None  # Semantic Scholar
    influential: int | None = None
    h_index: int | None = None  # the highest among the authors
    tldr: str = ""
    code: tuple[str, ...] = ()  # repository links: the abstract's, then Hugging Face's

    @property
    def empty(self) -> bool:
        return self == Signals()

    def marker(self) -> str:
        """A short cell for the list: ⎇ with code, ▲upvotes, then citations ("12c")."""
        parts = ["⎇" if self.code else " "]
        if self.upvotes is not None:
            parts.append(f"▲{self.upvotes}")
        if self.citations is not None:
            parts.append(f"{self.citations}c")
        return " ".join(parts).rstrip()

    def lines(self) -> list[str]:
        """Plain lines for the preview."""
        out = []
        if self.upvotes is not None or self.stars is not None:
            bits = [f"▲ {self.upvotes} upvotes on Hugging Face" if self.upvotes is not None
                    else "on Hugging Face"]
            if self.stars is not None:
                bits.append(f"★ {self.stars} GitHub stars")
            out.append(", ".join(bits))
        if self.citations is not None:
            line = f"{self.citations} citations"
            if self.influential:
                line += f" ({self.influential} influential)"
            if self.h_index is not None:
                line += f", top author h-index {self.h_index}"
            out.append(line + " (Semantic Scholar)")
        if self.tldr:
            out.append(f"TL;DR: {self.tldr}")
        out += [f"Code: {url}" for url in self.code]
        return out


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def signals(sources: dict[str, dict[str, Any]]) -> Signals:
    """The Signals of one paper from {source: cached data}."""
    links = sources.get("links") or {}
    hf = sources.get("hf") or {}
    s2 = sources.get("s2") or {}
    code = [str(u) for u in links.get("urls") or [] if isinstance(u, str)]
    repo = hf.get("github")
    if isinstance(repo, str) and repo and repo.rstrip("/").casefold() not in {
            c.casefold() for c in code}:
        code.append(repo.rstrip("/"))
    tldr = s2.get("tldr")
    return Signals(upvotes=_int(hf.get("upvotes")), stars=_int(hf.get("stars")),
                   citations=_int(s2.get("citations")), influential=_int(s2.get("influential")),
                   h_index=_int(s2.get("h_index")),
                   tldr=" ".join(tldr.split()) if isinstance(tldr, str) else "",
                   code=tuple(code))


class EnrichmentCache(Protocol):
    """What `load_signals` reads: the store's enrichment repository."""

    def enrichment(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]: ...


def load_signals(cache: EnrichmentCache, ids: Sequence[str]) -> dict[str, Signals]:
    """{id: Signals} for the papers with anything cached (no network code imported: the
    reader calls this before its first paint)."""
    return {pid: s for pid, data in cache.enrichment(ids).items()
            if not (s := signals(data)).empty}
