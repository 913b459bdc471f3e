package index

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// writeAt overwrites the bytes of file at offset.
func writeAt(tb testing.TB, file string, off int64, b []byte) {
	tb.Helper()
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		tb.Fatal(err)
	}
}

// TestFullReplacesDamagedIndex is the fault campaign's case (issue 17):
// a schema format number of 9 at offset 44 made every command, `index
// --full` included, fail with "unsupported file format". Each damage that
// leaves the file starting like SQLite is reported as store.ErrDamaged,
// and a full run replaces the file.
func TestFullReplacesDamagedIndex(t *testing.T) {
	for _, c := range []struct {
		name string
		off  int64
		b    []byte
	}{
		{"schema format number", 44, []byte{0, 0, 0, 9}},
		{"file format versions", 18, []byte{3, 3}},
		{"page size", 16, []byte{0, 3}},
		{"page count", 28, []byte{0, 0, 0, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, db := testVault(t)
			want := mustRun(t, opts(v, db)).Chunks
			writeAt(t, db, c.off, c.b)
			_, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
			if !errors.Is(err, store.ErrDamaged) {
				t.Fatalf("read-only open of the damaged file: %v, want ErrDamaged", err)
			}
			if _, err := Run(context.Background(), opts(v, db)); !errors.Is(err, store.ErrDamaged) {
				t.Errorf("incremental run on the damaged file: %v, want ErrDamaged", err)
			}
			o := opts(v, db)
			o.Full = true
			if got := mustRun(t, o).Chunks; got != want {
				t.Errorf("full run: %d chunks, want %d", got, want)
			}
			check(t, db)
		})
	}
}

// TestForeignFileIsNotDamaged: a file that does not start as SQLite (the
// index path pointed at something else, or its header overwritten) is
// reported as store.ErrNotAnIndex, whose advice is to move it or choose
// another path, since a full run refuses to overwrite it; advising `index
// --full` (as ErrDamaged's advice does) contradicted that refusal.
func TestForeignFileIsNotDamaged(t *testing.T) {
	v, db := testVault(t)
	mustRun(t, opts(v, db))
	writeAt(t, db, 0, []byte("NOT SQLITE AT ALL!!!"))
	_, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
	if !errors.Is(err, store.ErrNotAnIndex) || errors.Is(err, store.ErrDamaged) {
		t.Fatalf("read-only open of a foreign file: %v, want ErrNotAnIndex and not ErrDamaged", err)
	}
	o := opts(v, db)
	o.Full = true
	if _, err := Run(context.Background(), o); !errors.Is(err, ErrNotAnIndex) {
		t.Errorf("full run over a foreign file: %v, want ErrNotAnIndex (refused)", err)
	}
}

// TestEmptyVaultSearches: the index of a vault without notes answers
// every query with no hits (issue 17: a query of two words failed with
// "corrupt FTS5 averages record", FTS5's empty record of a table that
// never held a row).
func TestEmptyVaultSearches(t *testing.T) {
	for _, full := range []bool{false, true} {
		dir := t.TempDir()
		o := opts(dir, filepath.Join(dir, "data", "index.db"))
		o.Full = full
		mustRun(t, o)
		st, err := store.Open(context.Background(), o.DB, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"alpha", "alpha bravo", "alpha OR bravo charlie", `"alpha bravo"`} {
			hits, err := st.KeywordHits(context.Background(), q, 10, store.DefaultColumnWeights)
			if err != nil || len(hits) != 0 {
				t.Errorf("full=%v: KeywordHits(%q) = %v, %v; want no hits, no error", full, q, hits, err)
			}
		}
		st.Close()
	}
}

