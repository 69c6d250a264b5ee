"""Which TeX commands from untrusted text (titles, abstracts, authors) may stay live in a .bib.

A .bib field is TeX that runs inside the user's document. A title holding ``\\input{/etc/
hostname}`` would pull that file into their PDF, ``\\write18`` runs a shell command (with
shell escape on), ``\\csname``, ``\\iffalse`` or ``\\end{document}`` can break or hijack the
document. Formatting and math commands (``\\emph``, ``\\mathcal``, ``\\alpha``...) are
harmless and kept; anything that reads or writes files, defines or expands macros, changes
category codes, opens conditionals, starts or ends environments or talks to the engine is
written as text (a visible backslash and the name) instead.

A denylist of name parts rather than an allowlist: arXiv titles use hundreds of math
commands, and the dangerous ones all name what they do (input, write, def, catcode, ...).
"""

from __future__ import annotations

# a command whose name contains one of these does something no title needs
_PARTS = (
    "input", "include", "write", "read", "open", "close", "csname", "catcode", "code",
    "special", "lua", "shell", "escape", "immediate", "expand", "jobname", "file", "package",
    "documentclass", "every", "shipout", "output", "scantokens", "toks", "message", "mode",
    "tracing", "show", "dump", "global", "pdf", "execute", "after", "uppercase", "lowercase",
    "string", "meaning", "detokenize", "unexpanded", "err", "interaction", "endinput",
    "primitive", "font", "loop", "outer", "protected", "aftergroup", "edef", "gdef", "xdef",
    "chardef", "mathchardef", "countdef", "dimendef", "skipdef", "toksdef", "futurelet",
)
# ... or starts with one of these
_PREFIXES = ("if", "new", "renew", "provide", "declare", "def", "let", "begin", "end", "make",
             "stop", "bye", "hook", "setup", "usepackage", "require", "at")
# ... or is one of these
_NAMES = {"fi", "else", "or", "unless", "repeat", "long", "relax", "the", "number", "romannumeral",
          "uchyph", "count", "dimen", "skip", "box", "setbox", "vbox", "hbox", "par"}
# harmless commands caught by the rules above
_ALLOWED = {"iff", "ifthen", "bullet", "setminus", "atop", "endash", "emdash", "leftarrow",
            "longleftarrow", "longrightarrow", "longleftrightarrow", "Longleftarrow",
            "Longrightarrow", "Longleftrightarrow", "widehat", "overbrace", "underbrace",
            "textsf", "mathsf", "triangleleft", "newline", "hookrightarrow", "hookleftarrow"}


def is_unsafe_command(name: str) -> bool:
    """True for a control word (`name` without the backslash) that must not stay live."""
    if name in _ALLOWED:
        return False
    low = name.lower()
    return (low in _NAMES or low.startswith(_PREFIXES) or any(p in low for p in _PARTS))
