package postings

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// PartBytes is the most length bytes one part of a 2-byte lengths blob
// holds (see SplitLengths): 8 KiB fits in one 16 KiB page, so SQLite hands
// a search each part where it lies, where a single blob of 325 KB (163k
// chunks) had to be assembled from a chain of overflow pages into fresh
// memory first.
const PartBytes = 8192

// partIDs is the number of chunk ids a part of width 1 or 2 covers; a part
// of width 4 covers half as many.
const partIDs = PartBytes / 2

// A byte part (width 1) keeps each length below byteEscape in one byte and
// byteEscape for the others, whose lengths follow the bytes: the part is
// the width byte, the number c of escaped lengths (uint16), one byte per
// id, then c pairs (index in the part as uint16, length as uint32), by
// index, all little-endian. Chunks are mostly shorter than 255 tokens (95%
// of the large corpus's), so a part takes about half the memory of its
// 2-byte form, and a search, which copies every part it reads into fresh
// memory, half the page faults.
const byteEscape = 255

// SplitLengths cuts a lengths blob (see EncodeLengths) into parts, every
// part a lengths blob of its own with its own width byte: a 2-byte blob
// into parts of partIDs lengths, each a byte part unless that would be
// larger than its 2-byte form (a sixth of its lengths escaped); a 4-byte blob
// into 4-byte parts of PartBytes/4 lengths. It returns nil for an empty
// blob.
func SplitLengths(lens []byte) [][]byte {
	if len(lens) == 0 {
		return nil
	}
	w := int(lens[0])
	per := PartBytes / w
	var out [][]byte
	for at := 1; at < len(lens); at += per * w {
		body := lens[at:min(at+per*w, len(lens))]
		if w == 2 {
			if part := byteLengths(body); part != nil {
				out = append(out, part)
				continue
			}
		}
		part := make([]byte, 1, 1+per*w)
		part[0] = byte(w)
		out = append(out, append(part, body...))
	}
	return out
}

