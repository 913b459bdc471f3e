package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// watching starts Watch on a copy of the Obsidian demo vault (BM25 only,
// excluding Archive) and returns the vault, the index, and the runs seen so
// far (a copy, safe to call at any time). Watch is stopped, and must have
// returned nil, when the test ends.
func watching(t *testing.T) (string, string, func() []Run) {
	t.Helper()
	dir := t.TempDir()
	v, db := filepath.Join(dir, "vault"), filepath.Join(dir, "index.db")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), v)
	var mu sync.Mutex
	var runs []Run
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	opt := Options{
		Index: index.Options{Vault: v, DB: db, NoModel: true, Rules: vault.Rules{Exclude: []string{"Archive"}}},
		OnRun: func(r Run) {
			mu.Lock()
			runs = append(runs, r)
			mu.Unlock()
		},
	}
	go func() { errc <- Watch(ctx, opt) }()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("Watch returned %v after cancel, want nil", err)
		}
	})
	got := func() []Run {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(runs)
	}
	poll(t, "the first run", func() bool { return len(got()) > 0 })
	if r := got()[0]; r.Err != nil || r.Summary.FilesIndexed == 0 {
		t.Fatalf("first run: %+v", r)
	}
	return v, db, got
}

// poll checks cond every 50 ms for up to two minutes: a generous bound for
// a busy machine, never a timing assertion (speed is measured by
// scripts/watch-soak.sh and the README's numbers).
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// finds reports whether a BM25 search for q names rel among its hits.
func finds(t *testing.T, db, q, rel string) bool {
	t.Helper()
	e, err := engine.Open(context.Background(), db, engine.Options{ReadOnly: true})
	if err != nil {
		return false
	}
	defer e.Close()
	hits, err := e.Search(context.Background(), q, retrieve.Options{Mode: retrieve.ModeBM25, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Path == rel {
			return true
		}
	}
	return false
}

// write writes a note; text is padded with a sentence, as the chunker
// keeps no chunk of a very short note.
func write(t *testing.T, path, text string) {
	t.Helper()
	text += "\nThis sentence makes the note long enough to keep a chunk of its own in the index.\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWatchEditAndAtomicSave: a new note, an edit in place, an editor's
// atomic save (temp file renamed over the note) and a note in a folder
// created after the start are each indexed; events in a dot-folder and in
// an excluded folder start no run.
func TestWatchEditAndAtomicSave(t *testing.T) {
	v, db, runs := watching(t)

	// Ignored first: if they started a run, it would be the next one.
	write(t, filepath.Join(v, ".obsidian", "workspace.md"), "# Workspace\n\nquinces\n")
	write(t, filepath.Join(v, "Archive", "old.md"), "# Old\n\nquinces\n")

	note := filepath.Join(v, "garden.md")
	write(t, note, "# Garden\n\nThe quinces ripen in October.\n")
	poll(t, "the new note", func() bool { return finds(t, db, "quinces ripen", "garden.md") })
	for _, r := range runs()[1:] {
		for _, p := range r.Trigger {
			if strings.HasPrefix(p, ".obsidian") || strings.HasPrefix(p, "Archive") {
				t.Errorf("a run was started by %s: %+v", p, r)
			}
		}
	}
	if finds(t, db, "quinces", ".obsidian/workspace.md") || finds(t, db, "quinces", "Archive/old.md") {
		t.Error("an ignored note was indexed")
	}

	write(t, note, "# Garden\n\nThe medlars ripen in November.\n")
	poll(t, "the edit", func() bool { return finds(t, db, "medlars ripen", "garden.md") })

	// Atomic save, as vim's and VS Code's safe writes do it.
	tmp := filepath.Join(v, ".garden.md.swp")
	write(t, tmp, "# Garden\n\nThe loquats ripen in spring.\n")
	if err := os.Rename(tmp, note); err != nil {
		t.Fatal(err)
	}
	poll(t, "the atomic save", func() bool {
		return finds(t, db, "loquats ripen", "garden.md") && !finds(t, db, "medlars November", "garden.md")
	})

	// A folder made after the start, and a note inside it.
	write(t, filepath.Join(v, "orchard", "2026", "pruning.md"), "# Pruning\n\nCut the persimmon shoots back.\n")
	poll(t, "the note in a new folder", func() bool { return finds(t, db, "persimmon shoots", "orchard/2026/pruning.md") })
	write(t, filepath.Join(v, "orchard", "2026", "more.md"), "# More\n\nGraft the pawpaw scions.\n")
	poll(t, "a second note in the new folder", func() bool { return finds(t, db, "pawpaw scions", "orchard/2026/more.md") })

	// Deleting the folder deletes its notes from the index.
	if err := os.RemoveAll(filepath.Join(v, "orchard")); err != nil {
		t.Fatal(err)
	}
	poll(t, "the folder's removal", func() bool { return !finds(t, db, "persimmon shoots", "orchard/2026/pruning.md") })
}

// TestWatchBurstIndexedOnce: 1,000 notes written at once (as a `git
// checkout` of another branch does) are indexed once each, in a handful of
// runs, not 1,000.
func TestWatchBurstIndexedOnce(t *testing.T) {
	v, db, runs := watching(t)
	before := len(runs())
	const n = 1000
	for i := range n {
		write(t, filepath.Join(v, "branch", fmt.Sprintf("d%d", i%10), fmt.Sprintf("note-%04d.md", i)),
			fmt.Sprintf("# Note %d\n\nCheckout note number %d about sorbus%04d.\n", i, i, i))
	}
	poll(t, "the last note", func() bool { return finds(t, db, "sorbus0999", "branch/d9/note-0999.md") })
	poll(t, "every note", func() bool {
		indexed := 0
		for _, r := range runs()[before:] {
			indexed += r.Summary.FilesIndexed
		}
		return indexed >= n
	})
	after := runs()[before:]
	indexed := 0
	for _, r := range after {
		if r.Err != nil {
			t.Errorf("run failed: %v", r.Err)
		}
		indexed += r.Summary.FilesIndexed
	}
	if indexed != n {
		t.Errorf("%d notes indexed over %d runs, want each of the %d once", indexed, len(after), n)
	}
	if len(after) > 10 {
		t.Errorf("%d runs for one burst of %d notes, want a handful", len(after), n)
	}
	t.Logf("%d notes in %d runs", indexed, len(after))
}

// TestWatchEndsWhenVaultGoes: when the vault folder is moved away, the
// watches hold the old folders and would never fire again, so Watch ends
// with an error (for the service manager to restart it) instead of
// running on deaf; the index is kept.
func TestWatchEndsWhenVaultGoes(t *testing.T) {
	dir := t.TempDir()
	v, db := filepath.Join(dir, "vault"), filepath.Join(dir, "index.db")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), v)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan struct{}, 16)
	errc := make(chan error, 1)
	opt := Options{Index: index.Options{Vault: v, DB: db, NoModel: true}, OnRun: func(Run) { ran <- struct{}{} }}
	go func() { errc <- Watch(ctx, opt) }()
	select {
	case <-ran:
	case <-time.After(2 * time.Minute):
		t.Fatal("no first run")
	}
	if err := os.Rename(v, v+".away"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("Watch returned nil after the vault went away")
		}
		t.Logf("Watch ended: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("Watch kept running after the vault went away")
	}
	if len(mustFiles(t, db)) == 0 {
		t.Error("the index was emptied")
	}
}

