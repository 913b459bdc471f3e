package index

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/core/vault"
)

var shared = testkit.SharedDir()

func testVault(tb testing.TB) (vaultDir, db string) {
	tb.Helper()
	dir := tb.TempDir()
	vaultDir = filepath.Join(dir, "vault")
	testkit.CopyTree(tb, filepath.Join(shared, "corpora/obsidian/tasks-demo-vault"), filepath.Join(vaultDir, "tasks"))
	testkit.CopyTree(tb, filepath.Join(shared, "corpora/edge"), filepath.Join(vaultDir, "edge"))
	return vaultDir, filepath.Join(dir, "data", "index.db")
}

func opts(v, db string) Options {
	return Options{Vault: v, DB: db, Rules: vault.Rules{MaxFileBytes: 5 << 20}, NoModel: true}
}

func mustRun(tb testing.TB, o Options) Summary {
	tb.Helper()
	s, err := Run(context.Background(), o)
	if err != nil {
		tb.Fatalf("Run: %v", err)
	}
	return s
}

func check(tb testing.TB, db string) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	if err := st.Check(context.Background()); err != nil {
		tb.Fatalf("integrity: %v", err)
	}
	return st
}

func TestIncremental(t *testing.T) {
	v, db := testVault(t)
	first := mustRun(t, opts(v, db))
	if first.FilesIndexed == 0 || first.Chunks == 0 {
		t.Fatalf("first run indexed nothing: %+v", first)
	}
	again := mustRun(t, opts(v, db))
	if again.FilesIndexed != 0 || again.FilesUnchanged != first.FilesIndexed {
		t.Fatalf("no-change run: %+v (first %+v)", again, first)
	}

	// Touch three files, delete one, rename a folder.
	var mds []string
	filepath.WalkDir(filepath.Join(v, "tasks"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") {
			mds = append(mds, p)
		}
		return nil
	})
	future := time.Now().Add(time.Hour)
	for _, p := range mds[:3] {
		if err := os.Chtimes(p, future, future); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(mds[3]); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(v, "edge"), filepath.Join(v, "edge2")); err != nil {
		t.Fatal(err)
	}
	s := mustRun(t, opts(v, db))
	edgeFiles := 0
	st := check(t, db)
	files, _ := st.Files(context.Background())
	for p := range files {
		if strings.HasPrefix(p, "edge/") {
			t.Errorf("old path of renamed folder still indexed: %s", p)
		}
		if strings.HasPrefix(p, "edge2/") {
			edgeFiles++
		}
	}
	// A touch changes the stat, not the content: the file is read and
	// hashed, not re-chunked.
	if s.FilesIndexed != edgeFiles || s.FilesTouched != 3 || s.FilesDeleted != 1+edgeFiles {
		t.Errorf("after 3 touches, 1 delete and a rename of %d files: %+v", edgeFiles, s)
	}
}

func TestEdgeCorpusNeverAborts(t *testing.T) {
	v, db := testVault(t)
	// A FIFO and an oversized file must be skipped, not abort the run.
	if err := mkfifo(filepath.Join(v, "edge", "pipe.md")); err != nil {
		t.Logf("no fifo: %v", err)
	}
	big := strings.Repeat("word ", 300_000)
	os.WriteFile(filepath.Join(v, "edge", "big.md"), []byte(big), 0o644)
	o := opts(v, db)
	o.Rules.MaxFileBytes = 1 << 20
	s := mustRun(t, o)
	st := check(t, db)
	stats, err := st.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]bool{}
	for _, sk := range stats.Skips {
		skipped[sk.Path] = true
	}
	if !skipped["edge/big.md"] {
		t.Errorf("oversized file not listed as skipped: %+v", stats.Skips)
	}
	if len(stats.Problems) == 0 {
		t.Errorf("no parse problems recorded for the edge corpus (invalid YAML frontmatter)")
	}
	if s.FilesSkipped == 0 {
		t.Errorf("summary counts no skips: %+v", s)
	}
	entries, _ := os.ReadDir(filepath.Join(shared, "corpora/edge"))
	indexed, _ := st.Files(context.Background())
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		if _, ok := indexed["edge/"+e.Name()]; !ok && !skipped["edge/"+e.Name()] {
			t.Errorf("edge file %s neither indexed nor skipped", e.Name())
		}
	}
}

