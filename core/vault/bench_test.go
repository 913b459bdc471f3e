package vault

import (
	"context"
	"os"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// largeCorpus is the 16,691-file corpus from ../shared (see its README).
func largeCorpus(tb testing.TB) string { return testkit.Shared(tb, "corpora/large") }

// BenchmarkWalkLarge walks the large corpus with the default rules and
// reports files per walk and CPU time per walk (user plus system, which
// unlike ns/op does not grow when other processes crowd the machine); the
// no-change incremental index pays this cost on every run.
func BenchmarkWalkLarge(b *testing.B) {
	if _, err := os.Stat(largeCorpus(b)); err != nil {
		b.Skipf("large corpus not available: %v", err)
	}
	ctx := context.Background()
	var n int
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		n = 0
		if _, err := Walk(ctx, largeCorpus(b), Rules{}, func(File) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "files/op")
	b.ReportMetric(float64(testkit.CPUTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
}
