package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/store"
)

// TestPendingMatchesRun: what the stat walk reports as changed is what the
// next incremental run re-indexes and deletes, case by case.
func TestPendingMatchesRun(t *testing.T) {
	v, db := testVault(t)
	ctx := context.Background()
	if _, err := Pending(ctx, v, db, opts(v, db).Rules); !errors.Is(err, store.ErrNotIndexed) {
		t.Fatalf("Pending before the first run: %v, want ErrNotIndexed", err)
	}
	first := mustRun(t, opts(v, db))
	c, err := Pending(ctx, v, db, opts(v, db).Rules)
	if err != nil || c.Files() != 0 || c.Bytes != 0 || len(c.Examples) != 0 {
		t.Fatalf("right after a run: %+v, %v; want nothing pending", c, err)
	}
	if c.LastIndex.IsZero() || time.Since(c.LastIndex) > time.Hour {
		t.Errorf("LastIndex = %v, want the run just done", c.LastIndex)
	}

	// One new note, one edited, one touched (same bytes, new mtime), one
	// deleted, one file that is no note (ignored).
	add := filepath.Join(v, "garden.md")
	if err := os.WriteFile(add, []byte("# Garden\n\nPlant tomatoes after the last frost.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var edited, touched, gone string
	_ = filepath.WalkDir(filepath.Join(v, "edge"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			switch "" {
			case edited:
				edited = p
			case touched:
				touched = p
			case gone:
				gone = p
			}
		}
		return nil
	})
	if err := os.WriteFile(edited, []byte("# Edited\n\nRewritten by the test.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v, "scratch.txt"), []byte("not a note"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Pending(ctx, v, db, opts(v, db).Rules)
	if err != nil {
		t.Fatal(err)
	}
	if c.New != 1 || c.Modified != 2 || c.Deleted != 1 {
		t.Errorf("Pending = %+v, want 1 new, 2 modified, 1 deleted", c)
	}
	if len(c.Examples) != 4 || c.Examples[len(c.Examples)-1] != filepath.ToSlash(mustRel(t, v, gone)) {
		t.Errorf("Examples = %q, want the 4 paths, the deleted one last", c.Examples)
	}
	sum := mustRun(t, opts(v, db))
	// A touched note's stat changed but not its bytes: the run reads it,
	// finds the same content hash, and only records the new stat.
	if sum.FilesIndexed+sum.FilesTouched != c.New+c.Modified || sum.FilesTouched != 1 || sum.FilesDeleted != c.Deleted {
		t.Errorf("the run indexed %d, touched %d and deleted %d; Pending said %d changed and %d deleted",
			sum.FilesIndexed, sum.FilesTouched, sum.FilesDeleted, c.New+c.Modified, c.Deleted)
	}
	if seen := sum.FilesIndexed + sum.FilesTouched + sum.FilesUnchanged; seen != first.FilesIndexed {
		t.Errorf("the run saw %d notes, the first %d", seen, first.FilesIndexed)
	}
	if c, err = Pending(ctx, v, db, opts(v, db).Rules); err != nil || c.Files() != 0 {
		t.Errorf("after the run: %+v, %v; want nothing pending", c, err)
	}
}

// TestHolder: the lock's pid reads as held while a run holds it, and as
// free once released, and when a dead process left its pid behind.
func TestHolder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	if pid := Holder(db); pid != 0 {
		t.Fatalf("Holder without a lock file = %d", pid)
	}
	release, err := lock(db)
	if err != nil {
		t.Fatal(err)
	}
	if pid := Holder(db); pid != os.Getpid() {
		t.Errorf("Holder while locked = %d, want %d", pid, os.Getpid())
	}
	release()
	if pid := Holder(db); pid != 0 {
		t.Errorf("Holder after release = %d, want 0", pid)
	}
	// A pid no process has (beyond the default pid_max): a kill -9 leaves
	// such a stale pid.
	if err := os.WriteFile(db+".lock", []byte("4194304999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if pid := Holder(db); pid != 0 {
		t.Errorf("Holder of a dead pid = %d, want 0", pid)
	}
}

func mustRel(t *testing.T, base, p string) string {
	t.Helper()
	r, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
