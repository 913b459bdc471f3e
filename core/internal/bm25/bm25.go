package bm25

import (
	"math"
	"slices"

	"github.com/vaultctx/vaultctx/core/internal/postings"
	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// K1 and B are FTS5's bm25() constants (fts5_aux.c).
const (
	K1 = 1.2
	B  = 0.75
)

// DefaultWindow is the number of chunk ids Scorer.TopK scores at a time
// when Scorer.Window is 0: 64 KiB of float64, which stays in the L2 cache
// and costs a search process 16 fresh pages instead of one per 512 chunks
// of the index.
const DefaultWindow = 8192

// IDF is FTS5's inverse document frequency of a phrase found in hits of n
// chunks: ln((n − hits + 0.5) / (hits + 0.5)), or 1e-6 where that is not
// positive (so every score is positive).
func IDF(n, hits int64) float64 {
	idf := math.Log((float64(n) - float64(hits) + 0.5) / (float64(hits) + 0.5))
	if idf <= 0 {
		idf = 1e-6
	}
	return idf
}

// Row is FTS5's bm25() part of one phrase in one row (fts5_aux.c,
// fts5Bm25Function): idf·f·(k1+1) / (f + k1·(1 − b + b·dl/avgdl)), where f
// is the phrase's instances in each column (tf) weighted by that column's
// w, dl the row's length in tokens over all columns and avgdl the mean of
// that length over the table. A row's bm25() is minus the sum of its
// phrases' parts. It returns 0 when f is 0.
func Row(w [3]float64, idf float64, tf [3]uint32, dl, avgdl float64) float64 {
	f := w[0]*float64(tf[0]) + w[1]*float64(tf[1]) + w[2]*float64(tf[2])
	if f == 0 {
		return 0
	}
	return idf * (f * (K1 + 1)) / (f + K1*(1-B+B*dl/avgdl))
}

// List is a posting list (a postings.Encode blob) of one query phrase, with
// the phrase's IDF. A phrase whose postings are held in several lists (the
// build's and a delta's) has one List for each, with the same IDF.
type List struct {
	Postings []byte
	IDF      float64
	// Skips is the list's skip table (postings.DecodeSkips), or nil: a
	// list without one is decoded whole.
	Skips *postings.Skips
}

// Scorer holds what TopK needs besides the lists.
type Scorer struct {
	// Weights are the column weights of chunk_text, section and
	// heading_context; the fourth column (cjk) takes chunk_text's.
	Weights [3]float64
	// AvgDL is the mean chunk length in tokens over all columns (FTS5's
	// averages record: total tokens / N).
	AvgDL float64
	// Lengths give each chunk's length in tokens.
	Lengths *postings.Lengths
	// Dead holds chunks whose postings are skipped (deleted since the
	// lists were built); nil or empty skips none.
	Dead *postings.IDSet
	// Last is the largest chunk id the lists may hold.
	Last int64
	// Window is the number of chunk ids scored at a time; 0 means
	// DefaultWindow. It is cut to Lengths.PartLen when that is smaller.
	Window int64
	// Exhaustive scores every posting even when lists have skip tables
	// (the reference the pruned scorer is tested against).
	Exhaustive bool
	// Workers is how many goroutines the pruned scorer splits the chunk
	// ids among (ranges of whole windows, each with its own heap, sharing
	// the best heap floor as θ); 0 or 1 scores in the calling goroutine.
	// The top k is the same for any value.
	Workers int
	// Skipped counts the blocks of lists with skip tables that TopK left
	// undecoded, over every call (a measure of the pruning).
	Skipped int
}

// TopK scores the lists, in order, for the chunk ids 0..Last, adds
// extra[id] (each chunk's score from other sources, such as FTS5's bm25()
// for the rare phrases), and returns the k best chunks, best first (ties by
// the smaller id, as ORDER BY bm25, rowid). Chunks of extra that the lists
// do not reach enter with their extra score alone. It returns
// postings.ErrCorrupt for a list that does not decode.
func (s *Scorer) TopK(lists []List, extra map[int64]float64, k int) ([]topk.Hit, error) {
	// The pruned scorer starts decoders of its own: cursors (a Decoder of
	// 2.5 KiB each) are made only for the exhaustive pass.
	// (A list whose header does not decode fails either way.)
	scored := slices.ContainsFunc(lists, func(l List) bool { return len(l.Postings) > 0 })
	top := topk.New(k)
	var early []int64 // chunk ids of extra that fall in the windows
	if scored {
		for id := range extra {
			if id <= s.Last {
				early = append(early, id)
			}
		}
		slices.Sort(early)
		if s.prunable(lists) {
			skips := make([]*postings.Skips, len(lists))
			for i := range lists {
				skips[i] = lists[i].Skips
			}
			if err := s.pruned(lists, skips, extra, early, top, k); err != nil {
				return nil, err
			}
		} else {
			curs, err := cursors(lists)
			if err != nil {
				return nil, err
			}
			if err := s.windows(curs, extra, early, top); err != nil {
				return nil, err
			}
		}
	}
	for id, sc := range extra {
		if !scored || id > s.Last {
			top.Offer(id, sc)
		}
	}
	return top.Sorted(), nil
}

// prunable reports whether TopK prunes: not Exhaustive, weights and
// average length that the skip tables can bound, and a list with one.
func (s *Scorer) prunable(lists []List) bool {
	if s.Exhaustive || !s.usable() {
		return false
	}
	for _, l := range lists {
		if l.Skips != nil && len(l.Postings) > 0 {
			return true
		}
	}
	return false
}

// windows scores the chunk ids 0..Last a window at a time: the cursors'
// contributions, then the early ids' extra scores, then the offer of every
// chunk that reaches the heap's floor.
func (s *Scorer) windows(curs []*cursor, extra map[int64]float64, early []int64, top *topk.K) error {
	win := s.Window
	if win <= 0 {
		win = DefaultWindow
	}
	if p := s.Lengths.PartLen(); p > 0 {
		win = min(win, p) // a window reads one part
	}
	acc := make([]float64, win)
	// Every score is positive (IDF is at least 1e-6), so a floor above
	// zero also skips the chunks no phrase matched.
	floor := math.SmallestNonzeroFloat64
	t := term{w: s.Weights, norm: K1 * B / s.AvgDL, lens: s.Lengths, dead: s.Dead}
	if t.dead != nil && t.dead.Len() == 0 {
		t.dead = nil
	}
	for lo := int64(0); lo <= s.Last; lo += win {
		hi := min(lo+win, s.Last+1)
		// The chunk lengths of a window inside one part are read straight
		// from it.
		t.part, t.base = s.Lengths.Part(lo, hi)
		for _, c := range curs {
			if err := c.score(&t, acc, lo, hi); err != nil {
				return err
			}
		}
		for len(early) > 0 && early[0] < hi {
			acc[early[0]-lo] += extra[early[0]]
			early = early[1:]
		}
		// Most chunks cannot enter the top k: compare with the worst kept
		// score before offering.
		for i, sc := range acc[:hi-lo] {
			if sc >= floor {
				top.Offer(lo+int64(i), sc)
				if f, full := top.Floor(); full {
					floor = f
				}
			}
		}
		clear(acc[:hi-lo])
	}
	return nil
}

// term is what scoring one posting needs besides its list.
type term struct {
	w    [3]float64
	norm float64 // K1·B/avgdl
	lens *postings.Lengths
	dead *postings.IDSet // nil for none
	part []byte          // the window's lengths part, or nil
	base int64           // the first chunk id of part
}

// cursor walks one List a block at a time.
type cursor struct {
	dec  postings.Decoder
	n, i int // postings in dec's block, next one to score
	idf  float64
	done bool
}

// cursors starts a cursor on each non-empty list, in order.
func cursors(lists []List) ([]*cursor, error) {
	var curs []*cursor
	for _, l := range lists {
		if len(l.Postings) == 0 {
			continue
		}
		c := &cursor{idf: l.IDF}
		if err := c.dec.Reset(l.Postings); err != nil {
			return nil, err
		}
		curs = append(curs, c)
	}
	return curs, nil
}

// score adds to acc[doc-lo] the contribution of each posting of c with a
// chunk id below hi (ids at or above lo: the windows come in order), and
// leaves c at the first posting past the window.
func (c *cursor) score(t *term, acc []float64, lo, hi int64) error {
	w, norm, dead, part, base := t.w, t.norm, t.dead, t.part, t.base
	for !c.done {
		if c.i == c.n {
			n, err := c.dec.Next()
			if err != nil {
				return err
			}
			c.n, c.i, c.done = n, 0, n == 0
			continue
		}
		docs, tfs := &c.dec.Docs, &c.dec.TFs
		for ; c.i < c.n; c.i++ {
			doc := docs[c.i]
			if int64(doc) >= hi {
				break
			}
			if dead != nil && dead.Has(doc) {
				continue
			}
			dl, ok := 0.0, false
			if part != nil {
				dl, ok = postings.PartByte(part, base, doc)
			}
			if !ok {
				dl = t.length(doc)
			}
			acc[int64(doc)-lo] += contrib(&w, c.idf, norm, dl, tfs[0][c.i], tfs[1][c.i], tfs[2][c.i], tfs[3][c.i])
		}
		if c.i < c.n {
			return nil // the rest of the block is past this window
		}
	}
	return nil
}

// contrib is one posting's part of a chunk's score: the phrase's idf times
// f·(k1+1)/(f + k1·(1−b) + norm·dl), f the column frequencies t0..t3
// weighted by w (t3, cjk, takes chunk_text's weight), dl the chunk's length
// and norm k1·b/avgdl. Every product is rounded on its own (the explicit
// conversions forbid fused multiply-adds, which the Go spec otherwise
// allows), so the exhaustive and the pruned scorer, which reach a posting
// from different code, compute the same bits.
func contrib(w *[3]float64, idf, norm, dl float64, t0, t1, t2, t3 uint32) float64 {
	f := float64(w[0]*float64(t0)) + float64(w[1]*float64(t1)) + float64(w[2]*float64(t2)) + float64(w[0]*float64(t3))
	return idf * float64(f*(K1+1)) / (f + K1*(1-B) + float64(norm*dl))
}
