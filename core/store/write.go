package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// File is one row of the files table: a note as last indexed.
type File struct {
	Path    string // vault-relative, forward slashes, NFC
	MtimeNS int64  // modification time, ns since the Unix epoch
	Size    int64  // bytes on disk
	CtimeNS int64  // status-change time, ns since the Unix epoch (0: unknown)
	Inode   uint64 // inode number (0: unknown)
	Hash    string // content hash of the raw bytes (hex)
	Title   string // note title
	Chunks  int    // number of chunks stored for the file
	Error   string // problems recorded while parsing ("" when none)
	// Redactions is a JSON object {rule: count} of the credentials scrubbed
	// from the file ("" when none).
	Redactions string
}

// Chunk is one row of the chunks table.
type Chunk struct {
	ID             int64 // assigned by the store on insert
	Path           string
	Ordinal        int    // 0-based position within the file
	Title          string // note title (from the files row)
	Section        string
	Text           string
	HeadingContext string // "Note Title | type | tag1, tag2"
	MtimeNS        int64
	Hash           []byte // first 8 bytes of sha256(Text)

	// extras is the cjk column Prepare derived from extrasOf (Text and
	// Section then); ReplaceFile derives it again when they changed since.
	extras   string
	extrasOf [2]string
	prepared bool
}

// Prepare derives what ReplaceFile and AddFile compute from the chunk's
// Text and Section (the FTS5 column of the tokens unicode61 cannot form
// itself, see ftsquery.Extras; about 3 µs a chunk, 0.5 s of a full run at
// 162,780 chunks), so that an indexer can do it on its worker goroutines
// instead of the one that writes.
// Calling it is optional: the writers derive what is missing or stale
// (Text or Section changed since) themselves.
func (c *Chunk) Prepare() {
	c.extras = ftsquery.Extras(c.Text + "\n" + c.Section)
	c.extrasOf = [2]string{c.Text, c.Section}
	c.prepared = true
}

// cjk returns the chunk's cjk column value: nil (SQL NULL) when there are
// no extra tokens.
func (c *Chunk) cjk() any {
	// Strings of the same backing array compare by pointer, so a chunk
	// Prepare saw costs no byte comparison here.
	if !c.prepared || c.extrasOf != [2]string{c.Text, c.Section} {
		c.Prepare()
	}
	if c.extras == "" {
		return nil
	}
	return c.extras
}

// Skip is one file the walk skipped, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Unreadable is set for a file or folder that is there but could not
	// be read (permission denied, an I/O error): the index keeps what it
	// last read of it (see Unreadable).
	Unreadable bool `json:"unreadable,omitempty"`
}

// Files returns every row of the files table keyed by path. A file written
// before the ctime_ns and inode columns (which a writer adds, migrate.go)
// reads with both 0, so a read-only reader of an older index works too. A
// row that breaks the schema (a NULL path) is an error wrapping ErrDamaged.
func (s *Store) Files(ctx context.Context) (map[string]File, error) {
	// The map is sized up front (a writer has one connection, so before
	// the rows hold it): growing it to 16,673 files rehashed it a dozen
	// times, a quarter of this call.
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM files").Scan(&n); err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT path, mtime_ns, size, ctime_ns, inode, hash, title, chunks, error, redactions FROM files")
	if err != nil && strings.Contains(err.Error(), "no such column") {
		rows, err = s.db.QueryContext(ctx, "SELECT path, mtime_ns, size, 0, 0, hash, title, chunks, error, redactions FROM files")
	}
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	defer rows.Close()
	out := make(map[string]File, n)
	for rows.Next() {
		var f File
		var ino int64
		if err := rows.Scan(notNull(&f.Path), notNull(&f.MtimeNS), notNull(&f.Size), notNull(&f.CtimeNS), notNull(&ino), notNull(&f.Hash),
			notNull(&f.Title), notNull(&f.Chunks), notNull(&f.Error), notNull(&f.Redactions)); err != nil {
			return nil, fmt.Errorf("list files: %w", damagedRow("files", err))
		}
		f.Inode = uint64(ino)
		out[f.Path] = f
	}
	return out, rows.Err()
}

// Tx is one write transaction. Writers commit in batches: every file's rows
// (files, chunks, FTS5, vectors) change together or not at all, so a crash
// at any moment leaves a consistent file that the next run completes.
type Tx struct {
	s        *Store
	tx       *sql.Tx
	insChunk *sql.Stmt
	insVec   *sql.Stmt
	// stmts holds the statements prepared on first use (see stmt).
	stmts map[string]*sql.Stmt
	// nextID is the id of the next chunk written, 0 until the first (see
	// chunkID).
	nextID int64
}

