"""arXiv's category taxonomy (https://arxiv.org/category_taxonomy): what `--categories` and
`categories = [...]` accept. A name arXiv does not have (`cs.XX`) is refused in one line,
with the nearest real ones, instead of loading nothing and showing another day."""

from __future__ import annotations

import difflib

_SUBJECTS = {
    "cs": "AI AR CC CE CG CL CR CV CY DB DC DL DM DS ET FL GL GR GT HC IR IT LG LO MA MM MS "
          "NA NE NI OH OS PF PL RO SC SD SE SI SY",
    "math": "AC AG AP AT CA CO CT CV DG DS FA GM GN GR GT HO IT KT LO MG MP NA NT OA OC PR "
            "QA RA RT SG SP ST",
    "stat": "AP CO ME ML OT TH",
    "eess": "AS IV SP SY",
    "econ": "EM GN TH",
    "q-bio": "BM CB GN MN NC OT PE QM SC TO",
    "q-fin": "CP EC GN MF PM PR RM ST TR",
    "astro-ph": "CO EP GA HE IM SR",
    "cond-mat": "dis-nn mes-hall mtrl-sci other quant-gas soft stat-mech str-el supr-con",
    "nlin": "AO CD CG PS SI",
    "physics": "acc-ph ao-ph app-ph atm-clus atom-ph bio-ph chem-ph class-ph comp-ph data-an "
               "ed-ph flu-dyn gen-ph geo-ph hist-ph ins-det med-ph optics plasm-ph pop-ph "
               "soc-ph space-ph",
}
_WHOLE = ("gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math-ph", "nucl-ex", "nucl-th",
          "quant-ph")

CATEGORIES = frozenset([*_WHOLE, *_SUBJECTS,  # an archive alone: all of its categories
                        *(f"{a}.{s}" for a, subs in _SUBJECTS.items() for s in subs.split())])


def unknown(categories: list[str]) -> str | None:
    """One line naming the first category arXiv does not have (with the nearest real
    ones), else None."""
    for c in categories:
        if c not in CATEGORIES:
            cased = [k for k in CATEGORIES if k.lower() == c.lower()]
            near = cased or difflib.get_close_matches(c, sorted(CATEGORIES), n=3, cutoff=0.6)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            return f"{c!r} is not an arXiv category{hint}; see arxiv.org/category_taxonomy"
    return None
