"""Each setting is declared once (paperterm.settings) and that one declaration makes the config
key, its check, the CLI flag of the subcommands that use it, the completion, the dataclass
field and the starter-config line."""

from __future__ import annotations

from dataclasses import fields
from pathlib import PurePath

import pytest

from paperterm.cli.options import Options
from paperterm.cli.parser import build_parser
from paperterm.settings import (
    BibtexConfig,
    Config,
    DeliveryConfig,
    ScoringSettings,
    ZoteroConfig,
    declared,
    every_setting,
)
from paperterm.settings.config import ConfigError, parse_config, starter_config

DECLARED = list(declared())
EVERY = list(every_setting())
SIMPLE = [d for d in EVERY if d.type in (bool, int, float, str)]
SAMPLE = {str: "openai/x", int: 7, float: 2.5, bool: True, list: "cs.CL"}
SAMPLE_OF = {"prefilter": 0.3, "library_id": "123", "webhook_url": "https://example.org/h",
             "theme": "nord", "language": "Deutsch"}  # where the type's sample is not valid


def _value(d):  # a valid non-default value of the setting's type
    return d.spec.choices[-1] if d.spec.choices else SAMPLE_OF.get(d.name, SAMPLE[d.type])


def _toml(d, value):
    return {d.section: {d.name: value}} if d.section else {d.name: value}


def _command(d):  # a subcommand that takes the flag (the reader: no subcommand word)
    return sorted(d.spec.commands)[0]


def _argv(d, *rest):
    command = _command(d)
    return ([] if command == "tui" else [command]) + list(rest) + (
        ["2602.00001"] if command in ("summarize",) else [])


def test_every_field_of_every_section_is_declared():
    keys = [d.key for d in EVERY]
    assert len(keys) == len(set(keys))
    for cls, section in ((ScoringSettings, ""), (BibtexConfig, "bibtex"),
                         (DeliveryConfig, "delivery"), (ZoteroConfig, "zotero")):
        names = {f.name for f in fields(cls)}
        assert names == {d.name for d in EVERY if d.section == section} & names, cls
    top = {f.name for f in fields(Config)} - {"path", "scoring", "bibtex", "delivery", "zotero"}
    assert top <= set(keys)
    assert {"model", "bibtex.unicode", "delivery.smtp_port", "zotero.library_id",
            "models", "keys", "topics", "enrich"} <= set(keys)


@pytest.mark.parametrize("d", SIMPLE, ids=lambda d: d.key)
def test_config_key_sets_the_field(d):
    cfg = parse_config(_toml(d, _value(d)), "test.toml")
    owner = getattr(cfg, d.section) if d.section else (
        cfg.scoring if d.name in ScoringSettings.__dataclass_fields__ else cfg)
    assert getattr(owner, d.name) == _value(d)


@pytest.mark.parametrize("d", [d for d in EVERY if d.spec.commands], ids=lambda d: d.key)
def test_the_flag_reaches_the_options(d):
    value = [] if d.type is bool else [str(_value(d))]
    ns = build_parser().parse_args(_argv(d, d.flag, *value))
    opts = Options.from_namespace(ns)
    if d in DECLARED:
        got = getattr(ScoringSettings().with_overrides(**opts.scoring), d.name)
    else:
        got = getattr(opts, d.dest)
        got = str(got) if isinstance(got, PurePath) else got  # a file flag gives a Path
    assert got == (True if d.type is bool else _value(d) if d.type is not list
                   else str(_value(d)))


def test_settings_without_a_flag_are_not_flags():
    no_flag = [d.name for d in DECLARED if not d.spec.commands]
    assert no_flag == ["include_authors", "models"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--include-authors"])


@pytest.mark.parametrize("d", [d for d in EVERY if d.spec.starter], ids=lambda d: d.key)
def test_starter_config_has_one_line_per_setting(d):
    if d.spec.block:
        assert d.spec.block.splitlines()[0] in starter_config()
        return
    lines = [ln for ln in starter_config().splitlines()
             if ln.lstrip("# ").startswith(f"{d.name} = ")]
    assert len(lines) == 1, d.key


def test_the_starter_config_is_the_documented_example():
    from pathlib import Path

    example = Path(__file__).parents[2] / "examples" / "config.toml"
    assert example.read_text(encoding="utf-8") == starter_config()


@pytest.mark.parametrize("d", [d for d in DECLARED if d.spec.check], ids=lambda d: d.name)
def test_config_and_flag_reject_the_same_values_with_the_same_words(d, capsys):
    bad = 0 if d.type is int else -1.0
    if d.name == "timeout":
        bad = 0.0
    with pytest.raises(ConfigError) as exc:
        parse_config({d.name: bad}, "test.toml")
    assert f"expected {d.spec.expected}" in str(exc.value)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["score", d.flag, str(bad)])
    err = capsys.readouterr().err
    assert d.flag in err and f"expected {d.spec.expected}" in err


@pytest.mark.parametrize(("key", "value"), [
    ("timeout", 10**400), ("timeout", float("inf")), ("timeout", float("nan")),
    ("rpm", 1e-300), ("concurrency", 100_000), ("batch_size", 0), ("budget", float("inf")),
    ("batch_size", 10**400), ("max_results", 10**9), ("max_results", 10**400),
])
def test_out_of_range_config_numbers_are_refused_with_the_key(key, value):
    with pytest.raises(ConfigError) as exc:
        parse_config({key: value}, "test.toml")
    message = str(exc.value)
    assert f"'{key}'" in message and "expected" in message
    assert len(message) < 200  # a 400-digit number is not echoed whole


@pytest.mark.parametrize(("flag", "value"), [
    ("--timeout", "inf"), ("--timeout", "nan"), ("--timeout", "9" * 400), ("--rpm", "1e-300"),
    ("--concurrency", "100000"), ("--batch-size", "0"), ("--max-results", "1000000"),
])
def test_out_of_range_flags_are_usage_errors(flag, value, cli):
    result = cli("score", flag, value, "--sample")
    assert result.returncode == 2
    assert flag in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()[-1]) < 300


@pytest.mark.parametrize("argv", [
    [], ["--topic", "moe"], ["--topic", "search"], ["score", "--json", "--budget", "0.5"],
    ["digest", "--format", "json", "--date", "2026-02-24"], ["export", "--starred", "-o", "x"],
    ["search", "mixture", "of", "experts", "--limit", "3"], ["config", "--path"],
    ["--offline", "enrich"], ["library", "export", "-"], ["completions", "bash"],
    ["star", "2602.00001"], ["--model", "openai/x", "summarize", "2602.00001"]])
def test_a_parser_built_for_the_command_line_parses_it_as_the_complete_one(argv):
    assert vars(build_parser(argv).parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_a_subcommand_built_for_the_command_line_keeps_its_own_help(capsys):
    with pytest.raises(SystemExit):
        build_parser(["score", "--help"]).parse_args(["score", "--help"])
    out = capsys.readouterr().out
    assert "--rescore" in out and "--budget" in out and "--bib" not in out


def test_every_flag_of_a_setting_has_its_place_in_the_options():
    """A new setting with a flag needs its `Options` field (scoring ones go to `scoring`)."""
    places = {f.name for f in fields(Options)}
    for d in EVERY:
        if d.spec.commands and d not in DECLARED:
            assert d.dest in places, d.key
