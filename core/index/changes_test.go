package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/filestat"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// smallVault writes files into a fresh vault and returns it and an index
// path beside it.
func smallVault(tb testing.TB, files map[string]string) (vaultDir, db string) {
	tb.Helper()
	dir := tb.TempDir()
	vaultDir = filepath.Join(dir, "vault")
	testkit.WriteTree(tb, vaultDir, files)
	return vaultDir, filepath.Join(dir, "index.db")
}

// hitsOf returns the paths and texts of the BM25 hits for q, best first.
func hitsOf(tb testing.TB, db, q string) (paths, texts []string) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	hits, err := retrieve.Search(ctx, storeSource{st}, nil, q, retrieve.Options{Mode: retrieve.ModeBM25})
	if err != nil {
		tb.Fatalf("search %q: %v", q, err)
	}
	for _, h := range hits {
		paths, texts = append(paths, h.Path), append(texts, h.Text)
	}
	return paths, texts
}

// wantOnly fails unless q finds exactly one note, path, whose text holds q.
func wantOnly(tb testing.TB, db, q, path string) {
	tb.Helper()
	paths, texts := hitsOf(tb, db, q)
	if len(paths) != 1 || paths[0] != path || !strings.Contains(texts[0], q) {
		tb.Errorf("search %q: %q %q, want only %s", q, paths, texts, path)
	}
}

func setMtime(tb testing.TB, p string, t time.Time) {
	tb.Helper()
	if err := os.Chtimes(p, t, t); err != nil {
		tb.Fatal(err)
	}
}

