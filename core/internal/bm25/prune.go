package bm25

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/vaultctx/vaultctx/core/internal/postings"
	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// Dynamic pruning: the top k without scoring every posting.
//
// The exhaustive scorer (Scorer.windows) decodes and scores every posting
// of every list, so its cost follows the lists' lengths, which grow with
// the corpus. The pruned scorer returns the same k chunks with the same
// scores (bit for bit: every score it reports is summed in the exhaustive
// order) while decoding only the blocks that can matter, by MaxScore
// (Turtle and Flood, "Query evaluation: strategies and optimizations",
// IP&M 1995) over windows of chunk ids, with block-max bounds (Ding and
// Suel, SIGIR 2011) from the lists' skip tables, in the form of Lucene's
// MaxScoreBulkScorer:
//
//   - in each window, a list's bound is the largest bound of its blocks that
//     overlap the window (see postings.Skips: corners that bound a block's
//     per-posting score for any weights and average length);
//   - θ is the k-th best score so far, or, before k chunks are scored, the
//     k-th best score from other sources (extra: each such chunk's final
//     score is at least that, as every list adds a non-negative part);
//   - the lists whose bounds sum below θ are non-essential: no chunk that
//     only they match can reach θ, so only the other (essential) lists are
//     decoded, into an accumulator, with the chunks of extra;
//   - each chunk so reached is checked against θ with the bounds of the
//     non-essential lists' blocks that hold it, and those blocks are
//     decoded only for the chunks that pass, largest bound first, while the
//     partial sum plus the bounds left can still reach θ;
//   - a chunk that passes is scored again in list order, as the exhaustive
//     scorer sums, and offered to the heap.
//
// A window where no list is essential and no chunk of extra falls is passed
// over reading only skip entries. A chunk is dropped only when its bound is
// below θ by more than a relative 1e-9 (rounding in the bounds), and θ is
// a score k chunks already reach, so ties and the order of ties are those
// of the exhaustive scorer.

// pruneSlack is the relative margin by which a bound must fall below θ
// before its chunks are dropped: the bounds are sums in another order than
// the scores' and may round below them by a few ulps.
const pruneSlack = 1e-9

// below reports whether a bound ub cannot reach θ.
func below(ub, theta float64) bool { return ub*(1+pruneSlack) < theta }

// plist is one List in the pruned scorer.
type plist struct {
	idf float64
	dec postings.Decoder
	sk  *postings.Skips // nil: decoded in order, always essential
	ub  []float64       // by block of sk: the bound of its postings' parts
	bi  int             // first block of sk not wholly before the window
	bj  int             // block of the chunk being checked (non-essential)
	cb  int             // block held by dec, -1 for none
	n   int             // postings in dec's block
	// at is where lookup searches dec's block from: the postings before
	// it hold chunk ids below the last one looked up there (lookups come
	// in increasing id order), 0 after the block is decoded.
	at int
	// Without a skip table: the next posting of dec's block, and the end.
	i    int
	done bool
	wub  float64 // bound in the current window
	ess  bool    // essential in the current window
	// The window's parts of an essential list, by chunk id, and the next
	// one to look up.
	docs []uint32
	cs   []float64
	p    int
	c    float64 // the part of the chunk being checked (non-essential)
	// decoded counts the blocks of sk decoded.
	decoded int
}

// usable reports whether s can prune lists: non-negative finite weights
// and a positive average length, without which the corners bound nothing.
func (s *Scorer) usable() bool {
	for _, w := range s.Weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return false
		}
	}
	return s.AvgDL > 0 && !math.IsInf(s.AvgDL, 0)
}

