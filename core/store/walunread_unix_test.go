//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestReadOnlyDirectoryPendingWAL: an index in a folder the reader cannot
// write (chmod 555, or another user's) is read as an immutable file, which
// leaves its WAL out. With a -wal that holds committed changes, that
// answered from the main file alone and said nothing. The store still
// reads the file, and Fallback says the WAL's changes are left out
// (ErrWALUnread); once the folder is writable, they are read. Root writes
// anywhere, so under root the test re-runs itself as the user nobody.
func TestReadOnlyDirectoryPendingWAL(t *testing.T) {
	if os.Geteuid() == 0 {
		testkit.RunAsNobody(t, "TestReadOnlyDirectoryPendingWAL")
		return
	}
	ctx := context.Background()
	built := filepath.Join(t.TempDir(), "index.db")
	w, err := Open(ctx, built, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, w, "a.md", "alpha bravo charlie")
	if err := w.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	put(t, w, "late.md", "zulu written after the checkpoint")
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "index.db")
	copyFile(t, built, db)
	copyFile(t, built+"-wal", db+"-wal")
	w.Close()
	if fi, err := os.Stat(db + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("test premise: no WAL pending (%v)", err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })

	r, err := Open(ctx, db, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open in a read-only folder with a WAL pending: %v", err)
	}
	if !errors.Is(r.Fallback(), ErrWALUnread) {
		t.Errorf("Fallback() = %v, want ErrWALUnread", r.Fallback())
	}
	if hits, err := r.KeywordHits(ctx, "bravo", 5, DefaultColumnWeights); err != nil || len(hits) != 1 {
		t.Errorf("the file's chunk: %v %v", hits, err)
	}
	r.Close()

	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err = Open(ctx, db, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Fallback() != nil {
		t.Errorf("Fallback() in a writable folder = %v, want nil", r.Fallback())
	}
	if hits, err := r.KeywordHits(ctx, "zulu", 5, DefaultColumnWeights); err != nil || len(hits) != 1 {
		t.Errorf("the WAL's chunk once the folder is writable: %v %v", hits, err)
	}
}
