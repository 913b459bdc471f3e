package topk

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortAll is the reference: every hit sorted by the tie rule, cut to k.
func sortAll(hits []Hit, k int) []Hit {
	s := slices.Clone(hits)
	slices.SortFunc(s, func(a, b Hit) int {
		switch {
		case Worse(b, a):
			return -1
		case Worse(a, b):
			return 1
		}
		return 0
	})
	return s[:min(k, len(s))]
}

func TestMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		n, k   int
		scores int // distinct score values: few values force ties
	}{
		{"empty", 0, 5, 10},
		{"fewer than k", 3, 5, 10},
		{"ties", 200, 10, 3},
		{"distinct", 500, 20, 1 << 30},
		{"k zero", 50, 0, 10},
		{"k one", 50, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hits []Hit
			top := New(tc.k)
			for i := 0; i < tc.n; i++ {
				h := Hit{ID: int64(r.IntN(1000)), Score: float64(r.IntN(tc.scores))}
				hits = append(hits, h)
				top.Offer(h.ID, h.Score)
			}
			got, want := top.Sorted(), sortAll(hits, tc.k)
			if !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

func TestFloor(t *testing.T) {
	top := New(2)
	if _, full := top.Floor(); full {
		t.Fatal("empty K is full")
	}
	top.Offer(1, 3)
	if _, full := top.Floor(); full {
		t.Fatal("K with 1 of 2 is full")
	}
	top.Offer(2, 5)
	top.Offer(3, 4)
	if f, full := top.Floor(); !full || f != 4 {
		t.Fatalf("Floor = %v, %v; want 4, true", f, full)
	}
}

func TestTieBySmallerID(t *testing.T) {
	top := New(2)
	for _, id := range []int64{9, 3, 7, 1} {
		top.Offer(id, 1)
	}
	if got := top.Sorted(); !slices.Equal(got, []Hit{{1, 1}, {3, 1}}) {
		t.Fatalf("got %v", got)
	}
}

func BenchmarkOffer(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	scores := make([]float64, 1<<16)
	for i := range scores {
		scores[i] = r.Float64()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		top := New(30)
		for id, s := range scores {
			if f, full := top.Floor(); !full || s >= f {
				top.Offer(int64(id), s)
			}
		}
		top.Sorted()
	}
}