// TestReadersDuringFirstIndex: while the first index of a vault is built,
// readers find no index (ErrNotIndexed) or a complete one, never a
// half-made file (issue 17: 101 of 780 searches failed in the first 0.8 s).
// At least one read must overlap a build (start after Run was called and
// end before it returned), or the test proves nothing: on a machine so
// busy that no read of a build overlaps it, another first index (of a new
// file) is built and read, up to maxBuilds, rather than failing.
func TestReadersDuringFirstIndex(t *testing.T) {
	const maxBuilds = 20
	v, _ := testVault(t)
	ctx := context.Background()
	// read opens db as a hook does and searches it: ErrNotIndexed, or
	// hits from a complete index, or the error of a half-made one.
	read := func(db string) (complete bool, err error) {
		st, err := store.Open(ctx, db, store.Options{ReadOnly: true})
		if errors.Is(err, store.ErrNotIndexed) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		defer st.Close()
		hits, err := st.KeywordHits(ctx, "task done", 5, store.DefaultColumnWeights)
		if err == nil && len(hits) == 0 {
			err = errors.New("an installed index finds nothing for \"task done\"")
		}
		return err == nil, err
	}
	builds, reads, overlapped, complete := 0, 0, 0, 0
	var bad []error
	for ; builds < maxBuilds && overlapped == 0; builds++ {
		db := filepath.Join(t.TempDir(), "data", "index.db")
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			t.Fatal(err)
		}
		var started, returned atomic.Bool
		done := make(chan error, 1)
		go func() {
			started.Store(true)
			_, err := Run(context.Background(), opts(v, db))
			returned.Store(true)
			done <- err
		}()
		for running := true; running; {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				running = false
			default:
			}
			during := started.Load()
			ok, err := read(db)
			reads++
			if during && !returned.Load() {
				overlapped++
			}
			switch {
			case err != nil:
				bad = append(bad, err)
			case ok:
				complete++
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d of %d reads saw a half-made index; first: %v", len(bad), reads, bad[0])
	}
	t.Logf("%d builds, %d reads, %d during a build, %d on a complete index", builds, reads, overlapped, complete)
	if overlapped == 0 {
		t.Errorf("no read overlapped any of %d first index builds: the test proves nothing", builds)
	}
}

// TestSymlinkedDB is the fault campaign's case (issue 17): the lock was
// "<name given>.lock", so an indexer through a symlinked --db was not
// excluded, and a full run through the link replaced the link with a
// regular file.
func TestSymlinkedDB(t *testing.T) {
	v, real := testVault(t)
	mustRun(t, opts(v, real))
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	release, err := lock(resolve(real))
	if err != nil {
		t.Fatal(err)
	}
	var le *LockedError
	if _, err := Run(context.Background(), opts(v, link)); !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Errorf("run through the link while the real name is locked: %v, want LockedError naming pid %d", err, os.Getpid())
	}
	release()
	o := opts(v, link)
	o.Full = true
	want := mustRun(t, o).Chunks
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("after a full run through it, %s is no longer a symlink (%v)", link, err)
	}
	st := check(t, real)
	if stats, err := st.Stats(context.Background()); err != nil || stats.Chunks != want {
		t.Errorf("the link's target holds %d chunks (%v), want %d", stats.Chunks, err, want)
	}
	// A dangling link names the file the first index creates.
	dangling := filepath.Join(t.TempDir(), "dangling.db")
	made := filepath.Join(t.TempDir(), "made.db")
	if err := os.Symlink(made, dangling); err != nil {
		t.Fatal(err)
	}
	mustRun(t, opts(v, dangling))
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the first index through a dangling link replaced the link (%v)", err)
	}
	check(t, made)
}

// TestWALLeftAfterIncremental is the fault campaign's case (issue 17): an
// incremental run that ended while readers were open left a 56 MB WAL,
// which read-only readers cannot checkpoint, and every read paid for it
// (p50 8.9 to 23 ms) until the next quiet run. With four reader loops
// active throughout, the run must leave at most 1 MiB of WAL.
func TestWALLeftAfterIncremental(t *testing.T) {
	dir := t.TempDir()
	v := filepath.Join(dir, "vault")
	testkit.CopyTree(t, filepath.Join(shared, "corpora/large/cpp-docs/docs/build"), v)
	db := filepath.Join(dir, "index.db")
	mustRun(t, opts(v, db))

	// Change every note, so the run rewrites all of its chunks.
	later := time.Now().Add(time.Minute)
	err := filepath.WalkDir(v, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, append(b, "\n\nEdited once more.\n"...), 0o644); err != nil {
			return err
		}
		return os.Chtimes(p, later, later)
	})
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				st, err := store.Open(ctx, db, store.Options{ReadOnly: true})
				if err != nil {
					continue
				}
				st.KeywordHits(ctx, "linker options", 10, store.DefaultColumnWeights)
				st.Close()
				reads.Add(1)
			}
		}()
	}
	sum := mustRun(t, opts(v, db))
	fi, err := os.Stat(db + "-wal")
	close(stop)
	wg.Wait()
	if sum.FilesIndexed == 0 {
		t.Fatal("the incremental run indexed nothing")
	}
	var wal int64
	if err == nil {
		wal = fi.Size()
	}
	t.Logf("%d files re-indexed, %d reads alongside, WAL left: %d bytes", sum.FilesIndexed, reads.Load(), wal)
	if wal > 1<<20 {
		t.Errorf("the run left a WAL of %d bytes, want at most 1 MiB", wal)
	}
}

