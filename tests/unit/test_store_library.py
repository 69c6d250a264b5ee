"""The library's store: the migration that backfills the full-text index, search ranking."""

from __future__ import annotations

import sqlite3
from datetime import date

from paperterm.models import Paper
from paperterm.store import Selection, Store
from paperterm.store.fts import match_expression
from paperterm.store.schema import _MIGRATIONS, statements


def _paper(pid: str, title: str, abstract: str = "Text.") -> Paper:
    return Paper(pid, 1, title, ("A. Author",), abstract, ("cs.LG",), "cs.LG")


def test_migration_backfills_the_index_from_papers_cached_before_it(tmp_path):
    path = tmp_path / "old.sqlite3"
    c = sqlite3.connect(path, isolation_level=None)
    for script in _MIGRATIONS[:2]:  # a cache written by the version before the library
        for stmt in statements(script):
            c.execute(stmt)
    c.execute("PRAGMA user_version=2")
    c.execute("PRAGMA application_id=1347441746")
    c.execute("""INSERT INTO papers VALUES ('2601.00001', 1, 'Old title', '["A"]', 'old',
                 '["cs.LG"]', 'cs.LG', NULL, NULL, NULL, NULL, 0)""")
    c.execute("""INSERT INTO papers VALUES ('2601.00001', 2, 'Graphene membranes', '["A"]',
                 'abc', '["cs.LG"]', 'cs.LG', NULL, NULL, NULL, NULL, 0)""")
    c.execute("INSERT INTO user_state (id, starred) VALUES ('2601.00001', 1)")
    c.close()
    store = Store.open(path)
    hits = store.library.search("graphene")
    assert [(h.paper.id, h.paper.version) for h in hits] == [("2601.00001", 2)]
    assert store.library.search("old") == []  # only the latest version is indexed
    starred = store.library.library_papers(Selection(starred=True))
    assert [p.id for p, _ in starred] == ["2601.00001"]
    store.close()


def test_match_expression_never_passes_fts_syntax_through():
    assert match_expression("") is None
    assert match_expression('" ( ) *') is None
    assert match_expression("moe") == '("moe")'
    assert match_expression('"mixture of" expert*') == '("mixture of") AND ("expert"*)'
    assert match_expression("a OR b -c") == '(("a" OR "b")) NOT ("c")'
    assert match_expression("tag:to-read") == '(tags : "to-read")'
    assert match_expression("arXiv:2602.1") == '("arXiv:2602.1")'


def test_similar_papers_come_from_shared_distinctive_words(tmp_path):
    store = Store.open(tmp_path / "s.sqlite3")
    store.papers.save_day("f", date(2026, 3, 2), [
        _paper("2603.00001", "Graphene membranes for water desalination",
                      "Graphene membranes filter salt from seawater."),
        _paper("2603.00002", "Desalination with porous graphene",
                      "Porous graphene membranes and seawater."),
        _paper("2603.00003", "Language models as agents", "Agents plan with tools."),
        _paper("2603.00004", "Agents that browse", "Tools and language models."),
    ], source="rss")
    hits = store.library.similar("2603.00001")
    assert [h.paper.id for h in hits][:1] == ["2603.00002"]
    assert "2603.00001" not in [h.paper.id for h in hits]
    assert store.library.similar("2609.99999") == []
    store.close()
