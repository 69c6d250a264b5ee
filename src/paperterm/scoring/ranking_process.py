"""`rank_locally` in a process of its own, so that embedding a day and learning from the
user's marks (seconds of CPU) never hold the caller's interpreter lock: the reader's keys
stay quick while it ranks.

`RankingProcess` starts one child process on first use (a fresh interpreter talking on its
stdin and stdout, at a lower priority; never a fork of a threaded program), which opens the
store itself from the database's path, ranks, and sends back the scores (plain data). One
request at a time; the day's papers are sent once and reused by the next ranking of the same
day (a star ranks it again). The child is stopped by `close`, and leaves by itself when its
owner dies (its stdin closes). A child that died between two rankings is started again; when
one cannot start, dies during a ranking or fails, `rank` raises `RankingProcessFailed` and
the caller ranks in its own process instead.

With `PAPERTERM_LOCAL_RANKING=thread`, `wanted()` is False: callers rank in their own
process (tests that replace the embedding model in it; debugging).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from paperterm.models import Paper, Topic
from paperterm.scoring.types import Score

if TYPE_CHECKING:
    import subprocess
    from multiprocessing.connection import Connection

    from paperterm.scoring.local.unsure import UnsureQueue

NICENESS = 10  # the child yields the cores to the reader (and the rest of the machine)
STOP_WAIT = 1.0  # seconds `close` waits for the child to stop before killing it


class RankingProcessFailed(Exception):
    """The ranking process could not rank (did not start, died, or its ranking raised)."""


def wanted() -> bool:
    """Whether the local ranking should run out of the caller's process (the default)."""
    from paperterm.io.env import env

    return (env("PAPERTERM_LOCAL_RANKING") or "process").strip().lower() != "thread"


class _Request(NamedTuple):
    db_path: str
    papers_key: str
    papers: Sequence[Paper] | None  # None: the same papers as the last request
    topic: Topic
    day: str | None
    keywords_only: bool
    # the unsure queue instead of a ranking: (the ids in the ranking's order, the ids left out)
    unsure: tuple[tuple[str, ...], frozenset[str]] | None = None


def _papers_key(day: str | None, papers: Sequence[Paper]) -> str:
    digest = hashlib.sha1(str(day).encode())
    for p in papers:
        digest.update(f"\0{p.id}v{p.version}\0{len(p.abstract)}{p.title}".encode())
    return digest.hexdigest()


