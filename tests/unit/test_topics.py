"""Topics: built-ins, user topics (config table and topics/ files), ad-hoc free text."""

from __future__ import annotations

import re

import pytest

from paperterm.settings.config import Config, ConfigError, load_config
from paperterm.topics import all_topics, builtin_topics, resolve_topic


def _config_with(isolated_home, text: str = "") -> Config:
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text(text, encoding="utf-8")
    return load_config()


def _topic_file(isolated_home, name: str, text: str):
    folder = isolated_home.config.parent / "topics"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_builtins():
    topics = builtin_topics()
    assert {"moe", "agents", "interpretability"} <= set(topics)
    for name, topic in topics.items():
        assert topic.name == name
        assert topic.source == "built-in"
        assert topic.description.strip() and topic.keywords
        assert not topic.adhoc
    assert "mixture of experts" in topics["moe"].keywords


def test_topic_table_in_config(isolated_home):
    cfg = _config_with(isolated_home, """
[topics.retrieval]
description = "Dense retrieval and RAG."
keywords = ["retrieval", "RAG"]
exclude = ["recommendation"]
categories = ["cs.IR"]
""")
    topic = all_topics(cfg)["retrieval"]
    assert topic.description == "Dense retrieval and RAG."
    assert topic.keywords == ("retrieval", "RAG")
    assert topic.exclude == ("recommendation",)
    assert topic.categories == ("cs.IR",)
    assert topic.source == str(isolated_home.config)
    assert resolve_topic("retrieval", cfg).notice is None


def test_topic_file_next_to_config(isolated_home):
    path = _topic_file(isolated_home, "graphs", 'description = "Graph neural networks."\n'
                                                'keywords = ["GNN", "graph"]\n')
    cfg = _config_with(isolated_home, 'topic = "graphs"\n')
    topic = all_topics(cfg)["graphs"]
    assert topic.keywords == ("GNN", "graph")
    assert topic.source == str(path)


def test_topic_file_found_without_a_config_file(isolated_home):
    # `config --path` shows <config dir>/topics even when config.toml does not exist
    path = _topic_file(isolated_home, "graphs", 'description = "Graph neural networks."\n')
    assert not isolated_home.config.exists()
    topics = all_topics(load_config())
    assert topics["graphs"].source == str(path)


def test_user_topics_override_builtins_by_name(isolated_home):
    file_path = _topic_file(isolated_home, "agents", 'description = "My agents."\n')
    named = _topic_file(isolated_home, "whatever", 'name = "interpretability"\n'
                                                   'description = "My interp."\n')
    cfg = _config_with(isolated_home, '[topics.moe]\ndescription = "My MoE."\n'
                                      'keywords = ["experts"]\n')
    topics = all_topics(cfg)
    assert topics["agents"].description == "My agents."
    assert topics["agents"].source == str(file_path)
    assert topics["interpretability"].description == "My interp."
    assert topics["interpretability"].source == str(named)
    assert topics["moe"].description == "My MoE."
    assert topics["moe"].keywords == ("experts",)
    assert "whatever" not in topics
    assert builtin_topics()["moe"].description != "My MoE."


def test_config_table_overrides_topic_file(isolated_home):
    _topic_file(isolated_home, "graphs", 'description = "from the file"\n')
    cfg = _config_with(isolated_home, '[topics.graphs]\ndescription = "from the config"\n')
    assert all_topics(cfg)["graphs"].description == "from the config"


def test_undefined_topic_becomes_adhoc_free_text():
    resolved = resolve_topic("sparse attention kernels", Config())
    topic = resolved.topic
    assert topic.adhoc and topic.source == "ad-hoc"
    assert topic.name == "sparse attention kernels"
    assert "sparse attention kernels" in topic.phrases  # a phrase, not word by word
    assert topic.areas == ("sparse attention kernels",)
    assert "sparse attention kernels" in topic.description
    assert resolved.notice is not None
    assert "sparse attention kernels" in resolved.notice
    assert "not a defined topic" in resolved.notice


