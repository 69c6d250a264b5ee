"""Copying from the reader, honestly: the terminal's OSC 52 escape where it is known to
work, else a system clipboard tool (wl-copy, xclip, xsel, pbcopy), else the escape with a
notice that says whether it is known to work."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from paperterm.io.clipboard import copy_with_tool, osc52_support, over_ssh, system_tool

if TYPE_CHECKING:
    from paperterm.tui.host import Reader

INSTALL_HINT = "install wl-copy, xclip or xsel, or use `paperterm export -o -`"


def copy_text(app: Reader, text: str, what: str) -> None:
    """Put `text` (described as `what`, e.g. "BibTeX entry key2026") on the clipboard and
    say how, and whether that is known to have worked."""
    osc52 = osc52_support(os.environ)
    if osc52.works:
        app.copy_to_clipboard(text)
        app.say(f"Copied the {what} to the clipboard", timeout=3)
        return
    tool = system_tool(os.environ)
    problem = copy_with_tool(tool, text) if tool is not None else None
    if tool is not None and problem is None:
        app.say(f"Copied the {what} to the clipboard ({os.path.basename(tool[0])})",
                timeout=3)
        return
    app.copy_to_clipboard(text)  # Textual's OSC 52: through SSH to the user's terminal
    failed = f"{problem}; " if problem else ""
    if osc52.works is None and over_ssh(os.environ) and not failed:
        app.say(f"Sent the {what} over SSH to your terminal's clipboard (OSC 52); most "
                "terminals take it, some need it allowed (`paperterm doctor` checks)",
                timeout=6)
    elif osc52.works is False:
        app.say(f"The {what} was sent to the terminal, but {osc52.why}: {failed}the clipboard "
                f"is probably unchanged ({INSTALL_HINT})", "warning", timeout=10)
    else:
        app.say(f"Sent the {what} to the terminal's clipboard (OSC 52); {failed}whether this "
                "terminal accepts it is unknown (`paperterm doctor` checks)", timeout=6)
