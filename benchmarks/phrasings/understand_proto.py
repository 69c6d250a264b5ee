"""A prototype topic-text parser (issue 30), standalone: text in any of the four forms ->
a `Topic` the CURRENT ranking code understands, with no change to src/.

    python benchmarks/measure_phrasings.py \
        --understand benchmarks/phrasings/understand_proto.py:understand
    python benchmarks/phrasings/understand_proto.py benchmarks/phrasings/prose.txt
    (the second prints how a text was understood)

What it does (see `Understood`): finds the form (a TOML topic file, gpt_paper_assistant
criteria, first-person prose, one line), and from it
- areas: one per numbered/named area (its name and its "Relevant:" text), per positive
  sentence of prose, per comma/"and" item of a line;
- phrases: the short items of those areas (<= 4 content words, no first-person filler,
  headers and rubric never), and the summary "Relevant:" keyword list; acronyms written
  in parentheses ("Mixture of Experts (MoE)") kept as their own phrase;
- turned down: "Irrelevant:"/"Not relevant:"/"Application:" parts, prose sentences or
  clauses that turn things down ("I skip", "not interested in", "rather than", "except");
  their short items become `exclude`, the sentences the "Not relevant:" areas;
- foundational: the text asks for foundations/theory or turns down applications (or the
  excludes name two or more application domains).
It renders these as `description = "Relevant: area; area; ... Not relevant: part; ..."`
(the structure `areas.py` and `keywords.py` already read), `keywords`, `exclude` and
`foundational`, so the current blend can be measured on it. The real parser should give
`Topic` explicit `areas`/`turned_down` fields instead of round-tripping through text.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from paperterm.models import Topic

# filler of first-person or instruction text: never part of a phrase
FILLER = frozenset("""
i me my we our you your us a an the and or of in on for to with about into from by at as
is are be been was were it its this that these those which who whose what how why when
where read reading follow care like love want need lot lots really especially ideally
also above all finally always welcome whether rather than very much more most other
others some any such e g eg ie etc please use criteria below pick papers paper work
works things thing stuff interested interest making make faster smaller cheaper better
redesign understand built push mainly mostly particular particularly either ways way new
good strong just simply only so do does not no nor but then there their them they area
areas topic topics relevant irrelevant including include includes e.g i.e kind kinds
sort
""".split())  # noqa: SIM905
HEADERS = re.compile(r"^\s*(#+.*|relevant topics?:?|scoring criteria:?|keywords?:?|"
                     r"topics?:?|criteria:?|summary:?)\s*$", re.IGNORECASE)
RUBRIC = re.compile(r"^\s*(#+\s*)?(scoring criteria|relevance score|novelty score|"
                    r"scoring)\b", re.IGNORECASE)
NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*]\s+\*\*|\*\*)\s*(.+?)\**\s*$")
LABELLED = re.compile(r"(?:^|\s)[-*]?\s*(relevant|irrelevant|not relevant|application[s]?)"
                      r"\s*:\s*", re.IGNORECASE)
NEGATIVE_SENTENCE = re.compile(
    r"\b(skip|skipping|not interested|no interest|don't|do not|never|avoid|ignore|exclude|"
    r"except|irrelevant|not relevant|uninterested|leave out|less interested)\b", re.IGNORECASE)
NEGATIVE_CLAUSE = re.compile(r"\b(rather than|instead of|but not|except|not)\b", re.IGNORECASE)
FOUNDATIONAL = re.compile(
    r"\b(foundation(?:al|s)|theory|theoretical|not applications?|rather than appl\w*|"
    r"fundamental)\b", re.IGNORECASE)
APPLICATION_DOMAINS = ("medical", "clinical", "imaging", "segmentation", "time series",
                       "speech", "audio", "recommendation", "retrieval", "robot", "driving",
                       "finance", "biology", "chemistry", "traffic", "remote sensing")
MAX_PHRASE_WORDS = 4
GENERIC_HEADS = frozenset("""
models model methods method schemes objectives techniques approaches systems papers
networks
""".split())  # noqa: SIM905
SINGLE_WORD_MAX_DF = 0.05  # a one-word phrase more common than this (reference day) is a
MULTI_WORD_MAX_DF = 0.15   # description word, not a keyword; a longer one likewise
_SPLIT = re.compile(r"[,;:()\[\]/]|\.(?:\s|$)|\band\b|\bor\b|\betc\b|\be\.g\.|\bsuch as\b",
                    re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-+]*")
_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9\-]{1,8})\)")


@dataclass
class Understood:
    form: str
    areas: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    turned_down: list[str] = field(default_factory=list)  # sentences/parts, for closeness
    excluded: list[str] = field(default_factory=list)  # short items, for keywords
    foundational: bool = False


def phrases_of(text: str) -> list[str]:
    """Short items: the pieces between punctuation and and/or, without leading/trailing
    filler, of 1..MAX_PHRASE_WORDS words; numbers alone never."""
    out = [m.group(1) for m in _ACRONYM.finditer(text)]
    for piece in _SPLIT.split(text):
        words = _WORD.findall(piece)
        while words and words[0].lower() in FILLER:
            words.pop(0)
        while words and (words[-1].lower() in FILLER or (len(words) > 1
                         and words[-1].lower() in GENERIC_HEADS
                         and len(_WORD.findall(" ".join(words[:-1]).replace("-", " "))) >= 2)):
            words.pop()
        if not words or len(words) > MAX_PHRASE_WORDS:
            continue
        if any(w.lower() in FILLER for w in words) and not all(
                w.lower() in ("of", "and") or w.lower() not in FILLER for w in words):
            continue  # a clause, not a term ("rethink an existing architecture")
        if all(w.replace("-", "").isdigit() for w in words):
            continue
        if len(words) == 1 and len(words[0]) <= 2:
            continue
        out.append(" ".join(words))
    return list(dict.fromkeys(out))


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?;])\s+|\n\s*\n", text) if s.strip()]


def _split_negative_clause(sentence: str) -> tuple[str, str]:
    """'push foundations rather than apply it' -> ('push foundations', 'apply it')."""
    m = NEGATIVE_CLAUSE.search(sentence)
    if not m or (m.group(1).lower() == "not" and not re.search(r"\bnot\s+(?:on|about|in)\b",
                                                                  sentence, re.IGNORECASE)):
        return sentence, ""
    return sentence[: m.start()], sentence[m.end():]


def parse_criteria(text: str) -> Understood:
    u = Understood("criteria")
    lines = text.splitlines()
    area_name, area_text = "", []

    def close_area() -> None:
        if area_name or area_text:
            u.areas.append(": ".join(x for x in (area_name, " ".join(area_text)) if x))
        return

    def _unused() -> None:
        if area_name or area_text:
            u.areas.append(": ".join(x for x in (area_name, " ".join(area_text)) if x))

    for line in lines:
        if RUBRIC.match(line):
            break  # the scoring rubric: structure for the LLM, not the topic
        if not line.strip():
            continue
        if HEADERS.match(line):  # structure: ends the area before it
            close_area()
            area_name, area_text = "", []
            continue
        labelled = list(LABELLED.finditer(line))
        head = line[: labelled[0].start()] if labelled else line
        numbered = NUMBERED.match(head) if head.strip() else None
        if (numbered and not labelled) or (numbered and labelled):
            close_area()
            area_name, area_text = numbered.group(1).strip(" -:*"), []
        elif not labelled:
            if FOUNDATIONAL.search(line):
                u.foundational = True
            continue  # a preamble sentence
        for k, m in enumerate(labelled):
            end = labelled[k + 1].start() if k + 1 < len(labelled) else len(line)
            body = line[m.end(): end].strip()
            kind = m.group(1).lower()
            if kind == "relevant":
                if area_name:
                    area_text.append(body)
                else:  # a summary keyword list
                    u.phrases.extend(phrases_of(body))
            elif kind.startswith("application"):
                u.excluded.extend(phrases_of(body))
                u.turned_down.append("applications: " + body)
                u.foundational = True
            else:  # irrelevant / not relevant
                if area_name:
                    u.turned_down.append(body)
                else:
                    u.excluded.extend(phrases_of(body))
                    u.turned_down.append(body)
    close_area()
    for area in u.areas:
        u.phrases.extend(phrases_of(area))
    return u


def parse_prose(text: str) -> Understood:
    u = Understood("prose", foundational=bool(FOUNDATIONAL.search(text)))
    for s in _sentences(text):
        if NEGATIVE_SENTENCE.search(s):
            u.turned_down.append(s)
            u.excluded.extend(p for p in phrases_of(NEGATIVE_SENTENCE.split(s, 1)[-1])
                              if len(p.split()) >= 1)
            continue
        positive, negative = _split_negative_clause(s)
        if negative:
            u.turned_down.append(negative)
        if len(_WORD.findall(positive)) >= 3:
            u.areas.append(positive.strip())
        u.phrases.extend(phrases_of(positive))
    return u


def parse_line(text: str) -> Understood:
    u = Understood("one line", foundational=bool(FOUNDATIONAL.search(text)))
    items = [p.strip() for p in re.split(r",|;|\band\b", text) if p.strip()]
    u.areas = items
    u.phrases = [p for item in items for p in phrases_of(item)] + items
    return u


def classify(text: str) -> str:
    if LABELLED.search(text):
        return "criteria"
    if len(text.splitlines()) <= 2 and not re.search(r"\b(I|my|we)\b", text):
        return "line"
    return "prose"


def understand_text(text: str) -> Understood:
    form = classify(text)
    u = {"criteria": parse_criteria, "line": parse_line}.get(form, parse_prose)(text)
    if sum(any(d in e.lower() for d in APPLICATION_DOMAINS) for e in u.excluded) >= 2:
        u.foundational = True
    u.phrases = list(dict.fromkeys(p for p in u.phrases
                                   if p.lower() not in {e.lower() for e in u.excluded}))
    u.excluded = list(dict.fromkeys(u.excluded))
    u.turned_down = [t for t in u.turned_down if len(_WORD.findall(t)) >= 3]
    u.phrases = specific(u.phrases)
    return u


def specific(phrases: list[str]) -> list[str]:
    """The phrases specific enough to be keywords: a single word in at most
    SINGLE_WORD_MAX_DF of the reference papers (the bundled sample day), a longer phrase in
    at most MULTI_WORD_MAX_DF; acronyms always."""
    from paperterm.scoring.local.blend import reference_papers
    from paperterm.scoring.local.keywords import tokens

    ref = [" ".join(tokens(f"{p.title} {p.abstract}")) for p in reference_papers()]
    out = []
    for p in phrases:
        seq = " ".join(tokens(p))
        if not seq:
            continue
        df = sum(f" {seq} " in f" {r} " for r in ref) / max(len(ref), 1)
        limit = SINGLE_WORD_MAX_DF if len(seq.split()) == 1 else MULTI_WORD_MAX_DF
        if p.isupper() or df <= limit:
            out.append(p)
    return out


def _area_text(area: str) -> str:
    """An area as `areas.py` keeps it (>= 3 words; a shorter one is padded: the real
    parser passes areas explicitly)."""
    area = " ".join(area.replace(";", ",").split())
    return area if len(area.split()) >= 3 else f"research on {area}"


def to_topic(name: str, u: Understood, source: str, base: Topic | None = None) -> Topic:
    relevant = "; ".join(_area_text(a) for a in u.areas)
    down = "; ".join(_area_text(a) for a in u.turned_down)
    description = f"Relevant: {relevant}" + (f" Not relevant: {down}" if down else "")
    if base is not None:
        return Topic(name=base.name, description=base.description if len(
            base.description.split()) > 3 or not u.areas else description,
            keywords=base.keywords, exclude=base.exclude, categories=base.categories,
            source=source, foundational=base.foundational or u.foundational)
    return Topic(name=name, description=description, keywords=tuple(u.phrases),
                 exclude=tuple(u.excluded), source=source, foundational=u.foundational)


def names_application(u: Understood) -> bool:
    """Whether an area or phrase of the topic names an application domain (the cue words
    `cues.APPLICATION`): then it is not foundational by default."""
    from paperterm.scoring.local.cues import APPLICATION

    text = " ".join(u.areas + u.phrases).lower()
    return any(re.search(rf"\b{re.escape(w.lower())}", text) for w in APPLICATION)


def understand(path: Path, mode: str = "free") -> Topic:
    """`understand_strict`, and foundational by default: a topic none of whose areas names
    an application domain asks for method work (shown by `topics show`; `foundational =
    false` in a file turns it off)."""
    topic = understand_strict(path, mode)
    if not topic.foundational and path.suffix != ".toml":
        u = understand_text(path.read_text(encoding="utf-8").strip())
        if not names_application(u):
            from dataclasses import replace

            topic = replace(topic, foundational=True)
    return topic


def understand_strict(path: Path, mode: str = "free") -> Topic:
    """The measure_phrasings converter: a .toml topic file (description optional; a short
    one keeps it; foundational inferred from its excludes), or a text in any form."""
    if path.suffix == ".toml":
        from paperterm.settings.tomlread import loads
        from paperterm.topics import _topic_from_table

        table = loads(path.read_text(encoding="utf-8"))
        table.setdefault("description", " ".join(table.get("keywords", [])) or path.stem)
        base = _topic_from_table(table.get("name", path.stem),
                                 {k: v for k, v in table.items() if k != "name"}, str(path))
        u = Understood("keywords", excluded=list(base.exclude))
        if sum(any(d in e.lower() for d in APPLICATION_DOMAINS) for e in base.exclude) >= 2:
            u.foundational = True
        return to_topic(base.name, u, str(path), base)
    text = path.read_text(encoding="utf-8").strip()
    return to_topic(path.stem, understand_text(text), str(path))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        p = Path(arg)
        t = understand(p)
        u = understand_text(p.read_text()) if p.suffix != ".toml" else None
        print(f"== {p.name}: form {u.form if u else 'topic file'}, foundational "
              f"{t.foundational}")
        if u:
            print("areas:", *[f"  - {a}" for a in u.areas], sep="\n")
            print("turned down:", *[f"  - {a}" for a in u.turned_down], sep="\n")
        print("phrases:", ", ".join(t.keywords))
        print("exclude:", ", ".join(t.exclude))
