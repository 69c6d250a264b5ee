"""Writing the user's files: only regular files, never half of one, nothing left beside them.

- `writable_target` decides where a write goes and refuses what must never be replaced: a
  directory, FIFO, device or socket (as root, replacing /dev/null with a regular file breaks
  the system; opening a FIFO blocks forever) and a read-only file. A symlink is written
  through: its target changes, the link stays a link.
- `atomic_write` replaces the file via a temp file in the same directory, so readers see the
  old or the new content. The temp file is named `.<name>.paperterm-<pid>.tmp`: one left by a
  process killed mid-write (kill -9 runs no cleanup) is removed by the next write of that
  file. A file with other hard links is rewritten in place instead, so every name keeps
  seeing the same content.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

from paperterm.io import limits


class TargetError(Exception):
    """A path paperterm must not write to; the message is one line naming it and why."""


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def not_regular(st: os.stat_result) -> str | None:
    """What a file that is not a regular file is ("a FIFO (named pipe)", ...), else None."""
    if stat.S_ISREG(st.st_mode):
        return None
    return next((what for test, what in _KINDS if test(st.st_mode)), "not a regular file")


def is_read_only(path: Path, st: os.stat_result) -> bool:
    """No write permission for anyone (root included, who `os.access` lets write anyway),
    or none for this process."""
    return not st.st_mode & 0o222 or not os.access(path, os.W_OK)


def writable_target(path: Path | str) -> Path:
    """The real file a write to `path` goes to (symlinks followed); raise TargetError if it
    exists and is not a regular file, or is read-only. A missing file is fine (created)."""
    given = Path(path).expanduser()
    real = Path(os.path.realpath(given))
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return real
    except OSError as exc:
        raise TargetError(f"{given}: cannot use it ({exc.strerror or exc})") from None
    what = not_regular(st)
    if what is not None:
        raise TargetError(f"{given}: is {what}, not a regular file; nothing was written")
    if is_read_only(real, st):
        raise TargetError(f"{given}: is read-only; it was not changed (make it writable or "
                          "choose another file)")
    return real


def read_regular(path: Path) -> bytes | None:
    """The bytes of the regular file `path`, None if it does not exist. Opened without
    blocking and checked after opening, so a FIFO swapped in meanwhile cannot hang us."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    try:
        what = not_regular(os.fstat(fd))
        if what is not None:
            raise TargetError(f"{path}: is {what}, not a regular file; nothing was written")
        try:
            return limits.read_fd(fd, str(path), limits.MAX_IMPORT_FILE)
        except (limits.InputTooLarge, limits.InputTooSlow) as exc:
            raise TargetError(f"{exc}; nothing was written") from None
    finally:
        os.close(fd)


def _temp_prefix(path: Path) -> str:
    return f".{path.name}.paperterm-"


def remove_stale_temps(path: Path) -> None:
    """Delete temp files of `path` left by paperterm processes that no longer run."""
    pattern = re.compile(re.escape(_temp_prefix(path)) + r"(\d+)\.tmp")
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            m = pattern.fullmatch(entry.name)
            if m is None or int(m.group(1)) == os.getpid() or _alive(int(m.group(1))):
                continue
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process: leave its file alone
    return True


def atomic_write(path: Path, data: bytes) -> None:
    """Replace the regular file `path` (see `writable_target`) with `data`; keep its mode.

    A file with other hard links is rewritten in place (links kept); otherwise a temp file
    in the same directory is renamed over it.
    """
    remove_stale_temps(path)
    try:
        st: os.stat_result | None = path.stat()
    except FileNotFoundError:
        st = None
    if st is not None and st.st_nlink > 1 and stat.S_ISREG(st.st_mode):
        _write_in_place(path, data)
        return
    tmp = path.with_name(f"{_temp_prefix(path)}{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_EXCL, 0o600)
    except FileExistsError:  # left by an earlier write of this process that failed
        os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, (st.st_mode & 0o7777) if st else (0o666 & ~_umask()))
        if st is not None and hasattr(os, "chown"):
            with contextlib.suppress(OSError):
                os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename durable
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def _write_in_place(path: Path, data: bytes) -> None:
    """Overwrite a hard-linked file through its inode, so all its names see the new data."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        what = not_regular(os.fstat(fd))
        if what is not None:
            raise TargetError(f"{path}: is {what}, not a regular file; nothing was written")
        with os.fdopen(fd, "wb", closefd=False) as fh:
            fh.write(data)
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
    finally:
        os.close(fd)
