"""Unicode <-> LaTeX for BibTeX field values.

`render` turns arXiv text (Unicode, possibly with TeX such as ``$\\alpha$`` or ``R\\'emi``)
into a field value that is brace-balanced (as BibTeX counts braces) and safe for
pdflatex with the default OT1 font encoding, or keeps UTF-8 when ``unicode=True``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from itertools import combinations

from paperterm.outputs.bibtex.known import SUBSTITUTES, TEXT_ARGUMENT, is_known
from paperterm.outputs.bibtex.tables import (
    ACCENT_TO_MARK,
    ACCENTS,
    ASCII_TEXT,
    DROP,
    LETTER_CMDS,
    LETTERS,
    MATH_ESCAPE,
    SUB,
    SUPER,
    T1_ACCENTS,
    TEXT,
    fold_ascii,
    math_command,
)
from paperterm.outputs.bibtex.texsafe import is_unsafe_command

# --- TeX accents -> Unicode -----------------------------------------------------------------

_BASE = r"(?:\\[ij](?![A-Za-z])|[A-Za-z])"
_ACCENT_RE = re.compile(
    r"(\{)?\\(?:([`'^~\"=.])\s*(?:\{\s*(" + _BASE + r")\s*\}|(" + _BASE + r"))"
    r"|([uvHcdbrk])(?:\s*\{\s*(" + _BASE + r")\s*\}|\s+(" + _BASE + r")))(?(1)\})"
)
_LETTER_RE = re.compile(
    r"(\{)?\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])(?(1)\}|(?:\{\}|\s*))"
)


def tex_to_unicode(text: str) -> str:
    """Decode TeX accent and letter commands (``R\\'emi``, ``{\\"u}``, ``\\c{c}``, ``\\ss``)."""

    def accent(m: re.Match[str]) -> str:
        cmd = m.group(2) or m.group(5)
        base = next(g for g in m.group(3, 4, 6, 7) if g)
        base = base[1] if base.startswith("\\") else base
        return unicodedata.normalize("NFC", base + ACCENT_TO_MARK[cmd])

    if "\\" not in text:
        return text
    text = _ACCENT_RE.sub(accent, text)
    return _LETTER_RE.sub(lambda m: LETTER_CMDS[m.group(2)], text)


# --- parsing into segments ------------------------------------------------------------------

_CMD_RE = re.compile(r"\\(?:[A-Za-z]+|[^A-Za-z])")
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_CLUSTER = re.compile(f".[{_MARKS}]*", re.S)
_WORD = re.compile(f"(?:[^\\W_]|[{_MARKS}])+")
_COMPOUND = re.compile(f"{_WORD.pattern}(?:-{_WORD.pattern})*")  # "GPT-4", "t-SNE"


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
    t1: list[str] = field(default_factory=list)  # chars kept with a T1-only accent (\\k)


class _Renderer:
    def __init__(self, text: str, *, unicode: bool, protect: bool) -> None:
        self.src = text
        self.unicode = unicode
        self.protect = protect
        self.scan = _scan(text)
        self.lost: list[str] = []
        self.t1: list[str] = []

    def chars(self, text: str) -> str:
        """Render text-mode characters, an accented letter with its combining marks at once."""
        return "".join(self.char(m.group()) for m in _CLUSTER.finditer(text))

    def char(self, ch: str) -> str:
        """Render one character (or a base letter followed by combining marks)."""
        if len(ch) > 1:
            if self.unicode:
                return ch
            return self._accented(ch) or self._fallback(ch)
        if ch in ASCII_TEXT:
            return ASCII_TEXT[ch]
        if ch in "\t\n\r":
            return " "
        if ord(ch) < 128:
            return ch if ch.isprintable() else ""
        if ch in DROP or unicodedata.category(ch) == "Cc":
            return ""
        if self.unicode:
            return ch
        if ch in TEXT:
            return TEXT[ch]
        if ch in LETTERS:
            return "{\\" + LETTERS[ch] + "}"
        math = math_command(ch)
        if math is None and ch in SUPER:
            math = "^{" + SUPER[ch] + "}"
        if math is None and ch in SUB:
            math = "_{" + SUB[ch] + "}"
        if math is not None:
            return "{$" + math + "$}" if math[0] in "\\^_" else math
        return self._accented(ch) or self._fallback(ch)

    def _fallback(self, ch: str) -> str:
        folded = fold_ascii(ch)
        if folded.strip() and folded.isprintable():
            if not unicodedata.decomposition(ch[0]).startswith("<"):
                self.lost.append(ch)  # e.g. đ: no pdflatex-safe form, transliterated
            return "".join(ASCII_TEXT.get(c, c) for c in folded)
        if unicodedata.category(ch[0]).startswith("Z"):
            return " "
        self.lost.append(ch)
        return "?"

    def _accented(self, ch: str) -> str | None:
        """``{\\"u}`` for a letter + accents, if biber's UTF-8 of it still works in pdflatex.

        biber turns accent macros back into Unicode, and pdflatex's utf8 only knows Latin-1
        and Latin Extended-A; beyond that (e.g. Vietnamese ặ) marks are dropped until it
        fits, and the character is reported as lost.
        """
        nfd = unicodedata.normalize("NFD", ch).replace("\u0326", "\u0327")  # ș -> ş, as \\c{s}
        base, marks = nfd[0], nfd[1:]
        if not marks or not (base.isascii() and base.isalpha()):
            return None
        for size in range(len(marks), 0, -1):
            for combo in combinations(marks, size):
                composed = unicodedata.normalize("NFC", base + "".join(combo))
                if len(composed) == 1 and ord(composed) < 0x180 and all(
                    m in ACCENTS or m in T1_ACCENTS for m in combo
                ):
                    if size < len(marks):
                        self.lost.append(ch)
                    if any(m in T1_ACCENTS for m in combo):
                        self.t1.append(ch)
                    return "{" + self._accent_macro(base, combo) + "}"
        return None

    @staticmethod
    def _accent_macro(base: str, marks: tuple[str, ...]) -> str:
        out = base
        for m in marks:
            cmd = ACCENTS.get(m) or T1_ACCENTS[m]
            out = f"\\{cmd}{out}" if not cmd.isalpha() and len(out) == 1 else f"\\{cmd}{{{out}}}"
        return out

    def math_char(self, ch: str, nxt: str) -> str:
        if ch in MATH_ESCAPE:
            return MATH_ESCAPE[ch]
        if ord(ch) < 128:
            return ch if ch.isprintable() else " "
        cmd = math_command(ch)
        if cmd is None and ch in SUPER:
            cmd = "^{" + SUPER[ch] + "}"
        if cmd is None and ch in SUB:
            cmd = "_{" + SUB[ch] + "}"
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
                elif tok[1:].isalpha():
                    name = SUBSTITUTES.get(tok[1:], tok[1:])
                    j = m.end()
                    if name in TEXT_ARGUMENT and src[j : j + 1] == "{" and j in self.scan.paired:
                        end = self._group_end(j)  # \text{...}: its argument is text
                        out.append(f"\\{name}{{{self.render(j + 1, end, False)}}}")
                        i = end + 1
                        continue
                    # unknown to a bare document, or unsafe (texsafe): as text
                    safe = is_known(name) and not is_unsafe_command(name)
                    tok = "\\" + name if safe else "\\backslash{}\\mathrm{" + name + "}"
                out.append(tok)
                i = m.end()
                continue
            if ch == "^" and src[i + 1 : i + 2] == "^" and i + 1 < e - 1:
                out.append("^{}{}")  # never "^^": TeX would read ^^5c as a backslash
                i += 1
                continue
            if ch in "{}" and i not in self.scan.paired:
                out.append("\\lbrace " if ch == "{" else "\\rbrace ")
            else:
                out.append(self.math_char(ch, src[i + 1] if i + 2 < e else ""))
            i += 1
        out.append("$")
        return "".join(out)

    def render(self, lo: int, hi: int, protect: bool) -> str:
        """Render src[lo:hi] in text mode; `protect` braces acronyms and mixed-case words."""
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
        if tok[1:].isalpha():
            name = SUBSTITUTES.get(tok[1:], tok[1:])
            if is_unsafe_command(name) or not is_known(name):  # as text (texsafe, known)
                out.append("\\textbackslash{}" + name)
                return m.end()
            tok = "\\" + name
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
            return self.chars(chunk)
        out, pos = [], 0
        for m in _COMPOUND.finditer(chunk):
            out.append(self.chars(chunk[pos : m.start()]))
            out.append(self._word(m.group()))
            pos = m.end()
        out.append(self.chars(chunk[pos:]))
        return "".join(out)

    def _word(self, word: str) -> str:
        body = self.chars(word)
        if not keeps_case(word):
            return body
        if len(word) > 2 and word.endswith("s") and word[:-1].isupper():  # LLMs -> {LLM}s
            return "{" + body[:-1] + "}s"
        return "{" + body + "}"


def keeps_case(word: str) -> bool:
    """Whether a title word must keep its case under a sentence-case style: an acronym or a
    mixed-case word (``MoE``, ``LoRA``, ``GPT-4``, ``ReLU``, ``T5``), not a capitalised
    ordinary word (``Is``, ``The``), as Better BibTeX does."""
    for part in word.split("-"):
        if any(c.isupper() for c in part[1:]):
            return True
        if part[:1].isupper() and any(c.isdigit() for c in part):
            return True
    return False


CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def render(text: str, *, unicode: bool = False, protect: bool = False) -> Rendered:
    """Render `text` as a BibTeX field value (without the outer braces).

    `protect` wraps acronyms and mixed-case words in braces so styles keep their case.
    Characters with no safe form are replaced by ``?`` (or transliterated) and listed in
    `Rendered.lost` so the caller can warn.
    """
    text = CONTROL_CHARS.sub(" ", text)  # terminal escapes etc. must never reach a .bib file
    text = unicodedata.normalize("NFC", re.sub(r"\s+", " ", text).strip())
    text = re.sub(r"\$\$(.+?)\$\$", r"$\1$", text)
    text = re.sub(r"\\\((.+?)\\\)", r"$\1$", text)
    decoded = _decode_outside_math(text)
    r = _Renderer(decoded, unicode=unicode, protect=protect)
    return Rendered(r.render(0, len(decoded), protect), r.lost, r.t1)


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
