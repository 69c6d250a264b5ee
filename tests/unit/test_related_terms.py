"""A topic in a few words gets the field's own words for its areas (issue 30): "model
compression" also finds "post-training quantization", a related term counts as weak
evidence with its own reason, what the topic turns down never becomes a related term, and
an application cue the topic itself names ("robot") does not count against its papers."""

from __future__ import annotations

from paperterm.models import Paper, Topic
from paperterm.scoring.local import keywords
from paperterm.scoring.local.cues import cues
from paperterm.settings.config import Config
from paperterm.topics import resolve_topic

FILLER = ("We study a problem and report results on standard benchmarks with careful "
          "ablations and a discussion of limitations. ")


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, 1, title, ("A. Author",), abstract + " " + FILLER, ("cs.LG",), "cs.LG")


QUANT = _paper("2602.00001", "Post-training quantization of large language models to 4 bits",
               "We propose a post-training quantization scheme that keeps accuracy at 4-bit "
               "weights.")
OTHER = _paper("2602.00002", "Graph coloring heuristics for scheduling",
               "We schedule exams with a greedy graph coloring heuristic.")


def _free(text: str) -> Topic:
    return resolve_topic(text, Config()).topic


def test_a_topic_naming_an_area_finds_papers_in_the_areas_own_words():
    topic = _free("model compression and efficient inference")
    quant, other = keywords.local_scores([QUANT, OTHER], topic)
    assert "related: " in quant.reason and "quantization" in quant.reason, quant.reason
    assert (quant.fine or 0) > (other.fine or 0)
    assert quant.relevance is not None and quant.relevance >= 2


def test_without_the_related_terms_the_paper_matched_nothing():
    """The test above can fail: the same topic without its area ("graph coloring") gives
    the quantization paper no evidence at all."""
    (quant,) = keywords.local_scores([QUANT], _free("graph coloring"))
    assert quant.reason == "no match" and quant.relevance == 1


def test_what_the_topic_turns_down_is_never_a_related_term():
    topic = Topic("mine", "model compression; not interested in quantization",
                  exclude=("quantization",), source="test")
    assert "post-training quantization" not in keywords.topic_related(topic)
    assert "pruning" in keywords.topic_related(topic)


def test_a_topic_with_keywords_of_its_own_gets_no_related_terms():
    topic = Topic("mine", "model compression", keywords=("pruning",), source="test")
    assert keywords.topic_related(topic) == ()


def test_an_application_cue_the_topic_names_does_not_count_against_its_papers():
    paper = Paper("2602.00003", 1, "Learning to grasp with a robot hand", ("A. Author",),
                  "A robot learns to grasp objects from few demonstrations.", ("cs.RO",),
                  "cs.RO")
    (plain,) = cues([paper])
    (own,) = cues([paper], own=["robot learning"])
    assert plain.application  # "robot" (written "robotic", the same stem)
    assert not own.application
    assert own.lift > plain.lift


ZERO_SHOT = _paper("2602.00004", "Zero-shot forecasting with foundation models",
                   "We forecast in a zero-shot setting and clip outliers with gradient "
                   "clipping.")
ZERO = _paper("2602.00005", "Sharding optimizer states across GPUs",
              "We extend ZeRO-3 with a new partition of optimizer states.")


def test_an_acronym_related_term_counts_only_as_written():
    """"ZeRO" (a related term of large-scale training) and "CLIP" (of multimodal) are
    ordinary words in lower case: "zero-shot" and "gradient clipping" are not them."""
    training = _free("large-scale training")
    zero_shot, zero = keywords.local_scores([ZERO_SHOT, ZERO], training)
    assert "ZeRO" not in zero_shot.reason, zero_shot.reason
    assert "ZeRO" in zero.reason, zero.reason
    (clip,) = keywords.local_scores([ZERO_SHOT], _free("multimodal"))
    assert "CLIP" not in clip.reason, clip.reason


def test_an_acronym_counts_in_its_plural_and_a_phrase_in_any_case():
    vaes = _paper("2602.00006", "Hierarchical VAEs for images",
                  "Deep VAEs learn a latent hierarchy.")
    (hit,) = keywords.local_scores([vaes], _free("generative model"))
    assert "VAE" in hit.reason, hit.reason
    kv = _paper("2602.00007", "Evicting entries from the kv cache",
                "A kv cache policy for long prompts.")
    (kv_hit,) = keywords.local_scores([kv], _free("efficient inference"))
    assert "KV cache" in kv_hit.reason, kv_hit.reason


def test_serving_counts_as_model_serving_not_as_serving_as():
    serving_as = _paper("2602.00008", "A graph prior for molecules",
                        "A pretrained encoder serving as a prior for molecule design.")
    llm_serving = _paper("2602.00009", "Scheduling requests in LLM serving",
                         "We schedule prefill and decode for LLM serving at scale.")
    generic, specific = keywords.local_scores([serving_as, llm_serving],
                                              _free("efficient inference"))
    assert "serving" not in generic.reason, generic.reason
    assert "LLM serving" in specific.reason, specific.reason
