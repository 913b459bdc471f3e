package postings

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// The skip table of a posting list: for each block of BlockLen postings,
// the block's last chunk id, where the block starts in the blob, and
// corners that bound what any of its postings can score, so that a scorer
// can skip a block whose bound cannot beat the k-th best score without
// decoding it. This is the block-max index of Ding and Suel ("Faster top-k
// document retrieval using block-max indexes", SIGIR 2011), kept apart
// from the blob so that lists written before it still decode unchanged.
//
// A block's score bound depends on the query's column weights and on the
// corpus's average chunk length, which both change after the build, so a
// table stores no score: a Corner holds frequencies at least a group of the
// block's postings' and a length at most theirs. BM25's per-posting part
// f·(k1+1)/(f + k1·(1−b+b·dl/avgdl)) grows with every weighted frequency
// (non-negative weights) and shrinks with dl, so its value at a corner
// bounds the group's for any weights and average length.

// SkipCorners is the most corners BuildSkips keeps per block: the block's
// postings sorted by chunk length in up to this many equal groups, each
// bounded by one corner, so that a short chunk's length and a long chunk's
// frequency do not meet in one loose corner.
const SkipCorners = 3

// Corner bounds a group of a block's postings: Text is at least each one's
// frequency in chunk_text plus cjk (the columns that share a weight),
// Section and Heading at least its section and heading_context
// frequencies, and Len (tokens) at most its chunk's length.
type Corner struct {
	Text, Section, Heading, Len uint32
}

// Skips is a decoded skip table (see DecodeSkips). Block i holds the
// postings with chunk ids in (Last[i-1], Last[i]], starting at byte Off[i]
// of the blob; Corners[Start[i]:Start[i+1]] bound them.
type Skips struct {
	Last    []uint32
	Off     []uint32
	Start   []uint32 // len(Last)+1 entries
	Corners []Corner
}

// Len returns the number of blocks.
func (s *Skips) Len() int { return len(s.Last) }

// BuildSkips returns the skip table of blob (an Encode list), with the
// chunk lengths of lenOf (tokens, by chunk id): uvarint(blocks), then per
// block uvarint(last chunk id − previous block's last), uvarint(the
// block's bytes), one byte of corner count and that many corners of four
// uvarints (Text, Section, Heading, Len). It returns ErrCorrupt when blob
// does not decode. An Encoder with LenOf set builds the same table while it
// encodes (Encoder.Skips), without decoding the list again.
func BuildSkips(blob []byte, lenOf func(doc uint32) uint32) ([]byte, error) {
	var d Decoder
	if err := d.Reset(blob); err != nil {
		return nil, err
	}
	blocks := (d.left + BlockLen - 1) / BlockLen
	out := binary.AppendUvarint(nil, uint64(blocks))
	var prevLast uint32
	var pts [BlockLen]Corner
	for {
		start := d.pos
		n, err := d.Next()
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		for i := 0; i < n; i++ {
			pts[i] = Corner{Text: d.TFs[0][i] + d.TFs[3][i], Section: d.TFs[1][i], Heading: d.TFs[2][i], Len: lenOf(d.Docs[i])}
		}
		out = appendSkip(out, d.Docs[n-1]-prevLast, d.pos-start, pts[:n])
		prevLast = d.Docs[n-1]
	}
	return out, nil
}

// appendSkip appends to table the entry of a block of the given bytes whose
// last chunk id is gap above the previous block's and whose postings'
// corners are pts (reordered).
func appendSkip(table []byte, gap uint32, bytes int, pts []Corner) []byte {
	table = binary.AppendUvarint(table, uint64(gap))
	table = binary.AppendUvarint(table, uint64(bytes))
	var buf [SkipCorners]Corner
	cs := blockCorners(pts, &buf)
	table = append(table, byte(len(cs)))
	for _, c := range cs {
		table = binary.AppendUvarint(table, uint64(c.Text))
		table = binary.AppendUvarint(table, uint64(c.Section))
		table = binary.AppendUvarint(table, uint64(c.Heading))
		table = binary.AppendUvarint(table, uint64(c.Len))
	}
	return table
}

// blockCorners bounds each of up to SkipCorners equal groups of pts (at
// most BlockLen) in order of length, ties in the order of pts, by one
// corner, and leaves out corners another dominates. The corners go to buf;
// pts is not changed.
//
// The groups are found by selection rather than a sort (Hoare's FIND,
// CACM 1961): on keys length<<8 | position, which are distinct, two
// quickselects split them at the group boundaries in linear time; a
// comparison sort of the structs took 6 µs of a 128-posting block, a
// tenth of an impact build.
func blockCorners(pts []Corner, buf *[SkipCorners]Corner) []Corner {
	n := len(pts)
	var keys [BlockLen]uint64
	for i, p := range pts {
		keys[i] = uint64(p.Len)<<8 | uint64(i)
	}
	groups := min(SkipCorners, n)
	cs := buf[:0]
	lo := 0
	for g := 0; g < groups; g++ {
		hi := (g + 1) * n / groups
		if hi < n {
			topk.SelectKeys(keys[lo:n], hi-lo)
		}
		c := Corner{Len: math.MaxUint32}
		for _, k := range keys[lo:hi] {
			p := pts[k&0xff]
			c.Text, c.Section, c.Heading = max(c.Text, p.Text), max(c.Section, p.Section), max(c.Heading, p.Heading)
			c.Len = min(c.Len, p.Len)
		}
		// A later group has longer chunks; it adds nothing when an earlier
		// corner's frequencies are as high.
		if !slices.ContainsFunc(cs, func(k Corner) bool { return k.Text >= c.Text && k.Section >= c.Section && k.Heading >= c.Heading }) {
			cs = append(cs, c)
		}
		lo = hi
	}
	return cs
}