// TestLockRaceKeepsPID is the fault campaign's case (issue 17): of two
// indexers that start in the same instant, the loser read the lock file
// before the winner wrote its pid, and said "locked by another indexer".
// Here the winner holds the lock and writes its pid a moment later.
func TestLockRaceKeepsPID(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	f, err := os.OpenFile(db+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}()
	_, err = lock(db)
	var le *LockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Errorf("lock while the winner has yet to write its pid: %v, want LockedError naming pid %d", err, os.Getpid())
	}
}

// TestStaleFullTempRemoved is the fault campaign's case (issue 17): a
// killed `index --full` left an index-sized .full-PID.tmp until the next
// full run. Any run that holds the lock removes it.
func TestStaleFullTempRemoved(t *testing.T) {
	v, db := testVault(t)
	mustRun(t, opts(v, db))
	var stale []string
	for _, suffix := range []string{"", "-wal", "-shm", ".packed"} {
		p := db + ".full-999999.tmp" + suffix
		if err := os.WriteFile(p, []byte("left by a killed run"), 0o644); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, p)
	}
	mustRun(t, opts(v, db)) // incremental
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s survived an incremental run", filepath.Base(p))
		}
	}
}

// TestEarlierSchemaRebuilt: an incremental run on an index an earlier
// version made (another schema) rebuilds it whole instead of failing, so
// an upgrade needs no `index --full` by hand; an index of a later schema
// is left alone with ErrSchema.
func TestEarlierSchemaRebuilt(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		have    string
		rebuilt bool
	}{{"1", true}, {"99", false}} {
		t.Run(c.have, func(t *testing.T) {
			v, db := testVault(t)
			want := mustRun(t, opts(v, db)).Chunks
			st, err := store.Open(ctx, db, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := st.SetMeta(ctx, store.MetaSchemaVersion, c.have); err != nil {
				t.Fatal(err)
			}
			st.Close()
			sum, err := Run(ctx, opts(v, db))
			if !c.rebuilt {
				if !errors.Is(err, store.ErrSchema) {
					t.Fatalf("run on a later schema: %v, want ErrSchema", err)
				}
				return
			}
			if err != nil || sum.SchemaUpgraded != c.have || sum.Chunks != want {
				t.Fatalf("run on schema %s: %+v, %v; want it rebuilt with %d chunks", c.have, sum, err, want)
			}
			check(t, db)
		})
	}
}

// TestRefusesSpecialFiles: an index path that is a FIFO, a symlink to
// one, or a character device is refused before any work, full run or not,
// and left as it was: a rename over /dev/null as root replaced the
// system's node with an index file. (The test makes its own device node,
// as root only, and never points a run at the real /dev/null.)
func TestRefusesSpecialFiles(t *testing.T) {
	v, _ := testVault(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	targets := []string{fifo, link}
	dev := filepath.Join(dir, "null.db")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil { // 1,3: a null device
		targets = append(targets, dev)
	} else {
		t.Logf("no device node (not root: %v); FIFOs only", err)
	}
	for _, db := range targets {
		for _, full := range []bool{false, true} {
			o := opts(v, db)
			o.Full = full
			if _, err := Run(context.Background(), o); !errors.Is(err, ErrNotAnIndex) {
				t.Errorf("index --db %s (full %v): %v, want ErrNotAnIndex", db, full, err)
			}
		}
	}
	for _, p := range targets {
		if fi, err := os.Lstat(p); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s was replaced by a file: %v %v", p, fi.Mode(), err)
		}
	}
}

// TestEmptiedVaultKeepsIndex: an incremental run on a vault that holds no
// note any more (an unmounted drive, a sync folder empty for a moment)
// keeps the whole index and says why; a full run empties it on purpose.
func TestEmptiedVaultKeepsIndex(t *testing.T) {
	v, db := testVault(t)
	want := mustRun(t, opts(v, db)).Chunks
	moved := v + ".moved"
	if err := os.Rename(v, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(v, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), opts(v, db)); !errors.Is(err, ErrVaultEmptied) {
		t.Fatalf("incremental run on an emptied vault: %v, want ErrVaultEmptied", err)
	}
	os.Remove(v)
	if err := os.Rename(moved, v); err != nil {
		t.Fatal(err)
	}
	if got := mustRun(t, opts(v, db)); got.Chunks != want || got.FilesDeleted != 0 {
		t.Errorf("after the vault came back: %+v, want %d chunks and nothing deleted", got, want)
	}
	empty := t.TempDir()
	o := opts(empty, db)
	o.Full = true
	if got := mustRun(t, o); got.Chunks != 0 {
		t.Errorf("full run of an empty vault: %d chunks, want 0", got.Chunks)
	}
}
