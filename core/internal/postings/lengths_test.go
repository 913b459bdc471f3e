package postings

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestLengthsWholeAndParts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name string
		n    int
		max  uint32 // largest length
	}{
		{"one part, width 2", 100, 3000},
		{"many parts, width 2", 3*PartBytes/2 + 17, math.MaxUint16},
		{"many parts, width 4", 3*PartBytes/4 + 5, 1 << 20},
		{"exactly full parts", 2 * PartBytes / 2, 10},
		{"byte parts, a few escaped", 3*PartBytes/2 + 3, 290},
		{"byte parts, lengths at the escape", PartBytes/2 + 1, 255},
		{"byte parts, one id in the last", PartBytes/2 + 1, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lens := make([]uint32, tc.n)
			for i := range lens {
				lens[i] = uint32(r.Int64N(int64(tc.max) + 1))
			}
			lens[tc.n/2] = tc.max
			if tc.max == 255 {
				for i := range lens {
					lens[i] = 55 + 200*uint32(min(i%8, 1)^1) // every eighth at the escape itself
				}
			}
			blob := EncodeLengths(lens)
			whole := Lengths{MaxID: int64(tc.n - 1), Whole: blob}
			split := Lengths{MaxID: int64(tc.n - 1)}
			parts := SplitLengths(blob)
			if !split.UseParts(parts) {
				t.Fatal("UseParts refused SplitLengths' parts")
			}
			for i, part := range parts {
				// A byte part wherever it is no larger than the 2-byte form.
				n := partLen(part)
				esc := 0
				per := partIDs
				if blob[0] == 4 {
					per = PartBytes / 4
				}
				for _, l := range lens[i*per : i*per+n] {
					if l >= byteEscape {
						esc++
					}
				}
				if wantByte := blob[0] == 2 && 3+n+6*esc <= 1+2*n; (part[0] == 1) != wantByte {
					t.Fatalf("part %d: width %d with %d of %d lengths escaped", i, part[0], esc, n)
				}
			}
			for id := range lens {
				want := float64(lens[id])
				if got := whole.Len(uint32(id)); got != want {
					t.Fatalf("whole: Len(%d) = %v, want %v", id, got, want)
				}
				if got := split.Len(uint32(id)); got != want {
					t.Fatalf("parts: Len(%d) = %v, want %v", id, got, want)
				}
				part, base := split.Part(int64(id), int64(id)+1)
				if part == nil {
					t.Fatalf("Part(%d, %d) = nil", id, id+1)
				}
				if got := PartLength(part, base, uint32(id)); got != want {
					t.Fatalf("PartLength(%d) = %v, want %v", id, got, want)
				}
				// PartByte answers exactly the byte parts' unescaped lengths.
				got, ok := PartByte(part, base, uint32(id))
				if wantOK := part[0] == 1 && want < byteEscape; ok != wantOK || (ok && got != want) {
					t.Fatalf("PartByte(%d) = %v, %t in a part of width %d; want %v, %t", id, got, ok, part[0], want, wantOK)
				}
			}
			if got := whole.Len(uint32(tc.n + 5)); got != 0 {
				t.Errorf("Len past the end = %v, want 0", got)
			}
			if n := split.PartLen(); len(split.Parts) > 1 {
				if part, _ := split.Part(n-1, n+1); part != nil {
					t.Error("Part across two parts is not nil")
				}
			}
		})
	}
}

func TestUsePartsRefusesDamage(t *testing.T) {
	lens := make([]uint32, PartBytes) // two byte parts
	parts := SplitLengths(EncodeLengths(lens))
	if len(parts) != 2 || parts[0][0] != 1 {
		t.Fatalf("%d parts, the first of width %d", len(parts), parts[0][0])
	}
	for _, tc := range []struct {
		name  string
		parts [][]byte
		maxID int64
	}{
		{"none", nil, 10},
		{"missing part", [][]byte{parts[0], nil}, int64(len(lens) - 1)},
		{"short", parts[:1], int64(len(lens) - 1)},
		{"width differs", [][]byte{parts[0], append([]byte{4}, parts[1][1:]...)}, int64(len(lens) - 1)},
		{"unknown width", [][]byte{parts[0], append([]byte{3}, parts[1][1:]...)}, int64(len(lens) - 1)},
		{"byte part cut", [][]byte{parts[0][:len(parts[0])-1], parts[1]}, int64(len(lens) - 1)},
		{"byte part claims more escapes than it holds", [][]byte{append([]byte{1, 0xff, 0xff}, parts[0][3:]...), parts[1]}, int64(len(lens) - 1)},
		{"byte and 4-byte parts", [][]byte{parts[0], SplitLengths(EncodeLengths(append(make([]uint32, partIDs/2), 1<<20)))[0]}, int64(len(lens) - 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Lengths{MaxID: tc.maxID, Whole: []byte{2}}
			if l.UseParts(tc.parts) {
				t.Fatal("UseParts accepted damaged parts")
			}
			if l.Whole == nil || l.Parts != nil {
				t.Fatal("a refused UseParts changed Lengths")
			}
		})
	}
}