// nextChunkIDSQL is the first chunk id a transaction writes: past every
// chunk id and past the impact index's last id even after the newest
// chunks were deleted, so a reused id can never pose as indexed.
const nextChunkIDSQL = `SELECT max(coalesce(max(id), 0), coalesce((SELECT max(CAST(value AS INTEGER)) FROM meta WHERE key IN ('impact_max_id', 'impact_delta_max')), 0)) + 1 FROM chunks`

// chunkID returns the id of the next chunk the transaction writes. Only
// the transaction writes chunks while it lasts, so the ids after the first
// count up from it: the query per chunk and, per file, the RETURNING of
// its files row cost about 0.5 s of a full index run on its one writing
// goroutine.
func (t *Tx) chunkID(ctx context.Context) (int64, error) {
	if t.nextID == 0 {
		if err := t.tx.QueryRowContext(ctx, nextChunkIDSQL).Scan(&t.nextID); err != nil {
			return 0, err
		}
	}
	t.nextID++
	return t.nextID - 1, nil
}

// stmt returns q prepared on the transaction, preparing it on first use.
// database/sql prepares a query string anew at every call, and compiling a
// DELETE or INSERT on chunks or files compiles their triggers as well:
// about 100 µs per file written in a full index run, on the one goroutine
// that writes. The statements close with the transaction.
func (t *Tx) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[q] = st
	return st, nil
}

