package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

func rrf(k float64, w float64, rank int) float64 { return w / (k + float64(rank)) }

func TestFuse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		k     float64
		lists []Ranked
		want  []Fused
	}{
		{
			name:  "empty",
			lists: nil,
			want:  []Fused{},
		},
		{
			name:  "one list keeps its order",
			k:     60,
			lists: []Ranked{{IDs: []int64{3, 1, 2}, Weight: 1}},
			want: []Fused{
				{ID: 3, Score: rrf(60, 1, 1), Ranks: []int{1}},
				{ID: 1, Score: rrf(60, 1, 2), Ranks: []int{2}},
				{ID: 2, Score: rrf(60, 1, 3), Ranks: []int{3}},
			},
		},
		{
			name:  "agreement wins",
			k:     60,
			lists: []Ranked{{IDs: []int64{1, 2}, Weight: 1}, {IDs: []int64{2, 3}, Weight: 1}},
			want: []Fused{
				{ID: 2, Score: rrf(60, 1, 2) + rrf(60, 1, 1), Ranks: []int{2, 1}},
				{ID: 1, Score: rrf(60, 1, 1), Ranks: []int{1, 0}},
				{ID: 3, Score: rrf(60, 1, 2), Ranks: []int{0, 2}},
			},
		},
		{
			name:  "weights",
			k:     10,
			lists: []Ranked{{IDs: []int64{1}, Weight: 0.5}, {IDs: []int64{2}, Weight: 2}},
			want: []Fused{
				{ID: 2, Score: rrf(10, 2, 1), Ranks: []int{0, 1}},
				{ID: 1, Score: rrf(10, 0.5, 1), Ranks: []int{1, 0}},
			},
		},
		{
			name:  "ties: best rank, then smaller id",
			k:     60,
			lists: []Ranked{{IDs: []int64{9, 4}, Weight: 1}, {IDs: []int64{5, 8}, Weight: 1}},
			want: []Fused{
				{ID: 5, Score: rrf(60, 1, 1), Ranks: []int{0, 1}},
				{ID: 9, Score: rrf(60, 1, 1), Ranks: []int{1, 0}},
				{ID: 4, Score: rrf(60, 1, 2), Ranks: []int{2, 0}},
				{ID: 8, Score: rrf(60, 1, 2), Ranks: []int{0, 2}},
			},
		},
		{
			name:  "duplicate id counts at its best rank",
			k:     0, // default 60
			lists: []Ranked{{IDs: []int64{7, 7, 1}, Weight: 1}},
			want: []Fused{
				{ID: 7, Score: rrf(60, 1, 1), Ranks: []int{1}},
				{ID: 1, Score: rrf(60, 1, 3), Ranks: []int{3}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Fuse(tc.k, tc.lists...)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d results, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				g, w := got[i], tc.want[i]
				if g.ID != w.ID || math.Abs(g.Score-w.Score) > 1e-15 || fmt.Sprint(g.Ranks) != fmt.Sprint(w.Ranks) {
					t.Errorf("result %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestKeepLead(t *testing.T) {
	// Fused lists built by Fuse, so every score is the RRF formula.
	bm25 := Ranked{IDs: []int64{1, 2, 3}, Weight: 1}
	knn := Ranked{IDs: []int64{3, 4, 2}, Weight: 1}
	fused := Fuse(60, bm25, knn)
	// Plain RRF: 3 = 1/63 + 1/61, 2 = 1/62 + 1/63, 1 = 1/61, 4 = 1/62.
	if got := ids(fusedScored(fused)); fmt.Sprint(got) != "[3 2 1 4]" {
		t.Fatalf("Fuse order = %v, want [3 2 1 4] (scores %v)", got, fused)
	}
	for _, tc := range []struct {
		name string
		lead []int64
		n    int
		want []int64
	}{
		{"n 0 is plain RRF", bm25.IDs, 0, []int64{3, 2, 1, 4}},
		{"best BM25 hit first", bm25.IDs, 1, []int64{1, 3, 2, 4}},
		{"two kept in BM25 order", bm25.IDs, 2, []int64{1, 2, 3, 4}},
		{"n beyond the lead list", bm25.IDs, 10, []int64{1, 2, 3, 4}},
		{"lead already first", []int64{3}, 1, []int64{3, 2, 1, 4}},
		{"lead id not in fused is skipped", []int64{9, 4}, 2, []int64{4, 3, 2, 1}},
		{"empty lead", nil, 3, []int64{3, 2, 1, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := fmt.Sprint(fused)
			got := KeepLead(fused, tc.lead, tc.n)
			if fmt.Sprint(ids(fusedScored(got))) != fmt.Sprint(tc.want) {
				t.Errorf("KeepLead(%v, %d) = %v, want %v", tc.lead, tc.n, ids(fusedScored(got)), tc.want)
			}
			if fmt.Sprint(fused) != before {
				t.Errorf("KeepLead modified its input")
			}
			// Scores and ranks travel with their ids unchanged.
			byID := map[int64]Fused{}
			for _, f := range fused {
				byID[f.ID] = f
			}
			for _, g := range got {
				if fmt.Sprint(g) != fmt.Sprint(byID[g.ID]) {
					t.Errorf("result %d changed: %+v, was %+v", g.ID, g, byID[g.ID])
				}
			}
		})
	}
}

func fusedScored(fs []Fused) []Scored {
	out := make([]Scored, len(fs))
	for i, f := range fs {
		out[i] = Scored{ID: f.ID, Score: f.Score}
	}
	return out
}

// fakeSource is an in-memory index: it is the smallest real Source, not a
// mock of SQLite.
type fakeSource struct {
	kw, vec []Scored
	texts   map[int64]string
}

func (f fakeSource) KeywordHits(_ context.Context, q string, k int) ([]Scored, error) {
	if strings.TrimSpace(q) == "" {
		return nil, nil
	}
	return f.kw[:min(k, len(f.kw))], nil
}
func (f fakeSource) VectorHits(_ context.Context, _ []float32, k int) ([]Scored, error) {
	return f.vec[:min(k, len(f.vec))], nil
}
func (f fakeSource) Hydrate(_ context.Context, ids []int64) ([]Hit, error) {
	out := make([]Hit, len(ids))
	for i, id := range ids {
		out[i] = Hit{ChunkID: id, Path: fmt.Sprint(id, ".md"), Text: f.texts[id]}
	}
	return out, nil
}

type unitEmbedder struct{}

func (unitEmbedder) Encode(string) ([]float32, error) { return []float32{1}, nil }

func TestSearchModes(t *testing.T) {
	src := fakeSource{
		kw:    []Scored{{1, 9}, {2, 8}, {3, 7}},
		vec:   []Scored{{3, 0.9}, {4, 0.5}},
		texts: map[int64]string{1: "aaaa", 2: "bbbb", 3: "cccc", 4: "dddd"},
	}
	ctx := context.Background()
	hy, err := Search(ctx, src, unitEmbedder{}, "q", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hy[0].ChunkID != 3 || hy[0].BM25Rank != 3 || hy[0].VecRank != 1 {
		t.Errorf("hybrid top = %+v, want chunk 3 with ranks 3 and 1", hy[0])
	}
	if want := rrf(60, 1, 3) + rrf(60, 1, 1); math.Abs(hy[0].Score-want) > 1e-15 {
		t.Errorf("hybrid score %v, want %v", hy[0].Score, want)
	}
	floor, _ := Search(ctx, src, unitEmbedder{}, "q", Options{MinCosine: 0.6})
	for _, h := range floor {
		if h.ChunkID == 4 {
			t.Errorf("vector hit under MinCosine was fused: %+v", h)
		}
	}
	// Weighted RRF with BM25's best hit kept first: chunk 3 (BM25 rank 3,
	// vector rank 1) outscores chunk 2 but not the lead, chunk 1.
	lead, _ := Search(ctx, src, unitEmbedder{}, "q", Options{VectorWeight: 0.5, BM25Weight: 1, BM25Lead: 1})
	wantLead := []struct {
		id    int64
		score float64
	}{
		{1, rrf(60, 1, 1)},
		{3, rrf(60, 1, 3) + rrf(60, 0.5, 1)},
		{2, rrf(60, 1, 2)},
		{4, rrf(60, 0.5, 2)},
	}
	if len(lead) != len(wantLead) {
		t.Fatalf("lead: %d hits, want %d: %+v", len(lead), len(wantLead), lead)
	}
	for i, w := range wantLead {
		if lead[i].ChunkID != w.id || math.Abs(lead[i].Score-w.score) > 1e-15 {
			t.Errorf("lead: hit %d = chunk %d score %v, want chunk %d score %v", i, lead[i].ChunkID, lead[i].Score, w.id, w.score)
		}
	}
	// One weight 0: that leg adds nothing (only the zero value of both
	// means 1.0 each).
	novec, _ := Search(ctx, src, unitEmbedder{}, "q", Options{VectorWeight: 0, BM25Weight: 1})
	for i, h := range novec[:3] {
		if h.ChunkID != int64(i+1) || math.Abs(h.Score-rrf(60, 1, i+1)) > 1e-15 {
			t.Errorf("vector weight 0: hit %d = chunk %d score %v, want BM25 order with score %v", i, h.ChunkID, h.Score, rrf(60, 1, i+1))
		}
	}
	bm, _ := Search(ctx, src, unitEmbedder{}, "q", Options{Mode: ModeBM25})
	if len(bm) != 3 || bm[0].ChunkID != 1 || bm[0].Score != 9 || bm[0].VecRank != 0 {
		t.Errorf("bm25 = %+v", bm)
	}
	if _, err := Search(ctx, src, nil, "q", Options{Mode: ModeVector}); err != ErrNoVectors {
		t.Errorf("vector mode without embedder: err %v", err)
	}
	deg, _ := Search(ctx, src, nil, "q", Options{})
	if len(deg) != 3 || deg[0].ChunkID != 1 {
		t.Errorf("hybrid without embedder should be BM25 order: %+v", deg)
	}
	// Budget: each hit costs len(path)+len(text) = 4+4 runes = 2 tokens.
	b, _ := Search(ctx, src, unitEmbedder{}, "q", Options{MaxTokens: 5})
	if len(b) != 2 {
		t.Errorf("MaxTokens 5 kept %d hits, want 2", len(b))
	}
	// A first hit larger than the budget is cut, not dropped.
	long := Hit{Path: "p.md", Text: strings.Repeat("word ", 100)}
	got := Budget([]Hit{long, {Path: "q.md", Text: "short"}}, 10)
	if len(got) != 1 || got[0].Path != "p.md" || !strings.HasSuffix(got[0].Text, "…") {
		t.Fatalf("Budget of a long first hit = %+v, want it cut", got)
	}
	if size := len([]rune(got[0].Path)) + len([]rune(got[0].Text)); size > textan.CharBudget(10) {
		t.Errorf("cut first hit is %d characters, over the budget of %d", size, textan.CharBudget(10))
	}
}

func ExampleFuse() {
	bm25 := Ranked{IDs: []int64{10, 20, 30}, Weight: 1}
	knn := Ranked{IDs: []int64{30, 40}, Weight: 1}
	for _, f := range Fuse(60, bm25, knn) {
		fmt.Printf("%d %.5f %v\n", f.ID, f.Score, f.Ranks)
	}
	// Output:
	// 30 0.03227 [3 1]
	// 10 0.01639 [1 0]
	// 20 0.01613 [2 0]
	// 40 0.01613 [0 2]
}

func ExampleKeepLead() {
	bm25 := Ranked{IDs: []int64{10, 20, 30}, Weight: 1}
	knn := Ranked{IDs: []int64{30, 20}, Weight: 0.2}
	// RRF alone puts 20 and 30, which the vector leg also found, above
	// BM25's best hit; KeepLead with n = 1 keeps 10 first and leaves the
	// rest in RRF order.
	for _, f := range KeepLead(Fuse(60, bm25, knn), bm25.IDs, 1) {
		fmt.Printf("%d %.5f %v\n", f.ID, f.Score, f.Ranks)
	}
	// Output:
	// 10 0.01639 [1 0]
	// 20 0.01935 [2 2]
	// 30 0.01915 [3 1]
}

func TestSnippet(t *testing.T) {
	mark := func(s string) string { return "[" + s + "]" }
	got := Snippet("The Châtelier principle and equilibria shift.", "chatelier equilibrium", 200, mark)
	if !strings.Contains(got, "[Châtelier]") {
		t.Errorf("accent-insensitive highlight missing: %q", got)
	}
	long := strings.Repeat("word ", 100) + "needle here"
	if got := Snippet(long, "needle", 40, mark); !strings.HasPrefix(got, "…") || !strings.Contains(got, "[needle]") {
		t.Errorf("window around the match: %q", got)
	}
}

// TestSnippetMarksNoStopWords: stop words of the query are never marked,
// and the window goes to the first exact match before a prefix match.
func TestSnippetMarksNoStopWords(t *testing.T) {
	mark := func(s string) string { return "[" + s + "]" }
	got := Snippet("Read about the installer: the setup runs once.", "what is the installer about", 200, mark)
	if want := "Read about the [installer]: the setup runs once."; got != want {
		t.Errorf("Snippet = %q, want %q", got, want)
	}
	text := "Installing takes a while. " + strings.Repeat("filler ", 60) + "Then install the package."
	got = Snippet(text, "install", 60, mark)
	if !strings.Contains(got, "[install] the package") || strings.Contains(got, "Installing") {
		t.Errorf("window not at the exact match: %q", got)
	}
	if got := Snippet("Installing takes a while.", "install", 60, mark); got != "[Installing] takes a while." {
		t.Errorf("prefix match without an exact one: %q", got)
	}
}

type zeroEmbedder struct{}

func (zeroEmbedder) Encode(string) ([]float32, error) { return []float32{0, 0}, nil }

func TestUnknownWordsGiveNoVectorHits(t *testing.T) {
	src := fakeSource{vec: []Scored{{4, 0.1}}, texts: map[int64]string{4: "dddd"}}
	hits, err := Search(context.Background(), src, zeroEmbedder{}, "zzqxw", Options{Mode: ModeVector})
	if err != nil || len(hits) != 0 {
		t.Errorf("a query the model cannot embed returned %v (%v), want nothing", hits, err)
	}
}

type constEmbedder struct{}

func (constEmbedder) Encode(string) ([]float32, error) { return []float32{1, 0}, nil }

// A query of punctuation alone has nothing to match: no mode may return
// the arbitrary nearest neighbours of its embedding. An emoji alone is
// matched by BM25 (its token in the cjk column) and not embedded.
func TestNoWordsNoHits(t *testing.T) {
	src := fakeSource{kw: []Scored{{1, 2}}, vec: []Scored{{4, 0.9}}, texts: map[int64]string{1: "aaaa", 4: "dddd"}}
	for _, mode := range []string{ModeBM25, ModeVector, ModeHybrid} {
		hits, err := Search(context.Background(), src, constEmbedder{}, "📅", Options{Mode: mode})
		want := []int64{1} // the keyword hit alone
		if mode == ModeVector {
			want = nil
		}
		var got []int64
		for _, h := range hits {
			got = append(got, h.ChunkID)
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s 📅: hits %v, %v; want %v", mode, got, err, want)
		}
	}
	for _, q := range []string{"*", `"`, " -- ", "→ ©"} {
		for _, mode := range []string{ModeBM25, ModeVector, ModeHybrid} {
			hits, err := Search(context.Background(), src, constEmbedder{}, q, Options{Mode: mode})
			if err != nil || len(hits) != 0 {
				t.Errorf("%s %q: %d hits, %v; want none", mode, q, len(hits), err)
			}
		}
	}
	if hits, _ := Search(context.Background(), src, constEmbedder{}, "a1", Options{Mode: ModeVector}); len(hits) == 0 {
		t.Error("a query with a word found nothing")
	}
	if _, err := Search(context.Background(), src, nil, "*", Options{Mode: ModeVector}); err != ErrNoVectors {
		t.Errorf("vector mode without vectors: %v, want ErrNoVectors", err)
	}
}

// A word that is a query term and also extends a shorter one ("scripts"
// for "script scripts") is an exact occurrence, so the window opens at it
// on every call, whatever order the terms are tried in.
func TestSnippetExactOverPrefix(t *testing.T) {
	text := "Run scripts here. " + strings.Repeat("filler words go on and on. ", 20) + "A script at the end."
	want := Snippet(text, "scripts", 60, strings.ToUpper)
	if !strings.HasPrefix(want, "Run SCRIPTS") {
		t.Fatalf("Snippet for scripts = %q, want the window at the start", want)
	}
	for i := range 50 {
		if got := Snippet(text, "script scripts", 60, strings.ToUpper); !strings.HasPrefix(got, "Run SCRIPTS") {
			t.Fatalf("call %d: Snippet = %q, want the window at the first exact occurrence", i, got)
		}
	}
}
