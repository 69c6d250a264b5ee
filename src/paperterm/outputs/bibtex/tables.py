"""Character tables for LaTeX rendering: accents, special letters, symbols, Greek."""

from __future__ import annotations

import re
import unicodedata

# combining mark -> LaTeX accent command (all available in OT1)
ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
    "\u0306": "u", "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H",
    "\u030c": "v", "\u0323": "d", "\u0327": "c", "\u0331": "b",
}
# accents pdflatex sets only under \usepackage[T1]{fontenc} (Polish ą, ę, Lithuanian į)
T1_ACCENTS = {"\u0328": "k"}
ACCENT_TO_MARK = {v: k for k, v in {**ACCENTS, **T1_ACCENTS}.items()}

# letters with their own (OT1-safe) command
LETTERS = {
    "ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
    "å": "aa", "Å": "AA", "ł": "l", "Ł": "L", "ı": "i", "ȷ": "j",
}
LETTER_CMDS = {v: k for k, v in LETTERS.items()}

# text symbols (OT1-safe)
TEXT = {
    "\u2013": "--", "\u2014": "---", "\u2018": "`", "\u2019": "'", "\u201c": "``",
    "\u201d": "''", "\u2026": "\\ldots{}", "\u00a0": "~", "\u00ad": "\\-",
    "\u00b0": "\\textdegree{}", "\u20ac": "\\texteuro{}", "\u00a9": "\\textcopyright{}",
    "\u00ae": "\\textregistered{}", "\u2122": "\\texttrademark{}", "\u00a7": "\\S{}",
    "\u00b6": "\\P{}", "\u2020": "\\dag{}", "\u2021": "\\ddag{}", "\u2022": "\\textbullet{}",
    "\u00bf": "?`", "\u00a1": "!`", "\u00a3": "\\pounds{}", "\u00b5": "\\textmu{}",
    "\u2030": "\\textperthousand{}", "\u00ab": "<<", "\u00bb": ">>",
}
ASCII_TEXT = {
    "&": "\\&", "%": "\\%", "#": "\\#", "_": "\\_", "^": "\\textasciicircum{}",
    "<": "\\textless{}", ">": "\\textgreater{}", "|": "\\textbar{}",
    "@": "{@}",  # "Pass@k {...}" would look like an entry start to bibtexparser
}
MATH_ESCAPE = {"&": "\\&", "%": "\\%", "#": "\\#", "@": "{@}"}

_GREEK_UPPER = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
                "Psi", "Omega"}
_MATH = {
    "\u221e": "infty", "\u2264": "leq", "\u2265": "geq", "\u2260": "neq", "\u2248": "approx",
    "\u2208": "in", "\u2209": "notin", "\u2211": "sum", "\u220f": "prod", "\u222b": "int",
    "\u2202": "partial", "\u2207": "nabla", "\u2282": "subset", "\u2286": "subseteq",
    "\u2283": "supset", "\u2287": "supseteq", "\u222a": "cup", "\u2229": "cap",
    "\u2200": "forall", "\u2203": "exists", "\u00ac": "neg", "\u2227": "wedge",
    "\u2228": "vee", "\u2295": "oplus", "\u2297": "otimes", "\u223c": "sim", "\u2261": "equiv",
    "\u221d": "propto", "\u2218": "circ", "\u2113": "ell", "\u2190": "leftarrow",
    "\u2192": "rightarrow", "\u2194": "leftrightarrow", "\u21d2": "Rightarrow",
    "\u21d4": "Leftrightarrow", "\u00d7": "times", "\u00f7": "div", "\u00b1": "pm",
    "\u2213": "mp", "\u22c5": "cdot", "\u00b7": "cdot", "\u2225": "parallel",
    "\u27e8": "langle", "\u27e9": "rangle", "\u2205": "emptyset", "\u210f": "hbar",
    "\u221a": "surd", "\u226a": "ll", "\u226b": "gg", "\u2243": "simeq", "\u2245": "cong",
    "\u22a4": "top", "\u22a5": "bot", "\u2032": "prime", "\u2212": "-", "\u2217": "ast",
    "\u2191": "uparrow", "\u2193": "downarrow", "\u21a6": "mapsto", "\u2223": "mid",
    "\u2016": "|", "\u2026": "ldots", "\u22ef": "cdots", "\u2299": "odot",
    "\u03b5": "varepsilon", "\u03f5": "epsilon", "\u03c6": "varphi", "\u03d5": "phi",
    "\u03d1": "vartheta", "\u03d6": "varpi", "\u03f1": "varrho", "\u03c2": "varsigma",
}
SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿⁱ", "0123456789+-ni", strict=True))
SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+-", strict=True))
FOLD = {"ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
         "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
         "ı": "i", "ŋ": "ng", "Ŋ": "Ng", "ħ": "h", "Ħ": "H"}
DROP = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"}


def math_command(ch: str) -> str | None:
    """The math-mode command (without `$`) for a Greek letter or math symbol, if any."""
    if ch in _MATH:
        cmd = _MATH[ch]
        return cmd if not cmd.isalpha() else "\\" + cmd
    name = unicodedata.name(ch, "")
    m = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER (\w+)", name)
    if m is None:
        return None
    letter = m.group(2).capitalize().replace("Lamda", "Lambda")
    if letter == "Omicron":
        return "o" if m.group(1) == "SMALL" else "O"
    if m.group(1) == "SMALL":
        return "\\" + letter.lower()
    if letter in _GREEK_UPPER:
        return "\\" + letter
    greek = {"Alpha": "A", "Beta": "B", "Epsilon": "E", "Zeta": "Z", "Eta": "H", "Iota": "I",
             "Kappa": "K", "Mu": "M", "Nu": "N", "Rho": "P", "Tau": "T", "Chi": "X"}
    return greek.get(letter)


def fold_ascii(text: str) -> str:
    """Best-effort ASCII transliteration (NFKD, combining marks dropped); may lose chars."""
    text = "".join(FOLD.get(ch, ch) for ch in text)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if ord(ch) < 128)
