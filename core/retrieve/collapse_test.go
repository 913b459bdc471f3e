package retrieve

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// words returns n distinct words starting at from, one text of n terms.
func words(from, n int) string {
	var w []string
	for i := from; i < from+n; i++ {
		w = append(w, fmt.Sprintf("w%d", i))
	}
	return strings.Join(w, " ")
}

func TestCollapse(t *testing.T) {
	a := words(0, 40)
	// 40 terms plus 2 appended: resemblance 37/39, a near-duplicate.
	aPlus := a + " extra words"
	// One changed term in 40: 33 of 37 shingles shared, 33/41 = 0.80.
	aEdit := words(0, 20) + " x " + words(21, 19)
	// Four changed terms spread out: far below the threshold.
	aFar := strings.NewReplacer("w5 ", "x ", "w15 ", "x ", "w25 ", "x ", "w35 ", "x ").Replace(a)
	b := words(100, 40)
	hit := func(id int64, text string) Hit {
		return Hit{ChunkID: id, Path: fmt.Sprintf("n%d.md", id), Text: text}
	}
	for _, tc := range []struct {
		name string
		in   []Hit
		want map[int64][]int64 // kept id -> folded ids, in order
		kept []int64
	}{
		{"no duplicates", []Hit{hit(1, a), hit(2, b)}, map[int64][]int64{}, []int64{1, 2}},
		{"exact copy folds into the first", []Hit{hit(1, a), hit(2, b), hit(3, a)}, map[int64][]int64{1: {3}}, []int64{1, 2}},
		{"near copies fold, a rewrite stays", []Hit{hit(1, a), hit(2, aPlus), hit(3, aEdit), hit(4, aFar)}, map[int64][]int64{1: {2, 3}}, []int64{1, 4}},
		{"punctuation and case do not count", []Hit{hit(1, "Get-ChildItem [-Path] <string[]> -Recurse"), hit(2, "get childitem PATH string recurse")}, map[int64][]int64{1: {2}}, []int64{1}},
		{"empty", nil, map[int64][]int64{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := fmt.Sprint(tc.in)
			got := Collapse(tc.in)
			var kept []int64
			folded := map[int64][]int64{}
			for _, h := range got {
				kept = append(kept, h.ChunkID)
				for _, d := range h.AlsoIn {
					folded[h.ChunkID] = append(folded[h.ChunkID], d.ChunkID)
					if d.Path != fmt.Sprintf("n%d.md", d.ChunkID) || d.AlsoIn != nil {
						t.Errorf("folded hit %d lost its path or kept an AlsoIn", d.ChunkID)
					}
				}
			}
			if !reflect.DeepEqual(kept, tc.kept) || !reflect.DeepEqual(folded, tc.want) {
				t.Errorf("kept %v folded %v, want %v and %v", kept, folded, tc.kept, tc.want)
			}
			if fmt.Sprint(tc.in) != before {
				t.Error("Collapse modified its input")
			}
			if again := Collapse(got); !reflect.DeepEqual(again, got) {
				t.Errorf("collapsing again changed the result: %v", again)
			}
		})
	}
}

// A hit that already holds folded hits brings them along, flattened.
func TestCollapseFlattens(t *testing.T) {
	a := words(0, 40)
	first := Collapse([]Hit{{ChunkID: 2, Text: a}, {ChunkID: 3, Text: a}})
	got := Collapse(append([]Hit{{ChunkID: 1, Text: a}}, first...))
	if len(got) != 1 || len(got[0].AlsoIn) != 2 || got[0].AlsoIn[0].ChunkID != 2 || got[0].AlsoIn[1].ChunkID != 3 || got[0].AlsoIn[0].AlsoIn != nil {
		t.Errorf("got %+v, want hit 1 with 2 and 3 folded, flat", got)
	}
}

func TestListItem(t *testing.T) {
	for in, want := range map[string]string{
		"Kitchen/descaling.md":                 "Kitchen/descaling.md",
		"Kitchen/descaling, espresso, copy.md": "`Kitchen/descaling, espresso, copy.md`",
		"odd`name.md":                          "`odd``name.md`",
		" lead.md":                             "` lead.md`",
		"a,b.md":                               "a,b.md",
	} {
		if got := ListItem(in); got != want {
			t.Errorf("ListItem(%q) = %q, want %q", in, got, want)
		}
	}
}
