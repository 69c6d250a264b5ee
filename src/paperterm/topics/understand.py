"""How a topic written in a user's own words is understood (issue 30).

Four forms, told apart by their shape:

- **criteria** (gpt_paper_assistant's, pasted): named or numbered areas, each with a
  `Relevant:` part and an `Irrelevant:`/`Not relevant:` part (on one line, dash-separated,
  or on lines of their own), and summary lists ("- Relevant: MoE, Sparsity, etc."). Headers
  ("Relevant Topics", "Keywords", "Scoring Criteria") are structure, never words of the
  topic; the scoring rubric (from "Scoring Criteria" or "Relevance Score" on) is for a
  model, not the topic.
- **prose**: sentences in the first person; a sentence that turns things down ("I skip…",
  "not interested in…", "except…") is a turned-down part, never a positive one.
- **keywords**: a topic file with a short or missing description (its keywords carry it).
- **one line**: items split at commas, semicolons and "and".
- **structured**: "Relevant: area; area; … Not relevant: part; …", the form the built-in
  topics are written in: the ranking reads it as it always has (`scoring/local/areas.py`).

The result, `Understanding`, is what the ranking needs: areas (closeness is measured to
the closest), phrases (matched as keywords), turned-down parts (closeness to them lowers a
paper) and short excluded items (they damp a paper's keyword score), and whether the topic
asks for foundational work (the cue words of `scoring/local/cues.py`): when it says so
(foundations, theory, "not applications"), when it turns down two application domains or
more, and, for free text, when none of its areas names an application domain (a topic made
of methods asks for method work; a topic file says `foundational = false` to turn it off).
Nothing here imports the ranking: which phrases are too common to count is decided there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperterm.models import Topic

__all__ = ["Understanding", "derived_description", "description_derived", "phrases_of",
           "understand", "understanding_of", "understood_table", "understood_text"]

FORMS = ("criteria", "prose", "keywords", "one line", "structured")

# words of first-person or instruction text: never the start or the end of a phrase
_FILLER = frozenset("""
i me my we our you your us a an the and or of in on for to with about into from by at as
is are be been was were it its this that these those which who whose what how why when
where read reading follow following care like love want wanted need lot lots really
especially ideally also above all finally always welcome whether rather than very much
more most other others some any such e g eg ie etc please use criteria below pick papers
paper work works things thing stuff interested interest making make faster smaller cheaper
better redesign understand built push mainly mostly particular particularly either ways
way new good strong just simply only so do does not no nor but then there their them they
area areas topic topics relevant irrelevant including include includes kind kinds sort
anything everything study studying research researching
""".split())  # noqa: SIM905
# a phrase may hold these inside ("mixture of experts"), never at its ends
_INNER = frozenset({"of", "and", "for", "in", "on", "to"})
_GENERIC_HEADS = frozenset("""
models model methods method schemes objectives techniques approaches systems papers
networks tricks approximation approximations factorisation factorisations factorization
factorizations decomposition decompositions
""".split())  # noqa: SIM905
_HEADER = re.compile(
    r"^\s*(?:#+\s*)?(?:relevant topics?|research topics?|topics?|keywords?|criteria|"
    r"summary|interests?|my interests)\s*:?\s*$", re.IGNORECASE)
_MARKDOWN_HEADER = re.compile(r"^\s*#+\s")
_RUBRIC = re.compile(r"^\s*(?:#+\s*)?(?:>\s*)?(?:scoring criteria|relevance score|"
                     r"novelty score|scoring)\b", re.IGNORECASE)
_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*]\s+\*\*|\*\*|[A-Z][.)])\s*(.+?)\**\s*:?\s*$")
_LABEL = re.compile(r"(?:^|\s|[-*])\s*(relevant|irrelevant|not relevant|applications?)\s*:\s*",
                    re.IGNORECASE)
_STRUCTURED = re.compile(r"^\s*relevant\s*:", re.IGNORECASE)
_TURN_DOWN = re.compile(
    r"\b(?:skip|skipping|not interested|no interest|don't|do not|never|avoid|ignore|"
    r"exclude|except|irrelevant|not relevant|uninterested|leave out|less interested|"
    r"not (?:about|on|for))\b", re.IGNORECASE)
_TURN_DOWN_CLAUSE = re.compile(r"\b(?:rather than|instead of|but not|except(?: for)?)\b",
                               re.IGNORECASE)
_ASKS_FOUNDATIONAL = re.compile(
    r"\b(?:foundation(?:al|s)|theory|theoretical|fundamental|not applications?|"
    r"rather than appl\w*)\b", re.IGNORECASE)
# words naming an application domain (as `scoring/local/cues.APPLICATION`, which the
# ranking uses on papers; a topic naming one is about that domain)
APPLICATION_DOMAINS = (
    "medical", "medicine", "clinical", "patient", "health", "imaging", "segmentation",
    "time series", "speech", "audio", "music", "recommend", "retrieval", "robot", "driving",
    "vehicle", "traffic", "finance", "financial", "biology", "chemistry", "molecul", "protein",
    "drug", "remote sensing", "agent", "education", "legal", "climate", "weather",
    "wireless", "genomic",
)
MAX_PHRASE_WORDS = 4
_SPLIT = re.compile(r"[,;:()\[\]/]|\.(?:\s|$)|\band\b|\bor\b|\betc\b|\be\.g\.|\bi\.e\.|"
                    r"\bsuch as\b|\bincluding\b|\bwhether\b", re.IGNORECASE)
_LINE_SPLIT = re.compile(r"[,;]|\band\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-+]*")
_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9\-]{1,8})\)")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n\s*\n")
_LIST_LINE = re.compile(r"^\s*(?:[-*]|\d+[.)])\s", re.MULTILINE)
_FIRST_PERSON = re.compile(r"\b(?:I|my|me|we|our)\b")


@dataclass
class Understanding:
    """A topic text as the ranking reads it."""

    form: str  # one of FORMS
    areas: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    turned_down: list[str] = field(default_factory=list)  # parts, for closeness
    excluded: list[str] = field(default_factory=list)  # short items, for keywords
    foundational: bool = False
    why_foundational: str = ""

    def lines(self) -> list[str]:
        """How it was understood, for `topics show`."""
        out = [f"understood as: {self.form}"]
        if self.form == "structured":
            out.append("areas and turned-down parts: read from the description's "
                       "'Relevant:' and 'Not relevant:' parts")
        areas = "areas (each read with its paragraph)" if self.form == "prose" else "areas"
        for title, items in ((areas, self.areas), ("phrases", self.phrases),
                             ("turned down", self.turned_down),
                             ("excluded words", self.excluded)):
            if items:
                out.append(f"{title}:")
                out.extend(f"  - {item}" for item in items)
        out.append("foundational: " + ("yes" if self.foundational else "no")
                   + (f" ({self.why_foundational})" if self.why_foundational else ""))
        return out


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def phrases_of(text: str) -> list[str]:
    """The short items of `text`: the pieces between punctuation and "and"/"or", without
    filler at either end, of 1..MAX_PHRASE_WORDS words, never a clause ("rethink an existing
    architecture"), never a number; acronyms written in parentheses ("(MoE)") too."""
    out = [m.group(1) for m in _ACRONYM.finditer(text)]
    for piece in _SPLIT.split(text):
        words = _words(piece)
        while words and words[0].lower() in _FILLER:
            words.pop(0)
        while words and words[-1].lower() in _FILLER:
            words.pop()
        # "distributed training schemes" -> "distributed training"
        if len(words) >= 2 and words[-1].lower() in _GENERIC_HEADS and len(
                re.findall(r"[A-Za-z0-9]+", " ".join(words[:-1]))) >= 2:
            words.pop()
        if not words or len(words) > MAX_PHRASE_WORDS:
            continue
        if any(w.lower() in _FILLER and w.lower() not in _INNER for w in words):
            continue  # a clause, not a term
        if all(w.replace("-", "").isdigit() for w in words):
            continue
        if len(words) == 1 and len(words[0]) <= 2:
            continue
        out.append(" ".join(words))
    return list(dict.fromkeys(out))


def _names_domain(text: str) -> list[str]:
    low = text.lower()
    return [d for d in APPLICATION_DOMAINS if re.search(rf"\b{re.escape(d)}", low)]


def _form(text: str) -> str:
    if _STRUCTURED.match(text) and not _LIST_LINE.search(text):
        return "structured"
    if _LABEL.search(text):
        return "criteria"
    if len(text.splitlines()) <= 2 and not _FIRST_PERSON.search(text) and not re.search(
            r"[.!?]\s+[A-Z]", text):
        return "one line"
    return "prose"


def _criteria(text: str, u: Understanding) -> None:
    name, parts = "", list[str]()

    def close() -> None:
        if name or parts:
            u.areas.append(": ".join(x for x in (name, " ".join(parts)) if x))

    for line in text.splitlines():
        if _RUBRIC.match(line):
            break  # the scoring rubric: for a model, not the topic
        if not line.strip():
            continue
        if _HEADER.match(line) or _MARKDOWN_HEADER.match(line):
            close()
            name, parts = "", []
            continue
        labels = list(_LABEL.finditer(line))
        head = line[: labels[0].start()] if labels else line
        numbered = _NUMBERED.match(head) if head.strip(" -*") else None
        if numbered:
            close()
            name, parts = numbered.group(1).strip(" -:*"), []
        elif not labels:
            if _ASKS_FOUNDATIONAL.search(line):
                u.foundational, u.why_foundational = True, "it asks for foundational work"
            continue  # a preamble sentence
        for k, m in enumerate(labels):
            end = labels[k + 1].start() if k + 1 < len(labels) else len(line)
            body = line[m.end(): end].strip(" -")
            kind = m.group(1).lower()
            if kind == "relevant":
                if name:
                    parts.append(body)
                else:  # a summary list of keywords
                    u.phrases.extend(phrases_of(body))
            else:  # irrelevant, not relevant, application(s)
                u.turned_down.append(body)
                u.excluded.extend(phrases_of(body))
                if kind.startswith("application"):
                    u.foundational, u.why_foundational = True, "it turns applications down"
    close()
    for area in u.areas:
        u.phrases.extend(phrases_of(area.split(":", 1)[-1]))


def _prose(text: str, u: Understanding) -> None:
    if _ASKS_FOUNDATIONAL.search(text):
        u.foundational, u.why_foundational = True, "it asks for foundational work"
    for sentence in (s.strip() for s in _SENTENCE.split(text)):
        if not sentence:
            continue
        down = _TURN_DOWN.search(sentence)
        if down:
            u.turned_down.append(sentence)
            u.excluded.extend(phrases_of(sentence[down.end():]))
            continue
        clause = _TURN_DOWN_CLAUSE.search(sentence)
        positive = sentence[: clause.start()] if clause else sentence
        if clause:
            u.turned_down.append(sentence[clause.end():].strip(" ."))
        if len(_words(positive)) >= 3:
            u.areas.append(positive.strip(" ."))
        u.phrases.extend(phrases_of(positive))


def _one_line(text: str, u: Understanding) -> None:
    items = [" ".join(p.split()) for p in _LINE_SPLIT.split(text)]
    u.areas = [p for p in items if _words(p)]
    for item in u.areas:
        u.phrases.extend(phrases_of(item) or [item])


def understand(text: str, *, free_text: bool = True) -> Understanding:
    """How `text` (a topic's description, or a `--topic "…"` text) is understood.
    `free_text`: the whole topic is this text (no keywords of a file to carry it): then a
    topic naming no application domain asks for method work."""
    text = text.strip()
    u = Understanding(_form(text))
    if u.form == "structured":
        return u
    {"criteria": _criteria, "prose": _prose, "one line": _one_line}[u.form](text, u)
    u.excluded = list(dict.fromkeys(e for e in u.excluded if not e.isdigit()))
    down = {e.lower() for e in u.excluded}
    u.phrases = list(dict.fromkeys(p for p in u.phrases if p.lower() not in down))
    u.turned_down = [t for t in dict.fromkeys(u.turned_down) if len(_words(t)) >= 2]
    u.areas = list(dict.fromkeys(u.areas))
    if not u.foundational:
        turned = {d for e in u.excluded for d in _names_domain(e)}
        if len(turned) >= 2:
            u.foundational, u.why_foundational = True, "it turns application domains down"
        elif free_text and u.areas and not _names_domain(" ".join(u.areas + u.phrases)):
            u.foundational = True
            u.why_foundational = "no area names an application domain"
    return u


def turns_down_domains(exclude: tuple[str, ...] | list[str]) -> bool:
    """Whether these excluded words name two application domains or more (a topic file
    without `foundational` is then foundational)."""
    return len({d for e in exclude for d in _names_domain(e)}) >= 2


def derived_description(keywords: tuple[str, ...] | list[str],
                        exclude: tuple[str, ...] | list[str]) -> str:
    """The description of a topic file without one (what the LLM prompt reads and `topics
    show` prints): its keywords, then what it excludes."""
    text = f"Relevant: {', '.join(keywords)}." if keywords else ""
    if exclude:
        text += f"{' ' if text else ''}Not relevant: {', '.join(exclude)}."
    return text


def ranking_areas(u: Understanding) -> tuple[str, ...]:
    """The areas the ranking measures closeness to: a sentence of prose is read in its
    paragraph (it says "it", "on the systems side", "finally"), so each is the sentence
    followed by every positive sentence; a named area or an item of a line stands alone."""
    if u.form != "prose" or len(u.areas) < 2:
        return tuple(u.areas)
    context = "; ".join(u.areas)
    return tuple(f"{a}. {context}" for a in u.areas)


def understood_text(text: str) -> Topic:
    """The ad-hoc topic of a `--topic "…"` text."""
    text = " ".join(text.split()) if len(text.splitlines()) <= 1 else text.strip()
    u = understand(text)
    description = f"Papers about: {text}" if u.form == "one line" else text
    return Topic(name=text, description=description, exclude=tuple(u.excluded),
                 source="ad-hoc", adhoc=True, foundational=u.foundational,
                 areas=ranking_areas(u), turned_down=tuple(u.turned_down),
                 phrases=tuple(u.phrases))


def table_understanding(description: str, keywords: tuple[str, ...] | list[str],
                        exclude: tuple[str, ...] | list[str],
                        foundational: bool | None = None) -> Understanding:
    """How a topic file's (or `[topics.NAME]` table's) description is understood: a short
    one beside keywords is the keywords form (its keywords carry it; the ranking measures
    closeness to the name, description and keywords as one text)."""
    if not description.strip():  # its keywords are the text closeness is measured to
        u = Understanding("keywords", areas=[", ".join(keywords)] if keywords else [])
    else:
        u = understand(description, free_text=not keywords)
        if keywords and u.form == "one line" and len(u.areas) <= 1:
            u = Understanding("keywords")
    if u.form == "keywords" and exclude:  # what it turns down is what it excludes
        u.turned_down = [", ".join(exclude)]
    if foundational is not None:
        u.foundational = foundational
        u.why_foundational = "the topic says so" if foundational else ""
    elif not u.foundational and turns_down_domains([*exclude, *u.excluded]):
        u.foundational, u.why_foundational = True, "it turns application domains down"
    return u


def description_derived(topic: Topic) -> bool:
    """Whether `topic` (a table's) has the description `derived_description` gave it: its
    file has none."""
    return not topic.adhoc and topic.description == derived_description(topic.keywords,
                                                                        topic.exclude)


def understanding_of(topic: Topic) -> Understanding:
    """How `topic` was understood, for `topics show`: a free-text topic's text; a table's
    description (none when it was derived from its keywords: never read as written) beside
    its keywords. Foundational as the topic has it: why, as its words give it, or "the
    topic says so" when its file says otherwise."""
    if topic.adhoc:
        return understand(topic.name)
    description = "" if description_derived(topic) else topic.description
    u = table_understanding(description, topic.keywords, topic.exclude)
    if u.foundational != topic.foundational:
        u.foundational = topic.foundational
        u.why_foundational = "the topic says so"
    return u


def understood_table(name: str, description: str, lists: dict[str, tuple[str, ...]],
                     foundational: bool | None, source: str) -> Topic:
    """The topic of a table (`lists`: keywords, exclude, categories, follow)."""
    keywords, exclude = lists["keywords"], lists["exclude"]
    u = table_understanding(description, keywords, exclude, foundational)
    exclude = tuple(dict.fromkeys([*exclude, *u.excluded]))
    return Topic(
        name=name,
        description=description.strip() or derived_description(keywords, exclude),
        keywords=keywords,
        exclude=exclude,
        categories=lists["categories"],
        source=source,
        follow=lists["follow"],
        foundational=u.foundational,
        areas=ranking_areas(u),
        turned_down=tuple(u.turned_down),
        phrases=tuple(u.phrases),
    )



def _toml_string(text: str) -> str:
    """`text` as a TOML multi-line basic string."""
    body = (text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
            .replace("\t", "\\t").replace("\r", ""))
    body = "".join(c if c == "\n" or c >= " " else f"\\u{ord(c):04x}" for c in body)
    return f'"""\n{body}\n"""'


def topic_file_text(name: str, text: str) -> str:
    """A topic file for `text` (in any of the forms): its words as the description (read
    again the same way each time it is loaded), and whether it asks for foundational
    work, said where it can be changed."""
    u = understand(text)
    return (f"# written by `paperterm topics new {name}`; how it is understood: "
            f"`paperterm topics show {name}`\n"
            f'name = "{name}"\n'  # a checked name: letters, digits, "-", "_", "."
            f"description = {_toml_string(text.strip())}\n"
            "# keywords = [\"...\"]   # phrases that must match (optional)\n"
            "# exclude = [\"...\"]    # words that push a paper down (optional)\n"
            f"# theory and analysis lift a paper, application domains lower it"
            f"{' (' + u.why_foundational + ')' if u.why_foundational else ''}\n"
            f"foundational = {'true' if u.foundational else 'false'}\n")
