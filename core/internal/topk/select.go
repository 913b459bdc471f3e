package topk

import (
	"math/bits"
	"slices"
)

// SelectKeys reorders keys (distinct) so that keys[:k] are its k smallest,
// in any order, for 0 < k < len(keys); any other k leaves keys as they
// are. It is Hoare's FIND (CACM 4(7), 1961) with a median-of-three pivot
// and a Lomuto partition, linear time on average, sorting the last range
// of at most 8 keys. Callers pack what they rank into the key (a score's
// bits above an index), so a selection needs no comparison function: the
// IVF tree's neighbour lists and the skip tables' block corners.
func SelectKeys(keys []uint64, k int) {
	if k <= 0 || k >= len(keys) {
		return
	}
	lo, hi := 0, len(keys) // the k-th smallest lies in keys[lo:hi]
	for hi-lo > 8 {
		mid := lo + (hi-lo)/2
		a, b, c := keys[lo], keys[mid], keys[hi-1]
		pivot := max(min(a, b), min(max(a, b), c))
		// Each key is swapped to i, which moves on past a key below the
		// pivot by the subtraction's borrow, not a branch, since the
		// outcome is a coin toss. Then keys[lo:i] < pivot <= keys[i:hi].
		i := lo
		for j := lo; j < hi; j++ {
			x := keys[j]
			keys[j] = keys[i]
			keys[i] = x
			_, below := bits.Sub64(x, pivot, 0) // the borrow: 1 when x < pivot
			i += int(below)
		}
		switch {
		case k < i:
			hi = i
		case k > i:
			// The pivot is the smallest of keys[i:hi]: move it to i.
			for j := i; j < hi; j++ {
				if keys[j] == pivot {
					keys[i], keys[j] = keys[j], keys[i]
					break
				}
			}
			lo = i + 1
		default:
			return
		}
	}
	slices.Sort(keys[lo:hi])
}
