package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/postings"
)

// skewedCorpus is a corpus of n chunks whose lengths and frequencies have
// long tails, as real notes do (a few very short chunks, a few terms
// repeated many times), with terms from rare to very common.
func skewedCorpus(r *rand.Rand, n int64, terms int) corpus {
	c := corpus{n: n, lens: make([]uint32, n+1)}
	for id := int64(1); id <= n; id++ {
		c.lens[id] = 3 + uint32(r.ExpFloat64()*150)
	}
	for t := 0; t < terms; t++ {
		share := []float64{0.002, 0.01, 0.05, 0.2, 0.45}[t%5] * (0.5 + r.Float64())
		var ps []postings.Posting
		for id := int64(1); id <= n; id++ {
			if r.Float64() < share {
				tf := 1 + uint32(r.ExpFloat64()*1.5)
				ps = append(ps, postings.Posting{Doc: uint32(id), TF: [4]uint32{tf, uint32(r.IntN(12) / 10), uint32(r.IntN(30) / 28), uint32(r.IntN(50) / 49)}})
			}
		}
		c.terms = append(c.terms, ps)
	}
	return c
}

// TestPrunedMatchesExhaustive: with skip tables, TopK returns exactly the
// exhaustive scorer's hits (ids, order and score bits) over corpora, k,
// windows, weights, dead chunks, delta lists without tables, extra scores
// and numbers of workers, and skips blocks doing so. Windows as small as
// 64 ids make lists turn essential again in the window after one where a
// lookup decoded only the ids of a block both windows share (400 rounds
// reach that case; 190 did not).
func TestPrunedMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var skipped, total int
	for round := 0; round < 400; round++ {
		n := int64(2000 + r.IntN(30000))
		c := skewedCorpus(r, n, 2+r.IntN(7))
		build := n - int64(r.IntN(int(n/10)+1))
		lens := &postings.Lengths{MaxID: build, Delta: postings.EncodeLengths(c.lens[build+1:])}
		if !lens.UseParts(postings.SplitLengths(postings.EncodeLengths(c.lens[:build+1]))) {
			t.Fatal("UseParts")
		}
		lenOf := func(d uint32) uint32 { return c.lens[d] }
		var lists []List
		for _, ps := range c.terms {
			cut, _ := slices.BinarySearchFunc(ps, uint32(build+1), func(p postings.Posting, d uint32) int { return int(p.Doc) - int(d) })
			idf := IDF(c.n, int64(len(ps)))
			blob := postings.Encode(ps[:cut])
			table, err := postings.BuildSkips(blob, lenOf)
			if err != nil {
				t.Fatal(err)
			}
			sk := new(postings.Skips)
			if !postings.DecodeSkips(sk, table, cut, len(blob)) {
				t.Fatal("DecodeSkips")
			}
			lists = append(lists, List{Postings: blob, IDF: idf, Skips: sk}, List{Postings: postings.Encode(ps[cut:]), IDF: idf})
		}
		var dead postings.IDSet
		for i := 0; i < r.IntN(50); i++ {
			dead.Add(uint32(1 + r.IntN(int(n))))
		}
		extra := map[int64]float64{}
		for i := 0; i < r.IntN(80); i++ {
			extra[1+r.Int64N(n+20)] = r.Float64() * 12
		}
		w := [3]float64{1, 0.5, 0.3}
		if round%4 == 3 {
			w = [3]float64{r.Float64() * 2, r.Float64(), 0}
		}
		k := []int{1, 5, 30, 120, 400}[r.IntN(5)]
		window := []int64{0, 64, 200, 256, 1000, 4096}[r.IntN(6)]
		ex := &Scorer{Weights: w, AvgDL: c.avgdl(), Lengths: lens, Dead: &dead, Last: n, Window: window, Exhaustive: true}
		pr := *ex
		pr.Exhaustive = false
		want, err := ex.TopK(lists, extra, k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pr.TopK(lists, extra, k)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("round %d (n=%d k=%d window=%d): hit %d is %v, exhaustive %v", round, n, k, window, i, got[i], want[i])
				}
			}
			t.Fatalf("round %d: %d hits, exhaustive %d", round, len(got), len(want))
		}
		// Split among workers, the ranges (and the delta lists without
		// tables, decoded from their start in every range) give the same.
		for _, workers := range []int{2, 3, 8} {
			par := pr
			par.Workers, par.Skipped = workers, 0
			got, err := par.TopK(lists, extra, k)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d (n=%d k=%d window=%d workers=%d): %d hits differ from the exhaustive %d", round, n, k, window, workers, len(got), len(want))
			}
		}
		skipped += pr.Skipped
		for _, l := range lists {
			if l.Skips != nil {
				total += l.Skips.Len()
			}
		}
	}
	if skipped*8 < total {
		t.Errorf("pruning skipped %d of %d blocks; expected at least an eighth", skipped, total)
	}
	t.Logf("skipped %d of %d blocks", skipped, total)
}

