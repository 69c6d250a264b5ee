"""Issue 9, item 18 (paths): a config, theme or topic file that is a FIFO or a device is
refused with one line, without hanging."""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

import pytest

from paperterm.settings.config import ConfigError, read_toml


@pytest.fixture(autouse=True)
def no_hang():  # type: ignore[no-untyped-def]
    def boom(*_: object) -> None:
        raise TimeoutError("hung reading a non-regular file")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_a_fifo_config_is_refused(cli, tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    proc = cli("topics", "--config", str(fifo))
    assert proc.returncode == 2 and "FIFO" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_theme_and_topic_files_that_are_not_regular_are_refused(tmp_path: Path,
                                                                 kind: str) -> None:
    path = tmp_path / "x.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))  # like /dev/zero
        except PermissionError:
            pytest.skip("creating a device node needs CAP_MKNOD")
    else:
        path.mkdir()
    with pytest.raises(ConfigError) as exc:
        read_toml(path)
    assert str(path) in str(exc.value) and "\n" not in str(exc.value)
