package index

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/vaultctx/vaultctx/core/store"
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