// DecodeSkips decodes a BuildSkips table of a list of count postings whose
// blob is blobLen bytes long. It reports false for a table that cannot be
// that list's: a wrong number of blocks, chunk ids that do not increase,
// offsets past the blob, a block without corners or with more than
// BlockLen. A scorer then reads the list without skipping. The decoded
// table reuses s's slices.
func DecodeSkips(s *Skips, table []byte, count, blobLen int) bool {
	nb, k := binary.Uvarint(table)
	if k <= 0 || nb != uint64((count+BlockLen-1)/BlockLen) || nb > uint64(len(table)) {
		return false
	}
	_, hk := binary.Uvarint(binary.AppendUvarint(nil, uint64(count)))
	// Sized once: nb is checked against the table's length above, and a
	// corner takes at least 4 bytes of it. Grown by append from empty, the
	// slices allocated about twice their final size, and a search is a
	// process whose every fresh page is a page fault (10-20 µs on the
	// project's VMs): at four times the large corpus the skip tables of a
	// query were 212 KB of its 2.5 MB of allocations.
	s.Last, s.Off = slices.Grow(s.Last[:0], int(nb)), slices.Grow(s.Off[:0], int(nb))
	s.Start = append(slices.Grow(s.Start[:0], int(nb)+1), 0)
	s.Corners = slices.Grow(s.Corners[:0], max(0, len(table)-k-3*int(nb))/4)
	pos, off := k, uint64(hk)
	var last uint64
	for b := uint64(0); b < nb; b++ {
		gap, k1 := binary.Uvarint(table[pos:])
		if k1 <= 0 {
			return false
		}
		pos += k1
		size, k2 := binary.Uvarint(table[pos:])
		if k2 <= 0 || pos+k2 >= len(table) {
			return false
		}
		pos += k2
		last += gap
		if (gap == 0 && b > 0) || last > 1<<32-1 || size == 0 || off+size > uint64(blobLen) {
			return false
		}
		s.Last = append(s.Last, uint32(last))
		s.Off = append(s.Off, uint32(off))
		off += size
		nc := int(table[pos])
		pos++
		if nc == 0 || nc > BlockLen {
			return false
		}
		for c := 0; c < nc; c++ {
			var v [4]uint64
			for j := range v {
				x, kj := binary.Uvarint(table[min(pos, len(table)):])
				if kj <= 0 || x > 1<<32-1 {
					return false
				}
				v[j], pos = x, pos+kj
			}
			s.Corners = append(s.Corners, Corner{Text: uint32(v[0]), Section: uint32(v[1]), Heading: uint32(v[2]), Len: uint32(v[3])})
		}
		s.Start = append(s.Start, uint32(len(s.Corners)))
	}
	return pos == len(table) && off == uint64(blobLen)
}

// Seek positions d, reset on a list blob with skip table s, at block b:
// the next Next decodes it. b must be below s.Len().
func (d *Decoder) Seek(s *Skips, b int) {
	d.pos = int(s.Off[b])
	d.prev = 0
	if b > 0 {
		d.prev = s.Last[b-1]
	}
	d.left = d.total - b*BlockLen
	d.pend.cnt = 0
}

// SeekNext decodes block b of a list with skip table s (see Seek) and
// returns its number of postings. It returns ErrCorrupt when the block
// does not decode to the postings the table promises: a full block
// except the last, ending at chunk id s.Last[b].
func (d *Decoder) SeekNext(s *Skips, b int) (int, error) {
	n, err := d.SeekDocs(s, b)
	if err != nil {
		return 0, err
	}
	if err := d.DecodeTFs(); err != nil {
		return 0, err
	}
	return n, nil
}

// SeekDocs is SeekNext without the frequencies: it decodes only block b's
// chunk ids into d.Docs, and DecodeTFs decodes the rest when a chunk of
// the block is wanted. A scorer that looks one chunk up in a block of a
// common term (MaxScore's non-essential lists) mostly finds it absent and
// then skips four fifths of the block's fields.
func (d *Decoder) SeekDocs(s *Skips, b int) (int, error) {
	d.Seek(s, b)
	n, err := d.docs()
	if err != nil {
		return 0, err
	}
	if n == 0 || n != min(BlockLen, d.total-b*BlockLen) || d.Docs[n-1] != s.Last[b] || (b > 0 && d.Docs[0] <= s.Last[b-1]) {
		d.pend.cnt = 0
		return 0, ErrCorrupt
	}
	return n, nil
}
