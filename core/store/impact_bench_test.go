package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// BenchmarkKeywordHits measures BM25 search on a real index (set
// VAULTCTX_BENCH_DB, see BenchmarkVectorHits): the p50/p95 in ms of
// KeywordHits with the impact index and of FTS5's bm25() alone, over the
// 73 queries of eval/large-queries.jsonl plus 200 random chunk prefixes,
// measured in the same loop so their ratio is fair on a busy machine. It
// also fails when the two rankings differ.
func BenchmarkKeywordHits(b *testing.B) {
	ctx := context.Background()
	s, db := benchStore(b)
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		b.Fatalf("%s has no impact index (%v)", db, err)
	}
	qs := benchQueries(b, s, 200)
	var imp, fts []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		terms, exact, err := s.exactSplit(ctx, ftsquery.Terms(q), ftsquery.ExactTerms(q))
		if err != nil {
			b.Fatal(err)
		}
		if len(terms) == 0 {
			continue
		}
		t0 := time.Now()
		got, err := s.keywordImpact(ctx, ix, terms, exact, 30, DefaultColumnWeights)
		t1 := time.Now()
		if err != nil {
			b.Fatal(err)
		}
		want, err := s.keywordFTS(ctx, terms, exact, 30, DefaultColumnWeights)
		t2 := time.Now()
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != len(want) || (len(got) > 0 && got[0].ChunkID != want[0].ChunkID && got[0].Score != want[0].Score) {
			b.Fatalf("%q: impact and FTS5 rankings differ", q)
		}
		imp = append(imp, float64(t1.Sub(t0).Microseconds())/1000)
		fts = append(fts, float64(t2.Sub(t1).Microseconds())/1000)
	}
	b.StopTimer()
	for _, r := range []struct {
		name string
		ms   []float64
	}{{"impact", imp}, {"fts5", fts}} {
		slices.Sort(r.ms)
		if len(r.ms) > 0 {
			b.ReportMetric(r.ms[len(r.ms)/2], r.name+"-p50-ms")
			b.ReportMetric(r.ms[len(r.ms)*95/100], r.name+"-p95-ms")
		}
	}
}
