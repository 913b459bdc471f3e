package topk

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectKeys: keys[:k] after SelectKeys are the k smallest of any
// distinct keys, over the whole uint64 range (the IVF tree's keys use the
// top bit) and small ranges, for every k of short inputs and random k of
// long ones, and the keys are a permutation of the input.
func TestSelectKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 400 {
		n := 2 + r.IntN(300)
		seen := map[uint64]bool{}
		var keys []uint64
		for len(keys) < n {
			x := r.Uint64()
			if round%2 == 1 {
				x = uint64(r.IntN(4 * n))
			}
			if !seen[x] {
				seen[x] = true
				keys = append(keys, x)
			}
		}
		sorted := slices.Sorted(slices.Values(keys))
		for _, k := range []int{1, n / 2, n - 1, 1 + r.IntN(n-1)} {
			got := slices.Clone(keys)
			SelectKeys(got, k)
			low := slices.Sorted(slices.Values(got[:k]))
			if !slices.Equal(low, sorted[:k]) {
				t.Fatalf("round %d, n %d, k %d: keys[:k] are not the k smallest", round, n, k)
			}
			if !slices.Equal(slices.Sorted(slices.Values(got)), sorted) {
				t.Fatalf("round %d: not a permutation of the input", round)
			}
		}
	}
	keys := []uint64{3, 1, 2}
	SelectKeys(keys, 0)
	SelectKeys(keys, 3)
	if !slices.Equal(keys, []uint64{3, 1, 2}) {
		t.Errorf("k outside 0 < k < len reordered the keys: %v", keys)
	}
}

// BenchmarkSelectKeys: the median of 4,096 random keys, as the skip
// tables' corner selection does per list.
func BenchmarkSelectKeys(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	src := make([]uint64, 4096)
	for i := range src {
		src[i] = r.Uint64()>>24<<12 | uint64(i)
	}
	keys := make([]uint64, len(src))
	for b.Loop() {
		copy(keys, src)
		SelectKeys(keys, len(keys)/2)
	}
}
