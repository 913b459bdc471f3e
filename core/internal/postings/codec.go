package postings

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
)

// Posting is one entry of a posting list: a chunk id (Doc, at least 1) and
// the term's frequency in each FTS5 column (chunk_text, section,
// heading_context, cjk).
type Posting struct {
	Doc uint32
	TF  [4]uint32
}

// BlockLen is the number of postings coded together in one block.
const BlockLen = 128

// Encode packs postings (sorted by doc, docs >= 1, no duplicates)
// into a blob: uvarint(count), then per block of up to BlockLen postings
// five bit widths (doc gap and the four column frequencies) followed by the
// five bit-packed arrays, least significant bit first. Widths are the bit
// length of the block's largest value, so a column a term never occurs in
// costs nothing. This is frame-of-reference packing without exceptions
// (Goldstein, Ramakrishnan and Shaft, ICDE 1998); it keeps dense lists of
// common terms near 10 bits per posting and decodes without branches.
func Encode(ps []Posting) []byte {
	var e Encoder
	for _, p := range ps {
		e.Add(p)
	}
	return e.Finish()
}

// Encoder builds the blob of Encode one posting at a time, holding only
// the current block, so a whole index can be encoded while the chunks
// stream past. The zero value is an empty list.
type Encoder struct {
	// LenOf, when set before the first Add, gives each chunk's length
	// (tokens) and makes the Encoder build the list's skip table too
	// (see Skips).
	LenOf func(doc uint32) uint32
	n     int
	prev  uint32
	blk   []Posting
	out   []byte
	w     bitWriter
	skips []byte // the skip table's block entries (LenOf set)
	last  uint32 // the last chunk id of the last block entered in skips
}

// Len returns the number of postings added.
func (e *Encoder) Len() int { return e.n }

// Add appends p; docs must arrive in increasing order.
func (e *Encoder) Add(p Posting) {
	e.blk = append(e.blk, p)
	e.n++
	if len(e.blk) == BlockLen {
		e.flushBlock()
	}
}

func (e *Encoder) flushBlock() {
	n := len(e.blk)
	if n == 0 {
		return
	}
	start := len(e.out)
	defer func() {
		if e.LenOf != nil {
			e.skipEntry(len(e.out) - start)
		}
		e.blk = e.blk[:0]
	}()
	var vals [5][BlockLen]uint32
	for i, p := range e.blk {
		vals[0][i] = p.Doc - e.prev
		e.prev = p.Doc
		for c := 0; c < 4; c++ {
			vals[c+1][i] = p.TF[c]
		}
	}
	var widths [5]uint8
	var nonzero [5]int
	for f := 0; f < 5; f++ {
		var or uint32
		for _, v := range vals[f][:n] {
			or |= v
			if v != 0 {
				nonzero[f]++
			}
		}
		widths[f] = uint8(bits.Len32(or))
	}
	// Header: per field a mode byte - a bit width (dense), or riceFlag and
	// a Rice parameter, or, for the frequency columns, sparseFlag with a
	// width followed by a count byte - whichever is smallest.
	var mode [5]byte
	for f := 0; f < 5; f++ {
		w := int(widths[f])
		best, m := n*w, widths[f]
		if f > 0 && w > 0 {
			if c := nonzero[f]*(7+w) + 8; c < best {
				best, m = c, widths[f]|sparseFlag
			}
		}
		if w > 1 {
			if k, c := riceCost(vals[f][:n], uint8(w-2)); c < best {
				best, m = c, riceFlag|k
			}
		}
		mode[f] = m
		e.out = append(e.out, m)
		if m&sparseFlag != 0 {
			e.out = append(e.out, byte(nonzero[f]))
		}
	}
	for f := 0; f < 5; f++ {
		m := mode[f]
		switch {
		case m&riceFlag != 0:
			for _, v := range vals[f][:n] {
				e.w.writeRice(v, m&^riceFlag)
			}
		case m&sparseFlag != 0:
			for i, v := range vals[f][:n] {
				if v != 0 {
					e.w.write(uint64(i), 7)
				}
			}
			for _, v := range vals[f][:n] {
				if v != 0 {
					e.w.write(uint64(v), m&^sparseFlag)
				}
			}
		default:
			for _, v := range vals[f][:n] {
				e.w.write(uint64(v), m)
			}
		}
	}
	e.w.flush(&e.out)
}