func TestLocked(t *testing.T) {
	v, db := testVault(t)
	os.MkdirAll(filepath.Dir(db), 0o755)
	release, err := lock(db)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	_, err = Run(context.Background(), opts(v, db))
	var le *LockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Fatalf("err = %v, want LockedError with our pid", err)
	}
	if !strings.Contains(err.Error(), "index is locked by pid") {
		t.Errorf("message %q", err)
	}
}

func TestInterruptedRunCommitsAndResumes(t *testing.T) {
	v, db := testVault(t)
	ctx, cancel := context.WithCancel(context.Background())
	o := opts(v, db)
	o.BatchFiles = 5
	o.Workers = 1
	n := 0
	o.Progress = func(done, total int) {
		n++
		if n == 10 {
			cancel()
		}
	}
	s, err := Run(ctx, o)
	if !errors.Is(err, ErrInterrupted) || !s.Interrupted {
		t.Fatalf("err = %v, summary %+v; want ErrInterrupted", err, s)
	}
	check(t, db)
	s2 := mustRun(t, opts(v, db))
	full := mustRun(t, opts(v, db))
	if s2.FilesIndexed == 0 || full.FilesIndexed != 0 {
		t.Errorf("resume: %+v, then %+v", s2, full)
	}
}

func TestFullRebuildSwapsAtomically(t *testing.T) {
	v, db := testVault(t)
	mustRun(t, opts(v, db))
	ctx := context.Background()
	// A reader keeps the old file open across the swap.
	reader, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	before, err := reader.KeywordHits(ctx, "recurring tasks", 5, store.DefaultColumnWeights)
	if err != nil || len(before) == 0 {
		t.Fatalf("reader before: %v %v", before, err)
	}
	reader.Close()
	o := opts(v, db)
	o.Full = true
	s := mustRun(t, o)
	if s.FilesUnchanged != 0 || s.FilesIndexed == 0 {
		t.Errorf("full run: %+v", s)
	}
	st := check(t, db)
	after, err := st.KeywordHits(ctx, "recurring tasks", 5, store.DefaultColumnWeights)
	if err != nil || len(after) == 0 {
		t.Fatalf("after full rebuild: %v %v", after, err)
	}
	if m, _ := filepath.Glob(db + ".full-*"); len(m) != 0 {
		t.Errorf("temp files left: %v", m)
	}
}

func TestUniqueIdentifierRanksFirst(t *testing.T) {
	v, db := testVault(t)
	os.WriteFile(filepath.Join(v, "tasks", "ident.md"), []byte("# Ident\n\nThe helper zqx_rrf_fuseLater merges two rankings into one list.\n"), 0o644)
	mustRun(t, opts(v, db))
	st := check(t, db)
	hits, err := retrieve.Search(context.Background(), storeSource{st}, nil, "zqx_rrf_fuseLater", retrieve.Options{Mode: retrieve.ModeBM25})
	if err != nil || len(hits) == 0 {
		t.Fatalf("search: %v %v", hits, err)
	}
	if hits[0].Path != "tasks/ident.md" {
		t.Errorf("top hit %s, want tasks/ident.md", hits[0].Path)
	}
}

type storeSource struct{ st *store.Store }

func (s storeSource) KeywordHits(ctx context.Context, q string, k int) ([]retrieve.Scored, error) {
	hits, err := s.st.KeywordHits(ctx, q, k, store.DefaultColumnWeights)
	return scored(hits), err
}
func (s storeSource) VectorHits(ctx context.Context, v []float32, k int) ([]retrieve.Scored, error) {
	hits, err := s.st.VectorHits(ctx, v, k)
	return scored(hits), err
}

