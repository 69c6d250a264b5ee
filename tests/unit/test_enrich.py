"""Enrichment (issue 14, item 4): code links found offline, Hugging Face daily papers and
Semantic Scholar batches answered by local servers with recorded responses, the cache, the
`paperterm enrich` command and the list's sorts and filters."""

from __future__ import annotations

import json
from datetime import date

import pytest

from paperterm.day.listing import FilterState, filter_entries, make_entries, sort_entries
from paperterm.models import Paper
from paperterm.outputs.enrich.hf import daily_dates, fetch_hf
from paperterm.outputs.enrich.http import EnrichError
from paperterm.outputs.enrich.links import code_links
from paperterm.outputs.enrich.s2 import fetch_s2
from paperterm.signals import Signals, signals
from paperterm.store import Store

DAY = date(2026, 2, 25)  # the bundled sample day


def test_code_links_finds_repositories_once_and_normalised() -> None:
    text = ("Code: https://github.com/foo/bar-baz.git. See github.com/foo/bar-baz/tree/main, "
            "gitlab.com/group/proj), the model at hf.co/org/model and the data at "
            "https://huggingface.co/datasets/org/data. Our page huggingface.co/papers/2602.1 "
            "and https://github.com/features/actions are not code.")
    assert code_links(text) == ["https://github.com/foo/bar-baz", "https://gitlab.com/group/proj",
                                "https://huggingface.co/org/model",
                                "https://huggingface.co/datasets/org/data"]
    assert code_links("No code released.") == []


def test_semantic_scholar_batches_with_key_fields_and_pacing(fake_enrich) -> None:
    waits: list[float] = []
    got = fetch_s2(["2602.20175", "2602.20191", "2602.99999"], api_key="k-123", batch=2,
                   sleep=waits.append)
    assert [ids for ids, _, _ in fake_enrich.s2_calls] == [
        ["arXiv:2602.20175", "arXiv:2602.20191"], ["arXiv:2602.99999"]]
    assert all(h.get("x-api-key") == "k-123" for _, h, _ in fake_enrich.s2_calls)
    assert "authors.hIndex" in fake_enrich.s2_calls[0][2]
    assert "citationCount" in fake_enrich.s2_calls[0][2]
    assert waits == [1.1]  # one request a second between batches
    assert got["2602.20175"] == {"citations": 17, "influential": 2, "h_index": 31,
                                 "tldr": "Routes tokens to experts with a learned gate.",
                                 "paper_id": "0f1e2d3c4b5a69788796a5b4c3d2e1f001122334"}
    assert got["2602.20191"]["citations"] == 0 and got["2602.20191"]["tldr"] == ""
    assert got["2602.99999"] is None


def test_answers_are_cleaned_of_terminal_escapes(fake_enrich) -> None:
    fake_enrich.s2_papers["arXiv:2602.20191"]["tldr"] = {"text": "Bad\x1b[2J\u202e text\x9b"}
    got = fetch_s2(["2602.20191"])
    assert got["2602.20191"]["tldr"] == "Bad text"


def test_semantic_scholar_key_comes_from_s2_api_key(fake_enrich, monkeypatch) -> None:
    fetch_s2(["2602.20175"])
    assert "x-api-key" not in fake_enrich.s2_calls[-1][1]
    monkeypatch.setenv("S2_API_KEY", "from-env")
    fetch_s2(["2602.20175"])
    assert fake_enrich.s2_calls[-1][1]["x-api-key"] == "from-env"


def test_semantic_scholar_refusing_author_fields_still_gives_citations(fake_enrich) -> None:
    fake_enrich.refuse_author_fields = True
    got = fetch_s2(["2602.20175", "2602.20191"], batch=1, sleep=lambda s: None)
    assert [("authors." in f) for _, _, f in fake_enrich.s2_calls] == [True, False, False]
    assert got["2602.20175"]["citations"] == 17 and got["2602.20191"]["citations"] == 0