def test_adhoc_drops_stop_words_and_needs_words():
    topic = resolve_topic("the theory of transformers", Config()).topic
    assert topic.phrases == ("theory of transformers",)
    with pytest.raises(ConfigError, match="no usable words"):
        resolve_topic("of the", Config())


def test_defined_topic_has_no_notice():
    resolved = resolve_topic("agents", Config())
    assert resolved.notice is None and not resolved.topic.adhoc


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('description = "x"\nkeywords = [\n', "invalid TOML"),
        ('description = "x"\nkeywordz = ["a"]\n', "keywordz"),
        ('description = ""\n', "description"),
        ('description = "x"\nkeywords = "a, b"\n', "keywords"),
    ],
)
def test_broken_topic_file_is_named(isolated_home, text, needle):
    """Issue 30: a topic file that cannot be read names the file and line, stops only the
    commands that use it, and the others run and say once that it was skipped."""
    path = _topic_file(isolated_home, "broken", text)
    config = load_config()
    assert "broken" not in all_topics(config) and "moe" in all_topics(config)
    with pytest.raises(ConfigError) as info:
        resolve_topic("broken", config)
    assert str(path) in str(info.value)
    assert needle in str(info.value)
    assert re.search(rf"{re.escape(str(path))}, line \d+: ", str(info.value))
    other = resolve_topic("moe", config)
    assert other.topic.name == "moe"
    assert other.skipped is not None and str(path) in other.skipped
    assert "skipped topic 'broken'" in other.skipped


def test_topics_command_lists_sources(isolated_home, cli):
    path = _topic_file(isolated_home, "graphs", 'description = "Graph neural networks."\n')
    _config_with(isolated_home, 'topic = "agents"\n[topics.rag]\ndescription = "RAG things."\n')
    result = cli("topics")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()

    def line_of(name: str) -> str:
        return next(ln for ln in lines if ln[2:].split(" ", 1)[0] == name)

    assert "built-in" in line_of("moe")
    assert "built-in" in line_of("interpretability")
    assert str(path) in line_of("graphs")
    assert str(isolated_home.config) in line_of("rag")
    assert line_of("agents").startswith("*")  # the configured default
    assert not line_of("moe").startswith("*")
    assert "Graph neural networks." in result.stdout


def test_topics_command_broken_file(isolated_home, cli):
    path = _topic_file(isolated_home, "broken", "description = \n")
    result = cli("topics")
    assert result.returncode == 0  # the other topics are listed
    assert "Traceback" not in result.stderr
    assert f"{path}, line 1: invalid TOML" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "moe" in result.stdout and "cannot be read" in result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


# -- issue 32 item 2: a mistyped topic is that topic, or "did you mean", never silent ------


@pytest.mark.parametrize("typed", ["MoE", "moe", " Agents ", "AGENTS"])
def test_a_topic_up_to_case_is_that_topic(typed):
    resolved = resolve_topic(typed, Config())
    assert resolved.topic.name == typed.strip().lower()
    assert not resolved.topic.adhoc and resolved.notice is None


@pytest.mark.parametrize(("typed", "meant"), [("agnets", "agents"), ("agent", "agents"),
                                              ("mo", "moe"), ("interpretabilty",
                                                              "interpretability")])
def test_a_near_miss_is_an_error_that_says_what_was_meant(typed, meant):
    with pytest.raises(ConfigError, match=f"did you mean '{meant}'\\?"):
        resolve_topic(typed, Config())


@pytest.mark.parametrize("text", ["lora", "speculative decoding", "agnets papers",
                                  "diffusion"])
def test_free_text_stays_possible_and_says_so(text):
    resolved = resolve_topic(text, Config())
    assert resolved.topic.adhoc
    assert resolved.notice is not None and resolved.notice.startswith("Free-text topic")