func TestDocSize(t *testing.T) {
	rec := slices.Concat(putSqliteVarint(3), putSqliteVarint(300), putSqliteVarint(0), putSqliteVarint(70000))
	if got := DocSize(rec); got != 70303 {
		t.Errorf("DocSize = %d, want 70303", got)
	}
	if got := DocSize(append(putSqliteVarint(5), 0x80)); got != 5 {
		t.Errorf("DocSize of a truncated record = %d, want 5", got)
	}
}

func TestVarListMerge(t *testing.T) {
	// Two surface forms of one term: their frequencies add up where both
	// occur in a chunk.
	var a, b VarList
	for _, p := range []Posting{{2, [4]uint32{1, 0, 0, 0}}, {5, [4]uint32{2, 1, 0, 0}}, {9, [4]uint32{0, 0, 3, 1}}} {
		packed, ok := PackTF(p.TF)
		if !ok {
			t.Fatal("PackTF overflow")
		}
		a.Add(p.Doc, packed)
	}
	for _, p := range []Posting{{5, [4]uint32{1, 0, 0, 0}}, {7, [4]uint32{4, 0, 0, 0}}} {
		packed, _ := PackTF(p.TF)
		b.Add(p.Doc, packed)
	}
	var got []Posting
	Merge([]VarList{a, b}, []int32{0, 1}, func(p Posting) { got = append(got, p) })
	want := []Posting{{2, [4]uint32{1, 0, 0, 0}}, {5, [4]uint32{3, 1, 0, 0}}, {7, [4]uint32{4, 0, 0, 0}}, {9, [4]uint32{0, 0, 3, 1}}}
	if !slices.Equal(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
}

func TestPackTF(t *testing.T) {
	for _, tc := range []struct {
		tf [4]uint32
		ok bool
	}{
		{[4]uint32{0, 0, 0, 0}, true},
		{[4]uint32{1<<16 - 1, 63, 63, 15}, true},
		{[4]uint32{1 << 16, 0, 0, 0}, false},
		{[4]uint32{0, 64, 0, 0}, false},
		{[4]uint32{0, 0, 0, 16}, false},
	} {
		p, ok := PackTF(tc.tf)
		if ok != tc.ok {
			t.Errorf("PackTF(%v) ok = %v, want %v", tc.tf, ok, tc.ok)
		}
		if ok && UnpackTF(p) != tc.tf {
			t.Errorf("UnpackTF(PackTF(%v)) = %v", tc.tf, UnpackTF(p))
		}
	}
}

func TestIDSetCountIn(t *testing.T) {
	var ps []Posting
	for d := uint32(1); d < 1000; d += 3 {
		ps = append(ps, Posting{Doc: d, TF: [4]uint32{1, 0, 0, 0}})
	}
	var dead IDSet
	for _, d := range []uint32{1, 4, 5, 700, 997, 5000} {
		dead.Add(d)
	}
	dead.Add(4) // twice
	if dead.Len() != 6 || !dead.Has(700) || dead.Has(2) || dead.Has(1<<30) {
		t.Fatalf("IDSet: Len %d, Has(700) %v, Has(2) %v", dead.Len(), dead.Has(700), dead.Has(2))
	}
	c, err := dead.CountIn(Encode(ps), nil, Encode(ps[:2]))
	if err != nil || c != 4+2 { // 1, 4, 700, 997 in the list; 1, 4 in its head
		t.Fatalf("CountIn = %d, %v; want 6", c, err)
	}
}

func BenchmarkDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	var ps []Posting
	doc := uint32(0)
	for i := 0; i < 50000; i++ {
		doc += 1 + uint32(r.IntN(6))
		ps = append(ps, Posting{Doc: doc, TF: [4]uint32{1 + uint32(r.IntN(3)), uint32(r.IntN(40) / 39), 0, 0}})
	}
	blob := Encode(ps)
	b.SetBytes(int64(len(blob)))
	b.ResetTimer()
	var d Decoder
	for i := 0; i < b.N; i++ {
		if err := d.Reset(blob); err != nil {
			b.Fatal(err)
		}
		for {
			n, err := d.Next()
			if err != nil {
				b.Fatal(err)
			}
			if n == 0 {
				break
			}
		}
	}
}

// TestEscapedClustered: the escaped lengths of byte parts are found
// wherever the long chunks lie: bunched at a part's start, at its end, in
// its middle, or spread evenly.
func TestEscapedClustered(t *testing.T) {
	for name, long := range map[string]func(i int) bool{
		"start":  func(i int) bool { return i < 400 },
		"end":    func(i int) bool { return i >= partIDs-400 },
		"middle": func(i int) bool { return i >= 1800 && i < 2200 },
		"even":   func(i int) bool { return i%11 == 0 },
		"two":    func(i int) bool { return i < 150 || i > partIDs-150 },
	} {
		lens := make([]uint32, 2*partIDs+100)
		for i := range lens {
			lens[i] = uint32(7 + i%200)
			if long(i % partIDs) {
				lens[i] = uint32(255 + i%3000)
			}
		}
		split := Lengths{MaxID: int64(len(lens) - 1)}
		parts := SplitLengths(EncodeLengths(lens))
		if !split.UseParts(parts) || parts[0][0] != 1 {
			t.Fatalf("%s: no byte parts (width %d)", name, parts[0][0])
		}
		for id, l := range lens {
			if got := split.Len(uint32(id)); got != float64(l) {
				t.Fatalf("%s: Len(%d) = %v, want %d", name, id, got, l)
			}
		}
	}
}
