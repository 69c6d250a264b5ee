"""TeX in titles, authors and abstracts, shown as Unicode text (the reader and the digests).

Text outside math goes through pylatexenc: accents (`R\\'emi` -> `Rémi`), `\\textbf{...}`,
`\\%`, dashes and quotes. A math span `$...$` is rendered whole to Unicode when every part of
it can be (`$\\alpha$` -> `α`, `$N^2$` -> `N²`, `$\\mathcal{O}(n)$` -> `𝒪(n)`, a script with no
Unicode form plainly: `$ε_{\\text{BC}}$` -> `ε_BC`; math the feed already gave in Unicode,
`$β= 0$` -> `β= 0`); otherwise it is shown exactly as written, dollars included, never half
converted. The stored text is left
alone (BibTeX export keeps the TeX). `fold_tex` is the cheap version for search indexing.
"""

from __future__ import annotations

import re
from functools import lru_cache

_SUPER = str.maketrans("0123456789+-=()abcdefghijklmnoprstuvwxyzT",
                       "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ")
_SUB = str.maketrans("0123456789+-=()aehijklmnoprstuvx",
                     "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUPER_OK = set("0123456789+-=()abcdefghijklmnoprstuvwxyzT")
_SUB_OK = set("0123456789+-=()aehijklmnoprstuvx")
_MATH = re.compile(r"(?<!\\)\$([^$\n]{1,200})(?<!\\)\$")
_SCRIPT = re.compile(r"([\^_])(?:\{([^{}]{1,12})\}|([^\s{}\\]))")
_BARE = re.compile(r"(?<!\\)([%&#])")  # TeX specials meant literally in arXiv text
_LEFTOVER = re.compile(r"[\\^_{}]")
# between two dollar signs without TeX: prose when it holds a word or starts or ends with a
# space ("costs $5 and $6", "$5 or $6"); math otherwise ("$β= 0$", "$p = 0.026$")
_PROSE = re.compile(r"[A-Za-z]{3,}|^\s|\s$")
_MACRO_BEFORE_SCRIPT = re.compile(r"(\\[A-Za-z]+)(?=[\^_])")  # \sum_i: keep \sum whole
_WORD_BEFORE_UNICODE = re.compile(r"(\\[A-Za-z]+)(?=[^\x00-\x7f])")  # \sqrtα: \sqrt, then α
_WIDE_ACCENT = re.compile(r"\\wide(tilde|hat)(?![A-Za-z])")  # \widetilde{O}: Õ, not O
# macros the converter drops with their meaning ($\binom{n}{2}$ read "n2"): kept as written
_UNRENDERED = re.compile(r"\\(?:[dt]?binom|choose|unicode)(?![A-Za-z])")
_UNICODE = re.compile(r"\\unicode\s*\{\s*(?:x|0x|U\+)?([0-9A-Fa-f]{1,6})\s*\}")  # MathJax's
_STYLE = re.compile(r"\\(?:texttt|textbf|textit|textsf|textrm|emph|textsc|mathrm|mathit|"
                    r"mathbf|text)\s*\{([^{}$]*)\}")


@lru_cache(maxsize=1)
def _converters():  # pylatexenc is imported on first use, not on the first-paint path
    from pylatexenc.latex2text import LatexNodes2Text

    return (LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=False),
            LatexNodes2Text(math_mode="text", strict_latex_spaces=False))


def _text(segment: str) -> str:
    """A stretch of text outside math, TeX markup converted."""
    if "\\" not in segment and "{" not in segment and "~" not in segment:
        return segment
    try:
        return _converters()[0].latex_to_text(_BARE.sub(r"\\\1", _STYLE.sub(r"\1", segment)))
    except Exception:  # pylatexenc gives up on some malformed input: keep it as written
        return segment


_PLAIN_SUPER, _PLAIN_SUB = "\x01", "\x02"  # a script without a Unicode form, until shown


def _script(m: re.Match[str]) -> str:
    body = m.group(2) if m.group(2) is not None else m.group(3)
    ok, table = (_SUPER_OK, _SUPER) if m.group(1) == "^" else (_SUB_OK, _SUB)
    if all(ch in ok for ch in body):
        return body.translate(table)
    if "\\" in body or "{" in body:  # TeX inside: the span stays as written
        return m.group(0)
    # no Unicode form ("_{BC}", "^{1/2}"): shown plainly, "_BC", "^(1/2)", the rest rendered
    mark = _PLAIN_SUPER if m.group(1) == "^" else _PLAIN_SUB
    return mark + (body if body.isalnum() else f"({body})")


def _shown_scripts(text: str) -> str:
    return text.replace(_PLAIN_SUPER, "^").replace(_PLAIN_SUB, "_")


def _codepoint(m: re.Match[str]) -> str:
    code = int(m.group(1), 16)
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group(0)


def _math(inner: str) -> str | None:
    """Unicode for the inside of `$...$`, or None to keep the whole span as written."""
    if not any(ch in inner for ch in "\\^_{}") and (_PROSE.search(inner) or not inner.strip()):
        return None  # "costs $5 and $6": prose between two dollar signs, not math
    inner = _WORD_BEFORE_UNICODE.sub(r"\1 ", inner)  # a control word is ASCII letters only
    inner = _UNICODE.sub(_codepoint, inner)
    if _UNRENDERED.search(inner):
        return None
    inner = _WIDE_ACCENT.sub(r"\\\1", inner)
    scripted = _SCRIPT.sub(_script, _MACRO_BEFORE_SCRIPT.sub(r"\1{}", _STYLE.sub(r"\1", inner)))
    if not any(ch in scripted for ch in "\\{}%&#~"):  # $N^2$, $k$: no TeX parser needed
        return None if _LEFTOVER.search(scripted) else _shown_scripts(scripted.strip()) or None
    try:
        out = _converters()[1].latex_to_text(_BARE.sub(r"\\\1", scripted))
    except Exception:
        return None
    if _LEFTOVER.search(out) or not out.strip():
        return None
    return _shown_scripts(out.strip())


@lru_cache(maxsize=8192)
def tex_to_unicode(value: str) -> str:
    """`value` with its TeX shown as Unicode; math that cannot be rendered whole is kept."""
    if "\\" not in value and "$" not in value and "{" not in value:
        return value
    out: list[str] = []
    pos = 0
    for m in _MATH.finditer(value):
        out.append(_text(value[pos:m.start()]))
        rendered = _math(m.group(1))
        out.append(m.group(0) if rendered is None else rendered)
        pos = m.end()
    out.append(_text(value[pos:]))
    return "".join(out)


_ACCENT = re.compile(r"\\(?:['`^\"~=.]|[cvuHkr](?=[{\s]))\s*\{?\s*(\\?[A-Za-z])\}?")
_TEXT_MACRO = re.compile(r"\\[A-Za-z]+\s*")


def fold_tex(value: str) -> str:
    """Cheap TeX removal for a search index: accent commands keep their letter
    (`R\\'emi` -> `Remi`), other macro names and braces go."""
    if "\\" not in value and "{" not in value:
        return value
    value = _ACCENT.sub(lambda m: m.group(1).lstrip("\\"), value)
    value = _TEXT_MACRO.sub(" ", value)
    return value.replace("{", "").replace("}", "")
