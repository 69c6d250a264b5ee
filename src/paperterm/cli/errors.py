"""Exit codes and the one exception a command raises for a problem the user can fix."""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1  # anything else
EXIT_USAGE = 2  # usage or configuration error
EXIT_AUTH = 3  # scoring stopped: authentication, model, api_base, repeated failures
EXIT_STOPPED = EXIT_AUTH
EXIT_UNSCORED = 4  # finished, output complete, but some papers were left unscored
EXIT_INSTEAD = 5  # the --date/--query asked for could not be loaded: another day was used
EXIT_INTERRUPTED = 130


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit code `code`."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code
