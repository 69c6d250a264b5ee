"""Followed authors (issue 12, item 5): the `follow` lists of the config and of a topic, how
names match, and the boost and reason they give in the local score."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from paperterm.scoring import local_scores
from paperterm.scoring.local import rank_locally
from paperterm.scoring.local.follow import FOLLOW_BOOST, local_key
from paperterm.settings.config import ConfigError, parse_config
from paperterm.store import Store
from paperterm.topics import all_topics, resolve_topic
from paperterm.topics.follows import Followed, following, merged, name_key

FEED = Path(__file__).resolve().parents[2] / "examples" / "arxiv-2026-02-25.xml"


@pytest.mark.parametrize("spelled", [
    "Rémi Munos", "R\\'emi Munos", "R\\'{e}mi Munos", "Munos, Rémi", "remi  munos",
    "Rémi Munos (Google DeepMind)", "RÉMI MUNOS",
])
def test_a_name_matches_however_it_is_spelled(spelled):
    assert name_key(spelled) == name_key("Remi Munos")
    assert Followed(["Rémi Munos"]).follows(spelled)


def test_other_names_do_not_match():
    followed = Followed(["Tri Dao"])
    assert not followed.follows("Tri Daoud")
    assert not followed.follows("Dao")
    assert not Followed([" ", ""])  # nothing usable: nobody followed


def test_merged_lists_keep_each_name_once():
    assert merged(["Tri Dao", "Munos, Rémi"], ["tri dao", "Noam Shazeer"]) == (
        "Tri Dao", "Munos, Rémi", "Noam Shazeer")


def test_the_config_has_a_global_follow_list_and_checks_it():
    cfg = parse_config({"follow": ["Tri Dao", "  "]}, "c.toml")
    assert cfg.follow == ["Tri Dao"]
    with pytest.raises(ConfigError, match="key 'follow': expected a list of strings"):
        parse_config({"follow": "Tri Dao"}, "c.toml")


def test_a_topic_has_its_own_follow_list_outside_its_criteria():
    cfg = parse_config({"topics": {"mine": {"description": "x", "keywords": ["moe"],
                                            "follow": ["Tri Dao"]}}}, "c.toml")
    topic = all_topics(cfg)["mine"]
    assert topic.follow == ("Tri Dao",)
    # following someone never invalidates the model's cached scores
    assert topic.fingerprint == replace(topic, follow=()).fingerprint
    with pytest.raises(ConfigError, match="'follow' expected a list of strings"):
        resolve_topic("m", parse_config({"topics": {"m": {"description": "x", "follow": 3}}},
                                        "c"))


def test_a_followed_authors_paper_is_boosted_and_says_why(day, topic):
    plain = local_scores(day, topic)
    low = min(range(len(day)), key=lambda i: (plain[i].relevance, -i))
    paper = day[low]
    author = paper.authors[0]
    boosted = local_scores(day, following(topic, [author]))
    assert boosted[low].relevance == min(10, plain[low].relevance + FOLLOW_BOOST)
    assert boosted[low].reason.startswith(f"followed: {author}; ")
    others = [i for i, p in enumerate(day) if not Followed([author]).authors_of(p)]
    assert all(boosted[i] == plain[i] for i in others)


def test_the_local_cache_is_kept_apart_per_follow_list(day, topic, tmp_path):
    store = Store.open(tmp_path / "db.sqlite3")
    try:
        followed = following(topic, [day[-1].authors[0]])
        assert local_key(followed) != local_key(topic) == topic.fingerprint
        first = rank_locally(store, day, topic, day="d", keywords_only=True)
        second = rank_locally(store, day, followed, day="d", keywords_only=True)
        assert first != second
        assert second == rank_locally(store, day, followed, day="d", keywords_only=True,
                                      compute=False)
    finally:
        store.close()


def test_score_follows_the_configs_list(cli, isolated_home, day):
    paper = day[-1]
    isolated_home.config.parent.mkdir(parents=True)
    isolated_home.config.write_text(f'follow = ["{paper.authors[0]}"]\n')
    r = cli("score", "--feed", str(FEED), "--scorer", "local", "--json")
    assert r.returncode == 0
    rows = {json.loads(line)["id"]: json.loads(line) for line in r.stdout.splitlines()}
    assert rows[paper.id]["reason"].startswith(f"followed: {paper.authors[0]}")


def test_the_config_topic_and_reader_follows_are_merged_once_in_one_place(tmp_path):
    from paperterm.models import Topic
    from paperterm.topics.follows import with_follows

    topic = Topic("t", "d", follow=("Ada Lovelace",))
    store = Store.open(tmp_path / "db.sqlite3")
    try:
        store.marks.set_followed("Alan Turing", name_key("Alan Turing"), True)
        store.marks.set_followed("ada lovelace", name_key("ada lovelace"), True)
        merged_topic = with_follows(topic, ["Grace Hopper", "Turing, Alan"], store)
        assert merged_topic.follow == ("Ada Lovelace", "Grace Hopper", "Turing, Alan")
        assert with_follows(merged_topic, ["Grace Hopper"], store) == merged_topic  # again
    finally:
        store.close()
    # a closed (unreadable) store only loses the reader's follows
    assert with_follows(topic, ["Grace Hopper"], store).follow == ("Ada Lovelace",
                                                                   "Grace Hopper")
