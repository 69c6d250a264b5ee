"""Text hygiene: escapes, controls, bidi and zero-width characters never get through."""

from __future__ import annotations

import unicodedata

import pytest

from paperterm.models import Paper
from paperterm.text.hygiene import clean_line, clean_paper, clean_text

ESC = "\x1b"


def _no_unsafe(text: str) -> None:
    """Nothing in `text` is a control (except newline) or a format character."""
    bad = [hex(ord(ch)) for ch in text
           if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf")]
    assert bad == [], text


@pytest.mark.parametrize(
    ("dirty", "clean"),
    [
        (f"{ESC}[31mred{ESC}[0m text", "red text"),  # CSI (SGR)
        (f"{ESC}[2J{ESC}[Hcleared", "cleared"),
        (f"a{ESC}[?1049hb", "ab"),  # private-mode CSI
        ("a\x9b31mb", "ab"),  # 8-bit CSI
        (f"{ESC}]0;evil title\x07after", "after"),  # OSC terminated by BEL
        (f"{ESC}]8;;http://evil.example{ESC}\\link{ESC}]8;;{ESC}\\", "link"),  # OSC 8 hyperlink
        (f"{ESC}]52;c;ZXZpbA=={ESC}\\x", "x"),  # clipboard write
        (f"{ESC}Pq#0;2;0;0;0{ESC}\\x", "x"),  # DCS (sixel)
        (f"{ESC}_apc payload{ESC}\\x", "x"),  # APC
        (f"{ESC}=x{ESC}(By", "xy"),  # other ESC sequences
        (f"a{ESC}", "a"),  # a lone ESC
        ("left\u202eright", "leftright"),  # bidi override
        ("a\u2066b\u2069c\u2067d\u2068e", "abcde"),  # bidi isolates
        ("a\u202ab\u202bc\u202cd\u202de", "abcde"),  # embeddings and PDF
        ("a\u200eb\u200fc\u061cd", "abcd"),  # direction marks
        ("zero\u200bwidth\u200c\u200d\u2060\ufeff", "zerowidth"),
        ("bell\x07 and\x00 nul\x7f del", "bell and nul del"),
        ("c1\x80\x85\x9f", "c1"),
        ("tab\there", "tab here"),
        ("one\r\ntwo\rthree\nfour", "one\ntwo\nthree\nfour"),
        ("Zoë Ångström, $x^2$, 深度学习, emoji 🙂", "Zoë Ångström, $x^2$, 深度学习, emoji 🙂"),
    ],
)
def test_clean_text(dirty, clean):
    assert clean_text(dirty) == clean
    _no_unsafe(clean_text(dirty))
    assert clean_text(clean_text(dirty)) == clean_text(dirty)  # idempotent


def test_unterminated_string_sequence_loses_only_its_introducer():
    # the rest is plain text once the introducer is gone: nothing else may disappear
    assert clean_text(f"before {ESC}]0;title and the rest") == "before 0;title and the rest"
    assert clean_text(f"before {ESC}Pdcs and more") == "before dcs and more"
    assert clean_text("before \x9d0;title and more") == "before 0;title and more"


def test_mis_decoded_curly_quotes_keep_the_text_between_them():
    # UTF-8 “a” and “b” read as Latin-1: U+009C opens, U+009D closes (8-bit ST and OSC)
    mojibake = "â\x80\x9ca\u00e2\x80\x9d then â\x80\x9cb\u00e2\x80\x9d"
    assert clean_text(mojibake) == "âaâ then âbâ"


def test_8bit_string_introducers_are_dropped():
    for intro in "\x90\x98\x9d\x9e\x9f":
        assert clean_text(f"x{intro}payload\x9cy") == "xpayloady"


def test_clean_line_collapses_whitespace():
    assert clean_line("  a \n\n b\t\tc\u00a0 d  ") == "a b c d"
    assert clean_line(f"{ESC}[1m  bold  {ESC}[0m") == "bold"
    assert clean_line(None) == ""
    assert clean_line(42) == "42"


def test_nothing_unsafe_survives_any_mix():
    nasty = "".join(chr(c) for c in range(0x00, 0xA0)) + "\u200b\u200e\u202e\u2066\ufeff"
    for text in (nasty, nasty[::-1], ESC + "[" + nasty, "\x9d" + nasty):
        _no_unsafe(clean_text(text))
        _no_unsafe(clean_line(text))


def test_clean_paper_cleans_every_text_field():
    dirty = Paper(
        id="2603.00001", version=2,
        title=f"{ESC}[31mRed\u202e title\u200b",
        authors=(f"Jane{ESC}]0;x\x07 Doe", "\u2066\u2069", "Bob\x9b2J Ray"),
        abstract="line one\nline\u2067 two\x9d",
        categories=("cs.LG\u200b", "\u200d"),
        primary_category="cs.LG\u200b",
        announce_type="new\x00",
        doi="10.5555/x\u202e", journal_ref=f"{ESC}[0m", comment="9 pages\x07",
        published="2026-03-01",
    )
    p = clean_paper(dirty)
    assert p.title == "Red title"
    assert p.authors == ("Jane Doe", "Bob Ray")  # a name that is nothing but controls is gone
    assert p.abstract == "line one line two"
    assert p.categories == ("cs.LG",)
    assert p.primary_category == "cs.LG"
    assert p.announce_type == "new"
    assert p.doi == "10.5555/x"
    assert p.journal_ref is None  # nothing left of an optional field: None, not ""
    assert p.comment == "9 pages"
    assert (p.id, p.version, p.published) == ("2603.00001", 2, "2026-03-01")


def test_clean_paper_leaves_a_clean_paper_alone():
    p = Paper(id="2603.00001", version=None, title="T", authors=("A",), abstract="",
              categories=("cs.LG",), primary_category="cs.LG")
    assert clean_paper(p) is p
