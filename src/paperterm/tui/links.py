"""Opening a link from the reader: a console `$BROWSER` gets the terminal (the app suspends
and resumes), a graphical one starts detached, else Python's `webbrowser` picks one."""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from paperterm.io.browser import Launch, plan

if TYPE_CHECKING:
    from paperterm.tui.host import Reader


def open_link(app: Reader, url: str) -> None:
    """Open `url`; every outcome is a notice (with the link when it did not open)."""
    launch = plan(url)
    if launch is None:
        _webbrowser(app, url)
    elif launch.console:
        _in_terminal(app, launch, url)
    else:
        try:
            subprocess.Popen(launch.command, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        except OSError as exc:
            app.say(f"Could not start {launch.name} ({exc}); the link is {url}", "warning")
            return
        app.say(f"Opening {url}", timeout=3)


def _in_terminal(app: Reader, launch: Launch, url: str) -> None:
    try:
        with app.suspend():
            try:
                code: int | str = subprocess.run(launch.command, check=False).returncode
            except OSError as exc:
                code = str(exc)
    except SuspendNotSupported:
        app.say(f"{launch.name} needs the terminal, which cannot be handed over here; the "
                f"link is {url}", "warning")
        return
    if code != 0:
        app.say(f"{launch.name} failed ({code}); the link is {url}", "warning")


def _webbrowser(app: Reader, url: str) -> None:
    import webbrowser

    try:
        ok = webbrowser.open(url)
    except Exception as exc:
        app.say(f"Could not open a browser ({exc}); the link is {url}", "warning")
        return
    if ok is False:
        app.say(f"No browser found; the link is {url}", "warning")
    else:
        app.say(f"Opening {url}", timeout=3)
