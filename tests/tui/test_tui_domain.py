"""The reader's pure parts: filtering and sorting, safe text, theme files."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from paperterm.day.listing import (
    SORT_KEYS,
    FilterState,
    filter_entries,
    make_entries,
    sort_entries,
    view,
)
from paperterm.day.score_states import fail_queued, mark_queued, merge_scores, set_scores
from paperterm.models import Paper
from paperterm.scoring.types import RunSummary, Score
from paperterm.settings.config import Config, ConfigError
from paperterm.settings.theming import (
    DEFAULT_THEME,
    PALETTE_KEYS,
    builtin_theme_dir,
    list_themes,
    load_theme_file,
    load_themes,
)
from paperterm.tui.header import HeaderInfo, header_text
from paperterm.tui.text import clean, one_line, safe, tex

ROOT = Path(__file__).resolve().parents[2]


def paper(i: int, title: str, cats=("cs.LG",), kind="new", authors=("A. Author",), abstract=""):
    return Paper(id=f"2602.{i:05d}", version=1, title=title, authors=authors,
                 abstract=abstract or f"abstract {i}", categories=cats,
                 primary_category=cats[0], announce_type=kind)


@pytest.fixture
def entries():
    es = make_entries([
        paper(0, "Zeta routing", ("cs.LG", "cs.AI")),
        paper(1, "alpha experts", ("cs.CL",), "cross", ("Noam Shazeer",)),
        paper(2, "Mixture of Experts", ("cs.AI",), "replace", abstract="Sparse MoE layers"),
        paper(3, "beta", ("cs.LG",)),
        paper(4, "Unscored", ("cs.LG",)),
    ])
    scores = [(5, 9), (8, 1), (8, 7), (2, 2), (None, None)]
    for e, (r, n) in zip(es, scores, strict=False):
        e.set_score(r, n, "", "scored" if r is not None else "queued")
    return es


def ids(es):
    return [e.order for e in es]


def test_sorts(entries):
    assert ids(sort_entries(entries, "relevance")) == [2, 1, 0, 3, 4]  # tie broken by novelty
    assert ids(sort_entries(entries, "relevance", reverse=True)) == [3, 0, 1, 2, 4]  # unscored last
    assert ids(sort_entries(entries, "novelty")) == [0, 2, 3, 1, 4]
    assert ids(sort_entries(entries, "combined")) == [2, 0, 1, 3, 4]
    assert ids(sort_entries(entries, "title")) == [1, 3, 2, 4, 0]
    assert ids(sort_entries(entries, "category")) == [2, 1, 0, 3, 4]
    assert ids(sort_entries(entries, "order", reverse=True)) == [4, 3, 2, 1, 0]
    with pytest.raises(ValueError):
        sort_entries(entries, "nope")
    assert set(SORT_KEYS) == {"relevance", "novelty", "combined", "title", "category", "order"}


def test_sort_is_stable_on_ties(entries):
    for e in entries:
        e.set_score(5, 5, "", "scored")
    assert ids(sort_entries(entries, "relevance")) == [0, 1, 2, 3, 4]


def test_filters_combine(entries):
    assert len(filter_entries(entries, FilterState())) == 5
    assert ids(filter_entries(entries, FilterState(text="EXPERTS"))) == [1, 2]
    assert ids(filter_entries(entries, FilterState(text="shazeer"))) == [1]  # authors
    assert ids(filter_entries(entries, FilterState(text="sparse moe"))) == [2]  # abstract, AND
    assert ids(filter_entries(entries, FilterState(min_relevance=5))) == [0, 1, 2]
    assert ids(filter_entries(entries, FilterState(categories=frozenset({"cs.AI"})))) == [0, 2]
    assert ids(filter_entries(entries, FilterState(announce_types=frozenset({"cross"})))) == [1]
    entries[1].seen = True
    entries[2].starred = True
    assert ids(filter_entries(entries, FilterState(unseen_only=True))) == [0, 2, 3, 4]
    assert ids(filter_entries(entries, FilterState(starred_only=True))) == [2]
    combined = FilterState(text="experts", min_relevance=8, unseen_only=True,
                           categories=frozenset({"cs.AI", "cs.CL"}))
    assert ids(filter_entries(entries, combined)) == [2]
    assert combined.describe() == ['"experts"', "rel≥8", "cat cs.AI,cs.CL", "unseen"]
    assert ids(view(entries, FilterState(text="a*"), "title", False)) == [1, 3, 2, 4, 0]


def test_clean_and_safe_text():
    hostile = "[bold red]x[/] [link=http://e]y \x1b[31mz\x1b]0;title\x07 \x9b1m\x00\x7f\tq\nnext"
    out = clean(hostile)
    assert out == "[bold red]x[/] [link=http://e]y z  q\nnext"
    assert one_line(hostile) == "[bold red]x[/] [link=http://e]y z q next"
    t = safe("[bold]not bold[/bold] [")
    assert t.plain == "[bold]not bold[/bold] [" and not t.spans
    assert clean(None) == ""


def test_text_cleaning_is_paperterm_hygiene():
    """One definition of unsafe characters: bidi controls and zero-width characters go too."""
    from paperterm.text.hygiene import clean_line, clean_text

    tricky = "evil\u202egnp.exe\u200b \u2066x\u2069\r\ny\x1b]8;;http://e\x07link"
    assert clean(tricky) == clean_text(tricky) == "evilgnp.exe x\nylink"
    assert one_line(tricky) == clean_line(tricky) == "evilgnp.exe x ylink"
    assert safe(tricky).plain == clean_text(tricky)


def test_tex_light_rendering():
    assert tex("$\\alpha$-nets") == "α-nets"
    assert tex("Good$\\to$Minor") == "Good→Minor"
    assert tex("$N^2$ variables, $x_{10}$") == "N² variables, x₁₀"
    assert tex("we propose \\texttt{MoBiQuant}") == "we propose MoBiQuant"
    assert tex("$\\mathcal{O}(n)$ and $\\frac{a}{b}$") == "𝒪(n) and a/b"
    # what it cannot render whole stays exactly as written
    assert tex("$\\int_0^\\infty f$") == "$\\int_0^\\infty f$"
    assert tex("costs $5 and $6") == "costs $5 and $6"
    assert tex("a $k$-site MPS") == "a k-site MPS"
    assert tex("100\\% sure") == "100% sure"
    assert tex("plain") == "plain"


# -- themes -------------------------------------------------------------------------------------


def test_bundled_themes_load():
    folder = builtin_theme_dir()
    assert folder is not None and folder.is_dir()
    names = [n for n, _ in list_themes(None)]
    assert {"paperterm-dark", "paperterm-light", "paperterm-solarized"} <= set(names)
    assert DEFAULT_THEME in names
    for path in folder.glob("*.toml"):
        spec = load_theme_file(path)
        assert set(spec.palette) == set(PALETTE_KEYS)


def test_user_themes_override_and_errors(tmp_path):
    cfg_dir = tmp_path / "cfg"
    (cfg_dir / "themes").mkdir(parents=True)
    good = (ROOT / "themes" / "paperterm-dark.toml").read_text(encoding="utf-8")
    (cfg_dir / "themes" / "mine.toml").write_text(
        good.replace('name = "paperterm-dark"', 'name = "mine"'), encoding="utf-8")
    (cfg_dir / "themes" / "bad-colour.toml").write_text(
        good.replace('primary = "#5fafff"', 'primary = "blue-ish"'), encoding="utf-8")
    (cfg_dir / "themes" / "missing.toml").write_text(
        'name = "m"\n[palette]\nprimary = "#000000"\n', encoding="utf-8")
    (cfg_dir / "themes" / "garbage.toml").write_text("name = ", encoding="utf-8")
    config = Config(path=cfg_dir / "config.toml")
    themes, errors = load_themes(config)
    assert "mine" in themes and themes["mine"].source.endswith("mine.toml")
    assert len(errors) == 3
    assert any("bad-colour.toml" in e and "primary" in e for e in errors)
    assert any("missing.toml" in e and "missing" in e for e in errors)
    assert any("garbage.toml" in e and "invalid TOML" in e for e in errors)
    assert ("mine", str(cfg_dir / "themes" / "mine.toml")) in list_themes(config)
    with pytest.raises(ConfigError):
        load_theme_file(cfg_dir / "themes" / "garbage.toml")


def test_user_theme_dir_defaults_to_config_dir(tmp_path, monkeypatch):
    cfg = tmp_path / "c" / "config.toml"
    monkeypatch.setenv("PAPERTERM_CONFIG", str(cfg))
    (cfg.parent / "themes").mkdir(parents=True)
    good = (ROOT / "themes" / "paperterm-light.toml").read_text(encoding="utf-8")
    (cfg.parent / "themes" / "x.toml").write_text(
        good.replace('name = "paperterm-light"', 'name = "from-env"'), encoding="utf-8")
    assert "from-env" in [n for n, _ in list_themes(None)]


def test_themes_ship_in_the_wheel(tmp_path):
    """Build the wheel and check the themes are in paperterm/themes; then load them from an
    unpacked copy of it (the installed layout), not from the checkout."""
    out = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w",
         str(out), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-1000:]
    wheel = next(out.glob("paperterm-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "paperterm/themes/paperterm-dark.toml" in names
        assert "paperterm/tui/app.tcss" in names
        assert "paperterm/data/sample-2026-02-25.xml" in names
        assert "paperterm/topics/moe.toml" in names
        zf.extractall(tmp_path / "site")
    code = ("from paperterm.settings.theming import list_themes, builtin_theme_dir;"
            "print(builtin_theme_dir()); print(list_themes(None))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin"},
                          cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert str(tmp_path / "site") in proc.stdout and "paperterm-solarized" in proc.stdout


def test_themes_load_from_installed_layout(tmp_path):
    """The wheel layout (pyproject force-includes themes/ as paperterm/themes), simulated by
    copying: the package must find its themes there, with no checkout next to it."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(ROOT / "src" / "paperterm", site / "paperterm",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "themes", site / "paperterm" / "themes")
    code = ("from paperterm.settings.theming import list_themes, builtin_theme_dir;"
            "print(builtin_theme_dir()); print(list_themes(None))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(site), "PAPERTERM_CONFIG":
                               str(tmp_path / "none" / "config.toml")},
                          cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    first, rest = proc.stdout.split("\n", 1)
    assert first == str(site / "paperterm" / "themes")
    assert "paperterm-solarized" in rest and "paperterm-light" in rest


