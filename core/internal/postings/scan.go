package postings

import (
	"math"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// Prefixes are the word beginnings that may stem to one of a set of FTS5
// terms (see StemPrefixes): each prefix with the longest word it admits.
type Prefixes struct {
	longest map[string]int
	max     int // the longest prefix, in bytes
}

// StemPrefixes returns, for the terms (the keys of terms; the values are
// not read), the prefixes a word must start with to possibly stem to one of
// them under Porter stemming, which only rewrites a word's ending: a word
// can stem to t only if it starts with t less its last letter (y→i, an
// added e), or, for t of one or two letters, with all of t and at most
// three more letters ("ties" → "ti"). Words the test lets through
// needlessly cost memory, never correctness.
func StemPrefixes(terms map[string][2]int64) Prefixes {
	prefixes := map[string]int{}
	maxPrefix := 0
	for t := range terms {
		p, longest := t, len(t)+3 // "ties" -> "ti"
		if len(t) > 2 {
			p, longest = t[:len(t)-1], math.MaxInt
		}
		prefixes[p] = max(prefixes[p], longest)
		maxPrefix = max(maxPrefix, len(p))
	}
	return Prefixes{longest: prefixes, max: maxPrefix}
}

// Scanner collects, chunk by chunk, the postings of the surface tokens
// that may stem to a term of its Prefixes: one VarList per such token
// (Words[i]'s in Lists[i]), with Overflow[i] set when a frequency did not
// fit PackTF. Chunks must come in increasing id order. A Scanner is not
// safe for concurrent use; a build runs one per worker.
type Scanner struct {
	prefixes Prefixes
	class    map[string]int32 // surface -> index in Words, or -1
	Words    []string
	Lists    []VarList
	Overflow []bool
	Counter
	size int // bytes held by Lists
}

// NewScanner returns an empty Scanner for p.
func NewScanner(p Prefixes) *Scanner {
	return &Scanner{prefixes: p, class: map[string]int32{}}
}

// Classify returns the index in Words of tok, adding it when it may stem
// to a term, or -1 when it cannot.
func (sc *Scanner) Classify(tok []byte) int32 {
	if id, ok := sc.class[string(tok)]; ok {
		return id
	}
	id := int32(-1)
	for l := 1; l <= min(len(tok), sc.prefixes.max); l++ {
		if longest, ok := sc.prefixes.longest[string(tok[:l])]; ok && len(tok) <= longest {
			id = int32(len(sc.Words))
			sc.Words = append(sc.Words, string(tok))
			sc.Lists = append(sc.Lists, VarList{})
			sc.Overflow = append(sc.Overflow, false)
			break
		}
	}
	sc.class[string(tok)] = id
	return id
}

// Chunk adds the postings of chunk doc, whose four FTS5 column values are
// cols (chunk_text, section, heading_context, cjk).
func (sc *Scanner) Chunk(doc int64, cols *[4]string) {
	sc.Count(cols, sc.Classify, func(id int32, tf [4]uint32) {
		packed, ok := PackTF(tf)
		if !ok {
			sc.Overflow[id] = true
		}
		l := &sc.Lists[id]
		n := l.Size()
		l.Add(uint32(doc), packed)
		sc.size += l.Size() - n
	})
}

// Size returns the bytes the Scanner's Lists hold.
func (sc *Scanner) Size() int { return sc.size }

// Spill hands to w, in Words order, the bytes of every list holding at
// least min bytes (VarList.Take), and stops at w's first error. Lists
// smaller than min stay, so that a word seen rarely costs no disk
// segment; a caller that keeps what w got, per list and in call order,
// rebuilds each list with VarList.Restore.
func (sc *Scanner) Spill(min int, w func(id int32, b []byte) error) error {
	for i := range sc.Lists {
		l := &sc.Lists[i]
		if l.Size() < max(min, 1) {
			continue
		}
		n := l.Size()
		if err := w(int32(i), l.Take()); err != nil {
			return err
		}
		sc.size -= n
	}
	return nil
}

// Counter counts the column frequencies of terms in one chunk at a time.
// The zero value is ready to use.
type Counter struct {
	tf      [][4]uint32 // by term id, zero between chunks
	touched []int32
}

// Count maps each token of the four columns (as ftsquery.Tokens forms
// them) to a term id with id (negative for tokens that do not count) and
// then calls emit once per term found, in first-seen order, with its
// frequency in each column.
func (c *Counter) Count(cols *[4]string, id func(tok []byte) int32, emit func(id int32, tf [4]uint32)) {
	for col, text := range cols {
		ftsquery.Tokens(text, func(tok []byte) {
			i := id(tok)
			if i < 0 {
				return
			}
			for int(i) >= len(c.tf) {
				c.tf = append(c.tf, [4]uint32{})
			}
			if c.tf[i] == ([4]uint32{}) {
				c.touched = append(c.touched, i)
			}
			c.tf[i][col]++
		})
	}
	for _, i := range c.touched {
		emit(i, c.tf[i])
		c.tf[i] = [4]uint32{}
	}
	c.touched = c.touched[:0]
}