// pruned is TopK's pruned scorer over the lists (lists[i].Skips decoded, or
// nil) for the chunk ids 0..Last, offering the chunks that can reach the
// top k to top; early are the ids of extra up to Last, sorted. With
// Scorer.Workers above 1, the ids are split into that many ranges of whole
// windows, scored side by side (see prunedRange), each into its own heap,
// and the heaps' hits are offered to top: each range's top k holds every
// chunk of the overall top k that falls in it, so top ends with the same k
// chunks and scores as one range would give.
func (s *Scorer) pruned(lists []List, skips []*postings.Skips, extra map[int64]float64, early []int64, top *topk.K, k int) error {
	norm := K1 * B / s.AvgDL
	// The block bounds of each list with a skip table, shared by the ranges.
	ubs := make([][]float64, len(lists))
	for i, l := range lists {
		sk := skips[i]
		if len(l.Postings) == 0 || sk == nil {
			continue
		}
		ub := make([]float64, sk.Len())
		for b := range ub {
			for _, c := range sk.Corners[sk.Start[b]:sk.Start[b+1]] {
				ub[b] = max(ub[b], contrib(&s.Weights, l.IDF, norm, float64(c.Len), c.Text, c.Section, c.Heading, 0))
			}
		}
		ubs[i] = ub
	}
	// θ before the heap fills: the k-th best extra score.
	theta0 := 0.0
	if len(extra) >= k && k > 0 {
		ex := make([]float64, 0, len(extra))
		for _, v := range extra {
			ex = append(ex, v)
		}
		slices.Sort(ex)
		theta0 = ex[len(ex)-k]
	}
	win := s.Window
	if win <= 0 {
		win = DefaultWindow
	}
	if p := s.Lengths.PartLen(); p > 0 {
		win = min(win, p)
	}
	nwin := s.Last/win + 1 // windows over 0..Last
	workers := int64(max(1, s.Workers))
	workers = min(workers, nwin)
	if workers == 1 {
		skipped, err := s.prunedRange(lists, skips, ubs, extra, early, top, theta0, win, 0, s.Last+1, nil)
		s.Skipped += skipped
		return err
	}
	var shared sharedFloor
	tops := make([]*topk.K, workers)
	skipped := make([]int, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		lo, hi := i*nwin/workers*win, min((i+1)*nwin/workers*win, s.Last+1)
		from, _ := slices.BinarySearch(early, lo)
		to, _ := slices.BinarySearch(early, hi)
		tops[i] = topk.New(k)
		wg.Go(func() {
			skipped[i], errs[i] = s.prunedRange(lists, skips, ubs, extra, early[from:to], tops[i], theta0, win, lo, hi, &shared)
		})
	}
	wg.Wait()
	for i := range workers {
		if errs[i] != nil {
			return errs[i]
		}
		s.Skipped += skipped[i]
		for _, h := range tops[i].Sorted() {
			top.Offer(h.ID, h.Score)
		}
	}
	return nil
}

// sharedFloor is the best heap floor among the ranges of a parallel
// pruned scorer: any range may prune with it, since the range that reached
// it holds k chunks that score at least as much.
type sharedFloor struct{ bits atomic.Uint64 }

func (f *sharedFloor) load() float64 { return math.Float64frombits(f.bits.Load()) }

// raise makes the floor at least v.
func (f *sharedFloor) raise(v float64) {
	for {
		old := f.bits.Load()
		if math.Float64frombits(old) >= v || f.bits.CompareAndSwap(old, math.Float64bits(v)) {
			return
		}
	}
}

