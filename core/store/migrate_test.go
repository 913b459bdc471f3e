package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestMigrateAddsColumns opens a file as an older binary left it (schema 1
// without ctime_ns, inode and skips.unreadable, with a row): a writer adds
// the columns in place, keeps the row, and reads 0 for what it never knew.
func TestMigrateAddsColumns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	makeOlder(t, s)
	if cols, _ := s.columns(ctx, "files"); cols["ctime_ns"] {
		t.Fatal("setup: ctime_ns still there")
	}
	s.Close()

	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("reopen an older file: %v", err)
	}
	defer s.Close()
	files, err := s.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f := files["old.md"]; f.MtimeNS != 7 || f.Size != 3 || f.Hash != "abc" || f.CtimeNS != 0 || f.Inode != 0 {
		t.Errorf("migrated row: %+v", f)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.UpdateStat(ctx, File{Path: "old.md", MtimeNS: 8, Size: 3, CtimeNS: 9, Inode: 1 << 40}); err != nil {
		t.Fatal(err)
	}
	if err := tx.UpdateStat(ctx, File{Path: "missing.md"}); err == nil {
		t.Error("UpdateStat of a path with no row: no error")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	files, _ = s.Files(ctx)
	if f := files["old.md"]; f.MtimeNS != 8 || f.CtimeNS != 9 || f.Inode != 1<<40 || f.Hash != "abc" {
		t.Errorf("after UpdateStat: %+v", f)
	}
	if kept, err := s.Unreadable(ctx); err != nil || len(kept) != 0 {
		t.Errorf("an old skip is not marked unreadable: %+v, %v", kept, err)
	}
}

// TestReadOnlyReadsOlderFile: a read-only reader (status, doctor) of a file
// an older binary left, which no writer has migrated yet, lists its files
// and its unreadable paths (none) without an error.
func TestReadOnlyReadsOlderFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	makeOlder(t, s)
	s.Close()
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	files, err := ro.Files(ctx)
	if err != nil || files["old.md"].Size != 3 {
		t.Errorf("Files of an unmigrated file: %v, %v", files, err)
	}
	if kept, err := ro.Unreadable(ctx); err != nil || len(kept) != 0 {
		t.Errorf("Unreadable of an unmigrated file: %v, %v", kept, err)
	}
}

// makeOlder turns s into a file as an older binary left it: schema 1
// without ctime_ns, inode and skips.unreadable, with one file and one skip.
func makeOlder(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{
		"ALTER TABLE files DROP COLUMN ctime_ns",
		"ALTER TABLE files DROP COLUMN inode",
		"ALTER TABLE skips DROP COLUMN unreadable",
		"INSERT INTO files(path, mtime_ns, size, hash) VALUES('old.md', 7, 3, 'abc')",
		"INSERT INTO skips(path, reason) VALUES('locked', 'permission denied')",
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
