package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// words returns n distinct words starting at from, one text of n terms.
func words(from, n int) string {
	var w []string
	for i := from; i < from+n; i++ {
		w = append(w, fmt.Sprintf("w%d", i))
	}
	return strings.Join(w, " ")
}

func TestCollapse(t *testing.T) {
	a := words(0, 40)
	// 40 terms plus 2 appended: resemblance 37/39, a near-duplicate.
	aPlus := a + " extra words"
	// One changed term in 40: 33 of 37 shingles shared, 33/41 = 0.80.
	aEdit := words(0, 20) + " x " + words(21, 19)
	// Four changed terms spread out: far below the threshold.
	aFar := strings.NewReplacer("w5 ", "x ", "w15 ", "x ", "w25 ", "x ", "w35 ", "x ").Replace(a)
	b := words(100, 40)
	hit := func(id int64, text string) Hit {
		return Hit{ChunkID: id, Path: fmt.Sprintf("n%d.md", id), Text: text}
	}
	for _, tc := range []struct {
		name string
		in   []Hit
		want map[int64][]int64 // kept id -> folded ids, in order
		kept []int64
	}{
		{"no duplicates", []Hit{hit(1, a), hit(2, b)}, map[int64][]int64{}, []int64{1, 2}},
		{"exact copy folds into the first", []Hit{hit(1, a), hit(2, b), hit(3, a)}, map[int64][]int64{1: {3}}, []int64{1, 2}},
		{"near copies fold, a rewrite stays", []Hit{hit(1, a), hit(2, aPlus), hit(3, aEdit), hit(4, aFar)}, map[int64][]int64{1: {2, 3}}, []int64{1, 4}},
		{"punctuation and case do not count", []Hit{hit(1, "Get-ChildItem [-Path] <string[]> -Recurse"), hit(2, "get childitem PATH string recurse")}, map[int64][]int64{1: {2}}, []int64{1}},
		{"empty", nil, map[int64][]int64{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := fmt.Sprint(tc.in)
			got := Collapse(tc.in)
			var kept []int64
			folded := map[int64][]int64{}
			for _, h := range got {
				kept = append(kept, h.ChunkID)
				for _, d := range h.AlsoIn {
					folded[h.ChunkID] = append(folded[h.ChunkID], d.ChunkID)
					if d.Path != fmt.Sprintf("n%d.md", d.ChunkID) || d.AlsoIn != nil {
						t.Errorf("folded hit %d lost its path or kept an AlsoIn", d.ChunkID)
					}
				}
			}
			if !reflect.DeepEqual(kept, tc.kept) || !reflect.DeepEqual(folded, tc.want) {
				t.Errorf("kept %v folded %v, want %v and %v", kept, folded, tc.kept, tc.want)
			}
			if fmt.Sprint(tc.in) != before {
				t.Error("Collapse modified its input")
			}
			if again := Collapse(got); !reflect.DeepEqual(again, got) {
				t.Errorf("collapsing again changed the result: %v", again)
			}
		})
	}
}

// A hit that already holds folded hits brings them along, flattened.
func TestCollapseFlattens(t *testing.T) {
	a := words(0, 40)
	first := Collapse([]Hit{{ChunkID: 2, Text: a}, {ChunkID: 3, Text: a}})
	got := Collapse(append([]Hit{{ChunkID: 1, Text: a}}, first...))
	if len(got) != 1 || len(got[0].AlsoIn) != 2 || got[0].AlsoIn[0].ChunkID != 2 || got[0].AlsoIn[1].ChunkID != 3 || got[0].AlsoIn[0].AlsoIn != nil {
		t.Errorf("got %+v, want hit 1 with 2 and 3 folded, flat", got)
	}
}

func TestListItem(t *testing.T) {
	for in, want := range map[string]string{
		"Kitchen/descaling.md":                 "Kitchen/descaling.md",
		"Kitchen/descaling, espresso, copy.md": "`Kitchen/descaling, espresso, copy.md`",
		"odd`name.md":                          "`odd``name.md`",
		" lead.md":                             "` lead.md`",
		"a,b.md":                               "a,b.md",
	} {
		if got := ListItem(in); got != want {
			t.Errorf("ListItem(%q) = %q, want %q", in, got, want)
		}
	}
}

// copiedSource is a fakeSource of copies copies of each of sections
// distinct 40-word texts, chunk ids from 1 with the copies of a text next
// to each other, ranked in id order by both legs.
func copiedSource(sections, copies int) fakeSource {
	src := fakeSource{texts: map[int64]string{}}
	for id := int64(1); id <= int64(sections*copies); id++ {
		src.texts[id] = words(int(id-1)/copies*100, 40)
		src.kw = append(src.kw, Scored{id, 1000 - float64(id)})
		src.vec = append(src.vec, Scored{id, 1 - float64(id)/1000})
	}
	return src
}

// countingSource is a fakeSource that records the k of every leg call.
type countingSource struct {
	fakeSource
	kwK, vecK *[]int
}

