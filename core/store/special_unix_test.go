//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// TestOpenRefusesSpecialFiles: Open, read-only or not, refuses a FIFO
// (SQLite's open(2) of it waits for a writer) and a device (read as an
// empty database) with ErrNotAnIndex, and HasSQLiteHeader never waits on a
// FIFO. A hang fails the test by its timeout.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, p := range []string{fifo, "/dev/null"} {
		for _, ro := range []bool{true, false} {
			s, err := Open(context.Background(), p, Options{ReadOnly: ro})
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrNotAnIndex) {
				t.Errorf("Open(%s, ReadOnly %t): %v, want ErrNotAnIndex", p, ro, err)
			}
		}
	}
	// A FIFO beside a real index, where SQLite opens its side files.
	db := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(context.Background(), db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, side := range []string{"-journal", "-wal", "-shm"} {
		if err := syscall.Mkfifo(db+side, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, ro := range []bool{true, false} {
			s, err := Open(context.Background(), db, Options{ReadOnly: ro})
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrNotAnIndex) {
				t.Errorf("Open with a FIFO %s (ReadOnly %t): %v, want ErrNotAnIndex", side, ro, err)
			}
		}
		if err := os.Remove(db + side); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := HasSQLiteHeader(fifo); !errors.Is(err, fsx.ErrNotRegular) {
		t.Errorf("HasSQLiteHeader(fifo): %v, want fsx.ErrNotRegular", err)
	}
}