def test_semantic_scholar_429_waits_retry_after_then_succeeds(fake_enrich) -> None:
    fake_enrich.busy["s2"], fake_enrich.retry_after = 2, "7"
    waits: list[float] = []
    got = fetch_s2(["2602.20175"], sleep=waits.append)
    assert waits == [7.0, 7.0] and len(fake_enrich.s2_calls) == 3
    assert got["2602.20175"]["citations"] == 17


def test_semantic_scholar_rate_limit_that_never_ends_is_one_line(fake_enrich) -> None:
    fake_enrich.busy["s2"], fake_enrich.retry_after = 99, "1"
    with pytest.raises(EnrichError, match=r"^Semantic Scholar: HTTP 429: rate limited"):
        fetch_s2(["2602.20175"], sleep=lambda s: None)
    fake_enrich.busy["s2"], fake_enrich.retry_after = 1, "3600"  # too long to wait for
    with pytest.raises(EnrichError, match="429"):
        fetch_s2(["2602.20175"], sleep=lambda s: pytest.fail("waited an hour"))


def test_hugging_face_daily_papers_by_date(fake_enrich) -> None:
    dates = daily_dates(DAY, date(2026, 11, 1))
    assert dates == [date(2026, 2, 25), date(2026, 2, 26), date(2026, 2, 27)]
    assert daily_dates(DAY, DAY) == [DAY]  # never past today
    got = fetch_hf(["2602.20175", "2602.20197", "2602.20191"], dates)
    assert [c["date"] for c in fake_enrich.hf_calls] == ["2026-02-25", "2026-02-26",
                                                          "2026-02-27"]
    assert got["2602.20175"] == {"upvotes": 42, "comments": 3,
                                 "github": "https://github.com/example/moe-router",
                                 "stars": 310}
    assert got["2602.20197"]["upvotes"] == 5 and got["2602.20197"]["github"] == ""
    assert got["2602.20191"] is None
    assert "2501.00001" not in got  # only the papers asked about


def test_hugging_face_429_honours_retry_after(fake_enrich) -> None:
    fake_enrich.busy["hf"], fake_enrich.retry_after = 1, "4"
    waits: list[float] = []
    got = fetch_hf(["2602.20175"], [date(2026, 2, 26)], sleep=waits.append)
    assert waits == [4.0] and got["2602.20175"]["upvotes"] == 42


def test_unreachable_sources_are_one_line_errors() -> None:
    with pytest.raises(EnrichError, match=r"^Hugging Face: cannot reach"):
        fetch_hf(["2602.20175"], [DAY])
    with pytest.raises(EnrichError, match=r"^Semantic Scholar: cannot reach"):
        fetch_s2(["2602.20175"])


# -- the command --------------------------------------------------------------------------


def test_enrich_command_fetches_caches_and_reuses(cli, fake_enrich, isolated_home) -> None:
    r = cli("enrich", "--sample", "--json")
    assert r.returncode == 0, r.stderr
    rows = {row["id"]: row for row in map(json.loads, r.stdout.splitlines())}
    assert rows["2602.20175"]["upvotes"] == 42 and rows["2602.20175"]["citations"] == 17
    assert rows["2602.20175"]["h_index"] == 31
    assert "https://github.com/example/moe-router" in rows["2602.20175"]["code"]
    assert rows["2602.20197"]["code"] == ["https://github.com/zhh6425/CalibRL"]  # abstract
    assert "hf: 2 of 244 found" in r.stderr and "s2: 2 of 244" in r.stderr
    calls = (len(fake_enrich.hf_calls), len(fake_enrich.s2_calls))
    r = cli("enrich", "--sample")
    assert r.returncode == 0 and "244 cached" in r.stdout
    assert (len(fake_enrich.hf_calls), len(fake_enrich.s2_calls)) == calls  # not asked again
    r = cli("enrich", "--sample", "--source", "s2", "--force")
    assert r.returncode == 0 and len(fake_enrich.s2_calls) == calls[1] + 1
    assert len(fake_enrich.hf_calls) == calls[0]


