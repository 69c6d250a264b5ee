"""Unicode <-> LaTeX for BibTeX field values.

`render` turns arXiv text (Unicode, possibly with TeX such as ``$\\alpha$`` or ``R\\'emi``)
into a field value that is brace-balanced (as BibTeX counts braces) and safe for
pdflatex with the default OT1 font encoding, or keeps UTF-8 when ``unicode=True``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# --- tables -------------------------------------------------------------------------------

# combining mark -> LaTeX accent command (all available in OT1)
_ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
    "\u0306": "u", "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H",
    "\u030c": "v", "\u0323": "d", "\u0326": "c", "\u0327": "c", "\u0331": "b",
}
_ACCENT_TO_MARK = {v: k for k, v in _ACCENTS.items() if k != "\u0326"}
_ACCENT_TO_MARK["k"] = "\u0328"  # only decoded; never emitted (T1-only)

# letters with their own (OT1-safe) command
_LETTERS = {
    "ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
    "å": "aa", "Å": "AA", "ł": "l", "Ł": "L", "ı": "i", "ȷ": "j",
}
_LETTER_CMDS = {v: k for k, v in _LETTERS.items()}

# text symbols (OT1-safe)
_TEXT = {
    "\u2013": "--", "\u2014": "---", "\u2018": "`", "\u2019": "'", "\u201c": "``",
    "\u201d": "''", "\u2026": "\\ldots{}", "\u00a0": "~", "\u00ad": "\\-",
    "\u00b0": "\\textdegree{}", "\u20ac": "\\texteuro{}", "\u00a9": "\\textcopyright{}",
    "\u00ae": "\\textregistered{}", "\u2122": "\\texttrademark{}", "\u00a7": "\\S{}",
    "\u00b6": "\\P{}", "\u2020": "\\dag{}", "\u2021": "\\ddag{}", "\u2022": "\\textbullet{}",
    "\u00bf": "?`", "\u00a1": "!`", "\u00a3": "\\pounds{}", "\u00b5": "\\textmu{}",
    "\u2030": "\\textperthousand{}", "\u00ab": "<<", "\u00bb": ">>",
}
_ASCII_TEXT = {
    "&": "\\&", "%": "\\%", "#": "\\#", "_": "\\_", "^": "\\textasciicircum{}",
    "<": "\\textless{}", ">": "\\textgreater{}", "|": "\\textbar{}",
}
_MATH_ESCAPE = {"&": "\\&", "%": "\\%", "#": "\\#"}

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
_SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿⁱ", "0123456789+-ni"))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+-"))
_FOLD = {"ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
         "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
         "ı": "i", "ŋ": "ng", "Ŋ": "Ng", "ħ": "h", "Ħ": "H"}
_DROP = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"}


def _math_command(ch: str) -> str | None:
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
    text = "".join(_FOLD.get(ch, ch) for ch in text)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if ord(ch) < 128)


# --- TeX accents -> Unicode -----------------------------------------------------------------

_BASE = r"(?:\\[ij](?![A-Za-z])|[A-Za-z])"
_ACCENT_RE = re.compile(
    r"(\{)?\\(?:([`'^~\"=.])\s*(?:\{\s*(" + _BASE + r")\s*\}|(" + _BASE + r"))"
    r"|([uvHcdbrk])(?:\s*\{\s*(" + _BASE + r")\s*\}|\s+(" + _BASE + r")))(?(1)\})"
)
_LETTER_RE = re.compile(r"(\{)?\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])(?(1)\}|(?:\{\}|\s*))")


def tex_to_unicode(text: str) -> str:
    """Decode TeX accent and letter commands (``R\\'emi``, ``{\\"u}``, ``\\c{c}``, ``\\ss``)."""

    def accent(m: re.Match[str]) -> str:
        cmd = m.group(2) or m.group(5)
        base = next(g for g in m.group(3, 4, 6, 7) if g)
        base = base[1] if base.startswith("\\") else base
        return unicodedata.normalize("NFC", base + _ACCENT_TO_MARK[cmd])

    if "\\" not in text:
        return text
    text = _ACCENT_RE.sub(accent, text)
    return _LETTER_RE.sub(lambda m: _LETTER_CMDS[m.group(2)], text)


# --- parsing into segments ------------------------------------------------------------------

_CMD_RE = re.compile(r"\\(?:[A-Za-z]+|[^A-Za-z])")


@dataclass
class _Scan:
    """Which braces/dollars of a string are paired; everything else gets escaped."""

    math: list[tuple[int, int]] = field(default_factory=list)  # [start, end) incl. $ delims
    paired: set[int] = field(default_factory=set)  # indices of paired brace chars


def _math_spans(text: str) -> list[tuple[int, int]]:
    spans, i, start = [], 0, None
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "$":
            if start is None:
                start = i
            else:
                spans.append((start, i + 1))
                start = None
        i += 1
    return spans


def _pair_braces(text: str, lo: int, hi: int, skip: list[tuple[int, int]], out: set[int]) -> None:
    """Pair `{`/`}` and `\\{`/`\\}` (BibTeX counts both) as properly nested TeX groups."""
    stack: list[tuple[int, bool]] = []
    skips = {s: e for s, e in skip}
    i = lo
    while i < hi:
        if i in skips:
            i = skips[i]
            continue
        ch = text[i]
        esc = ch == "\\" and i + 1 < hi and text[i + 1] in "{}"
        if ch == "\\" and not esc:
            i += 2
            continue
        br = text[i + 1] if esc else ch
        pos = i + 1 if esc else i
        if br == "{":
            stack.append((pos, esc))
        elif br == "}" and stack and stack[-1][1] == esc:
            out.update((stack.pop()[0], pos))
        i += 2 if esc else 1


def _scan(text: str) -> _Scan:
    scan = _Scan(math=_math_spans(text))
    _pair_braces(text, 0, len(text), scan.math, scan.paired)
    for s, e in scan.math:
        _pair_braces(text, s + 1, e - 1, [], scan.paired)
    return scan


# --- rendering ---------------------------------------------------------------------------------


@dataclass
class Rendered:
    text: str
    lost: list[str] = field(default_factory=list)  # chars replaced by a placeholder or folded


class _Renderer:
    def __init__(self, text: str, *, unicode: bool, protect: bool) -> None:
        self.src = text
        self.unicode = unicode
        self.protect = protect
        self.scan = _scan(text)
        self.lost: list[str] = []

    # text-mode character
    def char(self, ch: str) -> str:
        if ch in _ASCII_TEXT:
            return _ASCII_TEXT[ch]
        if ch in "\t\n\r":
            return " "
        if ord(ch) < 128:
            return ch if ch.isprintable() else ""
        if ch in _DROP or unicodedata.category(ch) == "Cc":
            return ""
        if self.unicode:
            return ch
        if ch in _TEXT:
            return _TEXT[ch]
        if ch in _LETTERS:
            return "{\\" + _LETTERS[ch] + "}"
        math = _math_command(ch)
        if math is None and ch in _SUPER:
            math = "^{" + _SUPER[ch] + "}"
        if math is None and ch in _SUB:
            math = "_{" + _SUB[ch] + "}"
        if math is not None:
            return "{$" + math + "$}" if math[0] in "\\^_" else math
        accented = self._accented(ch)
        if accented is not None:
            return accented
        folded = fold_ascii(ch)
        if folded.strip() and folded.isprintable():
            if not unicodedata.decomposition(ch).startswith("<"):
                self.lost.append(ch)  # e.g. ą, đ: no OT1-safe form, transliterated
            return "".join(_ASCII_TEXT.get(c, c) for c in folded)
        if unicodedata.category(ch).startswith("Z"):
            return " "
        self.lost.append(ch)
        return "?"

    @staticmethod
    def _accented(ch: str) -> str | None:
        nfd = unicodedata.normalize("NFD", ch)
        base, marks = nfd[0], nfd[1:]
        if not marks or not (base.isascii() and base.isalpha()):
            return None
        if any(m not in _ACCENTS for m in marks):
            return None
        out = "\\i" if base == "i" else "\\j" if base == "j" else base
        for m in marks:
            cmd = _ACCENTS[m]
            out = f"\\{cmd}{out}" if not cmd.isalpha() and len(out) == 1 else f"\\{cmd}{{{out}}}"
        return "{" + out + "}"

    def math_char(self, ch: str, nxt: str) -> str:
        if ch in _MATH_ESCAPE:
            return _MATH_ESCAPE[ch]
        if ord(ch) < 128:
            return ch if ch.isprintable() else " "
        cmd = _math_command(ch)
        if cmd is None and ch in _SUPER:
            cmd = "^{" + _SUPER[ch] + "}"
        if cmd is None and ch in _SUB:
            cmd = "_{" + _SUB[ch] + "}"
        if cmd is not None:
            return cmd + " " if cmd[-1].isalpha() and nxt.isalpha() else cmd
        folded = fold_ascii(ch)
        if folded and folded.isprintable():
            return folded
        self.lost.append(ch)
        return "?"

    def render_math(self, s: int, e: int) -> str:
        out, i, src = ["$"], s + 1, self.src
        while i < e - 1:
            ch = src[i]
            if ch == "\\":
                m = _CMD_RE.match(src, i, e - 1)
                if m is None:  # lone trailing backslash
                    out.append("\\backslash ")
                    i += 1
                    continue
                tok = m.group()
                if tok in ("\\{", "\\}") and i + 1 not in self.scan.paired:
                    tok = "\\lbrace " if tok == "\\{" else "\\rbrace "
                elif tok == "\\\\":
                    tok = " "
                out.append(tok)
                i = m.end()
                continue
            if ch in "{}" and i not in self.scan.paired:
                out.append("\\lbrace " if ch == "{" else "\\rbrace ")
            else:
                out.append(self.math_char(ch, src[i + 1] if i + 2 < e else ""))
            i += 1
        out.append("$")
        return "".join(out)

    def render(self, lo: int, hi: int, protect: bool) -> str:
        """Render src[lo:hi] in text mode; `protect` braces capitalised words and acronyms."""
        out: list[str] = []
        src, scan = self.src, self.scan
        maths = {s: e for s, e in scan.math}
        i = lo
        while i < hi:
            ch = src[i]
            if i in maths:
                out.append(self.render_math(i, maths[i]))
                i = maths[i]
            elif ch == "$":
                out.append("\\$")
                i += 1
            elif ch == "\\":
                i = self._command(i, hi, out, protect)
            elif ch == "{":
                if i in scan.paired:
                    end = self._group_end(i)
                    out.append("{" + self.render(i + 1, end, False) + "}")
                    i = end + 1
                else:
                    out.append("\\textbraceleft{}")
                    i += 1
            elif ch == "}":
                out.append("\\textbraceright{}")  # a paired one is consumed by its group
                i += 1
            else:
                j = i
                while j < hi and src[j] not in "\\{}$":
                    j += 1
                out.append(self._text(src[i:j], protect))
                i = j
        return "".join(out)

    def _group_end(self, i: int) -> int:
        depth, j, src = 0, i, self.src
        maths = {s: e for s, e in self.scan.math}
        while True:
            if j in maths:
                j = maths[j]
                continue
            ch = src[j]
            if ch == "\\":
                j += 2
                continue
            if ch in "{}" and j in self.scan.paired:
                depth += 1 if ch == "{" else -1
                if depth == 0:
                    return j
            j += 1

    def _command(self, i: int, hi: int, out: list[str], protect: bool) -> int:
        src = self.src
        m = _CMD_RE.match(src, i, hi)
        if m is None:
            out.append("\\textbackslash{}")
            return i + 1
        tok = m.group()
        if tok in ("\\{", "\\}"):
            if i + 1 in self.scan.paired:
                out.append(tok)
            else:
                out.append("\\textbraceleft{}" if tok == "\\{" else "\\textbraceright{}")
            return m.end()
        if tok == "\\\\":
            out.append(" ")
            return m.end()
        out.append(tok)
        j = m.end()
        # arguments directly following the command keep the caller's protection
        while j < hi and src[j] == "{" and j in self.scan.paired:
            end = self._group_end(j)
            out.append("{" + self.render(j + 1, end, protect) + "}")
            j = end + 1
        return j

    def _text(self, chunk: str, protect: bool) -> str:
        if not protect:
            return "".join(self.char(c) for c in chunk)
        out, pos = [], 0
        for m in re.finditer(r"[^\W_]+", chunk):
            out.append("".join(self.char(c) for c in chunk[pos : m.start()]))
            out.append(self._word(m.group()))
            pos = m.end()
        out.append("".join(self.char(c) for c in chunk[pos:]))
        return "".join(out)

    def _word(self, word: str) -> str:
        body = "".join(self.char(c) for c in word)
        if not any(c.isupper() for c in word):
            return body
        if len(word) > 2 and word.endswith("s") and word[:-1].isupper():  # LLMs -> {LLM}s
            return "{" + body[:-1] + "}s"
        return "{" + body + "}"


def render(text: str, *, unicode: bool = False, protect: bool = False) -> Rendered:
    """Render `text` as a BibTeX field value (without the outer braces).

    `protect` wraps capitalised words and acronyms in braces so styles keep their case.
    Characters with no safe form are replaced by ``?`` (or transliterated) and listed in
    `Rendered.lost` so the caller can warn.
    """
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\$\$(.+?)\$\$", r"$\1$", text)
    text = re.sub(r"\\\((.+?)\\\)", r"$\1$", text)
    decoded = _decode_outside_math(text)
    r = _Renderer(decoded, unicode=unicode, protect=protect)
    return Rendered(r.render(0, len(decoded), protect), r.lost)


def _decode_outside_math(text: str) -> str:
    out, pos = [], 0
    for s, e in _math_spans(text):
        out.append(tex_to_unicode(text[pos:s]))
        out.append(text[s:e])
        pos = e
    out.append(tex_to_unicode(text[pos:]))
    return "".join(out)


def plain_words(text: str) -> list[str]:
    """ASCII words of `text` with math and TeX commands removed (for citation keys)."""
    text = _decode_outside_math(re.sub(r"\s+", " ", text))
    for s, e in reversed(_math_spans(text)):
        text = text[:s] + " " + text[e:]
    text = _CMD_RE.sub(" ", text)
    return re.findall(r"[a-z0-9]+", fold_ascii(text).lower())