func scored(hits []store.Hit) []retrieve.Scored {
	out := make([]retrieve.Scored, len(hits))
	for i, h := range hits {
		out[i] = retrieve.Scored{ID: h.ChunkID, Score: h.Score}
	}
	return out
}
func (s storeSource) Hydrate(ctx context.Context, ids []int64) ([]retrieve.Hit, error) {
	cs, err := s.st.Chunks(ctx, ids)
	out := make([]retrieve.Hit, len(cs))
	for i, c := range cs {
		out[i] = retrieve.Hit{ChunkID: c.ID, Path: c.Path, Section: c.Section, Text: c.Text}
	}
	return out, err
}

// TestAliasesAreSearchable: a note is found by a frontmatter alias that
// appears nowhere in its text.
func TestAliasesAreSearchable(t *testing.T) {
	v, db := testVault(t)
	os.WriteFile(filepath.Join(v, "tasks", "k8s.md"), []byte("---\naliases: [zqkube, \"Cluster Boss\"]\n---\n# Container orchestration\n\nNotes on scheduling pods onto nodes and rolling out deployments.\n"), 0o644)
	mustRun(t, opts(v, db))
	st := check(t, db)
	for _, q := range []string{"zqkube", "cluster boss"} {
		hits, err := retrieve.Search(context.Background(), storeSource{st}, nil, q, retrieve.Options{Mode: retrieve.ModeBM25})
		if err != nil || len(hits) == 0 {
			t.Fatalf("search %q: %v %v", q, hits, err)
		}
		if hits[0].Path != "tasks/k8s.md" {
			t.Errorf("search %q: top hit %s, want tasks/k8s.md", q, hits[0].Path)
		}
	}
}

// TestRefusesForeignTargets: an index path that is a note, another SQLite
// database or a directory is refused before any work, and never changed;
// an index of another vault is refused unless the run is full.
func TestRefusesForeignTargets(t *testing.T) {
	v, db := testVault(t)
	dir := filepath.Dir(db)
	os.MkdirAll(dir, 0o755)
	note := filepath.Join(dir, "note.md")
	orig := []byte("# A note\n\nPassed as --db by mistake.\n")
	os.WriteFile(note, orig, 0o644)
	for _, full := range []bool{false, true} {
		o := opts(v, note)
		o.Full = full
		if _, err := Run(context.Background(), o); !errors.Is(err, ErrNotAnIndex) {
			t.Errorf("full=%v: Run over a note = %v, want ErrNotAnIndex", full, err)
		}
		if got, _ := os.ReadFile(note); !bytes.Equal(got, orig) {
			t.Fatalf("full=%v: the note was changed", full)
		}
	}
	// testdata/other.db is an SQLite database of one table, t(x), with
	// one row: SQL belongs to the store, so the test does not make it.
	other := filepath.Join(dir, "other.db")
	data, err := os.ReadFile("testdata/other.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, data, 0o644); err != nil {
		t.Fatal(err)
	}
	o := opts(v, other)
	o.Full = true
	if _, err := Run(context.Background(), o); !errors.Is(err, ErrNotAnIndex) {
		t.Errorf("Run over another SQLite database = %v, want ErrNotAnIndex", err)
	}
	if _, err := Run(context.Background(), opts(v, dir)); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("Run with a directory as the index = %v, want an error naming it", err)
	}

	mustRun(t, opts(v, db))
	elsewhere := filepath.Join(t.TempDir(), "v2")
	testkit.CopyTree(t, filepath.Join(shared, "corpora/edge"), elsewhere)
	if _, err := Run(context.Background(), opts(elsewhere, db)); !errors.Is(err, ErrOtherVault) {
		t.Errorf("incremental run for another vault = %v, want ErrOtherVault", err)
	}
	o = opts(elsewhere, db)
	o.Full = true
	mustRun(t, o)
}
