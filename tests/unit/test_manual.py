"""The manual (docs/) is linked from the README, its generated parts are current, and its
links lead somewhere."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"


def _slug(title: str) -> str:
    return re.sub(r"[^\w\- ]", "", title.lower().strip()).replace(" ", "-")


def test_every_page_of_the_manual_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(docs/([\w\-]+\.md)\)", readme))
    assert linked == {p.name for p in DOCS.glob("*.md")}


def test_the_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 120
    image = re.search(r"!\[[^\]]*\]\((docs/img/[\w\-]+\.svg)\)", readme)
    assert image is not None and (ROOT / image.group(1)).is_file()


def test_the_generated_configuration_reference_is_current():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_docs.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page = (DOCS / "configuration.md").read_text(encoding="utf-8")
    for key in ("batch_size", "digest_max", "webhook_url", "library_id", "key_pattern"):
        assert f"| `{key}` |" in page


def test_links_between_pages_and_to_the_repository_resolve():
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\((?!https?:|mailto:)([^)\s]+)\)", text):
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            assert dest.exists(), f"{page.name}: {target}"
            if anchor and dest.suffix == ".md":
                titles = re.findall(r"^#+ (.*)$", dest.read_text(encoding="utf-8"), re.M)
                assert anchor in {_slug(t) for t in titles}, f"{page.name}: {target}"
