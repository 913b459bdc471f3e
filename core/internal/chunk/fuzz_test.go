package chunk

import (
	"reflect"
	"testing"
)

// FuzzSplit checks that Split never panics and that the invariants of
// checkChunks (size limits, ordinals, trimmed slices of the body in order,
// valid UTF-8 for valid input) and coverage hold for any body and limits.
// Seeds: testdata/fuzz/FuzzSplit (openings of real edge and vault files)
// plus the cases below.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"",
		"## A\ntext\n",
		"A\n---\nB\n===\n",
		"```\n## x\n```\n## y\n",
		"~~~~\n~~~\n## x\n~~~~~\n",
		"- a\n---\n> b\n---\n<div>\n---\n",
		"## See Also\nx\n## 🔗 Related:\ny\n",
		"日本語のテキスト🙂\n\n### h3\n" + "word ",
		"\xff\xfe## bad utf8\n",
	} {
		f.Add("Title", s, 40)
	}
	f.Fuzz(func(t *testing.T, title, body string, maxChars int) {
		maxChars = 1 + abs(maxChars)%3000
		opt := Options{MaxChars: maxChars, MinChars: maxChars / 4, SkipSections: DefaultOptions().SkipSections}
		cs := Split(title, body, opt)
		checkChunks(t, "fuzz", title, body, opt, cs)
		if again := Split(title, body, opt); !reflect.DeepEqual(cs, again) {
			t.Fatalf("Split is not deterministic")
		}
		cov := Options{MaxChars: maxChars}
		checkCoverage(t, "fuzz", body, checkChunks(t, "fuzz", title, body, cov, Split(title, body, cov)))
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}
