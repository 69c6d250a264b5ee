"""Topics: built-ins, user topics (config table and topics/ files), ad-hoc free text."""

from __future__ import annotations

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
    path = _topic_file(isolated_home, "broken", text)
    with pytest.raises(ConfigError) as info:
        all_topics(load_config())
    assert str(path) in str(info.value)
    assert needle in str(info.value)


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
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
