"""What the ranking learns from: stars, saves and `learn` positives; "not interested" and
papers read (the preview rested on) but neither starred nor saved, and, more weakly, a
sample of the other papers of the days the user read. Each is a signal for the
topic it was given under only (a star under moe does not move the agents ranking)."""

from __future__ import annotations

import time
from typing import Literal, NamedTuple

from paperterm.store.db import Queries

Kind = Literal["starred", "saved", "learned", "dismissed", "skipped", "unlabelled"]
POSITIVE_KINDS = frozenset({"starred", "saved", "learned"})
MAX_SKIPPED = 2000  # the most recent papers read and skipped: the model stays fast to train
MAX_UNLABELLED = 300  # a sample of the papers of the days read, neither read nor marked
UNLABELLED_DAYS = 30  # ... of the most recent days read


class Example(NamedTuple):
    id: str
    title: str
    abstract: str
    kind: Kind

    @property
    def positive(self) -> bool:
        return self.kind in POSITIVE_KINDS


def _latest(field: str, col: str) -> str:
    """SQL for `field` of the latest cached version of paper `col`."""
    return f"(SELECT {field} FROM papers WHERE id={col} ORDER BY version DESC LIMIT 1)"


def _text(col: str) -> str:
    """The title and abstract of the latest cached version of paper `col`, as two columns."""
    return f"{_latest('title', col)}, {_latest('abstract', col)}"


class FeedbackQueries(Queries):
    def set_dismissed(self, paper_id: str, topic: str, dismissed: bool) -> None:
        """Mark (or unmark) a paper "not interested" for a topic."""
        with self.transaction() as c:
            if dismissed:
                c.execute("INSERT OR REPLACE INTO dismissals (id, topic, dismissed_at) "
                          "VALUES (?, ?, ?)", (paper_id, topic, time.time()))
            else:
                c.execute("DELETE FROM dismissals WHERE id=? AND topic=?", (paper_id, topic))

    def dismissed_ids(self, topic: str) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT id FROM dismissals WHERE topic=?",
                                                (topic,))}

    def training_examples(self, topic: str) -> list[Example]:
        """One example per paper, the strongest kind first: starred, saved, learned (positive),
        then dismissed, then read and skipped (negative), each given under this topic, then a
        sample of the papers of the (most recent) days with papers read under this topic that
        carry none of these marks ("unlabelled", a weak negative: most papers of a day are
        not for the user). Papers whose text is unknown are left out."""
        out: dict[str, Example] = {}

        def add(rows: object, kind: Kind) -> None:
            for pid, title, abstract in rows:  # type: ignore[attr-defined]
                if pid not in out and (title or abstract):
                    out[pid] = Example(pid, title or "", abstract or "", kind)

        c, user = self.conn, _text("u.id")
        add(c.execute(f"SELECT u.id, {user} FROM user_state u WHERE u.starred=1 "
                      "AND u.star_topic=? ORDER BY u.id", (topic,)), "starred")
        add(c.execute(f"SELECT u.id, {user} FROM user_state u WHERE u.saved_at IS NOT NULL "
                      "AND u.saved_topic=? ORDER BY u.id", (topic,)), "saved")
        # the cached paper's text where there is one, else what the library had
        add(c.execute(f"SELECT k.id, coalesce({_latest('title', 'k.id')}, max(k.title)), "
                      f"coalesce({_latest('abstract', 'k.id')}, max(k.abstract)) "
                      "FROM positives k WHERE k.topic=? GROUP BY k.id ORDER BY k.id", (topic,)),
            "learned")
        add(c.execute(f"SELECT d.id, {_text('d.id')} FROM dismissals d WHERE d.topic=? "
                      "ORDER BY d.id", (topic,)), "dismissed")
        add(c.execute(f"SELECT u.id, {user} FROM user_state u WHERE u.seen_at IS NOT NULL "
                      "AND u.starred=0 AND u.saved_at IS NULL AND u.seen_topic=? "
                      "ORDER BY u.seen_at DESC, u.id LIMIT ?", (topic, MAX_SKIPPED)), "skipped")
        days = [r[0] for r in c.execute(
            # the days of the papers read and not kept (a day read leaves most of them),
            # read through their partial index: never a scan of every announcement
            "SELECT DISTINCT a.day FROM user_state u CROSS JOIN announcements a ON a.id=u.id "
            "WHERE u.seen_at IS NOT NULL AND u.starred=0 AND u.saved_at IS NULL "
            "AND u.seen_topic=? ORDER BY a.day DESC LIMIT ?",
            (topic, UNLABELLED_DAYS))]
        if days:  # a fixed sample (by the id's last digits): the same marks, the same model
            marks = ",".join("?" * len(days))
            rows = [r for r in c.execute(
                f"SELECT DISTINCT a.id FROM announcements a WHERE a.day IN ({marks}) "
                "ORDER BY substr(a.id, -2), a.id", days) if r[0] not in out]
            picked = [r[0] for r in rows[:MAX_UNLABELLED]]
            if picked:
                ids = ",".join("?" * len(picked))
                add(c.execute(f"SELECT p.id, {_text('p.id')} FROM (SELECT DISTINCT id FROM "
                              f"papers WHERE id IN ({ids})) p ORDER BY p.id", picked),
                    "unlabelled")
        return list(out.values())