// prunedRange is the pruned scorer over the windows of chunk ids [from,
// to) (from a multiple of win), offering to top and returning the number of
// skip-table blocks it left undecoded. ubs[i] are the block bounds of
// lists[i]; shared, when not nil, is the floor the ranges share.
func (s *Scorer) prunedRange(lists []List, skips []*postings.Skips, ubs [][]float64, extra map[int64]float64, early []int64, top *topk.K, theta0 float64, win, from, to int64, shared *sharedFloor) (int, error) {
	norm := K1 * B / s.AvgDL
	t := term{w: s.Weights, norm: norm, lens: s.Lengths, dead: s.Dead}
	if t.dead != nil && t.dead.Len() == 0 {
		t.dead = nil
	}
	wk := getRangeWork(win, len(lists))
	ls := wk.ls[:0]
	for i, l := range lists {
		if len(l.Postings) == 0 {
			continue
		}
		pl := wk.plist(len(ls))
		pl.idf, pl.sk, pl.ub, pl.cb = l.IDF, skips[i], ubs[i], -1
		if err := pl.dec.Reset(l.Postings); err != nil {
			return 0, err // wk is dropped: its acc may not be all zero
		}
		ls = append(ls, pl)
	}
	wk.ls = ls
	acc, touched := wk.acc, wk.touched
	order := wk.order[:0]   // skip-table lists by window bound
	nonEss := wk.nonEss[:0] // by descending window bound
	for lo := from; lo < to; lo += win {
		hi := min(lo+win, to)
		theta := theta0
		if f, full := top.Floor(); full {
			theta = max(theta, f)
		}
		if shared != nil {
			theta = max(theta, shared.load())
		}
		order = order[:0]
		for _, l := range ls {
			l.ess, l.wub = true, 0
			if l.sk == nil {
				continue
			}
			sk := l.sk
			for l.bi < sk.Len() && int64(sk.Last[l.bi]) < lo {
				l.bi++
			}
			l.bj = l.bi
			for b := l.bi; b < sk.Len() && (b == 0 || int64(sk.Last[b-1]) < hi-1); b++ {
				l.wub = max(l.wub, l.ub[b])
			}
			order = append(order, l)
		}
		slices.SortFunc(order, func(a, b *plist) int { return cmp.Compare(a.wub, b.wub) })
		nonEss = nonEss[:0]
		sum := 0.0
		for _, l := range order {
			if !below(sum+l.wub, theta) {
				break
			}
			sum += l.wub
			l.ess = false
			nonEss = append(nonEss, l)
		}
		slices.Reverse(nonEss)
		e := 0
		for e < len(early) && early[e] < hi {
			e++
		}
		anyEss := false
		for _, l := range ls {
			anyEss = anyEss || l.ess
		}
		if !anyEss && e == 0 {
			continue
		}
		t.part, t.base = s.Lengths.Part(lo, hi)
		for _, l := range ls {
			if l.ess {
				if err := l.essential(&t, acc, touched, lo, hi, len(nonEss) > 0); err != nil {
					return 0, err
				}
			}
		}
		for _, id := range early[:e] {
			j := id - lo
			acc[j] += extra[id]
			touched[j>>6] |= 1 << (j & 63)
		}
		early = early[e:]
		for wi, word := range touched {
			for word != 0 {
				j := int64(wi<<6 + bits.TrailingZeros64(word))
				word &= word - 1
				d := uint32(lo + j)
				partial := acc[j]
				acc[j] = 0
				if below(partial+sum, theta) {
					continue // even every non-essential list's bound cannot lift it
				}
				sc := partial // every list essential: acc holds the sum in list order
				if len(nonEss) > 0 {
					var ok bool
					var err error
					if sc, ok, err = s.check(&t, ls, nonEss, d, partial, theta, extra); err != nil {
						return 0, err
					} else if !ok {
						continue
					}
				}
				top.Offer(int64(d), sc)
				if f, full := top.Floor(); full && f > theta {
					theta = f
					if shared != nil {
						shared.raise(f)
					}
				}
			}
		}
		clear(touched)
	}
	skipped := 0
	for _, l := range ls {
		skipped += len(l.ub) - l.decoded
	}
	wk.order, wk.nonEss = order, nonEss
	putRangeWork(wk)
	return skipped, nil
}

// rangeWork is the memory of one prunedRange call: the accumulator and its
// touched bits (all zero between calls), the lists' states and the
// orderings of them. rangePool keeps it between calls, so that a process
// that searches many times (a benchmark, the calibration after an index
// run, a long-lived reader) stops allocating 40-100 KB per search, most of
// it acc's and the decoders' (2.5 KiB a list).
type rangeWork struct {
	acc           []float64 // win entries
	touched       []uint64  // a bit per entry of acc
	pls           []*plist  // every plist made so far, reused in order
	ls            []*plist
	order, nonEss []*plist
}

// rangePool holds *rangeWork.
var rangePool sync.Pool