// skipEntry adds the skip table entry (see BuildSkips) of the block in
// e.blk, coded in bytes bytes.
func (e *Encoder) skipEntry(bytes int) {
	var pts [BlockLen]Corner
	for i, p := range e.blk {
		pts[i] = Corner{Text: p.TF[0] + p.TF[3], Section: p.TF[1], Heading: p.TF[2], Len: e.LenOf(p.Doc)}
	}
	last := e.blk[len(e.blk)-1].Doc
	e.skips = appendSkip(e.skips, last-e.last, bytes, pts[:len(e.blk)])
	e.last = last
}

// Skips returns the skip table of the list Finish returned, as BuildSkips
// makes it from the list and LenOf; nil when LenOf is not set. Finish must
// be called first.
func (e *Encoder) Skips() []byte {
	if e.LenOf == nil {
		return nil
	}
	blocks := (e.n + BlockLen - 1) / BlockLen
	return append(binary.AppendUvarint(make([]byte, 0, len(e.skips)+10), uint64(blocks)), e.skips...)
}

// Field modes besides a plain bit width. sparseFlag marks a frequency
// column stored as (7-bit position, value) pairs of its non-zero postings:
// section and heading-context hits are rare. riceFlag marks Golomb-Rice
// codes (Rice, "Some practical universal noiseless coding techniques", JPL
// 1979) with the parameter in the low bits: gaps of common terms and
// frequencies are small with a long tail, where Rice codes take about 4
// bits where a block's largest value needs 6 to 8.
const (
	sparseFlag = 0x80
	riceFlag   = 0x40
)

// riceEscape is the quotient from which a Rice code stores its value raw:
// riceEscape zero bits, a one bit, then the value in 32 bits.
const riceEscape = 24

func riceLen(v uint32, k uint8) int {
	if q := v >> k; q < riceEscape {
		return int(q) + 1 + int(k)
	}
	return riceEscape + 1 + 32
}

// riceCost returns the Rice parameter up to maxK (at most 16) that codes
// vals in the fewest bits (the smallest such parameter), and that number
// of bits. A block's field of width w needs no parameter above w-2: every
// code of parameter k takes at least k+1 bits, so from k = w-1 on the
// codes never take fewer bits than the plain w-bit field, which flushBlock
// then keeps.
func riceCost(vals []uint32, maxK uint8) (uint8, int) {
	bestK, best := uint8(0), math.MaxInt
	for k := uint8(0); k <= min(maxK, 16); k++ {
		c := 0
		for _, v := range vals {
			c += riceLen(v, k)
		}
		if c < best {
			bestK, best = k, c
		}
	}
	return bestK, best
}

// Finish returns the encoded list. The Encoder must not be used after.
func (e *Encoder) Finish() []byte {
	e.flushBlock()
	return append(binary.AppendUvarint(make([]byte, 0, len(e.out)+10), uint64(e.n)), e.out...)
}

// ErrCorrupt is returned by the decoders for a blob that Encode did not
// produce.
var ErrCorrupt = errors.New("corrupt impact posting list")

// DecodeBlocks calls fn once per block of blob with its n postings: the
// chunk ids and, per column, the frequencies. It returns ErrCorrupt for a
// blob that does not decode (fn may have been called for the blocks
// before).
func DecodeBlocks(blob []byte, fn func(n int, docs *[BlockLen]uint32, tfs *[4][BlockLen]uint32)) error {
	var d Decoder
	if err := d.Reset(blob); err != nil {
		return err
	}
	for {
		n, err := d.Next()
		if n == 0 || err != nil {
			return err
		}
		fn(n, &d.Docs, &d.TFs)
	}
}

// Decoder decodes a posting list blob one block at a time, so that a
// scorer can walk several lists side by side. After Next returns n > 0,
// Docs[:n] holds the block's chunk ids (increasing) and TFs[c][:n] their
// frequencies in column c. After SeekDocs only Docs is decoded, until
// DecodeTFs.
type Decoder struct {
	blob  []byte
	pos   int    // byte offset of the next block
	left  int    // postings not yet decoded
	total int    // postings in the list
	prev  uint32 // last chunk id decoded
	Docs  [BlockLen]uint32
	TFs   [4][BlockLen]uint32
	// pend holds the undecoded frequency fields of the block SeekDocs
	// decoded (pend.cnt 0: none); the next block starts after them.
	pend pending
}

