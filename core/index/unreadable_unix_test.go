//go:build unix

package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestUnreadableKeepsLastVersion makes a note and a folder unreadable
// (chmod 000) after a first run: the next run keeps what it indexed of
// them and lists both as unreadable; once readable again they are
// re-indexed. Root reads files of any mode, so under root the test re-runs
// itself as the user nobody (testkit.RunAsNobody), which really cannot.
func TestUnreadableKeepsLastVersion(t *testing.T) {
	if os.Geteuid() == 0 {
		testkit.RunAsNobody(t, "TestUnreadableKeepsLastVersion")
		return
	}
	v, db := smallVault(t, map[string]string{
		"open.md":         "# Open\n\nThe word zqopen marks a note that stays readable.\n",
		"secret.md":       "# Secret\n\nThe word zqsecret marks a note that becomes unreadable.\n",
		"locked/inner.md": "# Inner\n\nThe word zqinner marks a note in a folder that becomes unreadable.\n",
	})
	first := mustRun(t, opts(v, db))
	if first.FilesIndexed != 3 {
		t.Fatalf("first run: %+v", first)
	}
	chmod := func(p string, mode os.FileMode) {
		t.Helper()
		if err := os.Chmod(filepath.Join(v, p), mode); err != nil {
			t.Fatal(err)
		}
	}
	chmod("secret.md", 0)
	chmod("locked", 0)
	t.Cleanup(func() { chmod("locked", 0o755) })
	if _, err := os.ReadFile(filepath.Join(v, "secret.md")); err == nil {
		t.Fatal("setup: secret.md is still readable")
	}

	s := mustRun(t, opts(v, db))
	if s.FilesDeleted != 0 || s.FilesKept != 2 {
		t.Errorf("run with unreadable files: %+v, want nothing deleted and 2 kept", s)
	}
	wantOnly(t, db, "zqsecret", "secret.md")
	wantOnly(t, db, "zqinner", "locked/inner.md")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.Unreadable(ctx)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Kept{{Path: "locked", Reason: "permission denied", Files: 1}, {Path: "secret.md", Reason: "permission denied", Files: 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Unreadable = %+v, want %+v", got, want)
	}

	// Readable again, and edited: re-indexed, no longer listed.
	chmod("secret.md", 0o644)
	chmod("locked", 0o755)
	if err := os.WriteFile(filepath.Join(v, "secret.md"), []byte("# Secret\n\nThe word zqback marks the note readable again.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = mustRun(t, opts(v, db))
	if s.FilesIndexed != 1 || s.FilesKept != 0 {
		t.Errorf("run after chmod back: %+v", s)
	}
	wantOnly(t, db, "zqback", "secret.md")
	st, err = store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got, _ := st.Unreadable(ctx); len(got) != 0 {
		t.Errorf("still listed as unreadable: %+v", got)
	}

	// A note replaced by a FIFO is no note any more: it leaves the index
	// (it is not "unreadable", it is something else now).
	p := filepath.Join(v, "open.md")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	if s := mustRun(t, opts(v, db)); s.FilesDeleted != 1 {
		t.Errorf("note replaced by a FIFO: %+v, want it deleted", s)
	}
}

// TestRunReadOnlyFolder: an index whose folder is read-only to this user
// (chmod 555). Writable says so, and Run fails with ErrReadOnly naming
// the folder, not with the raw error of creating its lock file; once the
// folder is writable both pass. Under root the test re-runs itself as
// nobody.
func TestRunReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		testkit.RunAsNobody(t, "TestRunReadOnlyFolder")
		return
	}
	v, db := smallVault(t, map[string]string{"a.md": "# A\n\nThe word zqa.\n"})
	mustRun(t, opts(v, db))
	os.Remove(db + ".lock") // as a copy of the index has none
	dir := filepath.Dir(db)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := Writable(db); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Writable in a read-only folder: %v, want ErrReadOnly", err)
	}
	if _, err := Run(context.Background(), opts(v, db)); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Run in a read-only folder: %v, want ErrReadOnly", err)
	}
	if err := Writable(filepath.Join(dir, "new", "deeper", "index.db")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Writable of an index to be made under the read-only folder: %v, want ErrReadOnly", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Writable(db); err != nil {
		t.Errorf("Writable once the folder is writable: %v", err)
	}
	mustRun(t, opts(v, db))
}
