package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// BenchmarkSearch measures Engine.Search in a warm process, as the
// in-process rows of `vaultctx bench` do: set VAULTCTX_BENCH_DB to an
// index of the large corpus built with a model, e.g.
//
//	VAULTCTX_BENCH_DB=/tmp/large.db go test -tags sqlite_fts5 ./core/engine \
//	  -run '^$' -bench BenchmarkSearch -benchtime 2000x
//
// It opens the index read-only with the config defaults' column weights,
// runs one untimed search per mode, then searches the 73 queries of
// eval/large-queries.jsonl round-robin, one query per iteration, with the
// options of the config defaults (the index's calibrated fusion, k 10):
// ns/op is the mean time of one search, and cpu-ns/op the CPU time the
// process used per search (testkit.CPUTime: on a shared machine wall time
// also counts waiting for a core). The hybrid sub-benchmark is skipped
// when the index has no usable vectors.
func BenchmarkSearch(b *testing.B) {
	db := os.Getenv("VAULTCTX_BENCH_DB")
	if db == "" {
		b.Skip("VAULTCTX_BENCH_DB is not set")
	}
	ctx := context.Background()
	cfg := config.Defaults()
	e, err := Open(ctx, db, Options{ReadOnly: true, Columns: cfg.Search.Columns})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	type line struct{ Query string }
	var queries []string
	for _, l := range testkit.JSONLines[line](b, filepath.Join(testkit.Root(b), "eval", "large-queries.jsonl")) {
		queries = append(queries, l.Query)
	}
	search, _ := cfg.Search.WithFusion(e.Fusion(ctx))
	for _, mode := range []string{retrieve.ModeBM25, retrieve.ModeHybrid} {
		b.Run(mode, func(b *testing.B) {
			if mode != retrieve.ModeBM25 && !e.VecAvailable() {
				b.Skip("the index has no usable vectors")
			}
			opt := search.Options(mode, 0)
			if _, err := e.Search(ctx, queries[0], opt); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu := testkit.CPUTime()
			for i := 0; i < b.N; i++ {
				if _, err := e.Search(ctx, queries[i%len(queries)], opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(testkit.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