func (c countingSource) KeywordHits(ctx context.Context, q string, k int) ([]Scored, error) {
	*c.kwK = append(*c.kwK, k)
	return c.fakeSource.KeywordHits(ctx, q, k)
}

func (c countingSource) VectorHits(ctx context.Context, v []float32, k int) ([]Scored, error) {
	*c.vecK = append(*c.vecK, k)
	return c.fakeSource.VectorHits(ctx, v, k)
}

// Deepening widens windows of one deep call per leg instead of asking the
// legs again, and ranks exactly as collapsing the plain deeper lists does.
func TestCollapseDeepensInOneCall(t *testing.T) {
	// Eight copies of each of 40 sections, ranked alike by both legs: 30
	// candidates hold 4 distinct sections, 60 hold 8 and 120 hold 15, so
	// both deepenings are needed.
	src := copiedSource(40, 8)
	var kwK, vecK []int
	cs := countingSource{src, &kwK, &vecK}
	ctx := context.Background()
	got, err := Search(ctx, cs, unitEmbedder{}, "q", Options{K: 10, Collapse: true})
	if err != nil {
		t.Fatal(err)
	}
	deep := DefaultCandidates << maxDeepen
	if !reflect.DeepEqual(kwK, []int{deep}) || !reflect.DeepEqual(vecK, []int{deep}) {
		t.Errorf("legs asked for k = %v and %v, want one call each for %d", kwK, vecK, deep)
	}
	if len(got) != 10 {
		t.Fatalf("%d hits, want 10 distinct", len(got))
	}
	// The reference: the first window fused and collapsed, then the hits
	// new to the doubled window fused among themselves, ranked after.
	var ref []Hit
	seen := map[int64]bool{}
	for n := DefaultCandidates; n <= deep && len(ref) < 10; n *= 2 {
		plain, err := Search(ctx, src, unitEmbedder{}, "q", Options{K: 2 * n, Candidates: n})
		if err != nil {
			t.Fatal(err)
		}
		var fresh []Hit
		for _, h := range plain {
			if !seen[h.ChunkID] {
				seen[h.ChunkID] = true
				fresh = append(fresh, h)
			}
		}
		ref = Collapse(append(ref, fresh...))
	}
	for i := range min(10, len(ref)) {
		if got[i].ChunkID != ref[i].ChunkID {
			t.Errorf("hit %d is chunk %d, want %d", i+1, got[i].ChunkID, ref[i].ChunkID)
		}
	}
}

// Options.Copies sizes the legs' first window (K·Copies chunks, in
// doublings of Candidates) and a query that needs more asks again, for a
// window four times deeper: the hits are those of asking for the deepest
// at once, and a list without copies is ranked from the first window.
func TestCollapseCopiesSizesTheLegs(t *testing.T) {
	copied, distinct := copiedSource(40, 8), copiedSource(320, 1)
	ctx := context.Background()
	deep := DefaultCandidates << maxDeepen
	for _, c := range []struct {
		name   string
		src    fakeSource
		copies float64
		calls  []int
	}{
		{"copied, unknown", copied, 0, []int{deep}},
		{"copied, 1", copied, 1, []int{30, deep}},
		{"copied, 4", copied, 4, []int{60, 4 * 60}},
		{"copied, 8", copied, 8, []int{deep}},
		{"copied, 1000", copied, 1000, []int{DefaultCandidates << (maxDeepen + maxCopiesDeepen)}},
		{"copied, NaN", copied, math.NaN(), []int{deep}},
		{"distinct, 1", distinct, 1, []int{30}},
		{"distinct, 2.5", distinct, 2.5, []int{30}},
		{"distinct, 4", distinct, 4, []int{60}},
	} {
		want, err := Search(ctx, c.src, unitEmbedder{}, "q", Options{K: 10, Collapse: true})
		if err != nil {
			t.Fatal(err)
		}
		var kwK, vecK []int
		got, err := Search(ctx, countingSource{c.src, &kwK, &vecK}, unitEmbedder{}, "q", Options{K: 10, Collapse: true, Copies: c.copies})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kwK, c.calls) || !reflect.DeepEqual(vecK, c.calls) {
			t.Errorf("%s: legs asked for k = %v and %v, want %v", c.name, kwK, vecK, c.calls)
		}
		// The same hits in the same order; knowing the copies, a search
		// hydrates more at once and may fold more copies into them.
		if len(got) != len(want) {
			t.Fatalf("%s: %d hits, asking for the deepest window at once %d", c.name, len(got), len(want))
		}
		for i := range got {
			if got[i].ChunkID != want[i].ChunkID || len(got[i].AlsoIn) < len(want[i].AlsoIn) {
				t.Errorf("%s: hit %d is chunk %d folding %d, want chunk %d folding at least %d", c.name, i+1, got[i].ChunkID, len(got[i].AlsoIn), want[i].ChunkID, len(want[i].AlsoIn))
			}
		}
	}
}

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		"Kitchen/two  spaces .md": "Kitchen/two  spaces .md",
		"Küche/Entkalken.md":      "Küche/Entkalken.md",
		"a\nb.md":                 "\"a\\nb.md\"",
		"tab\there.md":            "\"tab\\there.md\"",
		"caf\xe9.md":              "\"caf\\xe9.md\"",
		"caf\ufffd.md":            "\"caf\\ufffd.md\"",
		"para\u2029graph.md":      "\"para\\u2029graph.md\"",
	} {
		if got := QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
		if ShowablePath(in) != (in == want) {
			t.Errorf("ShowablePath(%q) = %v", in, ShowablePath(in))
		}
	}
}

