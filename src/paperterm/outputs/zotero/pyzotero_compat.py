"""pyzotero's private parts that paperterm relies on, behind one function each.

pyzotero waits out a server's Backoff / Retry-After on its next request, however long it
is, through its private `_set_backoff`; `cap_backoff` replaces that hook so an hour-long
wait can be refused or shortened. tests/unit/test_thirdparty_compat.py holds its contract
test: a pyzotero that renames the hook fails there, by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def cap_backoff(zot: Any, wrap: Callable[[Callable[[float], None]], Callable[[Any], None]]
                ) -> bool:
    """Route pyzotero's backoff through `wrap(original)`; False when this pyzotero has no
    such hook (it then just waits)."""
    original = getattr(zot, "_set_backoff", None)
    if original is None:
        return False
    zot._set_backoff = wrap(original)
    return True
