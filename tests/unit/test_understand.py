"""A topic in any words (issue 30 §1): criteria, prose, keywords, one line; `topics show`
and `topics new`. Real SQLite, the real ranking, no network."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from paperterm.cli import main
from paperterm.models import Paper
from paperterm.scoring.local.keywords import local_scores
from paperterm.settings.config import Config
from paperterm.topics import _topic_from_table, all_topics, resolve_topic
from paperterm.topics.understand import understand

ROOT = Path(__file__).resolve().parents[2]
CRITERIA = """## Relevant Topics

1. Model Architecture
   - Relevant: Mixture-of-Experts (MoE), conditional networks.
   - Irrelevant: Applying a standard architecture to a task.

2. Model Compression - Relevant: pruning, quantization. - Not relevant: new datasets.

Keywords:
 - Relevant: Sparsity, Low-rank, etc.
 - Irrelevant: Reinforcement Learning, Diffusion Models, etc.

## Scoring Criteria
Relevance Score:
 - 9-10: Directly about one of the topics above.
"""


def paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, 1, title, ("A",), abstract, ("cs.LG",), "cs.LG")


def ranked(papers: list[Paper], topic) -> list:  # type: ignore[no-untyped-def]
    """The scores of `papers` on a day of 40 other papers (how common a word is counts)."""
    others = [paper(f"x{i}", f"A study of topic {i} in weather data", "We study weather.")
              for i in range(40)]
    return local_scores(papers + others, topic)[: len(papers)]


def test_criteria_headers_and_rubric_are_structure_never_words():
    u = understand(CRITERIA)
    assert u.form == "criteria"
    assert [a.split(":")[0] for a in u.areas] == ["Model Architecture", "Model Compression"]
    words = " ".join(u.phrases).lower()
    for header in ("topics", "relevant", "keywords", "scoring", "criteria", "e.g", "9-10"):
        assert header not in words.split()
    assert {"MoE", "pruning", "quantization", "Sparsity", "Low-rank"} <= set(u.phrases)
    assert "Reinforcement Learning" in u.excluded and "Diffusion Models" in u.excluded
    assert any("new datasets" in t for t in u.turned_down)
    # a paper on topic classification is not matched by the header word "topics"
    topic = resolve_topic(CRITERIA, Config()).topic
    scores = ranked([paper("1", "Sentence-level Topic Classification in Nepali", "We "
                                 "classify topics of sentences."),
                           paper("2", "Pruning mixture of experts", "We prune MoE layers.")],
                          topic)
    assert scores[0].relevance == 1 and scores[1].relevance > 1


def test_a_turned_down_sentence_pushes_papers_down():
    prose = ("I read papers on graph neural networks and message passing. "
             "I am not interested in molecular property prediction or drug discovery.")
    u = understand(prose)
    assert u.form == "prose"
    assert any("molecular" in t for t in u.turned_down)
    assert not any("molecular" in a for a in u.areas)
    assert "molecular property prediction" in u.excluded
    topic = resolve_topic(prose, Config()).topic
    on, off = ranked([
        paper("1", "Message passing in graph neural networks", "We study message passing."),
        paper("2", "Graph neural networks for molecular property prediction",
              "Graph neural networks and message passing for molecular property prediction."),
    ], topic)
    assert off.fine < on.fine


def test_one_line_is_split_into_areas_at_commas_and_and():
    line = "mixture of experts, model compression and efficient inference, large-scale training"
    topic = resolve_topic(line, Config()).topic
    assert topic.areas == ("mixture of experts", "model compression", "efficient inference",
                           "large-scale training")
    assert "mixture of experts" in topic.phrases  # "of" kept inside a phrase
    assert "e.g" not in topic.phrases and "large" not in topic.phrases


def test_a_topic_file_without_description_works(isolated_home):
    folder = Path(isolated_home.config).parent / "topics"
    folder.mkdir(parents=True)
    (folder / "kw.toml").write_text('keywords = ["speculative decoding", "KV cache"]\n'
                                    'exclude = ["medical imaging", "speech", "robotics"]\n')
    topic = all_topics(Config(path=Path(isolated_home.config)))["kw"]
    assert "speculative decoding" in topic.description  # derived for the LLM prompt
    assert topic.foundational  # it turns application domains down
    assert _topic_from_table("t", {"keywords": ["a b"]}, "here").description


def test_the_built_in_topics_are_read_as_they_always_were():
    from paperterm.topics import builtin_topics

    for topic in builtin_topics().values():
        assert topic.areas == () and topic.turned_down == () and topic.phrases == ()


def test_topics_show_free_text_and_new_from_stdin(isolated_home, capsys, monkeypatch):
    assert main(["score", "--feed", str(ROOT / "examples" / "arxiv-2026-02-25.xml"),
                 "--limit", "1"]) == 0
    capsys.readouterr()
    assert main(["topics", "show", "speculative decoding, KV cache and pruning"]) == 0
    out = capsys.readouterr().out
    assert "understood as: one line" in out
    assert "  - speculative decoding" in out and "  - KV cache" in out
    assert "foundational: yes" in out
    assert "top 10 of 2026-02-25" in out and out.count("why: ") == 10

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        b"I read papers on pruning and quantization. I skip papers on robotics.")))
    monkeypatch.setattr("paperterm.io.limits.read_stdin",
                        lambda what, cap, seconds=0: sys.stdin.buffer.read())
    assert main(["topics", "new", "mine", "--from-text", "-"]) == 0
    cap = capsys.readouterr()
    written = Path(isolated_home.config).parent / "topics" / "mine.toml"
    assert written.exists() and "written:" in cap.err
    assert "understood as: prose" in cap.out and "I skip papers on robotics." in cap.out
    assert main(["topics", "show", "mine"]) == 0
    assert "topic: mine" in capsys.readouterr().out
    assert main(["topics", "new", "mine", "--from-text", "-"]) == 2  # never overwritten


@pytest.mark.parametrize("name", ["../x", "a b", ""])
def test_topics_new_refuses_a_bad_name(isolated_home, tmp_path, name):
    text = tmp_path / "t.txt"
    text.write_text("pruning")
    assert main(["topics", "new", name, "--from-text", str(text)]) == 2


def test_topics_show_and_new_are_in_the_completions_and_the_man_page(isolated_home, capsys):
    assert main(["completions", "bash"]) == 0
    bash = capsys.readouterr().out
    assert 'words="show new"' in bash and "topics:--from-text) _paperterm_files" in bash
    assert main(["manpage"]) == 0
    page = capsys.readouterr().out
    assert "show|new" in page and "from\\-text" in page


def test_an_excluded_phrase_whose_initials_are_a_stop_word_damps_nothing():
    topic = _topic_from_table("t", {"keywords": ["pruning"],
                                    "exclude": ["image segmentation", "time series"]}, "here")
    plain, excluded = ranked([paper("1", "Pruning", "This is pruning. It is fast."),
                              paper("2", "Pruning", "Time series pruning with TS data.")],
                             topic)
    assert "excluded" not in plain.reason and "excluded: time series" in excluded.reason


def test_a_keywords_only_file_is_shown_and_measured_from_its_keywords(isolated_home, capsys):
    """No description: `topics show` said it was read from the description's 'Relevant:'
    parts, and the text closeness was measured to held the name, 'Relevant:', what it
    excludes and the keywords twice."""
    from paperterm.scoring.local.areas import topic_areas, turned_down

    folder = Path(isolated_home.config).parent / "topics"
    folder.mkdir(parents=True)
    (folder / "kw.toml").write_text('keywords = ["speculative decoding", "KV cache"]\n'
                                    'exclude = ["medical imaging", "speech"]\n')
    topic = all_topics(Config(path=Path(isolated_home.config)))["kw"]
    assert topic_areas(topic) == ["speculative decoding, KV cache"]
    assert turned_down(topic) == ["medical imaging, speech"]
    assert topic.description == ("Relevant: speculative decoding, KV cache. "
                                 "Not relevant: medical imaging, speech.")
    assert main(["topics", "show", "kw"]) == 0
    out = capsys.readouterr().out
    assert "understood as: keywords" in out and "read from the description" not in out
    assert "made from its keywords" in out and "Relevant: speculative decoding" in out
    assert "areas:\n  - speculative decoding, KV cache\n" in out


def test_topics_show_says_why_a_file_is_foundational(isolated_home, capsys):
    folder = Path(isolated_home.config).parent / "topics"
    folder.mkdir(parents=True)
    (folder / "a.toml").write_text('keywords = ["pruning"]\n'
                                   'exclude = ["medical imaging", "speech", "robotics"]\n')
    (folder / "b.toml").write_text('keywords = ["pruning"]\nfoundational = false\n'
                                   'exclude = ["medical imaging", "speech", "robotics"]\n')
    assert main(["topics", "show", "a"]) == 0
    assert "foundational: yes (it turns application domains down)" in capsys.readouterr().out
    assert main(["topics", "show", "b"]) == 0
    assert "foundational: no (the topic says so)" in capsys.readouterr().out


@pytest.mark.parametrize("text", [
    "I work on pruning and quantization, but I am not interested in LLM agents or prompting "
    "tricks.",
    "I work on pruning and quantization\nNot interested in LLM agents or prompting tricks",
    "I read about pruning and quantization except LLM agents or prompting tricks.",
    "I read about pruning and quantization, not LLM agents or prompting tricks.",
    "I read about pruning and quantization. LLM agents or prompting tricks: not interested.",
    "pruning and quantization, not interested in LLM agents or prompting tricks",
])
def test_what_a_sentence_turns_down_is_excluded_whole_and_the_rest_kept(text):
    """Both parts of "not interested in LLM agents or prompting tricks" are turned down
    (the one line read them as areas), and what the sentence asks for is kept (the whole
    sentence was turned down)."""
    u = understand(text)
    assert {"LLM agents", "prompting tricks"} <= set(u.excluded)
    assert {"pruning", "quantization"} <= set(u.phrases)
    assert not {"LLM agents", "prompting tricks"} & set(u.phrases)
    assert not any("agents" in a for a in u.areas)


def test_a_paragraph_after_pasted_criteria_is_read_and_wrapped_bodies_joined():
    text = CRITERIA.replace("## Scoring Criteria", (
        "I also follow distributed training and expert parallelism.\n"
        "I am not interested in LLM agents or prompting tricks.\n\n## Scoring Criteria"))
    text = text.replace("Irrelevant: Reinforcement Learning, Diffusion Models, etc.",
                        "Irrelevant: Reinforcement Learning, Diffusion\n   Models, etc.")
    u = understand(text)
    assert {"distributed training", "expert parallelism"} <= set(u.phrases)
    assert {"LLM agents", "prompting tricks", "Diffusion Models"} <= set(u.excluded)
    assert "Diffusion" not in u.excluded  # the wrapped body is one
    assert [a.split(":")[0] for a in u.areas][:2] == ["Model Architecture",
                                                       "Model Compression"]
    assert "9-10" not in " ".join(u.phrases + u.areas)


@pytest.mark.parametrize(("text", "why"), [
    ("Relevant Topics\nScoring Criteria\n", "only headers"),
    ("## Relevant Topics\n\nScoring Criteria\n - 9-10: on topic\n", "only headers"),
    ("I am not interested in robotics.", "only what to turn down"),
])
def test_topics_new_refuses_a_text_with_nothing_to_rank_by(isolated_home, tmp_path, capsys,
                                                           text, why):
    source = tmp_path / "t.txt"
    source.write_text(text)
    assert main(["topics", "new", "mine", "--from-text", str(source)]) == 2
    err = capsys.readouterr().err
    assert "nothing to rank by" in err and why in err and len(err.strip().splitlines()) == 1
    assert not (Path(isolated_home.config).parent / "topics" / "mine.toml").exists()


def test_headers_are_never_words_of_a_one_line_topic():
    u = understand("Relevant Topics\nmixture of experts, pruning")
    assert u.areas == ["mixture of experts", "pruning"]
