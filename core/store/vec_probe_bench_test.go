package store

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// BenchmarkProbeSchedule measures the probe schedule on a real index
// (VAULTCTX_BENCH_DB, as for BenchmarkVectorHits): for each probe count
// of VAULTCTX_PROBES (comma-separated; default Probes(lists) and the
// counts c·sqrt(lists) for c = 1.5, 2, 2.5, 3) it reports recall@10
// against ExactVectorHits over the 73 queries of eval/large-queries.jsonl
// plus 200 random chunk prefixes ("recall@10"), over the 73 alone
// ("recall@10-eval"), and the in-process p50/p95 in ms of the IVF KNN
// (list ranking plus scan, without the query embedding), and the p50 of
// the list ranking alone ("rank-p50-ms"). Run it on the 1x
// and Nx indexes of scripts/scale-vault.sh to compare schedules.
func BenchmarkProbeSchedule(b *testing.B) {
	ctx := context.Background()
	s, db := benchStore(b)
	dir, err := s.Meta(ctx, "model_dir")
	if err != nil || !s.VecAvailable() {
		b.Fatalf("%s has no vectors (%v)", db, err)
	}
	m, err := embed.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	lists, err := s.VectorLists(ctx)
	if err != nil {
		b.Fatal(err)
	}
	queries := benchQueries(b, s, 200)
	nEval := len(queries) - 200
	vecs := make([][]float32, len(queries))
	exact := make([][]Hit, len(queries))
	for i, q := range queries {
		if vecs[i], err = m.Encode(q); err != nil {
			b.Fatal(err)
		}
		if exact[i], err = s.ExactVectorHits(ctx, vecs[i], 10); err != nil {
			b.Fatal(err)
		}
	}
	var counts []int
	if env := os.Getenv("VAULTCTX_PROBES"); env != "" {
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				b.Fatalf("VAULTCTX_PROBES: %q is not a probe count", f)
			}
			counts = append(counts, n)
		}
	} else {
		counts = []int{Probes(lists)}
		for _, c := range []float64{1.5, 2, 2.5, 3} {
			counts = append(counts, sqrtProbes(lists, c))
		}
	}
	for _, n := range counts {
		n = min(n, lists)
		probes := func(int) int { return n }
		b.Run(fmt.Sprintf("lists=%d/probes=%d", lists, n), func(b *testing.B) {
			var found, total, foundEval, totalEval int
			for i := range queries {
				got, err := s.vectorHits(ctx, vecs[i], 10, probes)
				if err != nil {
					b.Fatal(err)
				}
				for _, w := range exact[i] {
					hit := slices.ContainsFunc(got, func(g Hit) bool { return g.ChunkID == w.ChunkID })
					total++
					if hit {
						found++
					}
					if i < nEval {
						totalEval++
						if hit {
							foundEval++
						}
					}
				}
			}
			center, err := s.loadCenter(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var knn, rank []float64
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				if _, err := s.vectorHits(ctx, vecs[i%len(vecs)], 10, probes); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := s.nearestLists(ctx, ivf.Quantize(vecs[i%len(vecs)], center), Probes(lists)); err != nil {
					b.Fatal(err)
				}
				knn = append(knn, float64(t1.Sub(t0).Nanoseconds())/1e6)
				rank = append(rank, float64(time.Since(t1).Nanoseconds())/1e6)
			}
			b.ReportMetric(float64(found)/float64(total), "recall@10")
			b.ReportMetric(float64(foundEval)/float64(totalEval), "recall@10-eval")
			b.ReportMetric(percentile(knn, 0.50), "knn-p50-ms")
			b.ReportMetric(percentile(knn, 0.95), "knn-p95-ms")
			b.ReportMetric(percentile(rank, 0.50), "rank-p50-ms")
		})
	}
}
