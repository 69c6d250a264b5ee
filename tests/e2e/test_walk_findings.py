"""What the new-user walk of this wave found (each failed on the code it walked)."""

from __future__ import annotations


def test_starred_since_the_first_day_of_the_calendar_is_every_star(cli):
    """`starred --starred-since 0001-01-01` stopped with "internal error: ValueError: year 0
    is out of range" (local midnight of year 1 has no timestamp)."""
    assert cli("score", "--offline", "--topic", "moe").returncode == 0  # the sample day
    assert cli("star", "--topic", "moe", "2602.21196").returncode == 0
    r = cli("starred", "--starred-since", "0001-01-01", "--json")
    assert r.returncode == 0, r.stderr
    assert "2602.21196" in r.stdout and "internal error" not in r.stderr


def test_topics_show_offline_shows_the_top_of_the_sample_day(cli):
    """A new user offline has only the bundled sample day: `topics show` said "no cached day
    for cs.AI+cs.LG yet: run paperterm once", though paperterm had run."""
    assert cli("score", "--offline", "--topic", "moe").returncode == 0  # the sample day
    r = cli("topics", "show", "moe")
    assert r.returncode == 0, r.stderr
    assert "top 10 of 2026-02-25" in r.stdout and "no cached day" not in r.stdout
