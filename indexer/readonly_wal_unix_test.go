//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/store"
)

// TestReadOnlyFolderPendingWAL: an index in a folder the reader cannot
// write (chmod 555, or another user's) whose -wal holds committed
// changes. SQLite reads such a WAL only through a -shm file it cannot
// create there, so the store reads the main file alone: search answered
// "no results" for a term only the WAL has, status counted the old
// chunks, doctor passed, and nothing said so. search still answers (from
// the file) and says on stderr that the WAL's changes are left out;
// status and doctor say so with what to do; done as advised (the folder
// made writable), the changes are read. Root writes anywhere, so under
// root the test re-runs itself as the user nobody.
func TestReadOnlyFolderPendingWAL(t *testing.T) {
	if os.Geteuid() == 0 {
		testkit.RunAsNobody(t, "TestReadOnlyFolderPendingWAL")
		return
	}
	ctx := context.Background()
	dir := isolateCLI(t)
	hooktest.FreshClaude(t)
	vault := filepath.Join(dir, "vault")
	if err := os.MkdirAll(vault, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"tasks.md": "# Tasks\n\nRecurring tasks and due dates.\n",
		"notes.md": "# Notes\n\nThe zqfile word is in the file itself.\n",
	} {
		if err := os.WriteFile(filepath.Join(vault, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	built := filepath.Join(dir, "built", "index.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", built, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	// One more note committed by a writer still open: a copy of the file
	// and its WAL taken now has the note in the WAL only.
	w, err := store.Open(ctx, built, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := w.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.ReplaceFile(ctx, store.File{Path: "late.md", MtimeNS: 1, Size: 1, Hash: "h"},
		[]store.Chunk{{Text: "the zqwalonly word was committed to the WAL", Hash: []byte("h")}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "shared")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(ro, "index.db")
	copyFile(t, built, db)
	copyFile(t, built+"-wal", db+"-wal")
	w.Close()
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	const says = "its WAL holds changes"

	code, out, stderr := runStderr(t, "search", "--db", db, "--mode", "bm25", "zqfile")
	if code != 0 || !strings.Contains(out, "notes.md") || !strings.Contains(stderr, says) || !strings.Contains(stderr, "make the folder writable") {
		t.Errorf("search in the read-only folder: exit %d, stdout %q, stderr %q; want the file's hit and a warning that %s", code, out, stderr, says)
	}
	if code, _, stderr := runStderr(t, "search", "--db", db, "--mode", "bm25", "--json", "zqwalonly"); code != 0 || !strings.Contains(stderr, says) {
		t.Errorf("search for the WAL's term: exit %d, stderr %q; want exit 0 and the warning", code, stderr)
	}

	code, out = runCaptured(t, "status", "--db", db)
	if code != 0 || !strings.Contains(out, says) || !strings.Contains(out, "make the folder writable") {
		t.Errorf("status in the read-only folder: exit %d:\n%s\nwant a line saying %s, and what to do", code, out, says)
	}
	code, out = runCaptured(t, "status", "--db", db, "--json")
	var r statusReport
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.WALUnread {
		t.Errorf("status --json in the read-only folder: exit %d, wal_unread %v: %s", code, r.WALUnread, out)
	}

	_, out = runCaptured(t, "doctor", "--db", db)
	if got := doctorLines(out, "index integrity"); !strings.HasPrefix(got, "! ") || !strings.Contains(got, says) || !strings.Contains(got, "fix: make the folder writable") {
		t.Errorf("doctor in the read-only folder:\n%s\nwant ! saying %s, and what to do", got, says)
	}

	// As advised: the folder made writable, the WAL is read.
	if err := os.Chmod(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runStderr(t, "search", "--db", db, "--mode", "bm25", "zqwalonly")
	if code != 0 || !strings.Contains(out, "late.md") || stderr != "" {
		t.Errorf("search once the folder is writable: exit %d, stdout %q, stderr %q; want the WAL's note and no warning", code, out, stderr)
	}
}
