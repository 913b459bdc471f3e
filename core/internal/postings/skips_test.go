package postings

import (
	"math/rand/v2"
	"testing"
)

// skipList is a random list of n postings over ids 1.. with gaps up to
// maxGap, and random chunk lengths by id.
func skipList(r *rand.Rand, n, maxGap int) ([]Posting, []byte, func(uint32) uint32) {
	var ps []Posting
	doc := uint32(0)
	for i := 0; i < n; i++ {
		doc += 1 + uint32(r.IntN(maxGap))
		ps = append(ps, Posting{Doc: doc, TF: [4]uint32{uint32(r.IntN(6)), uint32(r.IntN(10) / 8), uint32(r.IntN(20) / 18), uint32(r.IntN(30) / 29)}})
	}
	lens := make([]uint32, doc+1)
	for i := range lens {
		lens[i] = 1 + uint32(r.IntN(600))
	}
	return ps, Encode(ps), func(d uint32) uint32 { return lens[d] }
}

// tabled is skipList of n postings with its skip table, decoded.
func tabled(t *testing.T, r *rand.Rand, n int) ([]Posting, []byte, *Skips) {
	t.Helper()
	ps, blob, lenOf := skipList(r, n, 40)
	table, err := BuildSkips(blob, lenOf)
	if err != nil {
		t.Fatal(err)
	}
	s := new(Skips)
	if !DecodeSkips(s, table, n, len(blob)) {
		t.Fatalf("n=%d: own table rejected", n)
	}
	return ps, blob, s
}

// TestSkipsBoundAndSeek: every block of a skip table starts where the
// table says, ends at its Last, and each of its postings is dominated by
// one of its corners.
func TestSkipsBoundAndSeek(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 127, 128, 129, 1000, 5000} {
		ps, blob, lenOf := skipList(r, n, 40)
		table, err := BuildSkips(blob, lenOf)
		if err != nil {
			t.Fatal(err)
		}
		var s Skips
		if !DecodeSkips(&s, table, n, len(blob)) {
			t.Fatalf("n=%d: own table rejected", n)
		}
		if s.Len() != (n+BlockLen-1)/BlockLen {
			t.Fatalf("n=%d: %d blocks", n, s.Len())
		}
		var d Decoder
		if err := d.Reset(blob); err != nil {
			t.Fatal(err)
		}
		// Backwards, so every block is reached by a seek.
		for b := s.Len() - 1; b >= 0; b-- {
			m, err := d.SeekNext(&s, b)
			if err != nil {
				t.Fatalf("n=%d block %d: %v", n, b, err)
			}
			for i := 0; i < m; i++ {
				p := ps[b*BlockLen+i]
				if d.Docs[i] != p.Doc || d.TFs[0][i] != p.TF[0] || d.TFs[3][i] != p.TF[3] {
					t.Fatalf("n=%d block %d posting %d: got doc %d, want %v", n, b, i, d.Docs[i], p)
				}
				dominated := false
				for _, c := range s.Corners[s.Start[b]:s.Start[b+1]] {
					dominated = dominated || (c.Text >= p.TF[0]+p.TF[3] && c.Section >= p.TF[1] && c.Heading >= p.TF[2] && c.Len <= lenOf(p.Doc))
				}
				if !dominated {
					t.Fatalf("n=%d block %d: posting %v (len %d) above every corner %v", n, b, p, lenOf(p.Doc), s.Corners[s.Start[b]:s.Start[b+1]])
				}
			}
		}
		// A table for another list is rejected.
		if n > 0 && DecodeSkips(&s, table, n+BlockLen, len(blob)) {
			t.Errorf("n=%d: table accepted for a longer list", n)
		}
	}
}

