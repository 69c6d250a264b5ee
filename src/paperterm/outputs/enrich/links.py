"""Code links found in a paper's own text, offline: GitHub and GitLab repositories and
Hugging Face models, datasets and spaces."""

from __future__ import annotations

import re

# A repository is owner/name; what follows (tree/main, .git, a trailing dot) is dropped.
_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
_PATTERNS = (
    ("github", re.compile(rf"(?:https?://)?(?:www\.)?github\.com/({_NAME})/({_NAME})", re.I)),
    ("gitlab", re.compile(rf"(?:https?://)?(?:www\.)?gitlab\.com/({_NAME})/({_NAME})", re.I)),
    ("hf", re.compile(rf"(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co)/"
                      rf"((?:datasets/|spaces/)?{_NAME})/({_NAME})", re.I)),
)
_HOSTS = {"github": "https://github.com", "gitlab": "https://gitlab.com",
          "hf": "https://huggingface.co"}
# Paths on those hosts that are not repositories.
_NOT_OWNERS = {"github": {"features", "about", "orgs", "topics", "sponsors", "marketplace"},
               "gitlab": {"explore", "help", "users"},
               "hf": {"papers", "docs", "blog", "spaces", "datasets", "models", "learn"}}


def _clean(name: str) -> str:
    name = name.rstrip(".,;:)")
    return name.removesuffix(".git").rstrip(".")


def code_links(text: str) -> list[str]:
    """Every repository URL in `text`, normalised, each once, in order of appearance."""
    found: list[tuple[int, str]] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            owner, name = m.group(1), _clean(m.group(2))
            if not name or ("/" not in owner and owner.casefold() in _NOT_OWNERS[kind]):
                continue
            found.append((m.start(), f"{_HOSTS[kind]}/{owner}/{name}"))
    seen: set[str] = set()
    out = []
    for _, url in sorted(found):
        if url.casefold() not in seen:
            seen.add(url.casefold())
            out.append(url)
    return out
