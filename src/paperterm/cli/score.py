"""`paperterm score`: score the loaded day; the ranked list (top first) and a summary, or one
JSON object per paper in rank order."""

from __future__ import annotations

import json
import sys

from paperterm.cli.options import Options
from paperterm.cli.scoring_run import exit_code, format_summary, score_day
from paperterm.cli.session import honoured, open_headless_session


def run(opts: Options) -> int:
    from paperterm.outputs.digest import clean_json

    s = open_headless_session(opts)
    try:
        scores, summary = score_day(s, progress=True, fresh=opts.rescore)
    finally:
        s.close()
    from paperterm.day.scores import default_ranks

    by_id = {p.id: p for p in s.day.papers}
    ranks = default_ranks(s.day.papers, scores)
    in_order = sorted(scores, key=lambda sc: ranks.get(sc.paper_id, len(ranks) + 1))
    if opts.limit:
        in_order = in_order[:opts.limit]
    if opts.json:
        from paperterm.day.scores import provenance

        # which day, from where: a cron script can tell the sample or a cached day from
        # today's announcement ("sample", "cache", "rss", "api", "feed", "query")
        day = s.day.day.isoformat() if s.day.day else None
        for sc in in_order:
            row = {"id": sc.paper_id, "version": sc.version, "title": by_id[sc.paper_id].title,
                   "rank": ranks.get(sc.paper_id), "relevance": sc.relevance,
                   "novelty": sc.novelty, "reason": sc.reason, "status": sc.status,
                   "score_from": provenance(sc, s.settings), "day": day,
                   "source": s.day.source}
            if sc.status == "unscored":
                row["error"] = sc.error or "not scored"
            print(json.dumps(clean_json(row), ensure_ascii=False))
        print(format_summary(summary, scores), file=sys.stderr)
    else:
        from paperterm.cli.score_table import ranked_table

        sys.stdout.write(ranked_table([by_id[sc.paper_id] for sc in in_order],
                                      {sc.paper_id: sc for sc in scores}, ranks))
        print()
        print(format_summary(summary, scores))
    return honoured(s, exit_code(summary, scores))