// TestSeekDocs: SeekDocs decodes a block's ids alone; DecodeTFs then gives
// the frequencies SeekNext gives, and a Next after either (with the
// frequencies still pending or not) decodes the following block.
func TestSeekDocs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 127, 128, 129, 1000, 5000} {
		ps, blob, s := tabled(t, r, n)
		var d Decoder
		if err := d.Reset(blob); err != nil {
			t.Fatal(err)
		}
		same := func(b, m int, tfs bool) {
			t.Helper()
			for i := 0; i < m; i++ {
				p := ps[b*BlockLen+i]
				if d.Docs[i] != p.Doc || (tfs && (d.TFs[0][i] != p.TF[0] || d.TFs[1][i] != p.TF[1] || d.TFs[2][i] != p.TF[2] || d.TFs[3][i] != p.TF[3])) {
					t.Fatalf("n=%d block %d posting %d: got doc %d tf %d %d %d %d, want %v", n, b, i, d.Docs[i], d.TFs[0][i], d.TFs[1][i], d.TFs[2][i], d.TFs[3][i], p)
				}
			}
		}
		for b := s.Len() - 1; b >= 0; b-- {
			m, err := d.SeekDocs(s, b)
			if err != nil || m != min(BlockLen, n-b*BlockLen) {
				t.Fatalf("n=%d block %d: %d postings, %v", n, b, m, err)
			}
			same(b, m, false)
			if b%2 == 0 {
				if err := d.DecodeTFs(); err != nil {
					t.Fatal(err)
				}
				same(b, m, true)
			}
			if b+1 < s.Len() {
				m, err := d.Next()
				if err != nil || m != min(BlockLen, n-(b+1)*BlockLen) {
					t.Fatalf("n=%d: Next after SeekDocs(%d): %d postings, %v", n, b, m, err)
				}
				same(b+1, m, true)
			}
		}
	}
}

// FuzzDecodeSkips: any table, for a valid or corrupted list, decodes
// without panicking, and a table it accepts seeks only to blocks that
// decode within their bounds or report ErrCorrupt.
func FuzzDecodeSkips(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	_, blob, lenOf := skipList(r, 700, 20)
	table, err := BuildSkips(blob, lenOf)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(table, uint16(0), byte(0))
	f.Add(table[:len(table)/2], uint16(3), byte(1))
	f.Add([]byte{0}, uint16(0), byte(0))
	f.Fuzz(func(t *testing.T, table []byte, at uint16, flip byte) {
		b := blob
		if flip != 0 {
			b = append([]byte(nil), blob...)
			b[int(at)%len(b)] ^= flip
		}
		var s Skips
		if !DecodeSkips(&s, table, 700, len(b)) {
			return
		}
		var d Decoder
		if d.Reset(b) != nil {
			return
		}
		for blk := 0; blk < s.Len(); blk++ {
			var n int
			var err error
			if blk%2 == 0 {
				n, err = d.SeekNext(&s, blk)
			} else if n, err = d.SeekDocs(&s, blk); err == nil && flip&1 == 0 {
				err = d.DecodeTFs()
			}
			if err != nil {
				continue
			}
			lo := uint32(0)
			if blk > 0 {
				lo = s.Last[blk-1]
			}
			for i := 0; i < n; i++ {
				if d.Docs[i] <= lo || d.Docs[i] > s.Last[blk] {
					t.Fatalf("block %d: doc %d outside (%d, %d]", blk, d.Docs[i], lo, s.Last[blk])
				}
			}
		}
	})
}

// TestCountInBlocks: counting a set's members in a list through its skip
// table, decoding only the blocks that can hold them, gives CountIn's
// count, for sets that hit block edges, fall before, between and after
// the list, and are empty.
func TestCountInBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 127, 128, 129, 1000, 5000} {
		ps, blob, sk := tabled(t, r, n)
		last := ps[len(ps)-1].Doc
		for trial := 0; trial < 40; trial++ {
			var set IDSet
			switch trial % 4 {
			case 0: // a few random ids, in and out of the list
				for range 1 + r.IntN(20) {
					set.Add(uint32(r.IntN(int(last) + 100)))
				}
			case 1: // block edges: each block's first and last posting
				for b := 0; b < sk.Len(); b++ {
					if r.IntN(2) == 0 {
						set.Add(sk.Last[b])
					} else {
						set.Add(ps[b*BlockLen].Doc)
					}
				}
			case 2: // ids between postings only
				for _, p := range ps {
					if r.IntN(4) == 0 && p.Doc > 0 && !slicesContainsDoc(ps, p.Doc-1) {
						set.Add(p.Doc - 1)
					}
				}
			case 3: // nothing, or past the end
				if r.IntN(2) == 0 {
					set.Add(last + 1 + uint32(r.IntN(50)))
				}
			}
			want, err := set.CountIn(blob)
			if err != nil {
				t.Fatal(err)
			}
			got, err := set.CountInBlocks(blob, sk, set.IDs())
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("n=%d trial %d: CountInBlocks %d, CountIn %d (set of %d)", n, trial, got, want, set.Len())
			}
		}
	}
}

func slicesContainsDoc(ps []Posting, d uint32) bool {
	for _, p := range ps {
		if p.Doc == d {
			return true
		}
	}
	return false
}
