"""`paperterm digest` without options is a readable top (issue 22): at most `digest_max`
papers (default 20), each with its reason and a trimmed abstract; `--all` lists every one."""

from __future__ import annotations

import re


def _papers(md: str) -> list[str]:
    return re.findall(r"\[arXiv:(\d{4}\.\d{5})v\d+\]", md)


def test_the_digest_lists_the_top_20_with_reasons_and_trimmed_abstracts(cli):
    top = cli("digest", "--sample", "--topic", "moe")
    assert top.returncode == 0, top.stderr
    assert len(_papers(top.stdout)) == 20
    assert "the top 20 of 244 scored papers (`--all`" in top.stdout
    sections = top.stdout.split("\n## ")[1:]
    assert all("\n> matched:" in s or "\n> " in s for s in sections)  # each with its reason
    abstracts = [s.rstrip().split("\n\n")[-1] for s in sections]
    assert all(len(a) <= 400 for a in abstracts)
    assert sum(a.endswith("…") for a in abstracts) >= 10  # cut, and said so
    every = cli("digest", "--sample", "--topic", "moe", "--all")
    assert every.stdout.count("\n## ") == 244
    assert _papers(every.stdout)[:20] == _papers(top.stdout)  # the same top
    assert len(every.stdout.splitlines()) > 5 * len(top.stdout.splitlines())
    assert "Shown:" not in every.stdout


def test_digest_max_in_the_config_sets_how_many(cli, isolated_home):
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text("digest_max = 5\n", encoding="utf-8")
    five = cli("digest", "--sample", "--topic", "moe")
    assert five.returncode == 0, five.stderr
    assert len(_papers(five.stdout)) == 5
    isolated_home.config.write_text("digest_max = 0\n", encoding="utf-8")
    bad = cli("digest", "--sample")
    assert bad.returncode != 0 and "digest_max" in bad.stderr and "1-100000" in bad.stderr


def test_the_top_lists_at_most_digest_max_unscored_papers_and_says_how_many_more():
    from paperterm.models import Paper, Topic
    from paperterm.outputs.digest import render_digest
    from paperterm.scoring.types import RunSummary, Score

    papers = [Paper(f"2602.{i:05d}", 1, f"Paper {i}", ("A B",), "Text.", ("cs.LG",), "cs.LG")
              for i in range(30)]
    scores = {p.id: Score(p.id, 1, None, None, "", status="unscored", error="budget reached")
              for p in papers}
    md = render_digest("2026-02-02", Topic("moe", "", ()), "m", RunSummary(model="m"),
                       papers, scores, top=20)
    assert md.count("\n- **Paper ") == 20
    assert "… and 10 more (`--all` lists them)" in md
    every = render_digest("2026-02-02", Topic("moe", "", ()), "m", RunSummary(model="m"),
                          papers, scores)
    assert every.count("\n- **Paper ") == 30
