package topk

import "container/heap"

// Hit is a chunk id with a score, higher is better.
type Hit struct {
	ID    int64
	Score float64
}

// Worse reports whether a ranks below b: a lower score, or an equal score
// and a larger id.
func Worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

// K keeps the k best hits offered to it (see Worse for the order). The zero
// value keeps none; use New.
type K struct {
	k int
	h hitHeap
}

// New returns a K that keeps the k best hits; k <= 0 keeps none.
func New(k int) *K { return &K{k: k} }

// Floor returns the worst kept score once k hits are kept (full is false
// before): a score below it cannot enter.
func (t *K) Floor() (score float64, full bool) {
	if len(t.h) < t.k || len(t.h) == 0 {
		return 0, false
	}
	return t.h[0].Score, true
}

// Offer keeps (id, score) if it ranks among the k best so far.
func (t *K) Offer(id int64, score float64) {
	if t.k <= 0 {
		return
	}
	if len(t.h) < t.k {
		heap.Push(&t.h, Hit{ID: id, Score: score})
		return
	}
	if Worse(t.h[0], Hit{ID: id, Score: score}) {
		t.h[0] = Hit{ID: id, Score: score}
		heap.Fix(&t.h, 0)
	}
}

// Sorted returns the kept hits, best first, and empties t.
func (t *K) Sorted() []Hit {
	out := make([]Hit, len(t.h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&t.h).(Hit)
	}
	return out
}

// hitHeap is a min-heap by rank: the root is the worst kept hit.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return Worse(h[i], h[j]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
