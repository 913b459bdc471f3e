package store

import (
	"context"
	"fmt"
	"strings"
)

// MetaChunkRules is the version of the chunking rules (chunk.RulesVersion)
// the index's chunks were made with; an incremental run that finds another
// value re-chunks every file once instead of trusting content hashes.
const MetaChunkRules = "chunk_rules"

// UpdateStat records a new stat of a file whose content did not change
// (same hash): only mtime_ns, size, ctime_ns and inode of the row at
// f.Path are written; its chunks and vectors stay. It returns an error
// when no row has f.Path.
func (t *Tx) UpdateStat(ctx context.Context, f File) error {
	res, err := t.exec(ctx, "UPDATE files SET mtime_ns = ?, size = ?, ctime_ns = ?, inode = ? WHERE path = ?",
		f.MtimeNS, f.Size, f.CtimeNS, int64(f.Inode), f.Path)
	if err != nil {
		return fmt.Errorf("update stat of %s: %w", f.Path, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("update stat of %s: no such file in the index", f.Path)
	}
	return nil
}

// Unreadable returns the files and folders that were there at the last
// index run but could not be read, in path order, each with its reason and
// the number of indexed files kept for it (the file itself, or those below
// the folder).
func (s *Store) Unreadable(ctx context.Context) ([]Kept, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.path, s.reason,
		(SELECT count(*) FROM files f WHERE f.path = s.path OR (f.path > s.path || '/' AND f.path < s.path || '0'))
		FROM skips s WHERE s.unreadable != 0 ORDER BY s.path`)
	if err != nil && strings.Contains(err.Error(), "no such column") {
		return nil, nil // an index from before the column (migrate.go) kept none
	}
	if err != nil {
		return nil, fmt.Errorf("unreadable: %w", err)
	}
	defer rows.Close()
	var out []Kept
	for rows.Next() {
		var k Kept
		if err := rows.Scan(notNull(&k.Path), notNull(&k.Reason), &k.Files); err != nil {
			return nil, fmt.Errorf("unreadable: %w", damagedRow("skips", err))
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Kept is an unreadable file or folder and the indexed files kept for it.
type Kept struct {
	Path   string `json:"path"`   // vault-relative
	Reason string `json:"reason"` // why it could not be read
	Files  int    `json:"files"`  // indexed files kept: 1 for a file, those below a folder
}

// Chunkless returns the paths of indexed files that yielded no chunk (an
// empty note, or one made only of skipped sections), in path order.
func (s *Store) Chunkless(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT path FROM files WHERE chunks = 0 ORDER BY path")
	if err != nil {
		return nil, fmt.Errorf("chunkless files: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("chunkless files: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
