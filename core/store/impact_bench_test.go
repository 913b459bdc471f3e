package store

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/bm25"
	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// BenchmarkKeywordHits measures BM25 search on a real index (set
// VAULTCTX_BENCH_DB, see BenchmarkVectorHits): the p50/p95 in ms of
// KeywordHits with the impact index and of FTS5's bm25() alone, over the
// 73 queries of eval/large-queries.jsonl plus 200 random chunk prefixes,
// measured in the same loop so their ratio is fair on a busy machine, and
// of the impact index scored exhaustively (every posting decoded, as
// before the skip tables). It also fails when the rankings differ (the
// pruned and the exhaustive ones must be identical).
func BenchmarkKeywordHits(b *testing.B) {
	ctx := context.Background()
	s, db := benchStore(b)
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		b.Fatalf("%s has no impact index (%v)", db, err)
	}
	qs := benchQueries(b, s, 200)
	var imp, fts, exh []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		terms, exact, err := s.exactSplit(ctx, ix, nil, ftsquery.Terms(q), ftsquery.ExactTerms(q))
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
		whole, err := s.keywordImpactScored(ctx, ix, terms, exact, 30, DefaultColumnWeights, impactScoring{exhaustive: true})
		t3 := time.Now()
		if err != nil {
			b.Fatal(err)
		}
		if !slices.Equal(got, whole) {
			b.Fatalf("%q: pruned and exhaustive top k differ", q)
		}
		imp = append(imp, float64(t1.Sub(t0).Microseconds())/1000)
		fts = append(fts, float64(t2.Sub(t1).Microseconds())/1000)
		exh = append(exh, float64(t3.Sub(t2).Microseconds())/1000)
	}
	b.StopTimer()
	for _, r := range []struct {
		name string
		ms   []float64
	}{{"impact", imp}, {"fts5", fts}, {"exhaustive", exh}} {
		slices.Sort(r.ms)
		if len(r.ms) > 0 {
			b.ReportMetric(r.ms[len(r.ms)/2], r.name+"-p50-ms")
			b.ReportMetric(r.ms[len(r.ms)*95/100], r.name+"-p95-ms")
		}
	}
}

// BenchmarkKeywordPhases splits KeywordHits over the impact index into its
// phases on a real index (VAULTCTX_BENCH_DB): the SQL reads of statistics
// and posting lists (impactQuery), the split of the phrases with FTS5's
// capped counts of the rare ones (choosePhrases), FTS5's bm25() of the rare
// and exact phrases (ftsScores, exactScores), and the scoring of the lists
// (bm25.Scorer.TopK, pruned when the index has skip tables). It reports
// each phase's p50 and mean in ms, and per query the mean number of
// postings the lists hold, of their blocks, and of the blocks pruning left
// undecoded, over the queries of BenchmarkKeywordHits.
func BenchmarkKeywordPhases(b *testing.B) {
	ctx := context.Background()
	s, db := benchStore(b)
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		b.Fatalf("%s has no impact index (%v)", db, err)
	}
	qs := benchQueries(b, s, 200)
	if w, err := strconv.ParseInt(os.Getenv("VAULTCTX_BENCH_WINDOW"), 10, 64); err == nil {
		scoreWindow = w // to compare window sizes
		defer func() { scoreWindow = bm25.DefaultWindow }()
	}
	names := []string{"split", "read", "choose", "fts", "lists"}
	ms := make([][]float64, len(names))
	var post, n, skipped, blocks float64
	w := DefaultColumnWeights
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		var t [6]time.Time
		t[0] = time.Now()
		terms, exact, err := s.exactSplit(ctx, ix, nil, ftsquery.Terms(q), ftsquery.ExactTerms(q))
		if err != nil {
			b.Fatal(err)
		}
		if len(terms) == 0 {
			continue
		}
		t[1] = time.Now()
		iq, err := s.impactQuery(ctx, ix, nil, terms)
		if err != nil || iq.nRow == 0 {
			b.Fatal(err)
		}
		t[2] = time.Now()
		fast, slow, err := s.choosePhrases(ctx, ix, iq, terms)
		if err != nil {
			b.Fatal(err)
		}
		t[3] = time.Now()
		extra := map[int64]float64{}
		if err := s.slowScores(ctx, ix, iq, w, slow, extra); err != nil {
			b.Fatal(err)
		}
		exact.addScores(w, extra)
		t[4] = time.Now()
		var lists []bm25.List
		for _, it := range fast {
			idf := bm25.IDF(iq.nRow, it.df)
			lists = append(lists, bm25.List{Postings: it.postings, IDF: idf, Skips: decodeSkips(it)}, bm25.List{Postings: it.delta, IDF: idf})
			post += float64(it.df)
		}
		sc := bm25.Scorer{Weights: w, AvgDL: iq.avgdl, Lengths: &ix.lens, Dead: &iq.dead, Last: ix.deltaID, Window: scoreWindow}
		if _, err := sc.TopK(lists, extra, 30); err != nil {
			b.Fatal(err)
		}
		t[5] = time.Now()
		skipped += float64(sc.Skipped)
		for _, l := range lists {
			if l.Skips != nil {
				blocks += float64(l.Skips.Len())
			}
		}
		n++
		for j := range names {
			ms[j] = append(ms[j], float64(t[j+1].Sub(t[j]).Microseconds())/1000)
		}
	}
	b.StopTimer()
	for j, name := range names {
		var sum float64
		for _, v := range ms[j] {
			sum += v
		}
		slices.Sort(ms[j])
		if len(ms[j]) > 0 {
			b.ReportMetric(ms[j][len(ms[j])/2], name+"-p50-ms")
			b.ReportMetric(sum/float64(len(ms[j])), name+"-mean-ms")
		}
	}
	if n > 0 {
		b.ReportMetric(post/n, "postings/query")
		b.ReportMetric(blocks/n, "blocks/query")
		b.ReportMetric(skipped/n, "skipped/query")
	}
}

