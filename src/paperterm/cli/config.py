"""`paperterm config --path | --init`: where things live; a commented starter config."""

from __future__ import annotations

import sys

from paperterm.cli.errors import EXIT_OK, EXIT_USAGE, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import bib_path, load_user_config
from paperterm.settings import paths
from paperterm.settings.config import Config, init_config


def run(opts: Options) -> int:
    if opts.init:
        path, written = init_config(opts.config)
        if written:
            print(f"wrote {path}")
            return EXIT_OK
        print(f"paperterm: {path} already exists; not overwritten", file=sys.stderr)
        return EXIT_USAGE
    config_path = paths.config_file(opts.config)
    problem: UserError | None = None
    try:  # the paths are most wanted when the file is broken: print them regardless
        config = load_user_config(opts)
    except UserError as exc:
        config, problem = Config(), exc
    print(f"config:   {config_path}{'' if config_path.exists() else '  (not found: defaults)'}")
    print(f"topics:   {config_path.parent / 'topics'}")
    print(f"themes:   {config_path.parent / 'themes'}")
    print(f"data:     {paths.data_dir()}")
    print(f"database: {paths.database_file()}")
    invalid = "  (default: the config is invalid)" if problem else ""
    print(f"bib:      {bib_path(opts, config)}{invalid}")
    if problem:
        raise problem
    return EXIT_OK
