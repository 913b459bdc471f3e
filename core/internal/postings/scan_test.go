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
