package bm25

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/postings"
	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// corpus is a random corpus of n chunks (ids 1..n) and the postings of a
// few phrases in it.
type corpus struct {
	n     int64
	lens  []uint32 // by id
	terms [][]postings.Posting
}

func randCorpus(r *rand.Rand, n int64, terms int) corpus {
	c := corpus{n: n, lens: make([]uint32, n+1)}
	for id := int64(1); id <= n; id++ {
		c.lens[id] = 20 + uint32(r.IntN(400))
	}
	for t := 0; t < terms; t++ {
		share := 0.02 + 0.4*r.Float64()
		var ps []postings.Posting
		for id := int64(1); id <= n; id++ {
			if r.Float64() < share {
				ps = append(ps, postings.Posting{Doc: uint32(id), TF: [4]uint32{1 + uint32(r.IntN(4)), uint32(r.IntN(10) / 9), uint32(r.IntN(20) / 19), 0}})
			}
		}
		c.terms = append(c.terms, ps)
	}
	return c
}

func (c corpus) avgdl() float64 {
	var sum float64
	for _, l := range c.lens[1:] {
		sum += float64(l)
	}
	return sum / float64(c.n)
}

// textbook is the formula of the package doc, written out plainly.
func textbook(w [3]float64, idf, avgdl, dl float64, tf [4]uint32) float64 {
	f := w[0]*float64(tf[0]) + w[1]*float64(tf[1]) + w[2]*float64(tf[2]) + w[0]*float64(tf[3])
	return idf * f * (K1 + 1) / (f + K1*(1-B+B*dl/avgdl))
}

// reference scores every posting into a map in phrase order, then adds
// extra, with the per-posting expression of TopK: the same sums, without
// windows, cursors or a floor.
func reference(c corpus, w [3]float64, dead map[uint32]bool, extra map[int64]float64, k int) []topk.Hit {
	norm := K1 * B / c.avgdl()
	acc := map[int64]float64{}
	for _, ps := range c.terms {
		idf := IDF(c.n, int64(len(ps)))
		for _, p := range ps {
			if dead[p.Doc] {
				continue
			}
			f := w[0]*float64(p.TF[0]) + w[1]*float64(p.TF[1]) + w[2]*float64(p.TF[2]) + w[0]*float64(p.TF[3])
			acc[int64(p.Doc)] += idf * (f * (K1 + 1)) / (f + K1*(1-B) + norm*float64(c.lens[p.Doc]))
		}
	}
	for id, sc := range extra {
		acc[id] += sc
	}
	top := topk.New(k)
	for id, sc := range acc {
		top.Offer(id, sc)
	}
	return top.Sorted()
}

func TestTopKMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	c := randCorpus(r, 3000, 4)
	w := [3]float64{1, 0.5, 0.3}
	var lists []List
	for _, ps := range c.terms {
		// Split each phrase into a build list and a delta list, as the
		// store does.
		cut := len(ps) * 3 / 4
		idf := IDF(c.n, int64(len(ps)))
		lists = append(lists, List{Postings: postings.Encode(ps[:cut]), IDF: idf}, List{Postings: postings.Encode(ps[cut:]), IDF: idf})
	}
	deadSet := map[uint32]bool{}
	var dead postings.IDSet
	for i := 0; i < 40; i++ {
		id := uint32(1 + r.IntN(int(c.n)))
		deadSet[id] = true
		dead.Add(id)
	}
	extra := map[int64]float64{7: 3.5, 1500: 0.25, c.n + 3: 2} // the last beyond the lists
	build := int64(2000)
	lens := &postings.Lengths{MaxID: build, Delta: postings.EncodeLengths(c.lens[build+1:])}
	if !lens.UseParts(postings.SplitLengths(postings.EncodeLengths(c.lens[:build+1]))) {
		t.Fatal("UseParts")
	}
	whole := &postings.Lengths{MaxID: build, Whole: postings.EncodeLengths(c.lens[:build+1]), Delta: lens.Delta}
	for _, tc := range []struct {
		name   string
		lens   *postings.Lengths
		window int64
		k      int
		dead   bool
	}{
		{"default window, parts", lens, 0, 10, false},
		{"small window crossing parts and blocks", lens, 97, 10, true},
		{"whole lengths", whole, 300, 25, true},
		{"k one", lens, 0, 1, false},
		{"k above matches", lens, 1000, 5000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Scorer{Weights: w, AvgDL: c.avgdl(), Lengths: tc.lens, Last: c.n, Window: tc.window}
			wantDead := map[uint32]bool{}
			if tc.dead {
				s.Dead, wantDead = &dead, deadSet
			}
			got, err := s.TopK(lists, extra, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			want := reference(c, w, wantDead, extra, tc.k)
			if !slices.Equal(got, want) {
				t.Fatalf("TopK differs from the reference:\n got %v\nwant %v", got[:min(5, len(got))], want[:min(5, len(want))])
			}
		})
	}
}

func TestScoresAreTheFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	c := randCorpus(r, 500, 3)
	w := [3]float64{1, 0.5, 0.3}
	var lists []List
	for _, ps := range c.terms {
		lists = append(lists, List{Postings: postings.Encode(ps), IDF: IDF(c.n, int64(len(ps)))})
	}
	s := &Scorer{Weights: w, AvgDL: c.avgdl(), Lengths: &postings.Lengths{MaxID: c.n, Whole: postings.EncodeLengths(c.lens)}, Last: c.n}
	got, err := s.TopK(lists, nil, int(c.n))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]float64{}
	for i, ps := range c.terms {
		for _, p := range ps {
			want[int64(p.Doc)] += textbook(w, lists[i].IDF, c.avgdl(), float64(c.lens[p.Doc]), p.TF)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d chunks scored, want %d", len(got), len(want))
	}
	for _, h := range got {
		if d := math.Abs(h.Score - want[h.ID]); d > 1e-12*want[h.ID] {
			t.Errorf("chunk %d: %v, formula %v", h.ID, h.Score, want[h.ID])
		}
	}
}

func TestIDF(t *testing.T) {
	for _, tc := range []struct {
		n, hits int64
		want    float64
	}{
		{1000, 10, math.Log((1000 - 10 + 0.5) / (10 + 0.5))},
		{1000, 500, 1e-6}, // ln(500.5/500.5) = 0
		{1000, 900, 1e-6},
		{1, 0, math.Log(1.5 / 0.5)},
	} {
		if got := IDF(tc.n, tc.hits); got != tc.want {
			t.Errorf("IDF(%d, %d) = %v, want %v", tc.n, tc.hits, got, tc.want)
		}
	}
}

func TestNoListsOffersExtra(t *testing.T) {
	s := &Scorer{Weights: [3]float64{1, 1, 1}, AvgDL: 10, Lengths: &postings.Lengths{}, Last: 100}
	got, err := s.TopK(nil, map[int64]float64{3: 1, 9: 2, 4: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []topk.Hit{{ID: 9, Score: 2}, {ID: 3, Score: 1}}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestCorruptList(t *testing.T) {
	s := &Scorer{Weights: [3]float64{1, 1, 1}, AvgDL: 10, Lengths: &postings.Lengths{}, Last: 100}
	if _, err := s.TopK([]List{{Postings: []byte{0xff}, IDF: 1}}, nil, 5); err == nil {
		t.Fatal("a corrupt list scored without error")
	}
}

func BenchmarkTopK(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	c := randCorpus(r, 160000, 4)
	var lists []List
	for _, ps := range c.terms {
		lists = append(lists, List{Postings: postings.Encode(ps), IDF: IDF(c.n, int64(len(ps)))})
	}
	lens := &postings.Lengths{MaxID: c.n}
	lens.UseParts(postings.SplitLengths(postings.EncodeLengths(c.lens)))
	s := &Scorer{Weights: [3]float64{1, 0.5, 0.3}, AvgDL: c.avgdl(), Lengths: lens, Last: c.n}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.TopK(lists, nil, 30); err != nil {
			b.Fatal(err)
		}
	}
}
