"""How much paperterm reads of anything from outside, declared once: every download and every
file or stream read stops at a size and a time, with a one-line notice.

`read_path` and `read_fd` read files, pipes and stdin in pieces, watching both limits (a
FIFO that never writes, `/dev/zero`, a 10 GB file); `httpio.request` applies the download
limits to HTTP answers.
"""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

MB = 1024 * 1024

# -- downloads ------------------------------------------------------------------------------
MAX_DOWNLOAD = 64 * MB  # one HTTP answer: an arXiv day is ~2 MB, an API page ~0.5 MB
HTTP_DEADLINE = 30.0  # seconds one HTTP request may take in total (PAPERTERM_HTTP_DEADLINE)
ARXIV_DEADLINE = 20.0  # one request to arXiv (the RSS feed, a page of an API search)

# -- files and streams ----------------------------------------------------------------------
MAX_FEED_FILE = 64 * MB  # --feed FILE
MAX_IMPORT_FILE = 256 * MB  # library import, learn --bib, the .bib file written into
MAX_TEXT_FILE = 4 * MB  # config, topic files, the reader's state, notes from stdin
READ_SECONDS = 30.0  # one file or stream read, start to end

_PIECE = 1 * MB


class InputTooLarge(Exception):
    """An answer or file is larger than its limit; the message is one line for the user."""


class InputTooSlow(Exception):
    """An answer or file did not arrive within its time; the message is one line."""


def size_text(n: int) -> str:
    return f"{n // MB} MB" if n >= MB else f"{n} bytes"


def too_large(what: str, limit: int) -> InputTooLarge:
    return InputTooLarge(f"{what} is larger than {size_text(limit)}: not read (paperterm "
                         "reads at most that much of it)")


def too_slow(what: str, seconds: float) -> InputTooSlow:
    return InputTooSlow(f"{what} did not arrive within {seconds:g} s: gave up")


def http_deadline() -> float:
    """The whole-request deadline of every HTTP call: PAPERTERM_HTTP_DEADLINE, else
    HTTP_DEADLINE."""
    from paperterm.io.env import env

    text = env("PAPERTERM_HTTP_DEADLINE")
    try:
        seconds = float(text) if text else HTTP_DEADLINE
    except ValueError:
        return HTTP_DEADLINE
    return seconds if 0 < seconds < float("inf") else HTTP_DEADLINE


def read_fd(fd: int, what: str, max_bytes: int, seconds: float = READ_SECONDS) -> bytes:
    """Everything readable from `fd` until its end, at most `max_bytes` within `seconds`;
    raises InputTooLarge or InputTooSlow (one line naming `what`), or OSError."""
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    total = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise too_slow(what, seconds)
        if os.name != "nt":  # a pipe or FIFO with nothing to read: wait, at most `left`
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                raise too_slow(what, seconds)
        try:
            chunk = os.read(fd, min(_PIECE, max_bytes + 1 - total))
        except BlockingIOError:  # opened without blocking, nothing yet
            continue
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise too_large(what, max_bytes)


def read_stdin(what: str, max_bytes: int, seconds: float = READ_SECONDS) -> bytes:
    """Standard input within the limits (see read_fd); a stdin without a file descriptor
    (an embedding host's) is read as a stream, up to the size limit."""
    import io
    import sys

    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise too_large(what, max_bytes) from None
        return data
    return read_fd(fd, what, max_bytes, seconds)


def read_path(path: Path, what: str, max_bytes: int, seconds: float = READ_SECONDS) -> bytes:
    """The bytes of the file, FIFO or device at `path` within the limits (see read_fd).
    Opened without blocking: a FIFO without a writer cannot hang the open."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        return read_fd(fd, what, max_bytes, seconds)
    finally:
        os.close(fd)


class Unreadable(Exception):
    """A path argument could not be read; the message is one line naming it and why."""


def read_argument(name: str, what: str, max_bytes: int,
                  seconds: float | None = None) -> bytes:
    """The bytes behind a command's path argument (`-` is stdin; `~` is expanded): a file,
    FIFO or device, read within `max_bytes` and `seconds` and never blocking on the open.
    Every path argument of every command is read through here (gold files, library imports,
    .bib files to learn from); raises Unreadable with one line naming `what`."""
    seconds = READ_SECONDS if seconds is None else seconds
    try:
        if name == "-":
            return read_stdin(what, max_bytes, seconds)
        return read_path(Path(name).expanduser(), what, max_bytes, seconds)
    except (InputTooLarge, InputTooSlow) as exc:
        raise Unreadable(str(exc)) from None
    except OSError as exc:
        raise Unreadable(f"{what}: cannot read it ({exc.strerror or exc})") from None


def read_argument_text(name: str, what: str, max_bytes: int,
                       seconds: float | None = None) -> str:
    """`read_argument` decoded as UTF-8 (Unreadable if it is not UTF-8 text)."""
    data = read_argument(name, what, max_bytes, seconds)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(f"{what}: cannot read it (not UTF-8 text)") from None