// pending is a block whose frequency fields are not decoded yet.
type pending struct {
	r      bitReader // at the first frequency field
	start  int       // byte offset of r.b in the blob
	modes  [5]uint8
	counts [5]uint8
	cnt    int
}

// Reset starts decoding blob. It returns ErrCorrupt when the count
// header is corrupt.
func (d *Decoder) Reset(blob []byte) error {
	n, k := binary.Uvarint(blob)
	if k <= 0 || n > uint64(len(blob))*8 {
		return ErrCorrupt
	}
	d.blob, d.pos, d.left, d.total, d.prev = blob, k, int(n), int(n), 0
	d.pend.cnt = 0
	return nil
}

// Next decodes the next block into d.Docs and d.TFs and returns its number
// of postings: 0 at the end, or with ErrCorrupt for a corrupt block.
//
// It is the inner loop of a BM25 query (one call per 128 postings of every
// common query term): header checks the whole block header against the
// blob's length once, so that the five field decoders after it run
// without bounds or error checks.
func (d *Decoder) Next() (int, error) {
	cnt, err := d.docs()
	if cnt == 0 || err != nil {
		return 0, err
	}
	if err := d.DecodeTFs(); err != nil {
		return 0, err
	}
	return cnt, nil
}

// DecodeTFs decodes the frequencies of the block the last SeekDocs decoded
// into d.TFs (nothing when they are decoded already). It returns
// ErrCorrupt when the block runs past the blob.
func (d *Decoder) DecodeTFs() error {
	p := &d.pend
	if p.cnt == 0 {
		return nil
	}
	for f := 1; f < 5; f++ {
		p.r.field(p.modes[f], p.counts[f], &d.TFs[f-1], p.cnt)
	}
	p.cnt = 0
	end := p.start + int((p.r.off+7)/8)
	if end > len(d.blob) {
		return ErrCorrupt
	}
	d.pos = end
	return nil
}

// docs decodes the next block's chunk ids into d.Docs, leaving its
// frequencies pending, and returns its number of postings (0 at the end).
func (d *Decoder) docs() (int, error) {
	if err := d.DecodeTFs(); err != nil { // the next block starts after them
		return 0, err
	}
	if d.left <= 0 {
		return 0, nil
	}
	p := &d.pend
	cnt := min(d.left, BlockLen)
	pos, err := header(d.blob, d.pos, cnt, &p.modes, &p.counts)
	if err != nil {
		return 0, err
	}
	p.r, p.start = bitReader{b: d.blob[pos:]}, pos
	p.r.field(p.modes[0], p.counts[0], &d.Docs, cnt)
	// The ids must stay inside the block: above the id before it (the
	// first gap is at least 1, as Encode's docs are >= 1 and increasing)
	// and below 2^32. A corrupt block whose gaps wrapped around could
	// otherwise end at the id its skip table promises while the ids
	// between fall outside the block, and a scorer indexes its window by
	// them. Summing in 64 bits checks the wrap without a branch per
	// posting; a zero gap later in the block (a repeated id) stays inside
	// it and is not checked.
	prev := uint64(d.prev)
	for i := 0; i < cnt; i++ {
		prev += uint64(d.Docs[i])
		d.Docs[i] = uint32(prev)
	}
	if d.Docs[0] == d.prev || prev > math.MaxUint32 {
		p.cnt = 0
		return 0, ErrCorrupt
	}
	d.prev = uint32(prev)
	d.left -= cnt
	p.cnt = cnt
	return cnt, nil
}

// header reads the mode bytes (and sparse counts) of a block of cnt
// postings at blob[pos:] into modes and counts, checks that the fields'
// least size fits the blob, and returns the offset of the first field.
func header(blob []byte, pos, cnt int, modes, counts *[5]uint8) (int, error) {
	bounded := 0 // bits of the dense and sparse fields
	for f := 0; f < 5; f++ {
		if pos >= len(blob) {
			return 0, ErrCorrupt
		}
		m := blob[pos]
		pos++
		counts[f] = 0
		switch {
		case m&riceFlag != 0:
			if m&sparseFlag != 0 || m&^riceFlag > 16 {
				return 0, ErrCorrupt
			}
			bounded += cnt // at least one bit per code
		case m&sparseFlag != 0:
			if f == 0 || pos >= len(blob) || m&^sparseFlag > 32 || int(blob[pos]) > cnt {
				return 0, ErrCorrupt
			}
			counts[f] = blob[pos]
			pos++
			bounded += int(counts[f]) * (7 + int(m&^sparseFlag))
		default:
			if m > 32 {
				return 0, ErrCorrupt
			}
			bounded += int(m) * cnt
		}
		modes[f] = m
	}
	if pos+(bounded+7)/8 > len(blob) {
		return 0, ErrCorrupt
	}
	return pos, nil
}