// byteLengths returns the byte part of body, 2-byte little-endian
// lengths, or nil when it would be larger than body with a width byte.
func byteLengths(body []byte) []byte {
	n, c := len(body)/2, 0
	for i := 0; i < n; i++ {
		if binary.LittleEndian.Uint16(body[2*i:]) >= byteEscape {
			c++
		}
	}
	if 3+n+6*c > 1+len(body) {
		return nil
	}
	out := make([]byte, 3+n, 3+n+6*c)
	out[0] = 1
	binary.LittleEndian.PutUint16(out[1:], uint16(c))
	for i := 0; i < n; i++ {
		v := binary.LittleEndian.Uint16(body[2*i:])
		if v < byteEscape {
			out[3+i] = byte(v)
			continue
		}
		out[3+i] = byteEscape
		out = binary.LittleEndian.AppendUint16(out, uint16(i))
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return out
}

// partLen returns the number of lengths part holds, or -1 when its width
// byte or size is not one SplitLengths writes.
func partLen(part []byte) int {
	if len(part) == 0 {
		return -1
	}
	switch w := int(part[0]); w {
	case 1:
		if len(part) < 3 {
			return -1
		}
		n := len(part) - 3 - 6*int(binary.LittleEndian.Uint16(part[1:]))
		if n < 0 {
			return -1
		}
		return n
	case 2, 4:
		if (len(part)-1)%w != 0 {
			return -1
		}
		return (len(part) - 1) / w
	}
	return -1
}

// escaped returns the length of index i of a byte part whose byte there is
// byteEscape, from its pairs; 0 when none names i (a damaged part).
//
// The pairs are in index order and the long chunks they hold spread over
// the part, so the search starts where i would lie were they even (the
// pair of rank i·c/n) and gallops from there (Bentley and Yao, "An almost
// optimal algorithm for unbounded searching", 1976) before it bisects: a
// few probes instead of log2(c) scattered ones, on a path that scoring
// takes for every long chunk.
func escaped(part []byte, i int64) float64 {
	c := int(binary.LittleEndian.Uint16(part[1:]))
	pairs := part[len(part)-6*c:]
	at := func(m int) int64 { return int64(binary.LittleEndian.Uint16(pairs[6*m:])) }
	lo, hi := 0, c
	if n := len(part) - 3 - 6*c; n > 0 && c > 8 {
		g := min(int(i*int64(c)/int64(n)), c-1)
		if at(g) < i {
			lo, hi = g+1, c
			for step := 1; lo+step < c; step *= 2 {
				if at(lo+step) >= i {
					hi = lo + step + 1
					break
				}
				lo += step + 1
			}
		} else {
			lo, hi = 0, g+1
			for step := 1; g-step >= 0; step *= 2 {
				if at(g-step) < i {
					lo = g - step + 1
					break
				}
				g -= step
				hi = g + 1
			}
		}
		lo, hi = min(lo, c), min(hi, c)
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int64(binary.LittleEndian.Uint16(pairs[6*m:])) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < c && int64(binary.LittleEndian.Uint16(pairs[6*lo:])) == i {
		return float64(binary.LittleEndian.Uint32(pairs[6*lo+2:]))
	}
	return 0
}

// SQLiteVarint decodes SQLite's variable-length integer (big-endian, 7 bits
// per byte, the ninth byte contributing all 8 bits), as FTS5 writes its
// docsize and averages records. It returns the value and its length in
// bytes, or 0 bytes for a truncated input.
func SQLiteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// EncodeLengths returns the lengths blob of lens (chunk lengths in tokens,
// the i-th for chunk id first+i): one width byte, 2 or 4 (4 when a length
// exceeds 65,535), then each length little-endian in that width.
func EncodeLengths(lens []uint32) []byte {
	width := 2
	for _, l := range lens {
		if l > math.MaxUint16 {
			width = 4
			break
		}
	}
	out := make([]byte, 1, 1+width*len(lens))
	out[0] = byte(width)
	for _, l := range lens {
		if width == 2 {
			out = binary.LittleEndian.AppendUint16(out, uint16(l))
		} else {
			out = binary.LittleEndian.AppendUint32(out, l)
		}
	}
	return out
}

// DocSize returns the sum of the SQLite varints of rec (an FTS5 docsize
// record: the tokens of each column), stopping at a truncated varint, as
// bm25()'s D. It is capped at math.MaxUint32.
func DocSize(rec []byte) uint32 { return DocSizeCols(rec, math.MaxInt) }

// DocSizeCols is DocSize over the first n columns of rec alone: the D of
// a table that indexes only those columns of the same texts with the
// same token counts.
func DocSizeCols(rec []byte, n int) uint32 {
	var total uint64
	for ; len(rec) > 0 && n > 0; n-- {
		v, k := SQLiteVarint(rec)
		if k == 0 {
			break
		}
		total += v
		rec = rec[k:]
	}
	return uint32(min(total, math.MaxUint32))
}

// Lengths are the chunk lengths an impact index keeps in memory: the
// build's, for ids 0..MaxID, either as one lengths blob (Whole, files
// written before the parts) or as Parts (see UseParts), and the delta's,
// for ids MaxID+1 on (Delta). Missing lengths read as 0.
type Lengths struct {
	MaxID int64
	Whole []byte
	Delta []byte
	// Parts hold the lengths of ids 0..MaxID instead of Whole: part p
	// covers the ids from p<<PartShift on (see SplitLengths).
	Parts     [][]byte
	PartShift uint
}

// UseParts installs parts, the SplitLengths parts of the build in id
// order, and drops Whole. It reports false, and installs nothing, when the
// parts cannot be the whole build's: one missing or of a size its width
// cannot have, 4-byte parts mixed with others, a part short but the last,
// or fewer lengths than MaxID+1.
func (l *Lengths) UseParts(parts [][]byte) bool {
	if len(parts) == 0 || slices.ContainsFunc(parts, func(p []byte) bool { return len(p) == 0 }) {
		return false
	}
	wide := parts[0][0] == 4
	per := partIDs
	if wide {
		per = PartBytes / 4
	}
	total := 0
	for i, part := range parts {
		n := partLen(part)
		if n < 0 || (part[0] == 4) != wide || n > per || (i < len(parts)-1 && n != per) {
			return false
		}
		total += n
	}
	if int64(total) < l.MaxID+1 {
		return false
	}
	l.Parts, l.PartShift, l.Whole = parts, uint(bits.TrailingZeros(uint(per))), nil
	return true
}

// PartLen returns the largest window of ids (a power of two) that Part can
// serve from one part, or 0 without parts.
func (l *Lengths) PartLen() int64 {
	if l.Parts == nil {
		return 0
	}
	return 1 << l.PartShift
}

// Part returns the part that holds the lengths of every id in [lo, hi)
// and the id of its first length, or nil when no one part does (no parts,
// ids past MaxID, or a range across two parts). A scorer reads lengths
// straight from it (PartLength) instead of calling Len per posting.
func (l *Lengths) Part(lo, hi int64) (part []byte, base int64) {
	if l.Parts != nil && hi-1 <= l.MaxID && lo>>l.PartShift == (hi-1)>>l.PartShift {
		return l.Parts[lo>>l.PartShift], lo >> l.PartShift << l.PartShift
	}
	return nil, 0
}

// PartLength returns the length of id in a part of Part whose first id is
// base. Its fast case, a byte part's unescaped length, is PartByte, which
// inlines: a scorer's loop tries that first and calls PartLength for the
// rest.
func PartLength(part []byte, base int64, id uint32) float64 {
	if i := int64(id) - base + 3; part[0] == 1 && part[i] != byteEscape {
		return float64(part[i])
	}
	return partLength(part, int64(id)-base)
}

// PartByte returns the length of id in a part of Part whose first id is
// base, and true, when the part is a byte part (width 1) and the length
// is one of its bytes (below 255 tokens); 0 and false otherwise, when
// PartLength answers. It makes no call, so it inlines into a scorer's
// loop, where PartLength (which may search the escaped lengths) did not.
func PartByte(part []byte, base int64, id uint32) (float64, bool) {
	if part[0] != 1 {
		return 0, false
	}
	v := part[3+int64(id)-base]
	return float64(v), v != byteEscape
}

// partLength is PartLength for index i of a part of any width.
func partLength(part []byte, i int64) float64 {
	switch part[0] {
	case 1:
		if v := part[3+i]; v != byteEscape {
			return float64(v)
		}
		return escaped(part, i)
	case 2:
		return float64(binary.LittleEndian.Uint16(part[1+2*i:]))
	}
	return float64(binary.LittleEndian.Uint32(part[1+4*i:]))
}

// Len returns the length of chunk id (0 when it is not known).
func (l *Lengths) Len(id uint32) float64 {
	lens, i := l.Whole, int64(id)
	switch {
	case i > l.MaxID:
		lens, i = l.Delta, i-l.MaxID-1
	case l.Parts != nil:
		p := i >> l.PartShift
		if p >= int64(len(l.Parts)) {
			return 0
		}
		part, j := l.Parts[p], i&(1<<l.PartShift-1)
		if j >= int64(partLen(part)) {
			return 0
		}
		return partLength(part, j)
	}
	if len(lens) == 0 {
		return 0
	}
	w := int64(lens[0])
	at := 1 + i*w
	if at+w > int64(len(lens)) {
		return 0
	}
	if w == 2 {
		return float64(binary.LittleEndian.Uint16(lens[at:]))
	}
	return float64(binary.LittleEndian.Uint32(lens[at:]))
}
