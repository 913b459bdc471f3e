package postings

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// PartBytes is the most length bytes one part of a lengths blob holds
// (see SplitLengths): 8 KiB fits in one 16 KiB page, so SQLite hands a search each part where it
// lies, where a single blob of 325 KB (163k chunks) had to be assembled
// from a chain of overflow pages into fresh memory first.
const PartBytes = 8192

// SplitLengths cuts a lengths blob (see EncodeLengths) into parts of
// PartBytes/width lengths each, every part a lengths blob of its own with
// its own width byte; nil for an empty blob.
func SplitLengths(lens []byte) [][]byte {
	if len(lens) == 0 {
		return nil
	}
	w := int(lens[0])
	per := PartBytes / w
	var out [][]byte
	for at := 1; at < len(lens); at += per * w {
		part := make([]byte, 1, 1+per*w)
		part[0] = byte(w)
		out = append(out, append(part, lens[at:min(at+per*w, len(lens))]...))
	}
	return out
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
// parts cannot be the whole build's: one missing, widths that differ, a
// part short but the last, or fewer lengths than MaxID+1.
func (l *Lengths) UseParts(parts [][]byte) bool {
	if len(parts) == 0 || slices.ContainsFunc(parts, func(p []byte) bool { return len(p) == 0 }) {
		return false
	}
	w := int(parts[0][0])
	if w != 2 && w != 4 {
		return false
	}
	per := PartBytes / w
	for i, part := range parts {
		if int(part[0]) != w || (i < len(parts)-1 && len(part) != 1+per*w) {
			return false
		}
	}
	last := parts[len(parts)-1]
	if int64((len(parts)-1)*per+(len(last)-1)/w) < l.MaxID+1 {
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
// base.
func PartLength(part []byte, base int64, id uint32) float64 {
	if part[0] == 2 {
		return float64(binary.LittleEndian.Uint16(part[1+2*(int64(id)-base):]))
	}
	return float64(binary.LittleEndian.Uint32(part[1+4*(int64(id)-base):]))
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
		lens, i = l.Parts[p], i&(1<<l.PartShift-1)
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
