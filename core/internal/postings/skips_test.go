package postings

import (
	"cmp"
	"math/rand/v2"
	"slices"
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

// refCorners is blockCorners by a stable sort (the slow reference): the
// postings in order of length, ties in their order, cut into up to
// SkipCorners equal groups, each bounded by one corner, and the corners
// another dominates left out.
func refCorners(pts []Corner) []Corner {
	sorted := slices.Clone(pts)
	slices.SortStableFunc(sorted, func(a, b Corner) int { return cmp.Compare(a.Len, b.Len) })
	groups := min(SkipCorners, len(sorted))
	var kept []Corner
	for g := 0; g < groups; g++ {
		part := sorted[g*len(sorted)/groups : (g+1)*len(sorted)/groups]
		c := Corner{Len: part[0].Len}
		for _, p := range part {
			c.Text, c.Section, c.Heading = max(c.Text, p.Text), max(c.Section, p.Section), max(c.Heading, p.Heading)
		}
		if !slices.ContainsFunc(kept, func(k Corner) bool { return k.Text >= c.Text && k.Section >= c.Section && k.Heading >= c.Heading }) {
			kept = append(kept, c)
		}
	}
	return kept
}

// TestBlockCornersReference: the selection of blockCorners gives the
// corners of the sort, for blocks of every size with few and many
// distinct lengths (ties at the group boundaries), and leaves pts as it
// was.
func TestBlockCornersReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.IntN(BlockLen)
		lens := []int{1, 3, 50, 1000}[trial%4]
		pts := make([]Corner, n)
		for i := range pts {
			pts[i] = Corner{Text: uint32(r.IntN(8)), Section: uint32(r.IntN(3)), Heading: uint32(r.IntN(2)), Len: 1 + uint32(r.IntN(lens))}
		}
		if trial%7 == 0 { // sorted and reverse-sorted blocks
			slices.SortFunc(pts, func(a, b Corner) int { return cmp.Compare(a.Len, b.Len) * (1 - 2*(trial%2)) })
		}
		was := slices.Clone(pts)
		var buf [SkipCorners]Corner
		got, want := blockCorners(pts, &buf), refCorners(pts)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d postings: corners %v, want %v", trial, n, got, want)
		}
		if !slices.Equal(pts, was) {
			t.Fatalf("trial %d: blockCorners changed pts", trial)
		}
	}
}

// TestEncoderSkips: the skip table an Encoder builds while it encodes is
// BuildSkips' table of the list it returns.
func TestEncoderSkips(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 127, 128, 129, 1000, 5000} {
		ps, blob, lenOf := skipList(r, n, 40)
		e := Encoder{LenOf: lenOf}
		for _, p := range ps {
			e.Add(p)
		}
		if got := e.Finish(); !slices.Equal(got, blob) {
			t.Fatalf("n=%d: the Encoder with LenOf encodes another list", n)
		}
		want, err := BuildSkips(blob, lenOf)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Skips(); !slices.Equal(got, want) {
			t.Fatalf("n=%d: Encoder.Skips differs from BuildSkips (%d and %d bytes)", n, len(got), len(want))
		}
	}
	var e Encoder
	e.Add(Posting{Doc: 1, TF: [4]uint32{1}})
	e.Finish()
	if e.Skips() != nil {
		t.Error("Skips without LenOf is not nil")
	}
}
