package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenLocked: an index another connection holds in an exclusive
// transaction of exclusive locking mode (a sqlite3 shell that ran
// `PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE;`) read as damage to
// doctor, which advised a full rebuild that then failed on the same lock.
// A read-only Open fails with ErrLocked after its busy timeout, and the
// error is not damage; once the lock is gone the index opens.
func TestOpenLocked(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(ctx, db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a.md", "alpha bravo charlie")
	s.Close()

	raw, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetMaxOpenConns(1)
	if _, err := raw.Exec("PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, db, Options{ReadOnly: true, BusyTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !IsLocked(err) || IsDamage(err) || errors.Is(err, ErrDamaged) {
		t.Fatalf("read-only Open of a locked index: %v; want ErrLocked, not damage", err)
	}
	if _, err := raw.Exec("COMMIT; PRAGMA locking_mode=NORMAL"); err != nil {
		t.Fatal(err)
	}
	raw.Close() // exclusive locking mode keeps the lock until the connection closes
	r, err := Open(ctx, db, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("Open once the lock is gone: %v", err)
	}
	r.Close()
}
