"""A notice longer than the header line is cut with "…", keeping "(+N more)" (at 100 columns
the first start's notice ended mid-word with no mark that it went on)."""

from __future__ import annotations

from paperterm.tui.notices import Notice, notice_text

LONG = ("Ranked offline by the local ranking. For LLM scoring pass --model openai/gpt-4o-mini "
        "(or set model = \"...\" in the config file); r rescores.")


def test_a_long_notice_is_cut_with_an_ellipsis_to_the_line():
    text = notice_text([Notice(LONG, "information", 0.0)], 60).plain
    assert len(text) <= 60 and text.rstrip().endswith("…")


def test_the_count_of_other_notices_survives_the_cut():
    text = notice_text([Notice(LONG, "error", 0.0), Notice("saved", "information", 0.0)],
                       50).plain
    assert len(text) <= 50 and text.endswith("(+1 more)") and "…" in text


def test_a_short_notice_is_shown_whole():
    assert notice_text([Notice("Saved to papers.bib", "information", 0.0)], 80).plain.strip() \
        == "Saved to papers.bib"


def test_what_the_user_did_just_now_is_not_hidden_behind_an_older_warning():
    """Start-up said it is offline (a warning) and the hint (information) together: the
    warning shows. Five seconds later the user saves: "Saved to …" shows, with the warning
    counted (it stood in front for ten seconds before). An error still comes first."""
    start = [Notice("Offline: showing the most recent cached day", "warning", 10.0, 0.0),
             Notice("Ranked by the local scorer", "information", 10.0, 0.1)]
    assert "Offline" in notice_text(start, 120).plain
    saved = [*start, Notice("Saved to papers.bib", "information", 10.0, 5.0)]
    assert notice_text(saved, 120).plain.split() == ["Saved", "to", "papers.bib", "(+2", "more)"]
    failed = [*saved, Notice("Zotero is not running", "error", 10.0, 4.0)]
    assert "Zotero is not running" in notice_text(failed, 120).plain
