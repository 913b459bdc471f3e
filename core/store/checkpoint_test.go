package store

import (
	"context"
	"errors"
	"os"
	"testing"
)

// TestCheckpoint: a writer's Checkpoint truncates the WAL once readers
// are on the newest snapshot, and says so when a reader pins an older one
// throughout.
func TestCheckpoint(t *testing.T) {
	ctx := context.Background()
	w := mustOpen(t)
	put(t, w, "a.md", "alpha bravo")
	r, err := Open(ctx, w.Path(), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&n); err != nil {
		t.Fatal(err)
	}
	put(t, w, "b.md", "charlie delta") // the reader's snapshot is now old
	if err := w.Checkpoint(ctx); !errors.Is(err, ErrCheckpointBusy) {
		t.Errorf("Checkpoint with a reader on an old snapshot: %v, want ErrCheckpointBusy", err)
	}
	tx.Rollback()
	if err := w.Checkpoint(ctx); err != nil {
		t.Fatalf("Checkpoint after the reader left: %v", err)
	}
	if fi, err := os.Stat(w.Path() + "-wal"); err == nil && fi.Size() != 0 {
		t.Errorf("WAL holds %d bytes after Checkpoint, want 0", fi.Size())
	}
}
