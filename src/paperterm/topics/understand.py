"""How a topic written in a user's own words is understood (issue 30).

Four forms, told apart by their shape:

- **criteria** (gpt_paper_assistant's, pasted): named or numbered areas, each with a
  `Relevant:` part and an `Irrelevant:`/`Not relevant:` part (on one line, dash-separated,
  or on lines of their own), and summary lists ("- Relevant: MoE, Sparsity, etc."). Headers
  ("Relevant Topics", "Keywords", "Scoring Criteria") are structure, never words of the
  topic; the scoring rubric (from "Scoring Criteria" or "Relevance Score" on) is for a
  model, not the topic.
- **prose**: sentences in the first person; a sentence that turns things down ("I skip…",
  "not interested in…", "except…") is a turned-down part, never a positive one, all but a
  clause before it that names something ("I read X, but I am not interested in Y or Z").
  A paragraph after pasted criteria is read as prose; headers and a rubric never are.
- **keywords**: a topic file with a short or missing description (its keywords carry it;
  `tables.py` reads a topic file's table).
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

__all__ = ["Understanding", "nothing_to_rank_by", "phrases_of", "ranking_areas",
           "turns_down_domains", "understand", "understood_text"]

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
anything everything study studying research researching interests
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
    r"exclude|irrelevant|not relevant|uninterested|leave out|less interested|"
    r"not interesting|uninteresting|of no interest|not for me|"
    r"not (?:about|on|for))\b", re.IGNORECASE)
_TURN_DOWN_CLAUSE = re.compile(
    r"\b(?:rather than|instead of|but not(?! interested)|except(?: for)?)\b|"
    r"[,;]\s*not\b(?! only| just| necessarily| interested| into)", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:\n]|\b(?:but|and|while|whereas|though|although)\b",
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


def _joined(lines: list[str]) -> list[str]:
    """The lines of criteria, a label's body wrapped onto lines of its own joined again
    (a line right after it, indented or after a body not ending a sentence)."""
    out: list[str] = []
    in_body = False
    for line in lines:
        plain = line.strip() and not (_HEADER.match(line) or _MARKDOWN_HEADER.match(line)
                                      or _RUBRIC.match(line) or _LABEL.search(line))
        if plain and in_body and not _NUMBERED.match(line) and (
                line[:1].isspace() or not re.search(r"[.!?]\s*$", out[-1])):
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
            continue
        in_body = bool(line.strip()) and bool(_LABEL.search(line))
        out.append(line)
    return out


def _criteria(text: str, u: Understanding) -> None:
    name, parts = "", list[str]()
    prose: list[str] = []  # lines after the areas began, of no area: the user's own words

    def close() -> None:
        if name or parts:
            u.areas.append(": ".join(x for x in (name, " ".join(parts)) if x))

    for line in _joined(text.splitlines()):
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
            if u.areas or u.phrases or u.turned_down or name:
                prose.append(line)  # a paragraph after the list: read as prose
            elif _ASKS_FOUNDATIONAL.search(line):
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
    if prose:
        _prose("\n".join(prose), u)


def _turned(sentence: str) -> tuple[str, str, bool]:
    """(its positive part, the part it turns down, whether that part's single words are
    excluded too) of a sentence. "X rather than Y", "X except Y", "X, not Y": X and Y. "I
    read X, but I am not interested in Y or Z": the clause before the turn-down's (at the
    last comma, "but", "and" or line break before it) when it names something. "I skip Y",
    "Y: not interested": all of it."""
    clause = _TURN_DOWN_CLAUSE.search(sentence)
    down = _TURN_DOWN.search(sentence)
    if clause and (down is None or clause.start() <= down.start()):
        return sentence[: clause.start()], sentence[clause.end():], False
    if down is None:
        return sentence, "", False
    before, after = sentence[: down.start()], sentence[down.end():]
    if not phrases_of(after):  # "LLM agents or prompting tricks: not interested."
        return "", sentence, True
    breaks = list(_CLAUSE_BREAK.finditer(before))
    if breaks and phrases_of(before[: breaks[-1].start()]):
        return before[: breaks[-1].start()], sentence[breaks[-1].end():], True
    return "", sentence, True


def _excluded_of(part: str, single_words: bool) -> list[str]:
    """The items of a turned-down part that push papers down: the part after its turn-down
    words ("I skip Y"), else all of it ("Y: not interested"); single words only when asked
    ("rather than apply it" turns down applying, not the word "apply")."""
    down = _TURN_DOWN.search(part)
    items = phrases_of(part[down.end():]) if down else []
    items = items or phrases_of(part[: down.start()] if down else part)
    return [i for i in items if single_words or len(i.split()) > 1 or i.isupper()]


def _prose(text: str, u: Understanding) -> None:
    if _ASKS_FOUNDATIONAL.search(text):
        u.foundational, u.why_foundational = True, "it asks for foundational work"
    for sentence in (s.strip() for s in _SENTENCE.split(text)):
        if not sentence:
            continue
        positive, negative, single = _turned(sentence)
        if negative.strip(" .,;"):
            u.turned_down.append(negative.strip(" .,;\n") if positive else sentence)
            u.excluded.extend(_excluded_of(negative, single))
        if len(_words(positive)) >= 3:
            u.areas.append(" ".join(positive.split()).strip(" .,;"))
        u.phrases.extend(phrases_of(positive))


def _one_line(text: str, u: Understanding) -> None:
    positive, negative, single = _turned(text)
    if negative.strip(" .,;"):
        u.turned_down.append(" ".join(negative.split()).strip(" .,;"))
        u.excluded.extend(_excluded_of(negative, single))
    items = [" ".join(p.split()).strip(" .") for p in _LINE_SPLIT.split(positive)]
    u.areas = [p for p in items if _words(p)]
    for item in u.areas:
        u.phrases.extend(phrases_of(item) or [item])


def _content(text: str) -> str:
    """`text` without its header lines and its scoring rubric (from its first line on)."""
    lines = []
    for line in text.splitlines():
        if _RUBRIC.match(line):
            break
        if not (_HEADER.match(line) or _MARKDOWN_HEADER.match(line)):
            lines.append(line)
    return "\n".join(lines).strip()


def nothing_to_rank_by(u: Understanding) -> str | None:
    """Why a text understood as `u` cannot be a topic (None when it can): it names nothing
    to look for, only headers or a rubric, or only what it turns down."""
    if u.form == "structured" or u.areas or u.phrases:
        return None
    if u.turned_down or u.excluded:
        return "it says only what to turn down: say what you want to read too"
    return ("it holds only headers or a scoring rubric: write what you want to read "
            "(\"mixture of experts, pruning and quantization\")")


def understand(text: str, *, free_text: bool = True) -> Understanding:
    """How `text` (a topic's description, or a `--topic "…"` text) is understood.
    `free_text`: the whole topic is this text (no keywords of a file to carry it): then a
    topic naming no application domain asks for method work."""
    text = text.strip()
    u = Understanding(_form(text))
    if u.form in ("prose", "one line"):  # headers and a rubric are never its words
        text = _content(text)
        u.form = _form(text) if text else u.form
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
