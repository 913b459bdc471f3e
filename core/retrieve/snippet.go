package retrieve

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Snippet returns about width runes of text around the first place where
// terms of query occur, on one line, with every occurrence of a query term
// (whole word, case- and accent-insensitive, or a prefix of a longer word
// such as a plural) wrapped by mark. Without a match it returns the start
// of text.
func Snippet(text, query string, width int, mark func(string) string) string {
	text = strings.Join(strings.Fields(text), " ")
	terms := map[string]bool{}
	for _, t := range strings.FieldsFunc(fold(query), notWord) {
		if len([]rune(t)) >= 3 {
			terms[t] = true
		}
	}
	rs := []rune(text)
	type span struct{ lo, hi int }
	var spans []span
	i, end := 0, len(rs)
	for i < end {
		if !isWord(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && isWord(rs[j]) {
			j++
		}
		w := fold(string(rs[i:j]))
		for t := range terms {
			if w == t || (strings.HasPrefix(w, t) && len(w)-len(t) <= 3) {
				if len(spans) == 0 {
					// Only the window around the first match is shown:
					// stop scanning where it ends.
					end = min(len(rs), max(i-width/3, 0)+width)
				}
				spans = append(spans, span{i, j})
				break
			}
		}
		i = j
	}
	lo := 0
	if len(spans) > 0 && spans[0].lo > width/3 {
		lo = spans[0].lo - width/3
	}
	hi := min(len(rs), lo+width)
	var b strings.Builder
	if lo > 0 {
		b.WriteString("…")
	}
	pos := lo
	for _, s := range spans {
		if s.lo < lo || s.hi > hi {
			continue
		}
		b.WriteString(string(rs[pos:s.lo]))
		b.WriteString(mark(string(rs[s.lo:s.hi])))
		pos = s.hi
	}
	b.WriteString(string(rs[pos:hi]))
	if hi < len(rs) {
		b.WriteString("…")
	}
	return b.String()
}

func isWord(r rune) bool  { return unicode.IsLetter(r) || unicode.IsDigit(r) }
func notWord(r rune) bool { return !isWord(r) }
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.ToLower(removeMarks(s))
		}
	}
	return strings.ToLower(s) // ASCII has no marks to remove
}

func removeMarks(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		return s
	}
	return out
}
