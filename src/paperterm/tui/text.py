"""Untrusted text (titles, authors, abstracts, model reasons) made safe to draw.

Everything a paper or a model says is shown literally: never parsed as Rich markup (only
`rich.text.Text(...)` objects are built from it), with ANSI escape sequences and C0/C1 control
characters removed (newlines kept, tabs become spaces). Inline TeX gets a light Unicode
rendering of common macros (`$\\alpha$` -> `α`); anything it does not know stays as written.
"""

from __future__ import annotations

import re

from rich.style import Style
from rich.text import Text

# ESC/CSI sequences (7-bit and the 8-bit CSI), OSC/DCS/APC/PM strings up to BEL or ST.
_ANSI = re.compile(
    r"(?:\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?)"  # OSC ... BEL | ST
    r"|(?:\x1b[P_^X][^\x1b]*(?:\x1b\\)?)"  # DCS, APC, PM, SOS ... ST
    r"|(?:(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~])"  # CSI
    r"|(?:\x1b[ -/]*[0-~])"  # other ESC sequences
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(value: object) -> str:
    """Strip escape sequences and control characters; keep newlines, tabs become spaces."""
    text = "" if value is None else str(value)
    if not text:
        return text
    text = text.replace("\r\n", "\n").replace("\t", " ")
    text = _ANSI.sub("", text)
    return _CONTROLS.sub("", text)


def one_line(value: object) -> str:
    """`clean`, and whitespace runs (newlines too) collapsed to single spaces."""
    return " ".join(clean(value).split())


def safe(value: object, style: str | Style = "") -> Text:
    """A Text that shows `value` literally (no markup, no escapes)."""
    return Text(clean(value), style=style)


_GREEK = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega",
)
_GREEK_LOWER = "αβγδεζηθικλμνξπρστυφχψω"
_MACROS: dict[str, str] = {name: ch for name, ch in zip(_GREEK, _GREEK_LOWER, strict=True)}
_MACROS.update(
    {
        "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
        "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "varepsilon": "ε", "vartheta": "ϑ",
        "varphi": "φ", "ell": "ℓ", "to": "→", "rightarrow": "→", "leftarrow": "←",
        "Rightarrow": "⇒", "leftrightarrow": "↔", "mapsto": "↦", "leq": "≤", "le": "≤",
        "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "simeq": "≃",
        "times": "×", "cdot": "·", "pm": "±", "infty": "∞", "in": "∈", "notin": "∉",
        "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "sum": "∑", "prod": "∏",
        "int": "∫", "partial": "∂", "nabla": "∇", "forall": "∀", "exists": "∃", "log": "log",
        "sqrt": "√", "ll": "≪", "gg": "≫", "propto": "∝", "cdots": "⋯", "ldots": "…",
        "dots": "…", "%": "%", "&": "&", "_": "_", "#": "#",
    }
)
_SUPERSCRIPT = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_SUBSCRIPT = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_MATH = re.compile(r"(?<!\\)\$([^$\n]{1,80})(?<!\\)\$")
_MACRO = re.compile(r"\\([A-Za-z]+|[%&_#])\s?")
_SCRIPT = re.compile(r"([\^_])(?:\{([0-9+\-=()n]{1,6})\}|([0-9n]))")
_TEXT_MACRO = re.compile(r"\\(?:texttt|textbf|textit|emph|textsc|mathrm|text)\{([^{}$]*)\}")


def _render_math(inner: str) -> str | None:
    """Unicode for a math snippet, or None to leave it as written."""
    if not any(ch in inner for ch in "\\^_") and (" " in inner or not inner.strip()):
        return None  # "costs $5 and $6": prose between two dollar signs, not math
    out = _SCRIPT.sub(
        lambda m: (m.group(2) or m.group(3)).translate(
            _SUPERSCRIPT if m.group(1) == "^" else _SUBSCRIPT
        ),
        inner,
    )

    def macro(m: re.Match[str]) -> str:
        return _MACROS.get(m.group(1), m.group(0))

    out = _MACRO.sub(macro, out)
    out = _TEXT_MACRO.sub(r"\1", out)
    if "\\" in out or "{" in out or "}" in out or "^" in out:
        return None  # something we cannot render faithfully: keep the source
    return out


def tex(value: str) -> str:
    """Light rendering of inline TeX: `$\\alpha$`, `$N^2$`, `Good$\\to$Minor`, `\\texttt{X}`.

    Math we cannot render (fractions, `\\mathcal`, ...) is shown exactly as written."""
    if "$" not in value and "\\" not in value:
        return value

    def math(m: re.Match[str]) -> str:
        rendered = _render_math(m.group(1))
        return m.group(0) if rendered is None else rendered

    out = _MATH.sub(math, value)
    out = _TEXT_MACRO.sub(r"\1", out)
    return out.replace("\\%", "%").replace("\\&", "&").replace("\\$", "$")
