package postings

import "math/bits"

// IDSet is a set of chunk ids as a bitmap: a membership test per posting
// costs a shift, where a map lookup cost more than scoring the posting.
type IDSet struct {
	bits []uint64
	n    int // members
}

// Len returns the number of members.
func (s *IDSet) Len() int { return s.n }

// Add adds id.
func (s *IDSet) Add(id uint32) {
	w := int(id >> 6)
	if w >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
	}
	if s.bits[w]&(1<<(id&63)) == 0 {
		s.bits[w] |= 1 << (id & 63)
		s.n++
	}
}

// Has reports whether id is a member.
func (s *IDSet) Has(id uint32) bool {
	w := int(id >> 6)
	return w < len(s.bits) && s.bits[w]&(1<<(id&63)) != 0
}

// CountIn returns how many postings of the given lists (Encode blobs; nil
// or empty ones are skipped) are of chunks in the set, or ErrCorrupt.
func (s *IDSet) CountIn(lists ...[]byte) (int64, error) {
	var c int64
	for _, list := range lists {
		if len(list) == 0 {
			continue
		}
		err := DecodeBlocks(list, func(n int, docs *[BlockLen]uint32, _ *[4][BlockLen]uint32) {
			for _, d := range docs[:n] {
				if s.Has(d) {
					c++
				}
			}
		})
		if err != nil {
			return 0, err
		}
	}
	return c, nil
}

// IDs returns the members in increasing order.
func (s *IDSet) IDs() []uint32 {
	ids := make([]uint32, 0, s.n)
	for w, word := range s.bits {
		for word != 0 {
			ids = append(ids, uint32(w<<6+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return ids
}

// CountInBlocks is CountIn(list) for a list with skip table sk (its
// DecodeSkips table): it decodes only the blocks whose chunk-id range,
// (the previous block's Last, its Last], holds one of ids, the set's
// members in increasing order (IDs). An incremental index run counts the
// postings of its few deleted chunks in every stored list this way, in
// O(len(ids) + blocks) per list instead of decoding every posting. It
// returns ErrCorrupt when a block does not decode as sk says.
func (s *IDSet) CountInBlocks(list []byte, sk *Skips, ids []uint32) (int64, error) {
	if len(list) == 0 || len(ids) == 0 {
		return 0, nil
	}
	var d Decoder
	if err := d.Reset(list); err != nil {
		return 0, err
	}
	var c int64
	p := 0
	for b := 0; b < sk.Len() && p < len(ids); b++ {
		for p < len(ids) && b > 0 && ids[p] <= sk.Last[b-1] {
			p++
		}
		if p == len(ids) || ids[p] > sk.Last[b] {
			continue
		}
		// Chunk ids alone: the frequencies are not counted.
		n, err := d.SeekDocs(sk, b)
		if err != nil {
			return 0, err
		}
		for _, doc := range d.Docs[:n] {
			if s.Has(doc) {
				c++
			}
		}
	}
	return c, nil
}
