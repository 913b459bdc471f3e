package vault

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// largeCorpus is the 16,691-file corpus from ../shared (see its README).
var largeCorpus = filepath.Join("..", "..", "..", "shared", "corpora", "large")

// BenchmarkWalkLarge walks the large corpus with the default rules and
// reports files per walk; the no-change incremental index pays this cost on
// every run.
func BenchmarkWalkLarge(b *testing.B) {
	if _, err := os.Stat(largeCorpus); err != nil {
		b.Skipf("large corpus not available: %v", err)
	}
	ctx := context.Background()
	var n int
	for b.Loop() {
		n = 0
		if _, err := Walk(ctx, largeCorpus, Rules{}, func(File) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "files/op")
}
