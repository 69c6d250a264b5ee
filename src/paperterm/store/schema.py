"""The database schema: one migration per schema version, applied in order."""

from __future__ import annotations

_MIGRATIONS: list[str] = [
    # 1: papers, announcements, fetch log, user state
    """
    CREATE TABLE papers (
        id TEXT NOT NULL,
        version INTEGER NOT NULL,          -- 0: unknown
        title TEXT NOT NULL,
        authors TEXT NOT NULL,             -- JSON list
        abstract TEXT NOT NULL,
        categories TEXT NOT NULL,          -- JSON list, primary first
        primary_category TEXT NOT NULL,
        doi TEXT,
        journal_ref TEXT,
        comment TEXT,
        published TEXT,
        first_seen REAL NOT NULL,
        PRIMARY KEY (id, version)
    );
    CREATE TABLE announcements (
        feed TEXT NOT NULL,                -- categories key, e.g. "cs.AI+cs.LG", or "query:..."
        day TEXT NOT NULL,                 -- ISO date
        position INTEGER NOT NULL,
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        announce_type TEXT NOT NULL,
        PRIMARY KEY (feed, day, id)
    );
    CREATE TABLE fetches (
        feed TEXT NOT NULL,
        fetched_for TEXT NOT NULL,         -- the local (US Eastern) date of the fetch
        day TEXT,                          -- the announcement day it returned, NULL if empty
        source TEXT NOT NULL,
        approximate INTEGER NOT NULL DEFAULT 0,
        fetched_at REAL NOT NULL,
        PRIMARY KEY (feed, fetched_for)
    );
    CREATE TABLE user_state (
        id TEXT PRIMARY KEY,
        seen_at REAL,
        starred INTEGER NOT NULL DEFAULT 0,
        saved_at REAL,
        bib_key TEXT,
        bib_path TEXT
    );
    """,
    # 2: scores, one row per (paper version, topic criteria, model, prompt version)
    """
    CREATE TABLE score_requests (
        request_id INTEGER PRIMARY KEY AUTOINCREMENT,
        model TEXT NOT NULL,
        n_papers INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL,                         -- dollars, NULL: unknown
        created_at REAL NOT NULL
    );
    CREATE TABLE scores (
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        topic_fp TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        relevance INTEGER,
        novelty INTEGER,
        reason TEXT NOT NULL DEFAULT '',
        request_id INTEGER REFERENCES score_requests(request_id),
        created_at REAL NOT NULL,
        PRIMARY KEY (id, version, topic_fp, model, prompt_version)
    );
    """,
    # 3: the library across days: notes, tags, a full-text index over everything cached
    """
    CREATE TABLE notes (
        id TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE tags (
        id TEXT NOT NULL,
        tag TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (id, tag)
    );
    CREATE INDEX tags_by_tag ON tags (tag, id);
    CREATE INDEX announcements_by_id ON announcements (id, day);
    CREATE INDEX announcements_by_day ON announcements (day);
    CREATE TABLE fts_docs (                -- one full-text row per paper id (latest version)
        doc INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE
    );
    CREATE VIRTUAL TABLE paper_fts USING fts5 (
        title, abstract, authors, note, tags,
        tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row');
    INSERT INTO fts_docs (id) SELECT DISTINCT id FROM papers ORDER BY id;
    INSERT INTO paper_fts (rowid, title, abstract, authors, note, tags)
        SELECT d.doc, p.title, p.abstract,
               (SELECT group_concat(value, ', ') FROM json_each(p.authors)), '', ''
        FROM fts_docs d JOIN papers p ON p.id = d.id
        AND p.version = (SELECT max(version) FROM papers WHERE id = d.id)
    """,
    # 4: digests delivered (issue 14): one row per (day, topic, channel) sent
    """
    CREATE TABLE IF NOT EXISTS deliveries (
        day TEXT NOT NULL,                 -- the day's label, e.g. "2026-02-25"
        topic TEXT NOT NULL,
        channel TEXT NOT NULL,             -- "email" or "webhook"
        target TEXT NOT NULL,              -- recipients or the webhook host
        sent_at REAL NOT NULL,
        PRIMARY KEY (day, topic, channel)
    );
    """,
    # 5: the announcement day a scoring request was paid for (budget_period = "day"), and
    # claims: papers a running process is asking about, so another one waits, not pays
    """
    ALTER TABLE score_requests ADD COLUMN day TEXT;
    CREATE INDEX score_requests_day ON score_requests (day);
    CREATE TABLE score_claims (
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        topic_fp TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        owner TEXT NOT NULL,
        expires_at REAL NOT NULL,
        PRIMARY KEY (id, version, topic_fp, model, prompt_version)
    );
    """,
    # 6: local scorer results, one row per (day, topic criteria, scorer version): a JSON list
    """
    CREATE TABLE local_scores (
        day_key TEXT NOT NULL,             -- which papers: e.g. "2026-02-25 sample" or a query
        topic_fp TEXT NOT NULL,
        scorer_version TEXT NOT NULL,
        papers_fp TEXT NOT NULL,           -- hash of the paper ids and versions scored
        scores TEXT NOT NULL,              -- JSON list of [id, version, relevance, reason]
        created_at REAL NOT NULL,
        PRIMARY KEY (day_key, topic_fp, scorer_version)
    );
    """,
    # 7: papers you already keep (learn --zotero / --bib), and enrichment cached per source
    """
    CREATE TABLE IF NOT EXISTS positives (
        id TEXT NOT NULL,                  -- arXiv id, no version
        source TEXT NOT NULL,              -- "zotero:user/123", "bib:/path/refs.bib"
        title TEXT NOT NULL DEFAULT '',
        abstract TEXT NOT NULL DEFAULT '',
        added_at REAL NOT NULL,
        PRIMARY KEY (id, source)
    );
    CREATE TABLE IF NOT EXISTS enrichment (
        id TEXT NOT NULL,                  -- arXiv id, no version
        source TEXT NOT NULL,              -- "hf", "s2", "links"
        data TEXT,                         -- JSON object, NULL when the source does not know it
        fetched_at REAL NOT NULL,
        PRIMARY KEY (id, source)
    );
    """,
    # 8: authors followed from the reader (issue 12)
    """
    CREATE TABLE IF NOT EXISTS followed_authors (
        key TEXT PRIMARY KEY,              -- the name as compared (follows.name_key)
        name TEXT NOT NULL,                -- as the paper spelled it
        added_at REAL NOT NULL
    );
    """,
    # 9: the ranking that learns (issue 12): paper embeddings cached per model, and papers
    # the user marked "not interested" for a topic
    """
    CREATE TABLE IF NOT EXISTS paper_embeddings (
        id TEXT NOT NULL,                  -- arXiv id, no version
        model TEXT NOT NULL,               -- e.g. "wordllama-l2_supercat-256"
        text_fp TEXT NOT NULL,             -- hash of the text embedded (title and abstract)
        vector BLOB NOT NULL,              -- float32, unit length
        PRIMARY KEY (id, model)
    );
    CREATE TABLE IF NOT EXISTS dismissals (
        id TEXT NOT NULL,                  -- arXiv id, no version
        topic TEXT NOT NULL,               -- the topic's name when dismissed
        dismissed_at REAL NOT NULL,
        PRIMARY KEY (id, topic)
    );
    """,
    # 10: what the local ranking learns from, read at start-up through partial indexes (only
    # the starred, saved, or read-and-not-kept rows: never a scan of every paper ever seen)
    """
    CREATE INDEX IF NOT EXISTS user_state_starred ON user_state (id) WHERE starred=1;
    CREATE INDEX IF NOT EXISTS user_state_saved ON user_state (id) WHERE saved_at IS NOT NULL;
    CREATE INDEX IF NOT EXISTS user_state_skipped ON user_state (seen_at, id)
        WHERE seen_at IS NOT NULL AND starred=0 AND saved_at IS NULL;
    """,
    # 11: papers sent to Zotero, per library: a paper is not sent to the same one twice
    """
    CREATE TABLE IF NOT EXISTS zotero_sent (
        id TEXT NOT NULL,                  -- arXiv id, no version
        target TEXT NOT NULL,              -- "desktop", or "web:user/475425"
        sent_at REAL NOT NULL,
        PRIMARY KEY (id, target)
    );
    """,
    # 12: the topic each mark was made under (issue 19): a star, a save one by one, a read
    # and a `learn` positive teach that topic only. Rows from before keep their marks (the
    # reading list, saved, seen) but teach no topic: NULL (positives: '')
    """
    ALTER TABLE user_state ADD COLUMN star_topic TEXT;
    ALTER TABLE user_state ADD COLUMN saved_topic TEXT;
    ALTER TABLE user_state ADD COLUMN seen_topic TEXT;
    CREATE TABLE positives_by_topic (
        id TEXT NOT NULL,
        source TEXT NOT NULL,
        topic TEXT NOT NULL,               -- the topic they teach ('': recorded before topics)
        title TEXT NOT NULL DEFAULT '',
        abstract TEXT NOT NULL DEFAULT '',
        added_at REAL NOT NULL,
        PRIMARY KEY (id, source, topic)
    );
    INSERT INTO positives_by_topic (id, source, topic, title, abstract, added_at)
        SELECT id, source, '', title, abstract, added_at FROM positives;
    DROP TABLE positives;
    ALTER TABLE positives_by_topic RENAME TO positives;
    CREATE INDEX positives_by_topic ON positives (topic, id);
    """,
    # 13: notes and tags record the topic they were written under too (issue 19: every
    # mark does); rows from before: NULL
    """
    ALTER TABLE notes ADD COLUMN topic TEXT;
    ALTER TABLE tags ADD COLUMN topic TEXT;
    """,
    # 14 (search, issue 20): the full-text index stems words ("quantization" finds
    # "Quantize"): built again with the porter tokenizer, notes and tags included
    """
    DROP TABLE IF EXISTS paper_vocab;
    DROP TABLE paper_fts;
    CREATE VIRTUAL TABLE paper_fts USING fts5 (
        title, abstract, authors, note, tags,
        tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row');
    INSERT INTO paper_fts (rowid, title, abstract, authors, note, tags)
        SELECT d.doc, p.title, p.abstract,
               (SELECT group_concat(value, ', ') FROM json_each(p.authors)),
               coalesce((SELECT body FROM notes WHERE id = p.id), ''),
               coalesce((SELECT group_concat(tag, ' ') FROM tags WHERE id = p.id), '')
        FROM fts_docs d JOIN papers p ON p.id = d.id
        AND p.version = (SELECT max(version) FROM papers WHERE id = d.id)
    """,
    # 15: revisions of kept papers delivered (issue 23): `digest --send` tells each revision
    # once per channel, never again on a later day or a resend
    """
    CREATE TABLE IF NOT EXISTS revisions_sent (
        id TEXT NOT NULL,                  -- arXiv id, no version
        version INTEGER NOT NULL,          -- the new version told about
        channel TEXT NOT NULL,             -- "email" or "webhook"
        sent_at REAL NOT NULL,
        PRIMARY KEY (id, version, channel)
    );
    """,
    # 16: papers by title, case folded as SQLite's lower() does (issue 23: the same paper
    # announced again under another id is found by its title and first author)
    """
    CREATE INDEX IF NOT EXISTS papers_by_title ON papers (lower(title));
    """,
    # 17 (search, issue 32): words as written, not Porter stems (which file "optimizer" and
    # "Optimal" together); word families, British spellings and typos are matched at query
    # time against the index's vocabulary (store/wordmatch.py)
    """
    DROP TABLE IF EXISTS paper_vocab;
    DROP TABLE paper_fts;
    CREATE VIRTUAL TABLE paper_fts USING fts5 (
        title, abstract, authors, note, tags,
        tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row');
    INSERT INTO paper_fts (rowid, title, abstract, authors, note, tags)
        SELECT d.doc, p.title, p.abstract,
               (SELECT group_concat(value, ', ') FROM json_each(p.authors)),
               coalesce((SELECT body FROM notes WHERE id = p.id), ''),
               coalesce((SELECT group_concat(tag, ' ') FROM tags WHERE id = p.id), '')
        FROM fts_docs d JOIN papers p ON p.id = d.id
        AND p.version = (SELECT max(version) FROM papers WHERE id = d.id)
    """,
    # 18: when a star was given (`starred --starred-since`, issue 32); stars from before:
    # when the paper was first read (a star marks it read)
    """
    ALTER TABLE user_state ADD COLUMN starred_at REAL;
    UPDATE user_state SET starred_at = seen_at WHERE starred = 1;
    """,
]

SCHEMA_VERSION = len(_MIGRATIONS)


def statements(script: str) -> list[str]:
    """A migration script as single statements."""
    return [s.strip() for s in script.split(";") if s.strip()]