// With many copies per section the deepest window grows with Copies
// (DeepestWindow), so K distinct hits still come back: sixteen copies of
// each of 40 sections are 8 sections in 120 candidates.
func TestCollapseDeepestGrowsWithCopies(t *testing.T) {
	src := copiedSource(40, 16)
	ctx := context.Background()
	for _, c := range []struct {
		copies float64
		want   int
	}{{0, 8}, {1, 8}, {16, 10}} {
		got, err := Search(ctx, src, unitEmbedder{}, "q", Options{K: 10, Collapse: true, Copies: c.copies})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want {
			t.Errorf("Copies %v: %d distinct hits, want %d", c.copies, len(got), c.want)
		}
		for _, h := range got {
			if len(h.AlsoIn) == 0 {
				t.Errorf("Copies %v: chunk %d folds no copy", c.copies, h.ChunkID)
			}
		}
	}
	if w := DeepestWindow(Options{Copies: 16}); w != DefaultCandidates<<(maxDeepen+maxCopiesDeepen) {
		t.Errorf("DeepestWindow(Copies 16) = %d", w)
	}
	if w := DeepestWindow(Options{Copies: 1.5}); w != DefaultCandidates<<(maxDeepen+1) {
		t.Errorf("DeepestWindow(Copies 1.5) = %d", w)
	}
}

// hydrateCounter is a fakeSource that counts Hydrate calls and ids.
type hydrateCounter struct {
	fakeSource
	calls, ids *int
}

func (h hydrateCounter) Hydrate(ctx context.Context, ids []int64) ([]Hit, error) {
	*h.calls++
	*h.ids += len(ids)
	return h.fakeSource.Hydrate(ctx, ids)
}

// Knowing the copies, a collapsed search hydrates K groups' worth of
// results at once instead of doubling its way there.
func TestCollapseHydratesByCopies(t *testing.T) {
	src := copiedSource(40, 8)
	ctx := context.Background()
	calls := map[float64]int{}
	for _, copies := range []float64{0, 8} {
		var n, ids int
		got, err := Search(ctx, hydrateCounter{src, &n, &ids}, unitEmbedder{}, "q", Options{K: 10, Collapse: true, Copies: copies})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 10 {
			t.Fatalf("Copies %v: %d hits", copies, len(got))
		}
		calls[copies] = n
	}
	// With 8: one Hydrate per window (30, 60 and 120 candidates hold 4, 8
	// and 15 sections), each of the whole window.
	if calls[8] != 3 || calls[0] <= 2*calls[8] {
		t.Errorf("Hydrate calls: %d without copies, %d with 8, want 3 with 8 and over twice as many without", calls[0], calls[8])
	}
}

// countingEmbedder counts its Encode calls; with fail, each one fails.
type countingEmbedder struct {
	n    int
	fail bool
}

func (e *countingEmbedder) Encode(string) ([]float32, error) {
	e.n++
	if e.fail {
		return nil, errors.New("model gone")
	}
	return []float32{1}, nil
}

// The query is embedded once per search, on the vector leg's side,
// however often deepening runs the legs again; an embedding error fails
// the search, and a BM25 search embeds nothing.
func TestSearchEmbedsOnce(t *testing.T) {
	ctx := context.Background()
	var kwK, vecK []int
	// One copy per text expected, eight found: the first window holds too
	// few distinct texts and the legs run again.
	cs := countingSource{copiedSource(40, 8), &kwK, &vecK}
	emb := &countingEmbedder{}
	if _, err := Search(ctx, cs, emb, "q", Options{K: 10, Collapse: true, Copies: 1}); err != nil {
		t.Fatal(err)
	}
	if len(vecK) < 2 {
		t.Fatalf("the vector leg ran %d times: the test needs a deepening", len(vecK))
	}
	if emb.n != 1 {
		t.Errorf("%d vector legs embedded the query %d times, want once", len(vecK), emb.n)
	}
	failing := &countingEmbedder{fail: true}
	if _, err := Search(ctx, copiedSource(4, 1), failing, "q", Options{}); err == nil || !strings.Contains(err.Error(), "embed query: model gone") {
		t.Errorf("search with a failing model: %v, want the embedding error", err)
	}
	bm25 := &countingEmbedder{}
	if _, err := Search(ctx, copiedSource(4, 1), bm25, "q", Options{Mode: ModeBM25}); err != nil || bm25.n != 0 {
		t.Errorf("BM25 search: err %v, %d embeddings, want none", err, bm25.n)
	}
}
