package store

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkBuildImpact rebuilds the impact index of a copy of a real index
// (VAULTCTX_BENCH_DB, as for BenchmarkVectorHits) and reports the peak Go
// heap in use during the build ("heap-MiB", sampled every 10 ms) and the
// bytes moved to the spill file ("spilled-MiB").
func BenchmarkBuildImpact(b *testing.B) {
	src := os.Getenv("VAULTCTX_BENCH_DB")
	if src == "" {
		b.Skip("VAULTCTX_BENCH_DB is not set")
	}
	ctx := context.Background()
	dst := filepath.Join(b.TempDir(), "copy.db")
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	in.Close()
	out.Close()
	s, err := Open(ctx, dst, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
	}()
	var st ImpactStats
	runtime.GC()
	for b.Loop() {
		if st, err = s.BuildImpact(ctx, 0); err != nil {
			b.Fatal(err)
		}
	}
	close(done)
	b.ReportMetric(float64(peak.Load())/(1<<20), "heap-MiB")
	b.ReportMetric(float64(st.Spilled)/(1<<20), "spilled-MiB")
	b.ReportMetric(float64(st.Terms), "terms")
}
