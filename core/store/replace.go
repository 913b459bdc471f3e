package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// ftsAutomerge is FTS5's default 'automerge' setting, which a Bulk store
// turns off while it loads and mergeText restores.
const ftsAutomerge = 4

// mergeText merges the FTS5 index's segments into one ('optimize') and
// gives FTS5 back its default automerge, which a Bulk store turned off.
// Merging as the segments pile up, four at a time, rewrote each posting
// once per level: at four times the large corpus about 20 s of the 60 s
// the writing goroutine of a full run took, where the one merge at the
// end takes 1.1 s, into the same index (Seal merges it anyway). It is
// cheap on an index of one segment.
func (s *Store) mergeText(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')"); err != nil {
		return fmt.Errorf("merge FTS5 segments: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', ?)", ftsAutomerge); err != nil {
		return fmt.Errorf("merge FTS5 segments: %w", err)
	}
	return nil
}

// Seal finishes a Bulk store: it merges the FTS5 index segments, rewrites
// the file compacted and defragmented (VACUUM INTO a sibling file that
// then takes its name), switches it to WAL mode, and closes it. The file
// is then ready for Replace.
//
// The rewrite lays every table and index out in page order. A search
// process pays for each 64 KiB of the file it touches (the kernel maps
// that much around every page read, and unmaps it at exit); on the large
// corpus the rewrite halved the file a hybrid query touches (18 to 9 MB)
// and took 0.7 s.
func (s *Store) Seal(ctx context.Context) error {
	fail := func(err error) error {
		s.db.Close()
		return fmt.Errorf("seal %s: %w", s.path, err)
	}
	if s.pending {
		// A run that stopped before TrainVectorLists left its vectors
		// pending.
		if _, err := s.TrainVectorLists(ctx); err != nil {
			return fail(err)
		}
	}
	if err := s.mergeText(ctx); err != nil {
		return fail(err)
	}
	packed := s.path + ".packed"
	if err := removeDB(packed); err != nil {
		return fail(err)
	}
	// VACUUM gives the copy the connection's page cache and rebuilds every
	// index through a sorter sized by it: with the 32 MB cache and
	// temp_store=MEMORY it raised the indexer's peak memory from 241 to
	// 352 MiB on the large corpus.
	if _, err := s.db.ExecContext(ctx, "PRAGMA temp_store=FILE; PRAGMA cache_size=-4000"); err != nil {
		return fail(err)
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", packed); err != nil {
		removeDB(packed)
		return fail(err)
	}
	if err := s.db.Close(); err != nil {
		removeDB(packed)
		return fmt.Errorf("seal %s: %w", s.path, err)
	}
	if err := os.Rename(packed, s.path); err != nil {
		removeDB(packed)
		return fmt.Errorf("seal %s: %w", s.path, err)
	}
	db, err := sql.Open(driverName, "file:"+escapePath(s.path))
	if err != nil {
		return fmt.Errorf("seal %s: %w", s.path, err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"PRAGMA journal_mode=WAL",
		"PRAGMA optimize",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			return fmt.Errorf("seal %s: %w", s.path, err)
		}
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("seal %s: %w", s.path, err)
	}
	return nil
}

