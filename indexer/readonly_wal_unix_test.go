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

	"github.com/vaultctx/vaultctx/core/settings"
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
	db, ro := readOnlyIndexWithWAL(t, dir, vault, "the zqwalonly word was committed to the WAL")
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

// TestReadOnlyFolderAdvice: an index in a folder this user cannot write
// (chmod 555, or another user's), with a leftover WAL and changes in the
// vault. doctor advised `run: vaultctx index --db F` and promised the
// next session start would refresh; typed as that user the run failed
// with "lock F.lock: open ...: permission denied" and no advice, and
// status advised `vaultctx index` too. No run of this user can take the
// index's lock: doctor, status and the index run say the folder is
// read-only to this user and that its owner must run the index (or the
// folder be made writable), and promise no session-start refresh. Done as
// advised (the folder made writable), the advised run works. Under root
// the test re-runs itself as nobody.
func TestReadOnlyFolderAdvice(t *testing.T) {
	if os.Geteuid() == 0 {
		testkit.RunAsNobody(t, "TestReadOnlyFolderAdvice")
		return
	}
	dir := isolateCLI(t)
	hooktest.FreshClaude(t)
	vault := filepath.Join(dir, "vault")
	if err := os.MkdirAll(vault, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vault, "tasks.md"), []byte("# Tasks\n\nRecurring tasks.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db, ro := readOnlyIndexWithWAL(t, dir, vault, "committed to the WAL")
	if err := os.WriteFile(filepath.Join(vault, "garden.md"), []byte("# Garden\n\nTomatoes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const says = "read-only to this user"
	owner := "have the index's owner run `vaultctx index --db " + settings.ShellQuote(db) + "`"

	_, out := runCaptured(t, "doctor", "--db", db)
	if got := doctorLines(out, "index freshness"); !strings.HasPrefix(got, "! ") || !strings.Contains(got, says) || !strings.Contains(got, "fix: "+owner) ||
		strings.Contains(got, "session start refreshes") {
		t.Errorf("doctor in the read-only folder:\n%s\nwant ! saying %s, the owner's run, and no promise of a refresh", got, says)
	}
	_, out = runCaptured(t, "status", "--db", db)
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "refresh ") {
			line = l
		}
	}
	if !strings.Contains(line, says) || !strings.Contains(line, owner) || strings.Contains(line, "session start refreshes") {
		t.Errorf("status in the read-only folder: %q; want it to say %s, the owner's run, and no promise of a refresh", line, says)
	}
	code, _, stderr := runStderr(t, "index", "--db", db, "--no-model")
	if hint := hintLine(stderr); code != 1 || !strings.Contains(stderr, says) || !strings.Contains(hint, owner) || strings.Contains(stderr, "permission denied") {
		t.Errorf("index in the read-only folder: exit %d, stderr:\n%s\nwant exit 1, %q and the owner's run, not a raw lock-file error", code, stderr, says)
	}

	// As advised: the folder made writable, the advised run works.
	if err := os.Chmod(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := runCaptured(t, "index", "--db", db, "--no-model"); code != 0 {
		t.Errorf("index once the folder is writable: exit %d: %s", code, out)
	}
	if _, out := runCaptured(t, "status", "--db", db); !strings.Contains(out, "changed since   nothing") {
		t.Errorf("status after the run:\n%s", out)
	}
}

// readOnlyIndexWithWAL indexes vault, commits one more note (late.md,
// holding walText) through a writer that is still open, and copies the
// file and its WAL into dir/shared, which it makes read-only (chmod 555,
// undone at cleanup): an index whose WAL holds committed changes, in a
// folder this user cannot write. It returns the copy's path and folder.
func readOnlyIndexWithWAL(t *testing.T, dir, vault, walText string) (db, ro string) {
	t.Helper()
	ctx := context.Background()
	built := filepath.Join(dir, "built", "index.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", built, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	w, err := store.Open(ctx, built, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tx, err := w.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.ReplaceFile(ctx, store.File{Path: "late.md", MtimeNS: 1, Size: 1, Hash: "h"},
		[]store.Chunk{{Text: walText, Hash: []byte("h")}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// Copied while the writer is open, the WAL is not yet checkpointed.
	ro = filepath.Join(dir, "shared")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(ro, "index.db")
	copyFile(t, built, db)
	copyFile(t, built+"-wal", db+"-wal")
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	return db, ro
}
