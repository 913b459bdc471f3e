-- vaultctx index schema. New files use 16 KiB pages (see Store.init).
-- The version is recorded in meta('schema_version').
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS files (
  id       INTEGER PRIMARY KEY,
  path     TEXT NOT NULL UNIQUE,
  mtime_ns INTEGER NOT NULL,
  size     INTEGER NOT NULL,
  hash     TEXT NOT NULL,
  title    TEXT NOT NULL DEFAULT '',
  chunks   INTEGER NOT NULL DEFAULT 0,
  error    TEXT NOT NULL DEFAULT '',
  redactions TEXT NOT NULL DEFAULT '',  -- JSON {rule: count} of credentials scrubbed
  -- Added after schema 1 shipped (see migrate.go): the status-change time
  -- and inode the change check compares besides mtime_ns and size; 0 in
  -- rows written before.
  ctime_ns INTEGER NOT NULL DEFAULT 0,
  inode    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS skips (
  path   TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  -- Added after schema 1 shipped (see migrate.go): 1 when the file or
  -- folder is there but could not be read; the files rows it held are kept.
  unreadable INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS chunks (
  id              INTEGER PRIMARY KEY,
  file_id         INTEGER NOT NULL,  -- files.id
  ordinal         INTEGER NOT NULL,
  section         TEXT NOT NULL,
  chunk_text      TEXT NOT NULL,
  heading_context TEXT NOT NULL,
  cjk             TEXT,              -- ftsquery.Extras: CJK bigrams, Latin in CJK, hyphen joins, emoji
  mtime_ns        INTEGER NOT NULL,
  hash            BLOB NOT NULL      -- first 8 bytes of sha256(chunk_text)
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id);

CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
  chunk_text, section, heading_context, cjk,
  content='chunks', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, chunk_text, section, heading_context, cjk)
  VALUES (new.id, new.chunk_text, new.section, new.heading_context, new.cjk);
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, chunk_text, section, heading_context, cjk)
  VALUES ('delete', old.id, old.chunk_text, old.section, old.heading_context, old.cjk);
END;
CREATE TRIGGER IF NOT EXISTS chunks_au AFTER UPDATE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, chunk_text, section, heading_context, cjk)
  VALUES ('delete', old.id, old.chunk_text, old.section, old.heading_context, old.cjk);
  INSERT INTO chunks_fts(rowid, chunk_text, section, heading_context, cjk)
  VALUES (new.id, new.chunk_text, new.section, new.heading_context, new.cjk);
END;

-- The BM25 impact index of common terms (see impact.go). Built by
-- BuildImpact, with a delta for chunks added since (impact_delta, up to
-- meta('impact_delta_max')); chunks deleted after either are listed in
-- impact_dead so searches skip their postings, and chunk ids always grow
-- past both, so newer chunks are told apart by id.
CREATE TABLE IF NOT EXISTS impact_terms (
  term     TEXT PRIMARY KEY,  -- an FTS5 term of chunks_fts (a stem)
  df       INTEGER NOT NULL,  -- chunks holding it at build time
  postings BLOB NOT NULL      -- bit-packed (chunk id, column frequencies)
);
CREATE TABLE IF NOT EXISTS impact_forms (
  surface TEXT PRIMARY KEY,   -- a token before stemming
  term    TEXT NOT NULL       -- the impact_terms term FTS5 stems it to
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS impact_doclen (
  id   INTEGER PRIMARY KEY,   -- 2: the delta's; 16 on: parts of the build's (1: all of it, older files)
  lens BLOB NOT NULL          -- chunk lengths in tokens, by chunk id (postings.SplitLengths)
);
CREATE TABLE IF NOT EXISTS impact_delta (
  term     TEXT PRIMARY KEY,  -- an impact_terms term
  postings BLOB NOT NULL      -- its postings in chunks added since the build
);
CREATE TABLE IF NOT EXISTS impact_dead (
  id INTEGER PRIMARY KEY
);
-- Per impact_terms term, the skip table of its postings (postings.BuildSkips:
-- each block's last chunk id, offset and score-bounding corners), so that a
-- search skips the blocks that cannot reach its top k. Every build writes
-- it; an index built before it has none, and the next index run rebuilds.
CREATE TABLE IF NOT EXISTS impact_skips (
  term  TEXT PRIMARY KEY,     -- an impact_terms term
  skips BLOB NOT NULL
);
-- Per term, how many of its postings (build and delta) are in chunks of
-- impact_dead, counted when impact_dead held meta('impact_gone_dead') ids;
-- a search uses the counts only while that still holds.
CREATE TABLE IF NOT EXISTS impact_gone (
  term TEXT PRIMARY KEY,      -- an impact_terms term
  n    INTEGER NOT NULL       -- its postings in dead chunks
) WITHOUT ROWID;
DROP TRIGGER IF EXISTS impact_ad;
CREATE TRIGGER impact_ad AFTER DELETE ON chunks
WHEN old.id <= (SELECT max(CAST(value AS INTEGER)) FROM meta WHERE key IN ('impact_max_id', 'impact_delta_max') AND value != '')
BEGIN
  INSERT OR IGNORE INTO impact_dead(id) VALUES (old.id);
END;