# -- scores onto entries, the header line ---------------------------------------------------------


def test_scores_onto_entries(entries):
    by_id = {e.id: e for e in entries}
    e0, e4 = entries[0], entries[4]
    mark_queued(by_id, [e.paper for e in entries])
    assert e4.status == "queued" and e0.status == "scored"  # a real score is kept
    failed = Score(e0.id, 1, None, None, "", "unscored", error="no answer")
    assert merge_scores(by_id, [failed]) is False  # a failure never hides a score
    assert e0.relevance == 5
    assert merge_scores(by_id, [Score(e4.id, 1, 3, 2, "ok", "scored")]) is True
    assert (e4.relevance, e4.status) == (3, "scored")
    set_scores(by_id, [Score(e4.id, 1, 6, 6, "", "scored")], "cached")
    assert e4.status == "cached"
    e4.set_score(None, None, "", "queued")
    fail_queued(entries, "stopped")
    assert (e4.status, e4.error) == ("failed", "stopped")


def _info(**kw):
    base = dict(topic="moe", day="2026-02-25", flags=("sample",), shown=12, total=244,
                filters=('"model"',), sort_key="title", reverse=True, scoring=False,
                summary=None, scorer="local scorer", unseen=200)
    return HeaderInfo(**{**base, **kw})


def test_header_line_long_and_compact():
    long = header_text(_info()).plain
    assert long == (' paperterm   topic moe  ·  2026-02-25 [sample]  ·  12/244 papers  ·  '
                    '200 unseen  ·  filter: "model"  ·  sort title ▼  ·  local scorer')
    assert header_text(_info(), width=len(long)).plain == long
    running = _info(scoring=True, summary=RunSummary(model="m", total=200, scored=50,
                                                     prompt_tokens=1500, cost=None))
    compact = (' moe · 2026-02-25 [sample] · 12/244 200• · scoring 50/200 · 1.5k '
               'tokens · cost unknown · filter: "model"')
    assert header_text(running, width=len(compact)).plain == compact
    assert header_text(running, width=60).plain == compact[:59] + "…"  # cut, said so
    done = _info(summary=RunSummary(model="m", cost=0.5, completion_tokens=10), scored=3,
                 cached=4, failed=1)
    assert header_text(done).plain.endswith("m: 3 scored, 4 cached, 1 failed  ·  10 tokens"
                                            "  ·  $0.5000")
    assert "scoring… 7 queued" in header_text(_info(scoring=True, queued=7)).plain
