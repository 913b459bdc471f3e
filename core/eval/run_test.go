package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scripted answers each query text with fixed hits, whatever the mode
// except "none", which returns nothing, and "fail", which errors.
type scripted map[string][]Hit

func (s scripted) Search(_ context.Context, query, mode string, k int) ([]Hit, error) {
	switch mode {
	case "none":
		return nil, nil
	case "fail":
		return nil, errors.New("boom")
	}
	h := s[query]
	return h[:min(k, len(h))], nil
}

func TestRun(t *testing.T) {
	set, err := VaultSet("t", []VaultQuery{
		{ID: "a", Kind: "error", Query: "qa", Relevant: []string{"a.md"}},
		{ID: "b", Kind: "concept", Query: "qb", Relevant: []string{"b.md", "c.md"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := scripted{
		// qa: the vector leg ranked x.md, its first unit (vec@3 = 1).
		// qb: it ranked only a later chunk of b.md, which counts at its
		// first hit, and c.md, beyond the first 3 units (vec@3 = 0).
		"qa": {{Path: "x.md", Section: "", Vector: true}, {Path: "a.md", Section: ""}},
		"qb": {{Path: "b.md", Section: ""}, {Path: "b.md", Section: "S", Vector: true}, {Path: "y.md", Section: ""}, {Path: "z.md", Section: ""}, {Path: "c.md", Section: "", Vector: true}},
	}
	rep, err := Run(context.Background(), s, set, RunOptions{Modes: []string{"hybrid", "none"}, K: 3, PerQuery: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Set != "t" || rep.K != 3 || rep.Depth != 3*DefaultDepthFactor || rep.Queries != 2 || len(rep.Modes) != 2 {
		t.Fatalf("report header = %+v", rep)
	}
	h, _ := rep.Mode("hybrid")
	wantNDCG := ((1 / disc(2)) + (1/disc(1))/(1/disc(1)+1/disc(2))) / 2
	wantRecall := (1 + 1.0/2) / 2
	wantMRR := (1.0/2 + 1) / 2
	if math.Abs(h.NDCG-wantNDCG) > 1e-12 || math.Abs(h.Recall-wantRecall) > 1e-12 || math.Abs(h.MRR-wantMRR) > 1e-12 {
		t.Errorf("hybrid = %+v, want nDCG %v recall %v MRR %v", h, wantNDCG, wantRecall, wantMRR)
	}
	if k := h.Kinds["error"]; k.N != 1 || math.Abs(k.NDCG-1/disc(2)) > 1e-12 || k.MRR != 1.0/2 {
		t.Errorf("kind error = %+v", k)
	}
	if k := h.Kinds["concept"]; k.N != 1 || k.Recall != 1.0/2 || k.MRR != 1 {
		t.Errorf("kind concept = %+v", k)
	}
	if len(h.PerQuery) != 2 || strings.Join(h.PerQuery[1].Ranked, ",") != "b.md,y.md,z.md" {
		t.Errorf("per query = %+v", h.PerQuery)
	}
	if h.VecQueries != 1 || h.PerQuery[0].Vec != 1 || h.PerQuery[1].Vec != 0 {
		t.Errorf("vector share: %d queries, vec@3 %d and %d; want 1 query, 1 and 0", h.VecQueries, h.PerQuery[0].Vec, h.PerQuery[1].Vec)
	}
	if n, _ := rep.Mode("none"); n.NDCG != 0 || n.Recall != 0 || n.MRR != 0 {
		t.Errorf("empty results must score 0: %+v", n)
	}

	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "search:") {
		t.Errorf("table without Settings has a search line:\n%s", table.String())
	}
	rep.Settings = "rrf_k 60"
	table.Reset()
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"t: 2 queries, k=3, depth 9\nsearch: rrf_k 60\n", "nDCG@3", "hybrid", "vec@3 queries", "1/2", "by query kind", "concept"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Modes[0].NDCG != h.NDCG || back.Settings != rep.Settings {
		t.Errorf("JSON round trip: %v %+v", err, back)
	}

	if _, err := Run(context.Background(), s, set, RunOptions{Modes: []string{"fail"}}); err == nil || !strings.Contains(err.Error(), "query a") {
		t.Errorf("search error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, s, set, RunOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	tests := []struct {
		p, want float64
	}{{50, 5}, {95, 10}, {10, 1}, {100, 10}, {1, 1}}
	for _, tt := range tests {
		if got := Percentile(xs, tt.p); got != tt.want {
			t.Errorf("Percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("empty input must give 0")
	}
	if xs[0] != 5 {
		t.Error("Percentile modified its input")
	}
}

// titleSearcher finds notes on disk by their H1 line, independently of the
// NoteIDs map: for each query it returns the notes of the given documents'
// titles, in order. It checks that WriteVault's files map back to the right
// corpus ids through BEIRSet.
type titleSearcher struct {
	byTitle map[string]string // H1 text -> file name, read from disk
	answer  map[string][]string
}

func (s titleSearcher) Search(_ context.Context, query, _ string, _ int) ([]Hit, error) {
	var hits []Hit
	for _, title := range s.answer[query] {
		hits = append(hits, Hit{Path: s.byTitle[title], Section: title})
	}
	return hits, nil
}

func TestBEIRRoundTripSciFact(t *testing.T) {
	ds := loadSciFact(t).Subset(1000)
	dir := t.TempDir()
	notes, err := WriteVault(context.Background(), ds, dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(ds.Docs) || len(notes) != len(ds.Docs) {
		t.Fatalf("%d files, %d notes for %d docs", len(files), len(notes), len(ds.Docs))
	}
	byTitle := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		byTitle[strings.TrimPrefix(first, "# ")] = f.Name()
	}
	titleOf := map[string]string{}
	for _, d := range ds.Docs {
		titleOf[d.ID] = strings.Join(strings.Fields(d.Title), " ")
	}

	// The oracle returns each query's relevant documents (by title), the
	// anti-oracle the first documents that are not relevant to it. The
	// searcher only sees the query text, so texts that occur twice (SciFact
	// has a few repeated claims with different judgments) are left out.
	texts := map[string]int{}
	for _, q := range ds.Queries {
		texts[q.Text]++
	}
	oracle, anti := map[string][]string{}, map[string][]string{}
	for _, q := range ds.Queries {
		if texts[q.Text] > 1 {
			continue
		}
		for id, g := range ds.Qrels[q.ID] {
			if g > 0 {
				oracle[q.Text] = append(oracle[q.Text], titleOf[id])
			}
		}
		for _, d := range ds.Docs {
			if len(anti[q.Text]) == DefaultK {
				break
			}
			if ds.Qrels[q.ID][d.ID] <= 0 {
				anti[q.Text] = append(anti[q.Text], titleOf[d.ID])
			}
		}
	}
	set := BEIRSet(ds, notes)
	if set.Name != "scifact/train@1000" || len(set.Queries) != len(ds.Queries) {
		t.Fatalf("set %q with %d queries", set.Name, len(set.Queries))
	}
	unique := set.Queries[:0]
	for _, q := range set.Queries {
		if texts[q.Text] == 1 {
			unique = append(unique, q)
		}
	}
	set.Queries = unique
	for _, tc := range []struct {
		name   string
		answer map[string][]string
		want   float64
	}{{"oracle", oracle, 1}, {"anti-oracle", anti, 0}} {
		rep, err := Run(context.Background(), titleSearcher{byTitle, tc.answer}, set, RunOptions{Modes: []string{"bm25"}})
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Modes[0]
		// SciFact train judges at most a handful of documents per query,
		// all within k=10, so the oracle is perfect on every metric.
		if math.Abs(m.NDCG-tc.want) > 1e-9 || math.Abs(m.Recall-tc.want) > 1e-9 || math.Abs(m.MRR-tc.want) > 1e-9 {
			t.Errorf("%s: %+v, want all metrics %v", tc.name, m, tc.want)
		}
	}
}
