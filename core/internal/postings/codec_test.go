package postings

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// decodePostings calls fn for each posting of blob, in doc order: the plain
// reference reader. It returns ErrCorrupt for a blob that Encode did not
// produce.
func decodePostings(blob []byte, fn func(doc uint32, tf *[4]uint32)) error {
	var tf [4]uint32
	return DecodeBlocks(blob, func(n int, docs *[BlockLen]uint32, tfs *[4][BlockLen]uint32) {
		for i := 0; i < n; i++ {
			tf[0], tf[1], tf[2], tf[3] = tfs[0][i], tfs[1][i], tfs[2][i], tfs[3][i]
			fn(docs[i], &tf)
		}
	})
}

func TestPostingsRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 129, 1000} {
		var ps []Posting
		doc := uint32(0)
		for i := 0; i < n; i++ {
			doc += uint32(1 + (i*7919)%300)
			if i%97 == 0 {
				doc += 1 << 20
			}
			ps = append(ps, Posting{Doc: doc, TF: [4]uint32{uint32(i % 5), uint32(i % 3 / 2), 0, uint32(i % 1000)}})
		}
		blob := Encode(ps)
		var got []Posting
		if err := decodePostings(blob, func(d uint32, tf *[4]uint32) { got = append(got, Posting{d, *tf}) }); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !slices.Equal(got, ps) {
			t.Fatalf("n=%d: round trip differs", n)
		}
	}
}

func FuzzDecodePostings(f *testing.F) {
	f.Add(Encode([]Posting{{Doc: 3, TF: [4]uint32{1, 0, 0, 0}}, {Doc: 9, TF: [4]uint32{2, 1, 0, 0}}}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		var ps []Posting
		monotonic := true
		err := decodePostings(b, func(d uint32, tf *[4]uint32) {
			if len(ps) > 0 && d <= ps[len(ps)-1].Doc {
				monotonic = false
			}
			ps = append(ps, Posting{d, *tf})
		})
		if err != nil || !monotonic || (len(ps) > 0 && ps[0].Doc == 0) {
			return
		}
		// Whatever decodes as a valid list encodes back to the same list.
		var again []Posting
		if err := decodePostings(Encode(ps), func(d uint32, tf *[4]uint32) { again = append(again, Posting{d, *tf}) }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again, ps) {
			t.Fatal("re-encoded list differs")
		}
	})
}

func TestSqliteVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 240, 2287, 16383, 16384, 1 << 35, math.MaxUint64} {
		b := putSqliteVarint(v)
		got, k := SQLiteVarint(b)
		if got != v || k != len(b) {
			t.Errorf("SQLiteVarint(%x) = %d, %d; want %d, %d", b, got, k, v, len(b))
		}
	}
}

// putSqliteVarint is the encoder of SQLite's file format (sqlite3PutVarint).
func putSqliteVarint(v uint64) []byte {
	if v>>56 != 0 {
		b := make([]byte, 9)
		b[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			b[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return b
	}
	var tmp []byte
	for {
		tmp = append(tmp, byte(v&0x7f)|0x80)
		v >>= 7
		if v == 0 {
			break
		}
	}
	tmp[0] &= 0x7f
	slices.Reverse(tmp)
	return tmp
}

// TestDecodeRejectsIDsOutsideTheBlock: a block whose gaps wrap around
// 2^32 (ids that go down), or whose first gap is 0, is ErrCorrupt, not a
// list of ids outside the block's range, which a scorer indexes its window
// by. The blobs are what Encode writes for ids out of order, as a damaged
// file could hold them.
func TestDecodeRejectsIDsOutsideTheBlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		docs []uint32
	}{
		{"wrapped", []uint32{5, 3, 10}},
		{"wrapped in a full block", append(seq(1, 127), 1<<31, 1<<30, 1<<31+5)},
		{"first id 0", []uint32{0, 4, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := make([]Posting, len(tc.docs))
			for i, d := range tc.docs {
				ps[i] = Posting{Doc: d, TF: [4]uint32{1}}
			}
			var d Decoder
			if err := d.Reset(Encode(ps)); err != nil {
				t.Fatal(err)
			}
			var err error
			for {
				var n int
				if n, err = d.Next(); n == 0 || err != nil {
					break
				}
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Next: %v, want ErrCorrupt", err)
			}
		})
	}
	// Ids in order up to the largest decode.
	ps := []Posting{{Doc: 1}, {Doc: 1 << 31}, {Doc: math.MaxUint32}}
	var d Decoder
	if err := d.Reset(Encode(ps)); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Next(); n != 3 || err != nil || d.Docs[2] != math.MaxUint32 {
		t.Fatalf("Next: %d %v %v", n, err, d.Docs[:n])
	}
}

// seq returns the ids from, from+1, ..., n of them.
func seq(from uint32, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = from + uint32(i)
	}
	return out
}
