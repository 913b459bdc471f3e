package compress

import (
	"strings"
)

// shownLines is the set of lines an extract of raw may show: each line of
// raw as it is and as a terminal showed it (cleanLine), and the same after
// scrub (nil for none), which redacts secrets in place.
func shownLines(raw string, scrub func(string) string) map[string]bool {
	ok := map[string]bool{"": true}
	add := func(text string) {
		for l := range strings.SplitSeq(text, "\n") {
			ok[l] = true
			ok[cleanLine(l)] = true
		}
	}
	add(raw)
	if scrub != nil {
		add(scrub(raw))
		var b strings.Builder
		for l := range strings.SplitSeq(raw, "\n") {
			b.WriteString(cleanLine(l))
			b.WriteByte('\n')
		}
		add(scrub(b.String()))
	}
	return ok
}

// notVerbatim returns the lines of one extract stream that are neither
// marker lines (IsMarkerLine) nor lines of raw (see shownLines).
func notVerbatim(extract, raw string, scrub func(string) string) []string {
	ok := shownLines(raw, scrub)
	var bad []string
	for l := range strings.SplitSeq(strings.TrimSuffix(extract, "\n"), "\n") {
		if !IsMarkerLine(l) && !ok[l] {
			bad = append(bad, l)
		}
	}
	return bad
}