class RankingProcess:
    """A child process ranking locally for its owner (one per reader)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one request at a time
        self._proc: subprocess.Popen[bytes] | None = None  # the child, once started
        self._conn: _Duplex | None = None
        self._sent_key = ""  # the papers the child holds
        self._closed = False
        self._failed = False

    @property
    def closed(self) -> bool:
        """`close` was called: no ranking runs here any more (nor should run instead)."""
        return self._closed

    @property
    def usable(self) -> bool:
        """Neither closed nor failed: rankings should be asked of it (after one failure the
        caller ranks in its own process for the rest of the session)."""
        return not (self._closed or self._failed)

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def rank(self, db_path: Path | str, papers: Sequence[Paper], topic: Topic, *,
             day: str | None = None, keywords_only: bool = False) -> list[Score] | None:
        """`rank_locally` over the database at `db_path`, in the child; blocks the calling
        thread (not the interpreter) until the scores arrive."""
        return self._ask(db_path, papers, topic, day, keywords_only, None)

    def _ask(self, db_path: Path | str, papers: Sequence[Paper], topic: Topic,
             day: str | None, keywords_only: bool,
             unsure: tuple[tuple[str, ...], frozenset[str]] | None) -> Any:
        key = _papers_key(day, papers)
        with self._lock:
            conn = self._ensure_started()
            same = key == self._sent_key
            request = _Request(str(db_path), key, None if same else list(papers), topic, day,
                               keywords_only, unsure)
            try:
                self._sent_key = ""  # unknown until the child answers
                conn.send(request)
                ok, value = conn.recv()
            except Exception as exc:  # the child is gone, or the request could not be sent
                self._failed = True
                why = self._exit_status() or _why(exc)
                self._stop()
                raise RankingProcessFailed(f"the ranking process stopped ({why})") from None
            if not ok:
                self._failed = True
                raise RankingProcessFailed(str(value))
            self._sent_key = key
            return value

    def unsure(self, db_path: Path | str, papers: Sequence[Paper], topic: Topic, *,
               day: str | None, ranked: Sequence[str],
               exclude: frozenset[str]) -> UnsureQueue:
        """`scoring.local.unsure.unsure_papers` over the database at `db_path`, in the
        child (it loads the embedding model and trains); blocks the calling thread."""
        return self._ask(db_path, papers, topic, day, False, (tuple(ranked), exclude))

    def close(self) -> None:
        """Stop the child (without waiting more than a moment); later calls fail."""
        self._closed = True
        if not self._lock.acquire(timeout=0.05):  # a ranking is under way: end it anyway
            self._kill()
            return
        try:
            self._stop()
        finally:
            self._lock.release()

    def _ensure_started(self) -> _Duplex:
        if self._closed:
            raise RankingProcessFailed("the ranking process was closed")
        if self._proc is not None and self._proc.poll() is None and self._conn is not None:
            return self._conn
        self._stop()
        import subprocess
        import sys
        from multiprocessing.connection import Connection

        try:  # a fresh interpreter (never a fork of a threaded program), talking on its pipes
            proc = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    close_fds=True)
        except Exception as exc:
            self._failed = True
            raise RankingProcessFailed(f"the ranking process did not start ({_why(exc)})") \
                from None
        assert proc.stdin is not None and proc.stdout is not None
        writer = Connection(os.dup(proc.stdin.fileno()), readable=False)
        reader = Connection(os.dup(proc.stdout.fileno()), writable=False)
        proc.stdin.close()
        proc.stdout.close()
        self._proc, self._conn, self._sent_key = proc, _Duplex(reader, writer), ""
        return self._conn

    def _stop(self) -> None:
        conn, proc = self._conn, self._proc
        self._conn = self._proc = None
        self._sent_key = ""
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.send(None)  # the child's signal to leave
            conn.close()
        if proc is not None:
            try:
                proc.wait(STOP_WAIT)
            except Exception:
                proc.kill()
                with contextlib.suppress(Exception):
                    proc.wait(STOP_WAIT)

    def _exit_status(self) -> str:
        """How the child ended ("" while it runs)."""
        proc = self._proc
        try:
            code = None if proc is None else proc.wait(STOP_WAIT)
        except Exception:
            return ""
        if code is None:
            return ""
        return f"killed by signal {-code}" if code < 0 else f"exit status {code}"

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()


class _Duplex:
    """The child's two pipes as one connection (send on one, receive on the other)."""

    def __init__(self, reader: Connection, writer: Connection) -> None:
        self._reader, self._writer = reader, writer

    def send(self, obj: object) -> None:
        self._writer.send(obj)

    def recv(self) -> Any:
        return self._reader.recv()

    def close(self) -> None:
        self._reader.close()
        self._writer.close()


CHILD = "from paperterm.scoring.ranking_process import serve_pipes; serve_pipes()"


def serve_pipes() -> None:
    """The child's entry point: requests on stdin, replies on stdout."""
    import sys
    from multiprocessing.connection import Connection

    reader = Connection(os.dup(sys.stdin.fileno()), writable=False)
    writer = Connection(os.dup(sys.stdout.fileno()), readable=False)
    sys.stdout = sys.stderr  # nothing printed may land in the replies
    with contextlib.suppress(AttributeError, OSError):  # background work: the reader first
        os.nice(NICENESS)
    _serve(_Duplex(reader, writer))


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _serve(conn: _Duplex) -> None:
    """The child: rank each request until told to stop (None) or the pipe closes."""
    from paperterm.scoring.local import rank_locally
    from paperterm.scoring.local.unsure import unsure_papers
    from paperterm.store import open_or_unavailable, opener

    papers: Sequence[Paper] = []
    key = ""
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        if request.papers is not None:
            papers, key = request.papers, request.papers_key
        elif request.papers_key != key:
            conn.send((False, "the ranking process lost the day's papers"))
            continue
        try:
            store = open_or_unavailable(opener(request.db_path))
            try:
                if request.unsure is not None:
                    ranked, exclude = request.unsure
                    answer: Any = unsure_papers(store, papers, request.topic, ranked,
                                                exclude=exclude)
                else:
                    answer = rank_locally(store, papers, request.topic, day=request.day,
                                          keywords_only=request.keywords_only)
            finally:
                store.close()
            reply: tuple[bool, Any] = (True, answer)
        except Exception as exc:  # reported to the parent, which ranks itself
            reply = (False, f"the ranking process failed: {_why(exc)}")
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