func mustFiles(t *testing.T, db string) []string {
	t.Helper()
	e, err := engine.Open(context.Background(), db, engine.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	st, err := e.Store().Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return make([]string, st.Files)
}

// TestOneWatcherPerIndex: a second Watch of an index already watched
// (here through a symlink to the index, a second name for it) returns at
// once with the first one's pid, and the vault is not watched twice; once
// the first has stopped, a new one may start.
func TestOneWatcherPerIndex(t *testing.T) {
	v, db, _ := watching(t)
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	opt := Options{Index: index.Options{Vault: v, DB: link, NoModel: true}}
	err := Watch(context.Background(), opt)
	var we *index.WatchedError
	if !errors.As(err, &we) || we.PID != os.Getpid() {
		t.Fatalf("second Watch = %v, want an *index.WatchedError naming pid %d", err, os.Getpid())
	}
	if !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Errorf("error %q does not name the watching pid", err)
	}
}

// TestWatchLockReleased: the watcher lock is released when Watch returns,
// so a later Watch of the same index starts.
func TestWatchLockReleased(t *testing.T) {
	dir := t.TempDir()
	v, db := filepath.Join(dir, "vault"), filepath.Join(dir, "index.db")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), v)
	for i := range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan struct{}, 1)
		opt := Options{Index: index.Options{Vault: v, DB: db, NoModel: true}, OnRun: func(Run) {
			select {
			case ran <- struct{}{}:
			default:
			}
		}}
		errc := make(chan error, 1)
		go func() { errc <- Watch(ctx, opt) }()
		select {
		case <-ran:
		case err := <-errc:
			t.Fatalf("watch %d returned %v before its first run", i+1, err)
		case <-time.After(2 * time.Minute):
			t.Fatalf("watch %d: no run", i+1)
		}
		cancel()
		if err := <-errc; err != nil {
			t.Fatalf("watch %d: %v", i+1, err)
		}
	}
}

// TestWatchRefusesIndexPathNoRunTakes: an index path no run would take (a
// device, a folder, a note) ended in an error logged by every run while
// the watch went on for ever, after it had made its lock file beside the
// path (/dev/null.watch.lock as root). Watch returns the run's error at
// once and makes nothing beside the path.
func TestWatchRefusesIndexPathNoRunTakes(t *testing.T) {
	dir := t.TempDir()
	v := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), v)
	note := filepath.Join(dir, "note.md")
	if err := os.WriteFile(note, []byte("# A note, not an index\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{note, dir, "/dev/null"} {
		errc := make(chan error, 1)
		go func() {
			errc <- Watch(context.Background(), Options{Index: index.Options{Vault: v, DB: db, NoModel: true}})
		}()
		select {
		case err := <-errc:
			if !errors.Is(err, index.ErrNotAnIndex) && !errors.Is(err, index.ErrDBIsDir) {
				t.Errorf("Watch with db %s: %v, want ErrNotAnIndex or ErrDBIsDir", db, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("Watch with db %s still runs after a minute", db)
		}
		if db != "/dev/null" {
			if _, err := os.Lstat(db + ".watch.lock"); err == nil {
				t.Errorf("Watch made %s.watch.lock", db)
			}
		}
	}
}
