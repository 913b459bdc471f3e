package postings

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
