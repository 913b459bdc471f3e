package postings

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// readRice is the plain one-code-at-a-time reader that readRices unrolls;
// TestReadRicesMatchesReadRice keeps the two equal.
func (r *bitReader) readRice(k uint8) uint32 {
	x := r.peek() // at least 57 valid bits; a code below the escape has at most 41
	q := bits.TrailingZeros64(x)
	if q >= riceEscape {
		r.off += riceEscape + 1
		return uint32(r.read(32))
	}
	r.off += uint(q) + 1 + uint(k)
	return uint32(q)<<k | uint32(x>>(q+1))&(1<<k-1)
}

// TestReadRicesMatchesReadRice writes runs of Rice codes (small values, the
// escape, and values at the escape's edge) for every parameter k and checks
// that the fast loop reads what the reference reads, offset included.
func TestReadRicesMatchesReadRice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := uint8(0); k <= 20; k++ {
		vals := make([]uint32, 300)
		for i := range vals {
			switch i % 4 {
			case 0:
				vals[i] = rng.Uint32N(1 << k << 2)
			case 1:
				vals[i] = rng.Uint32()
			case 2:
				vals[i] = uint32(riceEscape)<<k - 1 + rng.Uint32N(2)
			default:
				vals[i] = rng.Uint32N(1 << k)
			}
		}
		var w bitWriter
		for _, v := range vals {
			w.writeRice(v, k)
		}
		var blob []byte
		w.flush(&blob)
		ref := bitReader{b: blob}
		fast := bitReader{b: blob}
		got := make([]uint32, len(vals))
		fast.readRices(k, got)
		for i, v := range vals {
			if r := ref.readRice(k); r != v || got[i] != v {
				t.Fatalf("k=%d code %d: wrote %d, readRice %d, readRices %d", k, i, v, r, got[i])
			}
		}
		if ref.off != fast.off {
			t.Errorf("k=%d: offsets differ: readRice %d, readRices %d", k, ref.off, fast.off)
		}
	}
}
