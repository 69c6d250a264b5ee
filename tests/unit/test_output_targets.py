"""Issue 9, items 1-2: paperterm writes only regular files, never replaces a device, FIFO or
directory, writes through symlinks, keeps hard links, refuses read-only files and leaves no
lock or temp file beside the user's file (not even after kill -9)."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperterm.io.atomic import atomic_write
from paperterm.models import Paper
from paperterm.outputs.bibtex import BibError, export_papers
from paperterm.tui.bib_actions import BibOptions, save_papers

ROOT = Path(__file__).resolve().parents[2]
FEED = ROOT / "examples" / "arxiv-2026-02-25.xml"
EXPORT = ("export", "--feed", str(FEED), "--ids", "2602.20191")


def paper(pid: str = "2602.20175") -> Paper:
    return Paper(id=pid, version=1, title="Visualizing Data using t-SNE",
                 authors=("Laurens van der Maaten",), abstract="", categories=("cs.LG",),
                 primary_category="cs.LG")


@contextlib.contextmanager
def no_hang(seconds: int = 10) -> Iterator[None]:
    """Fail (instead of blocking the suite forever) if the body hangs, e.g. on a FIFO."""

    def boom(*_: object) -> None:
        raise TimeoutError("hung on a non-regular file")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def fifo(tmp_path: Path, name: str = "pipe.bib") -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


def null_device(tmp_path: Path) -> Path:
    """A character device like /dev/null (1, 3), made where a broken build cannot hurt."""
    path = tmp_path / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    return path


# -- item 1: devices, FIFOs, directories, symlinks -------------------------------------------


@pytest.mark.parametrize("command", ["export", "digest"])
def test_a_fifo_target_is_refused_without_hanging(cli, tmp_path: Path, command: str) -> None:
    target = fifo(tmp_path)
    args = EXPORT if command == "export" else ("digest", "--feed", str(FEED))
    with no_hang():
        proc = cli(*args, "-o", str(target))
    assert proc.returncode == 1
    assert "FIFO" in proc.stderr and str(target) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert stat.S_ISFIFO(os.lstat(target).st_mode)


@pytest.mark.parametrize("command", ["export", "digest"])
def test_a_device_is_never_replaced(cli, tmp_path: Path, command: str) -> None:
    dev = null_device(tmp_path)
    link = tmp_path / "via-link.bib"
    link.symlink_to(dev)
    args = EXPORT if command == "export" else ("digest", "--feed", str(FEED))
    for target in (dev, link):
        with no_hang():
            proc = cli(*args, "-o", str(target))
        assert proc.returncode == 1 and "device" in proc.stderr, proc.stderr
        assert stat.S_ISCHR(os.stat(dev).st_mode)
        assert os.path.islink(link)


def test_bib_option_pointing_at_a_directory_is_refused(cli, tmp_path: Path) -> None:
    folder = tmp_path / "refs.bib"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    proc = cli(*EXPORT, "--bib", str(folder))
    assert proc.returncode == 1 and "directory" in proc.stderr
    assert folder.is_dir() and (folder / "keep.txt").read_text() == "mine"


def test_the_readers_save_refuses_a_fifo_without_freezing(tmp_path: Path) -> None:
    target = fifo(tmp_path)
    with no_hang():
        outcome = save_papers([paper()], target, BibOptions())
    assert outcome.error and "FIFO" in outcome.message
    assert stat.S_ISFIFO(os.lstat(target).st_mode)


def test_a_digest_is_written_through_a_symlink(cli, tmp_path: Path) -> None:
    real = tmp_path / "notes" / "digest.md"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "digest.md"
    link.symlink_to(real)
    proc = cli("digest", "--feed", str(FEED), "-o", str(link))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("# arXiv digest")


def test_an_export_is_written_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.bib"
    real.write_text("% mine\n")
    link = tmp_path / "refs.bib"
    link.symlink_to(real)
    export_papers([paper()], link)
    assert link.is_symlink()
    assert real.read_text().startswith("% mine\n") and "2602.20175" in real.read_text()


# -- item 2: read-only files, hard links, no litter ------------------------------------------


def test_a_read_only_bib_is_refused_and_unchanged(cli, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("% read only\n")
    bib.chmod(0o444)
    proc = cli(*EXPORT, "-o", str(bib))
    assert proc.returncode == 1 and "read-only" in proc.stderr, proc.stderr
    assert bib.read_text() == "% read only\n"
    with pytest.raises(BibError, match="read-only"):
        export_papers([paper()], bib)
    assert bib.read_text() == "% read only\n"


def test_hard_links_are_kept(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("% shared\n")
    other = tmp_path / "elsewhere.bib"
    os.link(bib, other)
    export_papers([paper()], bib)
    assert os.path.samefile(bib, other)
    assert "2602.20175" in other.read_text() and other.read_text().startswith("% shared\n")


def test_no_lock_or_temp_file_is_left_beside_the_bib(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    export_papers([paper()], folder / "refs.bib")
    export_papers([paper("2602.20191")], folder / "refs.bib", update=True)
    assert sorted(p.name for p in folder.iterdir()) == ["refs.bib"]


_KILLED_WRITER = """
import os, sys, time
from pathlib import Path
from paperterm.io.atomic import atomic_write

def stuck(fd):  # the data is in the temp file; the rename has not happened
    print("writing", flush=True)
    time.sleep(60)

os.fsync = stuck
atomic_write(Path(sys.argv[1]), b"half of a new file")
"""


def test_kill_9_mid_write_leaves_no_temp_file_after_the_next_run(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    bib = folder / "refs.bib"
    bib.write_text("% original\n")
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(bib)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    finally:
        proc.kill()  # SIGKILL: no cleanup runs
        proc.wait()
    left = [p.name for p in folder.iterdir() if p.name != "refs.bib"]
    assert left, "the writer should have had a temp file open"
    assert bib.read_text() == "% original\n"
    export_papers([paper()], bib)
    assert sorted(p.name for p in folder.iterdir()) == ["refs.bib"]


def test_a_temp_file_of_a_live_process_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        theirs = tmp_path / f".out.md.paperterm-{sleeper.pid}.tmp"
        theirs.write_text("in progress")
        atomic_write(target, b"mine")
        assert theirs.exists() and target.read_bytes() == b"mine"
    finally:
        sleeper.kill()
        sleeper.wait()
    time.sleep(0)  # the pid is gone now: the next write cleans up
    atomic_write(target, b"again")
    assert not theirs.exists()
