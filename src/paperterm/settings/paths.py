"""Where paperterm keeps its config and data; overridable for tests and scripts."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from paperterm.io.env import env as settings_env

APP = "paperterm"


def config_file(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`--config FILE`, else `$PAPERTERM_CONFIG`, else the platform's config dir."""
    if explicit:
        return Path(explicit).expanduser()
    env = settings_env("PAPERTERM_CONFIG")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir(APP)) / "config.toml"


def config_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    return config_file(explicit).parent


def data_dir() -> Path:
    """`$PAPERTERM_HOME`, else the platform's data dir."""
    env = settings_env("PAPERTERM_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP))


def database_file() -> Path:
    return data_dir() / "paperterm.sqlite3"


def default_bib_file() -> Path:
    return data_dir() / "papers.bib"
