package embed

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/filestat"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestHashFollowsContentNotPlace copies a model without a recorded name to
// two folders of other names: same hash. Then one tensor byte flips with
// the size and mtime kept: another hash, through a warm digest cache.
func TestHashFollowsContentNotPlace(t *testing.T) {
	cache := t.TempDir()
	hashOf := func(dir string) string {
		t.Helper()
		m, err := OpenOptions(dir, Options{CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		h, err := m.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	src := testkit.Shared(t, "models/m2v-fixtures/float32")
	a, b := filepath.Join(t.TempDir(), "first"), filepath.Join(t.TempDir(), "second", "elsewhere")
	testkit.CopyTree(t, src, a)
	testkit.CopyTree(t, a, b)
	ha := hashOf(a)
	if hb := hashOf(b); hb != ha {
		t.Fatalf("copies in two folders: %s and %s, want one hash", ha, hb)
	}
	if hs := hashOf(src); hs != ha {
		t.Errorf("the original %s and its copy: %s and %s", src, hs, ha)
	}
	flipTensorByte(t, filepath.Join(b, "model.safetensors"))
	if hb := hashOf(b); hb == ha {
		t.Errorf("one tensor byte flipped, mtime kept: the hash stayed %s", hb)
	}
}

// flipTensorByte inverts the last byte of a safetensors file (inside the
// tensor data, past the header) and sets its mtime back, as `cp -p` would
// keep it, so only the content and ctime change. ctime has the kernel
// clock's granularity (a few ms), so it rewrites until ctime moved.
func flipTensorByte(tb testing.TB, path string) {
	tb.Helper()
	before, err := filestat.Path(path)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	mtime := time.Unix(0, before.MtimeNS)
	for i := 0; i < 50; i++ {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			tb.Fatal(err)
		}
		if err := os.Chtimes(path, time.Now(), mtime); err != nil {
			tb.Fatal(err)
		}
		if after, _ := filestat.Path(path); after != before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
