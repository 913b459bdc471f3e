package doctor

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/store"
)

func fileSHA(tb testing.TB, p string) [32]byte {
	tb.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return sha256.Sum256(b)
}

func copyTo(tb testing.TB, src, dst string) {
	tb.Helper()
	in, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestDoctorLeavesIndexUnchanged is the fault campaign's case (issue 17):
// doctor's FTS5 check opened the index read-write, and SQLite changed the
// file (it rolls back a hot journal, and checkpoints a WAL when the last
// connection closes). The index checks must leave the file byte-identical,
// here with a WAL pending beside it.
func TestDoctorLeavesIndexUnchanged(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	w, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i, text := range []string{"alpha bravo charlie", "delta echo foxtrot"} {
		tx, err := w.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f := store.File{Path: string(rune('a'+i)) + ".md", MtimeNS: 1, Size: 1, Hash: "h"}
		if err := tx.ReplaceFile(ctx, f, []store.Chunk{{Text: text, Hash: []byte("h")}}, nil); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	// A copy taken while the writer is open: its WAL holds both files.
	idx := filepath.Join(t.TempDir(), "index.db")
	copyTo(t, db, idx)
	copyTo(t, db+"-wal", idx+"-wal")
	before, walBefore := fileSHA(t, idx), fileSHA(t, idx+"-wal")

	d := &doctor{opt: testOptions(), cfg: &doctorConfig{DB: idx}}
	if f := d.checkIndex(ctx); f.Status != OK {
		t.Errorf("checkIndex = %+v, want OK", f)
	}
	d.checkVec(ctx)
	d.checkModel(ctx)
	if fileSHA(t, idx) != before {
		t.Error("doctor changed the index file")
	}
	if fileSHA(t, idx+"-wal") != walBefore {
		t.Error("doctor changed the index's WAL")
	}
}
