package embed

import (
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// BenchmarkHashWarm is what a hook pays for the model hash: open the model
// and hash it with a warm digest cache (a stat and a small read per file).
func BenchmarkHashWarm(b *testing.B) {
	dir, cache := testkit.Shared(b, "models/glove-120k"), b.TempDir()
	warm := func() {
		m, err := OpenOptions(dir, Options{CacheDir: cache})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Hash(); err != nil {
			b.Fatal(err)
		}
		m.Close()
	}
	warm()
	b.ResetTimer()
	for range b.N {
		warm()
	}
}