// TestPrunedCorruptSkips: a skip table whose offsets do not match its
// list is an error, not a panic or a wrong answer.
func TestPrunedCorruptSkips(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	c := skewedCorpus(r, 5000, 2)
	lenOf := func(d uint32) uint32 { return c.lens[d] }
	lens := &postings.Lengths{MaxID: c.n, Whole: postings.EncodeLengths(c.lens)}
	var lists []List
	for i, ps := range c.terms {
		blob := postings.Encode(ps)
		other := postings.Encode(c.terms[1-i]) // the other term's table
		table, err := postings.BuildSkips(other, lenOf)
		if err != nil {
			t.Fatal(err)
		}
		sk := new(postings.Skips)
		if !postings.DecodeSkips(sk, table, len(c.terms[1-i]), len(other)) {
			t.Fatal("DecodeSkips")
		}
		lists = append(lists, List{Postings: blob, IDF: 1, Skips: sk})
	}
	for _, workers := range []int{1, 2} {
		s := &Scorer{Weights: [3]float64{1, 1, 1}, AvgDL: c.avgdl(), Lengths: lens, Last: c.n, Workers: workers}
		if _, err := s.TopK(lists, nil, 10); err == nil {
			t.Fatalf("%d workers: lists read with another list's skip table scored without error", workers)
		}
	}
}

// TestPrunedReusesWork: the pruned scorer's memory (rangePool) carries
// nothing from one call to the next, through calls that fail mid-window
// (a corrupt skip table), other windows, other numbers of lists and other
// workers: every call returns the exhaustive scorer's hits, and the
// accumulators put back are all zero.
func TestPrunedReusesWork(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	c := skewedCorpus(r, 20000, 6)
	lenOf := func(d uint32) uint32 { return c.lens[d] }
	lens := &postings.Lengths{MaxID: c.n}
	if !lens.UseParts(postings.SplitLengths(postings.EncodeLengths(c.lens))) {
		t.Fatal("UseParts")
	}
	var good, bad []List
	for i, ps := range c.terms {
		blob := postings.Encode(ps)
		for _, from := range [][]postings.Posting{ps, c.terms[(i+1)%len(c.terms)]} {
			other := postings.Encode(from)
			table, err := postings.BuildSkips(other, lenOf)
			if err != nil {
				t.Fatal(err)
			}
			sk := new(postings.Skips)
			if !postings.DecodeSkips(sk, table, len(from), len(other)) {
				t.Fatal("DecodeSkips")
			}
			l := List{Postings: blob, IDF: IDF(c.n, int64(len(ps))), Skips: sk}
			if len(good) == i {
				good = append(good, l)
			} else {
				bad = append(bad, l)
			}
		}
	}
	for round := 0; round < 60; round++ {
		lists := good[:1+r.IntN(len(good))]
		window := []int64{0, 64, 1000}[r.IntN(3)]
		ex := &Scorer{Weights: [3]float64{1, 0.5, 0.3}, AvgDL: c.avgdl(), Lengths: lens, Last: c.n, Window: window, Exhaustive: true}
		want, err := ex.TopK(lists, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		pr := *ex
		pr.Exhaustive, pr.Workers = false, 1+r.IntN(3)
		if _, err := pr.TopK(bad[:1+r.IntN(len(bad))], nil, 10); err == nil {
			t.Fatalf("round %d: lists read with other lists' skip tables scored without error", round)
		}
		got, err := pr.TopK(lists, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d lists, window %d, %d workers): %v, exhaustive %v", round, len(lists), window, pr.Workers, got, want)
		}
		if wk, _ := rangePool.Get().(*rangeWork); wk != nil {
			if slices.ContainsFunc(wk.acc, func(v float64) bool { return v != 0 }) || slices.ContainsFunc(wk.touched, func(v uint64) bool { return v != 0 }) {
				t.Fatalf("round %d: a pooled accumulator is not all zero", round)
			}
			rangePool.Put(wk)
		}
	}
}

// TestSearchMatchesBinarySearch: plist.search finds what
// slices.BinarySearch over the block finds, for lookups in increasing
// order (the checks of a window), in any order, and after a new block.
func TestSearchMatchesBinarySearch(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	var l plist
	for round := 0; round < 2000; round++ {
		if round%20 == 0 {
			l.n, l.at = 1+r.IntN(postings.BlockLen), 0
			d := uint32(r.IntN(50))
			for i := range l.n {
				d += 1 + uint32(r.IntN(6))
				l.dec.Docs[i] = d
			}
		}
		d := uint32(r.IntN(int(l.dec.Docs[l.n-1]) + 10))
		if round%3 != 0 && l.at > 0 {
			d = l.dec.Docs[l.at-1] + uint32(r.IntN(12)) // increasing
		}
		wi, wf := slices.BinarySearch(l.dec.Docs[:l.n], d)
		if i, f := l.search(d); i != wi || f != wf {
			t.Fatalf("round %d: search(%d) = %d, %t; BinarySearch %d, %t (block of %d)", round, d, i, f, wi, wf, l.n)
		}
	}
}