// BenchmarkScoreLists times bm25.Scorer.TopK alone on the lists and extra
// scores of real queries (VAULTCTX_BENCH_DB; the queries of
// BenchmarkKeywordHits), read once before timing: exhaustive against
// pruned, one op being every query once.
func BenchmarkScoreLists(b *testing.B) {
	ctx := context.Background()
	s, db := benchStore(b)
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		b.Fatalf("%s has no impact index (%v)", db, err)
	}
	type prepared struct {
		lists []bm25.List
		extra map[int64]float64
		sc    bm25.Scorer
	}
	var ps []prepared
	w := DefaultColumnWeights
	for _, q := range benchQueries(b, s, 200) {
		terms, exact, err := s.exactSplit(ctx, ix, nil, ftsquery.Terms(q), ftsquery.ExactTerms(q))
		if err != nil || len(terms) == 0 {
			continue
		}
		iq, err := s.impactQuery(ctx, ix, nil, terms)
		if err != nil {
			b.Fatal(err)
		}
		fast, slow, err := s.choosePhrases(ctx, ix, iq, terms)
		if err != nil {
			b.Fatal(err)
		}
		extra := map[int64]float64{}
		if err := s.slowScores(ctx, ix, iq, w, slow, extra); err != nil {
			b.Fatal(err)
		}
		exact.addScores(w, extra)
		var lists []bm25.List
		for _, it := range fast {
			idf := bm25.IDF(iq.nRow, it.df)
			lists = append(lists, bm25.List{Postings: slices.Clone(it.postings), IDF: idf, Skips: decodeSkips(it)}, bm25.List{Postings: slices.Clone(it.delta), IDF: idf})
		}
		ps = append(ps, prepared{lists, extra, bm25.Scorer{Weights: w, AvgDL: iq.avgdl, Lengths: &ix.lens, Dead: &iq.dead, Last: ix.deltaID, Window: scoreWindow}})
	}
	for _, exhaustive := range []bool{true, false} {
		name := map[bool]string{true: "exhaustive", false: "pruned"}[exhaustive]
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, p := range ps {
					sc := p.sc
					sc.Exhaustive = exhaustive
					if _, err := sc.TopK(p.lists, p.extra, 30); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(ps)), "ms/query")

		})
	}
}

// BenchmarkExactLeg times the exact-form leg alone (exactSplit: the
// stemmed matches' ids, the chunks read, the terms counted as written) on
// a real index (VAULTCTX_BENCH_DB), over the bench queries that have an
// identifier or quoted phrase, and reports the chunks read per query.
func BenchmarkExactLeg(b *testing.B) {
	ctx := context.Background()
	s, _ := benchStore(b)
	ix, err := s.loadImpact(ctx) // nil without an impact index: the texts are read
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for _, q := range benchQueries(b, s, 200) {
		if len(ftsquery.ExactTerms(q)) > 0 {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		b.Skip("no query with an exact term")
	}
	ms := make([]float64, 0, b.N)
	var rows float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		start := time.Now()
		_, leg, err := s.exactSplit(ctx, ix, nil, ftsquery.Terms(q), ftsquery.ExactTerms(q))
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		if leg != nil {
			rows += float64(len(leg.rows))
		}
	}
	slices.Sort(ms)
	b.ReportMetric(ms[len(ms)/2], "p50-ms")
	b.ReportMetric(ms[len(ms)*95/100], "p95-ms")
	b.ReportMetric(rows/float64(b.N), "chunks/query")

}
