package store

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"
)

// benchQueries returns the queries of eval/large-queries.jsonl followed by
// n prefixes (5 to 24 words) of random chunk texts of s.
func benchQueries(tb testing.TB, s *Store, n int) []string {
	tb.Helper()
	f, err := os.Open("../../eval/large-queries.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct{ Query string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			tb.Fatal(err)
		}
		out = append(out, q.Query)
	}
	var maxID int64
	if err := s.db.QueryRow("SELECT max(id) FROM chunks").Scan(&maxID); err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewSource(9))
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = 1 + r.Int63n(maxID)
	}
	cs, err := s.Chunks(context.Background(), ids)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range cs {
		w := strings.Fields(c.Text)
		out = append(out, strings.Join(w[:min(len(w), 5+r.Intn(20))], " "))
	}
	return out
}

// benchStore opens the real index named by VAULTCTX_BENCH_DB read-only for
// a benchmark (skipped when the variable is not set) and closes it after.
func benchStore(b *testing.B) (*Store, string) {
	db := os.Getenv("VAULTCTX_BENCH_DB")
	if db == "" {
		b.Skip("VAULTCTX_BENCH_DB is not set")
	}
	s, err := Open(context.Background(), db, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, db
}

// BenchmarkVectorHits measures the vector leg on a real index: set
// VAULTCTX_BENCH_DB to a file built with a model, e.g.
//
//	vaultctx index --full --vault ../shared/corpora/large \
//	  --model ../shared/models/glove-120k --db /tmp/large.db
//
// It reports recall@10 against ExactVectorHits (the 73 queries of
// eval/large-queries.jsonl plus 200 random chunk prefixes, and the 73
// alone) and the p50/p95 in ms of VectorHits and of embedding plus
// VectorHits, in process after one warm-up pass.
func BenchmarkVectorHits(b *testing.B) {
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
	queries := benchQueries(b, s, 200)
	vecs := make([][]float32, len(queries))
	var found, total, foundEval, totalEval int
	for i, q := range queries {
		if vecs[i], err = m.Encode(q); err != nil {
			b.Fatal(err)
		}
		got, err := s.VectorHits(ctx, vecs[i], 10)
		if err != nil {
			b.Fatal(err)
		}
		want, err := s.ExactVectorHits(ctx, vecs[i], 10)
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range want {
			hit := slices.ContainsFunc(got, func(g Hit) bool { return g.ChunkID == w.ChunkID })
			total++
			if i < len(queries)-200 {
				totalEval++
			}
			if hit {
				found++
				if i < len(queries)-200 {
					foundEval++
				}
			}
		}
	}
	var knn, leg []float64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := queries[i%len(queries)]
		t0 := time.Now()
		v, err := m.Encode(q)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := s.VectorHits(ctx, v, 10); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		knn = append(knn, float64(t2.Sub(t1).Nanoseconds())/1e6)
		leg = append(leg, float64(t2.Sub(t0).Nanoseconds())/1e6)
	}
	// After the loop: ResetTimer drops metrics reported before it.
	b.ReportMetric(float64(found)/float64(total), "recall@10")
	b.ReportMetric(float64(foundEval)/float64(totalEval), "recall@10-eval")
	b.ReportMetric(percentile(knn, 0.50), "knn-p50-ms")
	b.ReportMetric(percentile(knn, 0.95), "knn-p95-ms")
	b.ReportMetric(percentile(leg, 0.50), "leg-p50-ms")
	b.ReportMetric(percentile(leg, 0.95), "leg-p95-ms")
}

func percentile(ms []float64, p float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1))]
}
