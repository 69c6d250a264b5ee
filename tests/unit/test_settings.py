"""Each scoring setting is declared once (paperterm.settings) and that one declaration makes
the config key, the CLI flag, the ScoringSettings field and the starter-config line."""

from __future__ import annotations

import pytest

from paperterm.cli.options import Options
from paperterm.cli.parser import build_parser
from paperterm.config import STARTER_CONFIG, ConfigError, parse_config
from paperterm.settings import ScoringSettings, declared

DECLARED = list(declared())
SAMPLE = {str: "openai/x", int: 7, float: 2.5, bool: True}
SAMPLE_OF = {"prefilter": 0.3}  # settings for which the type's sample is not valid


def _value(d):  # a valid non-default value of the setting's type
    return d.spec.choices[-1] if d.spec.choices else SAMPLE_OF.get(d.name, SAMPLE[d.type])


def test_every_field_is_declared_with_a_spec():
    names = [d.name for d in DECLARED]
    # `models` is the [models."<model>"] tables, not one key: config.py parses it
    assert names == [f for f in ScoringSettings.__dataclass_fields__ if f != "models"]
    assert {"model", "batch_size", "timeout", "budget"} <= set(names)


@pytest.mark.parametrize("d", DECLARED, ids=lambda d: d.name)
def test_config_key_sets_the_field(d):
    cfg = parse_config({d.name: _value(d)}, "test.toml")
    assert getattr(cfg.scoring, d.name) == _value(d)


@pytest.mark.parametrize("d", [d for d in DECLARED if d.spec.flag], ids=lambda d: d.name)
def test_flag_of_the_same_name_overrides_the_config(d):
    ns = build_parser().parse_args(["score", d.flag, str(_value(d))])
    opts = Options.from_namespace(ns)
    settings = ScoringSettings().with_overrides(**opts.scoring)
    assert getattr(settings, d.name) == _value(d)


def test_settings_without_a_flag_are_not_flags():
    no_flag = [d for d in DECLARED if not d.spec.flag]
    assert [d.name for d in no_flag] == ["include_authors"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--include-authors"])


@pytest.mark.parametrize("d", DECLARED, ids=lambda d: d.name)
def test_starter_config_has_one_line_per_setting(d):
    lines = [ln for ln in STARTER_CONFIG.splitlines()
             if ln.lstrip("# ").startswith(f"{d.name} = ")]
    assert len(lines) == 1, d.name


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
    ("batch_size", 10**400), ("max_results", 10**9),
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
    ["--offline", "library", "export", "-"], ["completions", "bash"], ["star", "2602.00001"]])
def test_a_parser_built_for_the_command_line_parses_it_as_the_complete_one(argv):
    assert vars(build_parser(argv).parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_a_subcommand_built_for_the_command_line_keeps_its_own_help(capsys):
    with pytest.raises(SystemExit):
        build_parser(["score", "--help"]).parse_args(["score", "--help"])
    out = capsys.readouterr().out
    assert "--rescore" in out and "--budget" in out and "--bib" not in out
