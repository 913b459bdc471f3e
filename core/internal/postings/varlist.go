package postings

import (
	"encoding/binary"
	"math"
)

// PackTF packs four column frequencies into 32 bits (16, 6, 6 and 4 bits),
// each capped at its field's largest value; ok is false when one does not
// fit.
func PackTF(tf [4]uint32) (uint32, bool) {
	ok := tf[0] < 1<<16 && tf[1] < 1<<6 && tf[2] < 1<<6 && tf[3] < 1<<4
	return min(tf[0], 1<<16-1) | min(tf[1], 63)<<16 | min(tf[2], 63)<<22 | min(tf[3], 15)<<28, ok
}

// UnpackTF returns the four frequencies PackTF packed into p.
func UnpackTF(p uint32) [4]uint32 {
	return [4]uint32{p & 0xffff, p >> 16 & 63, p >> 22 & 63, p >> 28}
}

// VarList is a posting list while the chunks stream past, before its
// Encode: per posting uvarint(doc gap) and uvarint(PackTF frequencies),
// about 2.5 bytes where a uint64 would take 8, which keeps a build of
// 160,000 chunks within the indexer's memory budget. The zero value is
// empty.
type VarList struct {
	b    []byte
	last uint32
}

// Add appends a posting of chunk doc (larger than the last one added) with
// PackTF frequencies packed.
func (l *VarList) Add(doc, packed uint32) {
	l.b = binary.AppendUvarint(l.b, uint64(doc-l.last))
	l.b = binary.AppendUvarint(l.b, uint64(packed))
	l.last = doc
}

// Size returns the bytes l holds.
func (l *VarList) Size() int { return len(l.b) }

// Take returns the bytes l holds and empties it, keeping its last doc: the
// bytes of every Take, in order, followed by l's bytes after the last one,
// are the encoding of every posting added, so a list can be moved to disk
// piece by piece while the chunks stream past, and Restore puts it back.
func (l *VarList) Take() []byte {
	b := l.b
	l.b = nil
	return b
}

// Restore puts head, the bytes of l's Takes in order, back before the
// bytes l holds.
func (l *VarList) Restore(head []byte) {
	if len(head) > 0 {
		l.b = append(head, l.b...)
	}
}

// varCursor reads a VarList.
type varCursor struct {
	b      []byte
	doc    uint32
	packed uint32
	ok     bool
}

func (c *varCursor) next() {
	gap, k := binary.Uvarint(c.b)
	if k <= 0 {
		c.ok = false
		return
	}
	p, k2 := binary.Uvarint(c.b[k:])
	if k2 <= 0 {
		c.ok = false
		return
	}
	c.b = c.b[k+k2:]
	c.doc += uint32(gap)
	c.packed = uint32(p)
	c.ok = true
}

// Merge merges lists[ids[0]], lists[ids[1]], ... (each in doc order) into
// one posting list, calling fn for each posting in doc order and adding up
// the frequencies of lists that hold the same chunk (the surface forms of
// one term).
func Merge(lists []VarList, ids []int32, fn func(Posting)) {
	cur := make([]varCursor, len(ids))
	for i, id := range ids {
		cur[i].b = lists[id].b
		cur[i].next()
	}
	for {
		best, any := uint32(math.MaxUint32), false
		for i := range cur {
			if cur[i].ok && (!any || cur[i].doc < best) {
				best, any = cur[i].doc, true
			}
		}
		if !any {
			return
		}
		p := Posting{Doc: best}
		for i := range cur {
			if cur[i].ok && cur[i].doc == best {
				tf := UnpackTF(cur[i].packed)
				for c := range tf {
					p.TF[c] += tf[c]
				}
				cur[i].next()
			}
		}
		fn(p)
	}
}