// field decodes one field of cnt values coded with mode m (count: the
// pairs of a sparse field) into vals.
func (r *bitReader) field(m, count uint8, vals *[BlockLen]uint32, cnt int) {
	switch {
	case m&riceFlag != 0:
		r.readRices(m&^riceFlag, vals[:cnt])
	case m&sparseFlag != 0:
		wd := m &^ sparseFlag
		clear(vals[:cnt])
		var idx [BlockLen]uint8
		for j := 0; j < int(count); j++ {
			idx[j] = uint8(r.read(7))
		}
		for j := 0; j < int(count); j++ {
			v := uint32(r.read(wd))
			if int(idx[j]) < cnt {
				vals[idx[j]] = v
			}
		}
	case m == 0:
		clear(vals[:cnt])
	default:
		for i := 0; i < cnt; i++ {
			vals[i] = uint32(r.read(m))
		}
	}
}

type bitWriter struct {
	acc  uint64
	nacc uint8
	buf  []byte
}

func (w *bitWriter) write(v uint64, width uint8) {
	for width > 0 {
		take := min(width, 64-w.nacc)
		w.acc |= (v & (1<<take - 1)) << w.nacc
		w.nacc += take
		v >>= take
		width -= take
		if w.nacc == 64 {
			w.buf = binary.LittleEndian.AppendUint64(w.buf, w.acc)
			w.acc, w.nacc = 0, 0
		}
	}
}

func (w *bitWriter) writeRice(v uint32, k uint8) {
	if q := v >> k; q < riceEscape {
		w.write(1<<q, uint8(q)+1) // q zeros, then a one
		w.write(uint64(v), k)
		return
	}
	w.write(1<<riceEscape, riceEscape+1)
	w.write(uint64(v), 32)
}

// flush appends the written bits to out, padded to a whole byte.
func (w *bitWriter) flush(out *[]byte) {
	for w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nacc = uint8(max(int(w.nacc)-8, 0))
	}
	*out = append(*out, w.buf...)
	w.buf = w.buf[:0]
}

type bitReader struct {
	b   []byte
	off uint // in bits
}

func (r *bitReader) read(width uint8) uint64 {
	// width <= 32 and peek holds at least 57 bits, so one load suffices.
	v := r.peek() & (1<<width - 1)
	r.off += uint(width)
	return v
}

// peek returns the bits from the read offset on, at least 57 of them
// (zeros past the end).
func (r *bitReader) peek() uint64 {
	i := r.off >> 3
	var x uint64
	if i+8 <= uint(len(r.b)) {
		x = binary.LittleEndian.Uint64(r.b[i:])
	} else {
		var tmp [8]byte
		copy(tmp[:], r.b[min(i, uint(len(r.b))):])
		x = binary.LittleEndian.Uint64(tmp[:])
	}
	return x >> (r.off & 7)
}

// readRices reads len(out) Rice codes of parameter k: readRice
// (rice_ref_test.go, the reference it is tested against) in one loop, with the offset in a register (the hot loop of a BM25 query).
func (r *bitReader) readRices(k uint8, out []uint32) {
	b, off := r.b, r.off
	mask := uint32(1)<<k - 1
	for i := range out {
		j := off >> 3
		var x uint64
		if j+8 <= uint(len(b)) {
			x = binary.LittleEndian.Uint64(b[j:])
		} else {
			var tmp [8]byte
			copy(tmp[:], b[min(j, uint(len(b))):])
			x = binary.LittleEndian.Uint64(tmp[:])
		}
		x >>= off & 7
		q := bits.TrailingZeros64(x)
		if q >= riceEscape {
			r.off = off + riceEscape + 1
			out[i] = uint32(r.read(32))
			off = r.off
			continue
		}
		off += uint(q) + 1 + uint(k)
		out[i] = uint32(q)<<k | uint32(x>>(q+1))&mask
	}
	r.off = off
}