// getRangeWork returns a rangeWork whose acc has win entries, all zero,
// with room for lists plists.
func getRangeWork(win int64, lists int) *rangeWork {
	wk, _ := rangePool.Get().(*rangeWork)
	if wk == nil {
		wk = new(rangeWork)
	}
	if int64(len(wk.acc)) != win {
		wk.acc = make([]float64, win)
		wk.touched = make([]uint64, (win+63)/64)
		// Written once before the first window reads them: memory fresh
		// from the OS is mapped read-only to the zero page on a first
		// read, and the first += then faults again to copy it, flushing
		// the TLB of every CPU the process runs on. A search process lives
		// for one query, so each of acc's 16 pages took both faults.
		clear(wk.acc)
		clear(wk.touched)
	}
	wk.ls = slices.Grow(wk.ls[:0], lists)
	return wk
}

// plist returns the i-th plist of wk, made on first use, with its
// per-call state reset and its slices' memory kept.
func (wk *rangeWork) plist(i int) *plist {
	for len(wk.pls) <= i {
		wk.pls = append(wk.pls, new(plist))
	}
	l := wk.pls[i]
	l.bi, l.bj, l.n, l.i, l.done, l.wub, l.ess, l.at = 0, 0, 0, 0, false, 0, false, 0
	l.docs, l.cs, l.p, l.c, l.decoded = l.docs[:0], l.cs[:0], 0, 0, 0
	return l
}

// putRangeWork returns wk, whose acc and touched are all zero, to
// rangePool, without the references to this call's lists.
func putRangeWork(wk *rangeWork) {
	for _, l := range wk.ls {
		l.sk, l.ub, l.dec = nil, nil, postings.Decoder{}
	}
	clear(wk.ls)
	clear(wk.order[:cap(wk.order)])
	clear(wk.nonEss[:cap(wk.nonEss)])
	rangePool.Put(wk)
}

// check decides whether chunk d, whose essential parts (and extra) sum to
// partial, can reach θ, decoding the non-essential lists' blocks that hold
// it (nonEss, largest bound first) while it still can. When it can, it
// returns d's score: the lists' parts summed in list order, then extra.
func (s *Scorer) check(t *term, ls, nonEss []*plist, d uint32, partial, theta float64, extra map[int64]float64) (float64, bool, error) {
	rem := 0.0
	for _, l := range nonEss {
		l.c = 0
		sk := l.sk
		for l.bj < sk.Len() && sk.Last[l.bj] < d {
			l.bj++
		}
		if l.bj < sk.Len() {
			rem += l.ub[l.bj]
		}
	}
	if below(partial+rem, theta) {
		return 0, false, nil
	}
	for _, l := range nonEss {
		if l.bj == l.sk.Len() {
			continue
		}
		rem -= l.ub[l.bj]
		c, err := l.lookup(t, d)
		if err != nil {
			return 0, false, err
		}
		l.c = c
		partial += c
		if below(partial+max(rem, 0), theta) {
			return 0, false, nil
		}
	}
	if !slices.ContainsFunc(nonEss, func(l *plist) bool { return l.c != 0 }) {
		return partial, true, nil // no non-essential part: partial is the sum in list order
	}
	sc := 0.0
	for _, l := range ls {
		if !l.ess {
			sc += l.c
			continue
		}
		for l.p < len(l.docs) && l.docs[l.p] < d {
			l.p++
		}
		if l.p < len(l.docs) && l.docs[l.p] == d {
			sc += l.cs[l.p]
		}
	}
	if v, in := extra[int64(d)]; in {
		sc += v
	}
	return sc, true, nil
}

// lookup returns chunk d's part of non-essential list l (0 when l does not
// hold it), decoding the ids of the block l.bj that would, and its
// frequencies only when d is there.
func (l *plist) lookup(t *term, d uint32) (float64, error) {
	if l.cb != l.bj {
		n, err := l.dec.SeekDocs(l.sk, l.bj)
		if err != nil {
			return 0, err
		}
		l.cb, l.n, l.at = l.bj, n, 0
		l.decoded++
	}
	i, found := l.search(d)
	if !found || (t.dead != nil && t.dead.Has(d)) {
		return 0, nil
	}
	if err := l.dec.DecodeTFs(); err != nil {
		return 0, err
	}
	return l.part(t, i, d), nil
}

