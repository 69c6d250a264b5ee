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


def test_a_free_text_topic_no_paper_holds_a_word_of_is_said_once(cli):
    """A typo ("spekulative decodng") matched no paper of the day and the day was ranked
    by the topic's cues alone, without a word. `score` and `topics show` say so on stderr,
    once, with the phrase of the day's own words it is a typo of."""
    said = ("No paper of 2026-02-25 contains any word of the topic 'spekulative decodng': "
            "did you mean 'speculative decoding'?")
    r = cli("score", "--offline", "--topic", "spekulative decodng")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count(said) == 1 and f"note: {said}" in r.stderr
    r = cli("topics", "show", "spekulative decodng")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count(said) == 1
    r = cli("score", "--offline", "--topic", "speculative decoding")
    assert "No paper of" not in r.stderr  # a topic the day holds words of: nothing said
    r = cli("score", "--offline", "--topic", "zzqx blorf")
    assert ("any word of the topic 'zzqx blorf': its ranking has nothing to match."
            in r.stderr)