def test_enrich_offline_finds_code_links_and_asks_no_one(cli, fake_enrich) -> None:
    r = cli("enrich", "--sample", "--offline")
    assert r.returncode == 0, r.stderr
    assert "links: 22 of 244 found" in r.stdout
    assert "hf: skipped (offline)" in r.stdout and "s2: skipped (offline)" in r.stdout
    assert fake_enrich.hf_calls == [] and fake_enrich.s2_calls == []


def test_enrich_unreachable_is_exit_1_in_one_line_and_keeps_the_rest(cli) -> None:
    r = cli("enrich", "--sample")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert "hf: failed (Hugging Face: cannot reach" in r.stdout
    assert "links: 22 of 244 found" in r.stdout  # the offline part is still cached


def test_enrich_sources_from_flag_and_config(cli, fake_enrich, isolated_home) -> None:
    assert cli("enrich", "--sample", "--source", "bogus").returncode == 2
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text('enrich = ["links", "s2"]\n')
    r = cli("enrich", "--sample")
    assert r.returncode == 0 and "hf:" not in r.stdout and fake_enrich.hf_calls == []
    assert len(fake_enrich.s2_calls) == 1
    isolated_home.config.write_text('enrich = ["links", "github"]\n')
    r = cli("enrich", "--sample", "--offline")
    assert r.returncode == 2 and "enrich" in r.stderr and "github" in r.stderr


# -- what the reader shows ------------------------------------------------------------------


def _paper(pid: str) -> Paper:
    return Paper(pid, 1, f"Paper {pid}", ("A. Author",), "An abstract.", ("cs.LG",), "cs.LG")


def test_signals_sort_and_filter_the_list(isolated_home) -> None:
    store = Store.open(isolated_home.db)
    cache = store.enrichment
    cache.put_enrichment("hf", {"1": {"upvotes": 3, "github": "https://github.com/a/b"},
                                "2": {"upvotes": 40}, "3": None})
    cache.put_enrichment("s2", {"1": {"citations": 9, "h_index": 5}, "3": {"citations": 100}})
    from paperterm.signals import load_signals

    found = load_signals(store.enrichment, ["1", "2", "3", "4"])
    store.close()
    assert set(found) == {"1", "2", "3"}
    assert found["1"] == Signals(upvotes=3, citations=9, h_index=5,
                                 code=("https://github.com/a/b",))
    assert found["1"].marker() == "⎇ ▲3 9c" and found["2"].marker() == "  ▲40"
    entries = make_entries([_paper(i) for i in "1234"])
    for e in entries:
        e.signals = found.get(e.id)
    ids = lambda es: [e.id for e in es]  # noqa: E731
    assert ids(sort_entries(entries, "upvotes")) == ["2", "1", "3", "4"]
    assert ids(sort_entries(entries, "citations")) == ["3", "1", "2", "4"]
    assert ids(sort_entries(entries, "citations", reverse=True)) == ["1", "3", "2", "4"]
    state = FilterState(code_only=True)
    assert ids(filter_entries(entries, state)) == ["1"] and state.describe() == ["code"]


def test_signals_lines_for_the_preview() -> None:
    s = signals({"hf": {"upvotes": 42, "stars": 310, "github": "https://github.com/x/y/"},
                 "s2": {"citations": 17, "influential": 2, "h_index": 31, "tldr": "A  gate."},
                 "links": {"urls": ["https://github.com/x/y"]}})
    assert s.code == ("https://github.com/x/y",)  # the same repository once
    assert s.lines() == ["▲ 42 upvotes on Hugging Face, ★ 310 GitHub stars",
                         "17 citations (2 influential), top author h-index 31 "
                         "(Semantic Scholar)", "TL;DR: A gate.", "Code: https://github.com/x/y"]
