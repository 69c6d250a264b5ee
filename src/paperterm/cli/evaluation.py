"""`paperterm eval`: how well each scorer (keywords, the blend, the learned ranking, every
LLM with cached scores) ranks the papers you picked, per day and in total
(`services.evaluation`)."""

from __future__ import annotations

import json
import sys
from datetime import date

from paperterm.cli.errors import EXIT_OK, UserError
from paperterm.cli.options import Options
from paperterm.cli.session import load_request, load_user_config, scored_store
from paperterm.io import limits


def _gold(opts: Options) -> tuple[date, set[str]] | None:
    from paperterm.services.evaluation_report import read_gold

    if opts.gold is None:
        return None
    if opts.date is None:
        raise UserError("--gold needs --date: the day its picks are for")
    try:  # capped and time-bounded: /dev/zero, a FIFO with no writer, a 10 GB file
        text = limits.read_argument_text(opts.gold, f"--gold {opts.gold}", limits.MAX_TEXT_FILE)
    except limits.Unreadable as exc:
        raise UserError(str(exc)) from None
    try:
        picks = read_gold(text)
    except ValueError as exc:
        raise UserError(f"--gold {opts.gold}: {exc}") from None
    if not picks:
        raise UserError(f"--gold {opts.gold}: no arXiv ids in it")
    return opts.date, picks


def run(opts: Options) -> int:
    from paperterm.services import evaluation, evaluation_report

    if opts.date is not None and opts.gold is None:
        raise UserError("--date goes with --gold FILE (the picks of that day); for your own "
                        "labels use --since")
    if opts.curve and opts.gold is not None:
        raise UserError("--curve goes with your own labels, not --gold")
    gold = _gold(opts)
    config = load_user_config(opts)
    store, topic, _ = scored_store(opts)
    try:
        req = load_request(opts, config, topic)
        result = evaluation.evaluate(
            store, req, topic, since=opts.since,
            gold=gold, curve=opts.curve and gold is None,
            progress=lambda day: print(f"evaluating {day}...", file=sys.stderr, flush=True))
    finally:
        store.close()
    if not result.labelled:
        if gold is not None:
            raise UserError(f"--gold: none of its papers is among the cached papers of "
                            f"{opts.date} for topic {topic.name!r} (fetch that day first)")
        print(result.no_labels(), file=sys.stderr)
        if opts.json:
            print("[]")
        return EXIT_OK
    if gold is not None and result.left_out:
        shown = ", ".join(result.left_out[:5]) + (", ..." if len(result.left_out) > 5 else "")
        print(f"note: {len(result.left_out)} of the {len(gold[1])} ids in {opts.gold} are not "
              f"among the cached papers of {opts.date} (left out: {shown})", file=sys.stderr)
    if opts.json and opts.curve:
        json.dump([p.record() for p in result.curve], sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif opts.json:
        json.dump([s.record() for s in result.scorers if s.days], sys.stdout, indent=1)
        sys.stdout.write("\n")
        verdict = result.verdict()
        if verdict:
            print(verdict, file=sys.stderr)
    elif opts.curve:
        print("\n".join(evaluation_report.curve_table(result)))
    else:
        print("\n".join(evaluation_report.table(result)))
    said = unsure_line(topic.name)
    if said:
        print(said, file=sys.stderr if opts.json else sys.stdout)
    return EXIT_OK


def unsure_line(topic: str) -> str:
    """What the reader's unsure queue (`V`) taught the learned ranking for `topic`: its
    answers are marks like any other, so the learned rows above include them."""
    from paperterm.settings.reader_state import unsure_answers

    answers = list(unsure_answers(topic).values())
    if not answers:
        return ""
    kinds = [f"{answers.count(k)} {name}" for k, name in
             (("starred", "starred"), ("saved", "saved"), ("dismissed", "not interested"))
             if answers.count(k)]
    n = len(answers)
    return (f"Unsure queue (V in the reader): {n} answer{'s' * (n != 1)} for topic "
            f"{topic!r} ({', '.join(kinds)}), among the marks the learned ranking is "
            "evaluated on above.")
