"""The TeX commands a .bib may keep live: those a bare LaTeX document (`article`, no packages)
defines. Any other control word in a title (an author's ``\\mymethod``, ``\\newcommand``)
would stop pdflatex with "Undefined control sequence", so it is written as text.

A few amsmath/amssymb commands that arXiv titles use get their nearest kernel form instead
(``\\text`` -> ``\\mbox``, ``\\mathbb`` -> ``\\mathbf``).
"""

from __future__ import annotations

_TEXT = """
emph textbf textit texttt textsc textsf textrm textsl textup textmd textnormal mbox
LaTeX TeX LaTeXe ldots dots textbackslash textbraceleft textbraceright textasciicircum
textasciitilde textless textgreater textbar textdegree texteuro textcopyright textregistered
texttrademark S P dag ddag textbullet pounds textmu textperthousand textendash textemdash
textquoteleft textquoteright textquotedblleft textquotedblright textunderscore
ss ae AE oe OE aa AA o O l L i j u v H c d b r t
"""
_MATH = """
alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi
pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta
Lambda Xi Pi Sigma Upsilon Phi Psi Omega
mathrm mathbf mathit mathsf mathtt mathcal mathnormal
frac sqrt left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr middle
hat tilde bar vec dot ddot check breve acute grave widehat widetilde overline underline
overbrace underbrace stackrel mathop limits nolimits over atop choose
sum prod coprod int oint bigcup bigcap bigoplus bigotimes bigodot bigvee bigwedge biguplus
quad qquad cdot times div pm mp infty partial nabla forall exists neg lnot emptyset in
notin ni subset subseteq supset supseteq cup cap wedge vee land lor le leq ge geq ne neq
approx sim simeq cong equiv propto ll gg prec preceq succ succeq perp mid parallel to gets
mapsto rightarrow leftarrow leftrightarrow Rightarrow Leftarrow Leftrightarrow
longrightarrow longleftarrow longleftrightarrow Longrightarrow Longleftarrow
Longleftrightarrow uparrow downarrow Uparrow Downarrow updownarrow hookrightarrow
hookleftarrow rightharpoonup leftharpoonup iff
langle rangle lceil rceil lfloor rfloor lbrace rbrace vert Vert backslash setminus
ell hbar Re Im aleph wp top bot angle triangle star ast circ bullet dagger ddagger oplus
otimes odot ominus oslash wr amalg diamond prime surd lim sup inf max min arg det exp ln log
sin cos tan sec csc cot arcsin arccos arctan sinh cosh tanh Pr dim ker deg gcd hom liminf
limsup textstyle displaystyle scriptstyle scriptscriptstyle cdots vdots ddots colon
not smallint uplus sqcup sqcap triangleleft triangleright bigtriangleup bigtriangledown
models vdash dashv smile frown asymp doteq bowtie
"""
KNOWN = frozenset(_TEXT.split()) | frozenset(_MATH.split())

# amsmath/amssymb commands -> the kernel command closest to them
SUBSTITUTES = {
    "text": "mbox", "operatorname": "mathrm", "mathbb": "mathbf",
    "boldsymbol": "mathbf", "bm": "mathbf", "mathscr": "mathcal", "mathfrak": "mathrm",
    "dfrac": "frac", "tfrac": "frac", "lVert": "Vert", "rVert": "Vert", "lvert": "vert",
    "rvert": "vert", "leqslant": "leq", "geqslant": "geq", "varnothing": "emptyset",
}

# commands whose argument is text even inside math
TEXT_ARGUMENT = frozenset({"mbox", "textbf", "textit", "texttt", "textsc", "textsf",
                           "textrm", "textsl", "textup", "textmd", "emph"})


def is_known(name: str) -> bool:
    """True for a control word (`name` without the backslash) a bare LaTeX document knows."""
    return name in KNOWN
