package compress

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCompareJoined checks compareJoined against comparing the joined
// texts, on groups that share prefixes and hold tabs (which sort before
// the joining '\n').
func TestCompareJoined(t *testing.T) {
	parts := []string{"", "a", "ab", "a\tb", "a b", "abc", "b", "a\t", "ab\t"}
	rng := rand.New(rand.NewSource(1))
	for range 5000 {
		p := 1 + rng.Intn(3)
		a, b := make([]line, p), make([]line, p)
		var ja, jb []string
		for i := range p {
			a[i].text, b[i].text = parts[rng.Intn(len(parts))], parts[rng.Intn(len(parts))]
			ja, jb = append(ja, a[i].text), append(jb, b[i].text)
		}
		if got, want := compareJoined(a, b), strings.Compare(strings.Join(ja, "\n"), strings.Join(jb, "\n")); got != want {
			t.Fatalf("compareJoined(%q, %q) = %d, want %d", ja, jb, got, want)
		}
	}
}

// TestRankedLinesHaveTokenCounts checks the assumption behind mayRank on
// every case, as command output and as data: every line that ends up
// ranked had its tokens counted.
func TestRankedLinesHaveTokenCounts(t *testing.T) {
	for _, c := range loadCases(t) {
		for _, data := range []bool{false, true} {
			lines, _ := splitStreams(c.Req, data, newQuery(c.Req))
			for _, l := range lines {
				if l.tier == tierRank && l.kind != kindBlank && !mayRank(l.kind) {
					t.Errorf("%s: ranked line of kind %d: %q", c.Name, l.kind, l.text)
				}
			}
		}
	}
}
