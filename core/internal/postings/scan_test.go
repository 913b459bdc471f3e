package postings

import (
	"slices"
	"testing"
)

func TestScannerCollectsStemCandidates(t *testing.T) {
	// "task" admits words starting with "tas"; "ti" admits "ti" plus up
	// to three letters.
	sc := NewScanner(StemPrefixes(map[string][2]int64{"task": {}, "ti": {}}))
	sc.Chunk(1, &[4]string{"Tasks and tasking", "task", "", ""})
	sc.Chunk(4, &[4]string{"ties tidings", "", "", ""})
	if want := []string{"tasks", "tasking", "task", "ties"}; !slices.Equal(sc.Words, want) {
		t.Fatalf("Words = %q, want %q", sc.Words, want)
	}
	var got []Posting
	Merge(sc.Lists, []int32{0, 2}, func(p Posting) { got = append(got, p) })
	if want := []Posting{{1, [4]uint32{1, 1, 0, 0}}}; !slices.Equal(got, want) {
		t.Fatalf("tasks+task postings %v, want %v", got, want)
	}
	if sc.Classify([]byte("tidings")) != -1 || sc.Classify([]byte("and")) != -1 {
		t.Error("a word no term admits was classified")
	}
}

// TestScannerSpillRestore: lists spilled piece by piece while chunks
// stream past and restored from the pieces merge to the same postings as
// lists kept whole, and Size counts the bytes held.
func TestScannerSpillRestore(t *testing.T) {
	terms := map[string][2]int64{"task": {}, "note": {}}
	texts := []string{"task notes", "tasks", "a note on tasking", "noted task task", "nothing", "notes and tasks"}
	whole, spilled := NewScanner(StemPrefixes(terms)), NewScanner(StemPrefixes(terms))
	pieces := map[int32][]byte{}
	for i := 0; i < 300; i++ {
		cols := [4]string{texts[i%len(texts)], texts[(i/2)%len(texts)], "", ""}
		whole.Chunk(int64(3*i+1), &cols)
		spilled.Chunk(int64(3*i+1), &cols)
		if i%7 == 6 {
			if err := spilled.Spill(8, func(id int32, b []byte) error {
				pieces[id] = append(pieces[id], b...)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	held := 0
	for i := range spilled.Lists {
		held += spilled.Lists[i].Size()
	}
	if spilled.Size() != held || whole.Size() <= spilled.Size() {
		t.Fatalf("Size %d, lists hold %d (kept whole: %d)", spilled.Size(), held, whole.Size())
	}
	if !slices.Equal(whole.Words, spilled.Words) {
		t.Fatalf("Words %q and %q", whole.Words, spilled.Words)
	}
	for id := range spilled.Lists {
		spilled.Lists[id].Restore(pieces[int32(id)])
		var a, b []Posting
		Merge(whole.Lists, []int32{int32(id)}, func(p Posting) { a = append(a, p) })
		Merge(spilled.Lists, []int32{int32(id)}, func(p Posting) { b = append(b, p) })
		if len(a) == 0 || !slices.Equal(a, b) {
			t.Fatalf("%s: %d postings kept whole, %d spilled and restored, or they differ", whole.Words[id], len(a), len(b))
		}
	}
}