def test_cli_topic_typos_exit_2_from_the_flag_and_the_config(cli, isolated_home):
    typo = cli("score", "--sample", "--topic", "agnets", "--json", "--limit", "1")
    assert typo.returncode == 2
    assert "did you mean 'agents'?" in typo.stderr and typo.stderr.count("\n") == 1
    case = cli("score", "--sample", "--topic", "MoE", "--json", "--limit", "1")
    assert case.returncode == 0 and "Free-text" not in case.stderr
    _config_with(isolated_home, 'topic = "agnets"\n')
    configured = cli("score", "--sample", "--json", "--limit", "1")
    assert configured.returncode == 2
    assert str(isolated_home.config) in configured.stderr
    assert "did you mean 'agents'?" in configured.stderr
    # the typo is in the config: the fix goes there, not in a --topic flag (issue 32)
    assert f'topic = "agents" in {isolated_home.config}' in configured.stderr
    assert "--topic" not in configured.stderr and configured.stderr.count("\n") == 1
    assert 'e.g. --topic "agnets papers"' in typo.stderr  # the flag's typo: the flag


def test_a_bad_topic_file_never_stops_commands_that_do_not_use_it(cli, isolated_home):
    path = _topic_file(isolated_home, "graphs", 'description = "x"\nkeywordz = ["a"]\n')
    ok = cli("score", "--sample", "--topic", "moe", "--json", "--limit", "1")
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr.count(f"skipped topic 'graphs' ({path}, line 2:") == 1
    stopped = cli("score", "--sample", "--topic", "graphs", "--json", "--limit", "1")
    assert stopped.returncode == 2 and f"{path}, line 2:" in stopped.stderr
    assert "keywordz" in stopped.stderr


@pytest.mark.parametrize(("text", "line"), [
    ('description = "x"\nkeywords = ["a", "b"\n', 2),  # tomllib: "at end of document"
    ('description = "x"\nkeywords = ["a", "b"\nexclude = ["c"]\n', 2),  # tomllib: line 3
    ('name = "t"\n\ndescription = """x\n\nkeywords = ["a"]\n', 3),
    ('keywords = [\n  "a",\n  bad,\n]\n', 3),  # inside a closed array: tomllib's own line
])
def test_a_value_not_closed_is_placed_on_the_line_it_begins(isolated_home, text, line):
    """An unclosed array on line 2 was reported at line 1 (tomllib says "end of document",
    and the line fell back to the file's first) or at the next key's line."""
    path = _topic_file(isolated_home, "broken", text)
    with pytest.raises(ConfigError) as info:
        resolve_topic("broken", load_config())
    assert f"{path}, line {line}: invalid TOML" in str(info.value)
    assert len(str(info.value).splitlines()) == 1


def test_a_typo_of_the_config_topic_never_stops_search_and_starred(cli, isolated_home):
    """search and starred do not rank by the topic (nor take --topic to work around it):
    they list, without scores, and say once that the config's topic is not defined."""
    import json

    first = cli("score", "--sample", "--topic", "moe", "--json", "--limit", "1")
    assert first.returncode == 0, first.stderr
    pid = json.loads(first.stdout.splitlines()[0])["id"]
    assert cli("star", pid, "--topic", "moe").returncode == 0
    _config_with(isolated_home, 'topic = "agnets"\n')
    for args in (("search", "learning"), ("starred",)):
        run = cli(*args)
        assert run.returncode == 0, run.stderr
        assert run.stderr.count("did you mean 'agents'?") == 1, run.stderr
        assert "listed without scores" in run.stderr and "Traceback" not in run.stderr
        assert run.stdout.strip()
    assert pid in cli("starred").stdout
    # a topic given on the command line must still be one
    assert cli("starred", "--topic", "agnets").returncode == 2
    # a command that ranks by the topic still stops on it
    assert cli("eval").returncode == 2