// search returns the index of the first posting of dec's block with a
// chunk id at or above d, and whether that id is d, as slices.BinarySearch
// over the block does. The checks of a window look chunks up in
// increasing order, so it searches from l.at, galloping (Bentley and Yao,
// 1976) before it bisects: the next chunk checked is mostly a few postings
// on, where a bisection of the whole block took seven probes.
func (l *plist) search(d uint32) (int, bool) {
	docs := l.dec.Docs[:l.n]
	lo := l.at
	if lo > 0 && docs[lo-1] >= d {
		lo = 0 // an earlier chunk than the last: search the whole block
	}
	hi := lo
	for step := 1; hi < len(docs) && docs[hi] < d; step *= 2 {
		lo, hi = hi+1, hi+step
	}
	i, found := slices.BinarySearch(docs[lo:min(hi+1, len(docs))], d)
	l.at = lo + i
	return lo + i, found
}

// part returns the part of posting i of dec's block, for chunk d.
func (l *plist) part(t *term, i int, d uint32) float64 {
	tfs := &l.dec.TFs
	return contrib(&t.w, l.idf, t.norm, t.length(d), tfs[0][i], tfs[1][i], tfs[2][i], tfs[3][i])
}

// length returns chunk d's length: from the window's part when there is
// one (the scorers' loops try postings.PartByte first, which inlines),
// else from the Lengths.
func (t *term) length(d uint32) float64 {
	if t.part == nil {
		return t.lens.Len(d)
	}
	return postings.PartLength(t.part, t.base, d)
}

// essential decodes l's postings in [lo, hi) into acc (marking touched)
// and, with keep, into l.docs and l.cs, for check's sums in list order.
func (l *plist) essential(t *term, acc []float64, touched []uint64, lo, hi int64, keep bool) error {
	l.p, l.bj = 0, l.bi
	l.docs, l.cs = l.docs[:0], l.cs[:0]
	if l.sk == nil {
		for !l.done {
			if l.i == l.n {
				n, err := l.dec.Next()
				if err != nil {
					return err
				}
				l.n, l.i, l.done = n, 0, n == 0
				continue
			}
			// A range after the first starts past ids below lo.
			if l.i = l.add(t, acc, touched, lo, hi, l.i, keep); l.i < l.n {
				return nil
			}
		}
		return nil
	}
	sk := l.sk
	for b := l.bi; b < sk.Len() && (b == 0 || int64(sk.Last[b-1]) < hi-1); b++ {
		if l.cb != b {
			n, err := l.dec.SeekNext(sk, b)
			if err != nil {
				return err
			}
			l.cb, l.n, l.at = b, n, 0
			l.decoded++
		} else if err := l.dec.DecodeTFs(); err != nil { // a lookup's block: ids only
			return err
		}
		l.add(t, acc, touched, lo, hi, 0, keep)
	}
	return nil
}

// add scores the postings of dec's block from index from on whose chunk
// ids lie in [lo, hi) into acc (marking touched) and, with keep, appends
// them to l.docs and l.cs. It returns the index of the first posting at
// or past hi (l.n when there is none).
//
// It is the inner loop of a search: the kept parts grow in locals, stored
// back once (appending to l's fields took a GC write barrier per posting
// while a collection ran), and a length is read with postings.PartByte,
// which inlines, before any call.
func (l *plist) add(t *term, acc []float64, touched []uint64, lo, hi int64, from int, keep bool) int {
	w, idf, norm, dead, part, base := t.w, l.idf, t.norm, t.dead, t.part, t.base
	docs, cs := l.docs, l.cs
	ds, tfs := &l.dec.Docs, &l.dec.TFs
	i := from
	for ; i < l.n; i++ {
		d := ds[i]
		if int64(d) >= hi {
			break
		}
		if int64(d) < lo || (dead != nil && dead.Has(d)) {
			continue
		}
		dl, ok := 0.0, false
		if part != nil {
			dl, ok = postings.PartByte(part, base, d)
		}
		if !ok {
			dl = t.length(d)
		}
		c := contrib(&w, idf, norm, dl, tfs[0][i], tfs[1][i], tfs[2][i], tfs[3][i])
		j := int64(d) - lo
		acc[j] += c
		touched[j>>6] |= 1 << (j & 63)
		if keep {
			docs, cs = append(docs, d), append(cs, c)
		}
	}
	l.docs, l.cs = docs, cs
	return i
}
