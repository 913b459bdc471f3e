-- vaultctx index schema. Pages of 8 KiB keep most chunk rows out of overflow pages.
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
  redactions TEXT NOT NULL DEFAULT ''  -- JSON {rule: count} of credentials scrubbed
);

CREATE TABLE IF NOT EXISTS skips (
  path   TEXT PRIMARY KEY,
  reason TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS chunks (
  id              INTEGER PRIMARY KEY,
  file_id         INTEGER NOT NULL,  -- files.id
  ordinal         INTEGER NOT NULL,
  section         TEXT NOT NULL,
  chunk_text      TEXT NOT NULL,
  heading_context TEXT NOT NULL,
  cjk             TEXT,
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