// removeDB deletes an SQLite file and its journal files; missing ones are
// not an error.
func removeDB(path string) error {
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Replace atomically swaps the sealed index file src into place at dst.
// The rename replaces dst itself: a caller that means the target of a
// symlink passes the resolved path (core/index does).
//
// A WAL file left beside dst would belong to the old database and must
// never be replayed onto the new one, so before the rename the old file is
// checkpointed and switched to rollback-journal mode, which deletes its WAL
// and shared-memory files. That switch waits (up to about 10 s) for readers
// to finish; its exclusive lock is held through the rename. A connection
// that opens the old file meanwhile reads nothing of it until the rename
// is done, and a read-only Open then opens the new file instead: read in
// rollback mode after the rename, the old file would have the new file's
// WAL replayed onto it. Every open after the rename sees the new file.
//
// An old file SQLite cannot open or switch for any reason but a lock held
// by another connection (garbage, a damaged header or damaged pages:
// "unsupported file format", "file is not a database", "database disk
// image is malformed", ...) is replaced as it is, with its journal files
// dropped: nothing can be reading it. Only a lock that stays held past the
// wait fails the swap.
func Replace(ctx context.Context, dst, src string) error {
	if _, err := os.Stat(dst); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(src, dst); err != nil {
			return fmt.Errorf("install index: %w", err)
		}
		return nil
	}
	db, err := sql.Open("sqlite3", "file:"+escapePath(dst)+"?_busy_timeout=10000")
	if err != nil {
		return fmt.Errorf("install index: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if unusable(err) {
		db.Close()
		return replaceGarbage(dst, src)
	}
	if err != nil {
		return fmt.Errorf("install index: %w", err)
	}
	defer conn.Close()
	// In exclusive locking mode the connection keeps the exclusive lock
	// the switch out of WAL mode takes until it closes, after the rename:
	// a reader that opened the old file meanwhile reads nothing of it
	// before the rename, and then sees (Open) that its file was replaced.
	if _, err := conn.ExecContext(ctx, "PRAGMA locking_mode=EXCLUSIVE"); err != nil {
		return fmt.Errorf("install index: %w", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var mode string
		err = conn.QueryRowContext(ctx, "PRAGMA journal_mode=DELETE").Scan(&mode)
		if err == nil && mode == "delete" {
			break
		}
		if unusable(err) {
			conn.Close()
			db.Close()
			return replaceGarbage(dst, src)
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("journal mode is still %s", mode)
			}
			return fmt.Errorf("install index: another process kept the old index open for 10 s (%w): close it (a sqlite3 shell, a long-running reader) and run again; the old index is unchanged", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if testHookSwitched != nil {
		testHookSwitched()
	}
	// The exclusive lock is held (see above); the transaction states it.
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		return fmt.Errorf("install index: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("install index: %w", err)
	}
	return nil
}

// testHookSwitched, when set by a test, runs in Replace once the old file
// is out of WAL mode, before the rename.
var testHookSwitched func()

// replaceGarbage installs src over a dst that SQLite cannot use (garbage,
// a damaged header or pages): nothing can be reading it, so its journal
// files are dropped and it is replaced.
func replaceGarbage(dst, src string) error {
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		os.Remove(dst + suffix)
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("install index: %w", err)
	}
	return nil
}

// unusable reports whether err is an SQLite error other than a lock held
// by another connection (SQLITE_BUSY, SQLITE_LOCKED) or an interrupt: the
// old file is then of no use to anyone.
func unusable(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlite3.ErrBusy, sqlite3.ErrLocked, sqlite3.ErrInterrupt:
		return false
	}
	return true
}

// IsDamage reports whether err (from Open or any query) is SQLite's report
// of a file whose header or pages it cannot read: "database disk image is
// malformed", FTS5's "corruption found reading blob ...", "file is not a
// database", "unsupported file format" (see ErrDamaged), or wraps
// ErrDamaged, such as a row that breaks the schema (damagedRow). A full
// index (`vaultctx index --full`) replaces such a file; doctor names the
// damage.
func IsDamage(err error) bool {
	if errors.Is(err, ErrDamaged) {
		return true
	}
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlite3.ErrNotADB, sqlite3.ErrCorrupt, sqlite3.ErrFormat:
		return true
	case sqlite3.ErrError:
		// A schema format number SQLite does not know (byte 44) gives
		// the generic code.
		msg := se.Error()
		return strings.Contains(msg, "unsupported file format") || strings.Contains(msg, "malformed")
	}
	return false
}

// errNull is the Scan error of a NULL in a column read with notNull.
var errNull = errors.New("NULL where the schema says NOT NULL")

// notNull is the Scan destination of a column the schema declares NOT
// NULL: it scans into dst as database/sql would, and fails a NULL with
// errNull. A NULL there is no row an index run wrote but a damaged page
// (the missing pages of a file cut short read as zeros); damagedRow
// reports it as ErrDamaged instead of database/sql's "converting NULL to
// string is unsupported". It is pointer-shaped, so passing it to Scan
// allocates nothing more than &dst does.
func notNull[T any](dst *T) nullChecked[T] { return nullChecked[T]{dst} }

// nullChecked is the sql.Scanner notNull returns.
type nullChecked[T any] struct{ dst *T }

// Scan implements sql.Scanner.
func (n nullChecked[T]) Scan(src any) error {
	if src == nil {
		return errNull
	}
	var v sql.Null[T]
	if err := v.Scan(src); err != nil {
		return err
	}
	*n.dst = v.V
	return nil
}

// damagedRow returns err, the error of a Scan of a row of table, wrapped
// with ErrDamaged when a notNull column held NULL; other errors as they
// are.
func damagedRow(table string, err error) error {
	if errors.Is(err, errNull) {
		return fmt.Errorf("%w: a row of %s breaks the schema (%v)", ErrDamaged, table, err)
	}
	return err
}

// Redactions sums the credentials scrubbed per rule over all files.
func (s *Store) Redactions(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT redactions FROM files WHERE redactions != ''")
	if err != nil {
		return nil, fmt.Errorf("redactions: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		var m map[string]int
		if jsonUnmarshal(raw, &m) == nil {
			for k, v := range m {
				out[k] += v
			}
		}
	}
	return out, rows.Err()
}