// exec runs q, prepared once per transaction, with args.
func (t *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := t.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// Begin starts a write transaction.
func (s *Store) Begin(ctx context.Context) (*Tx, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	t := &Tx{s: s, tx: tx}
	t.insChunk, err = tx.PrepareContext(ctx, `INSERT INTO chunks(id, file_id, ordinal, section, chunk_text, heading_context, cjk, mtime_ns, hash)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if s.vecOK {
		if err := t.prepareVec(ctx); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	return t, nil
}

// Commit commits the transaction.
func (t *Tx) Commit() error {
	if err := t.tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Rollback abandons the transaction; it is a no-op after Commit.
func (t *Tx) Rollback() error { return t.tx.Rollback() }

// ReplaceFile replaces everything stored for f.Path with f and chunks.
// vecs is either nil (no vectors) or holds one embedding per chunk, each of
// the store's vector dimension. Chunk IDs are assigned here and written back
// into chunks.
func (t *Tx) ReplaceFile(ctx context.Context, f File, chunks []Chunk, vecs [][]float32) error {
	if vecs != nil && len(vecs) != len(chunks) {
		return fmt.Errorf("replace %s: %d vectors for %d chunks", f.Path, len(vecs), len(chunks))
	}
	if err := t.deleteChunks(ctx, f.Path); err != nil {
		return err
	}
	return t.writeFile(ctx, upsertFileSQL, f, chunks, vecs)
}

// AddFile stores f and chunks (and vecs, as for ReplaceFile) for a path
// the index does not hold: ReplaceFile without looking for the rows to
// replace, which is most of its own SQL work for a note with few chunks.
// A path the index holds fails on the files table's unique path (a wrapped
// SQLite constraint error) before anything of f is written.
func (t *Tx) AddFile(ctx context.Context, f File, chunks []Chunk, vecs [][]float32) error {
	if vecs != nil && len(vecs) != len(chunks) {
		return fmt.Errorf("add %s: %d vectors for %d chunks", f.Path, len(vecs), len(chunks))
	}
	return t.writeFile(ctx, insertFileSQL, f, chunks, vecs)
}

// insertFileSQL writes a new files row, whose id is then the last insert
// rowid; upsertFileSQL writes or updates one and returns its id.
const (
	insertFileSQL = `INSERT INTO files(path, mtime_ns, size, ctime_ns, inode, hash, title, chunks, error, redactions) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	upsertFileSQL = `INSERT INTO files(path, mtime_ns, size, ctime_ns, inode, hash, title, chunks, error, redactions) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET mtime_ns=excluded.mtime_ns, size=excluded.size, ctime_ns=excluded.ctime_ns, inode=excluded.inode,
		hash=excluded.hash, title=excluded.title, chunks=excluded.chunks, error=excluded.error, redactions=excluded.redactions
		RETURNING id`
)

// writeFile writes f's row with fileSQL and then its chunks and vectors.
func (t *Tx) writeFile(ctx context.Context, fileSQL string, f File, chunks []Chunk, vecs [][]float32) error {
	f.Chunks = len(chunks)
	ins, err := t.stmt(ctx, fileSQL)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	args := []any{f.Path, f.MtimeNS, f.Size, f.CtimeNS, int64(f.Inode), f.Hash, f.Title, f.Chunks, f.Error, f.Redactions}
	var fileID int64
	if fileSQL == insertFileSQL {
		var res sql.Result
		if res, err = ins.ExecContext(ctx, args...); err == nil {
			fileID, err = res.LastInsertId()
		}
	} else {
		err = ins.QueryRowContext(ctx, args...).Scan(&fileID)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	for i := range chunks {
		c := &chunks[i]
		if c.Hash == nil {
			c.Hash = []byte{}
		}
		id, err := t.chunkID(ctx)
		if err != nil {
			return fmt.Errorf("write %s: chunk id: %w", f.Path, err)
		}
		if _, err := t.insChunk.ExecContext(ctx, id, fileID, c.Ordinal, c.Section, c.Text, c.HeadingContext, c.cjk(), c.MtimeNS, c.Hash); err != nil {
			return fmt.Errorf("write %s: insert chunk: %w", f.Path, err)
		}
		c.ID = id
		c.Path, c.Title = f.Path, f.Title
		if vecs != nil && t.s.vecOK {
			if err := t.putVec(ctx, c.ID, vecs[i]); err != nil {
				return fmt.Errorf("write %s: %w", f.Path, err)
			}
		}
	}
	return nil
}

// DeleteFile removes a file and all its chunks, FTS5 entries and vectors.
func (t *Tx) DeleteFile(ctx context.Context, path string) error {
	if err := t.deleteChunks(ctx, path); err != nil {
		return err
	}
	if _, err := t.exec(ctx, "DELETE FROM files WHERE path = ?", path); err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	return nil
}

func (t *Tx) deleteChunks(ctx context.Context, path string) error {
	if t.s.vecOK {
		// vec0 cannot use an IN (subquery) constraint and would scan the
		// whole table, so vectors are deleted by rowid, one at a time.
		sel, err := t.stmt(ctx, "SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ?")
		if err != nil {
			return fmt.Errorf("delete vectors of %s: %w", path, err)
		}
		rows, err := sel.QueryContext(ctx, path)
		if err != nil {
			return fmt.Errorf("delete vectors of %s: %w", path, err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("delete vectors of %s: %w", path, err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		for _, id := range ids {
			if err := t.deleteVec(ctx, id); err != nil {
				return fmt.Errorf("delete vectors of %s: %w", path, err)
			}
		}
	}
	// The chunks_ad trigger issues the FTS5 'delete' command for each row.
	if _, err := t.exec(ctx, "DELETE FROM chunks WHERE file_id = (SELECT id FROM files WHERE path = ?)", path); err != nil {
		return fmt.Errorf("delete chunks of %s: %w", path, err)
	}
	return nil
}

// SetSkips replaces the list of skipped files.
func (t *Tx) SetSkips(ctx context.Context, skips []Skip) error {
	if _, err := t.tx.ExecContext(ctx, "DELETE FROM skips"); err != nil {
		return fmt.Errorf("set skips: %w", err)
	}
	for _, sk := range skips {
		if _, err := t.exec(ctx, "INSERT OR REPLACE INTO skips(path, reason, unreadable) VALUES(?, ?, ?)", sk.Path, sk.Reason, sk.Unreadable); err != nil {
			return fmt.Errorf("set skips: %w", err)
		}
	}
	return nil
}

// AddSkip records one more skipped file.
func (t *Tx) AddSkip(ctx context.Context, sk Skip) error {
	if _, err := t.exec(ctx, "INSERT OR REPLACE INTO skips(path, reason, unreadable) VALUES(?, ?, ?)", sk.Path, sk.Reason, sk.Unreadable); err != nil {
		return fmt.Errorf("add skip: %w", err)
	}
	return nil
}

// SetMeta stores value under key inside the transaction.
func (t *Tx) SetMeta(ctx context.Context, key, value string) error {
	_, err := t.tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	if err != nil {
		return fmt.Errorf("write meta %s: %w", key, err)
	}
	return nil
}