// TestRenameSwapAtEqualSizeAndMtime swaps the names of two notes of equal
// size and mtime (as one unzip or sync run leaves them) with renames: size
// and mtime of both paths stay, their inodes and ctimes do not.
func TestRenameSwapAtEqualSizeAndMtime(t *testing.T) {
	v, db := smallVault(t, map[string]string{
		"alpha.md": "# Alpha\n\nThe word zqalpha marks this note, whose text is long enough.\n",
		"beta.md":  "# Bravo\n\nThe word zqbravo marks this note, whose text is long enough.\n",
	})
	a, b := filepath.Join(v, "alpha.md"), filepath.Join(v, "beta.md")
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	setMtime(t, a, when)
	setMtime(t, b, when)
	mustRun(t, opts(v, db))
	wantOnly(t, db, "zqalpha", "alpha.md")

	before, _ := filestat.Path(a)
	tmp := filepath.Join(v, "swap.tmp")
	for _, mv := range [][2]string{{a, tmp}, {b, a}, {tmp, b}} {
		if err := os.Rename(mv[0], mv[1]); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := filestat.Path(a)
	if before.Size != after.Size || before.MtimeNS != after.MtimeNS {
		t.Fatalf("setup: size or mtime differ after the swap: %+v %+v", before, after)
	}
	s := mustRun(t, opts(v, db))
	if s.FilesIndexed != 2 || s.FilesUnchanged != 0 {
		t.Errorf("after the swap: %+v, want both notes re-indexed", s)
	}
	wantOnly(t, db, "zqalpha", "beta.md")
	wantOnly(t, db, "zqbravo", "alpha.md")
}

// TestSameLengthEditWithMtimeRestored edits a note in place without
// changing its length and sets its mtime back, as `cp -p`, `rsync -a` or
// `touch -r` do: only ctime tells.
func TestSameLengthEditWithMtimeRestored(t *testing.T) {
	v, db := smallVault(t, map[string]string{"n.md": "# Note\n\nThe code word is zqoldword, in a text long enough.\n"})
	p := filepath.Join(v, "n.md")
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	setMtime(t, p, when)
	mustRun(t, opts(v, db))
	before, _ := filestat.Path(p)
	// ctime has the kernel clock's granularity (a few ms): rewrite until
	// it moved, so the test does not depend on how fast the run was.
	for i := 0; ; i++ {
		if err := os.WriteFile(p, []byte("# Note\n\nThe code word is zqnewword, in a text long enough.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		setMtime(t, p, when)
		if after, _ := filestat.Path(p); after != before || i == 50 {
			if after.Size != before.Size || after.MtimeNS != before.MtimeNS {
				t.Fatalf("setup: size or mtime differ: %+v %+v", before, after)
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	s := mustRun(t, opts(v, db))
	if s.FilesIndexed != 1 {
		t.Errorf("after a same-length edit with the mtime restored: %+v, want 1 indexed", s)
	}
	wantOnly(t, db, "zqnewword", "n.md")
	if paths, _ := hitsOf(t, db, "zqoldword"); len(paths) != 0 {
		t.Errorf("old text still served: %q", paths)
	}
}

// TestTouchCostsNoEmbedding changes only the stat of notes (a touch, and a
// copy of the same bytes renamed over the note): the run reads and hashes
// them and embeds nothing.
func TestTouchCostsNoEmbedding(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	v, db := smallVault(t, map[string]string{
		"a.md": "# A\n\nA note about gardening, tomatoes and the summer harvest.\n",
		"b.md": "# B\n\nA note about sailing, wind and the harbour at dawn.\n",
	})
	o := opts(v, db)
	o.NoModel, o.ModelDir = false, testkit.Shared(t, "models/m2v-fixtures/float32")
	first := mustRun(t, o)
	if first.ChunksWritten == 0 || !first.Vectors {
		t.Fatalf("first run: %+v", first)
	}
	future := time.Now().Add(time.Hour)
	setMtime(t, filepath.Join(v, "a.md"), future)
	raw, err := os.ReadFile(filepath.Join(v, "b.md"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(v, "b.md.tmp")
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(v, "b.md")); err != nil {
		t.Fatal(err)
	}
	s := mustRun(t, o)
	if s.FilesTouched != 2 || s.FilesIndexed != 0 || s.ChunksWritten != 0 || s.Reembedded != 0 {
		t.Errorf("after a touch and a same-bytes replace: %+v, want 2 touched and nothing embedded", s)
	}
	// The new stat is recorded: the next run does not even read them.
	if again := mustRun(t, o); again.FilesUnchanged != 2 || again.FilesTouched != 0 {
		t.Errorf("run after the touch: %+v, want 2 unchanged", again)
	}
}

// TestModelIdentityByContent indexes with a copy of a model, then with a
// copy of that copy in a folder of another name: nothing is re-embedded.
// Then one tensor byte of the model flips, its mtime kept: every chunk is
// re-embedded.
func TestModelIdentityByContent(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	v, db := smallVault(t, map[string]string{
		"a.md": "# A\n\nA note about gardening, tomatoes and the summer harvest.\n",
		"b.md": "# B\n\nA note about sailing, wind and the harbour at dawn.\n",
	})
	first, moved := filepath.Join(t.TempDir(), "float32"), filepath.Join(t.TempDir(), "models", "renamed")
	testkit.CopyTree(t, testkit.Shared(t, "models/m2v-fixtures/float32"), first)
	testkit.CopyTree(t, first, moved)
	o := opts(v, db)
	o.NoModel, o.ModelDir = false, first
	s := mustRun(t, o)
	if s.ChunksWritten == 0 || !s.Vectors {
		t.Fatalf("first run: %+v", s)
	}
	chunks := s.Chunks

	o.ModelDir = moved
	if s := mustRun(t, o); s.ModelChanged || s.Reembedded != 0 || s.ChunksWritten != 0 {
		t.Errorf("same model in another folder: %+v, want nothing re-embedded", s)
	}

	p := filepath.Join(moved, "model.safetensors")
	before, _ := filestat.Path(p)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff // a byte of the last tensor's data
	for i := 0; ; i++ {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		setMtime(t, p, time.Unix(0, before.MtimeNS))
		if after, _ := filestat.Path(p); after != before || i == 50 {
			break
		}
		time.Sleep(10 * time.Millisecond) // until ctime moves (clock granularity)
	}
	if s := mustRun(t, o); !s.ModelChanged || s.Reembedded != chunks {
		t.Errorf("one tensor byte flipped: %+v, want all %d chunks re-embedded", s, chunks)
	}
}
