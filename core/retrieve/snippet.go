package retrieve

import (
	"strings"
	"unicode"

	"github.com/vaultctx/vaultctx/core/internal/textan"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Snippet returns about width runes of text around a place where terms of
// query occur, on one line, with every occurrence of a query term (whole
// word, case- and accent-insensitive, or a prefix of a longer word such
// as a plural) wrapped by mark. Query words of fewer than three runes and
// stop words (textan.StopWord: "the", "about") are never marked. The
// window is placed around the first exact occurrence of a term (the whole
// word), and around the first prefix match only when no term occurs
// exactly. Without a match it returns the start of text.
func Snippet(text, query string, width int, mark func(string) string) string {
	text = strings.Join(strings.Fields(text), " ")
	terms := map[string]bool{}
	for _, t := range strings.FieldsFunc(fold(query), notWord) {
		if len([]rune(t)) >= 3 && !textan.StopWord(t) {
			terms[t] = true
		}
	}
	rs := []rune(text)
	type span struct {
		lo, hi int
		exact  bool
	}
	var spans []span
	anchor := -1 // index in spans of the window's anchor
	for i := 0; i < len(rs) && len(terms) > 0; {
		if !isWord(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && isWord(rs[j]) {
			j++
		}
		w := fold(string(rs[i:j]))
		// A word is an exact occurrence when it is a term, even when a
		// shorter term is also its prefix ("scripts" for "script scripts").
		exact, match := terms[w], terms[w]
		for t := range terms {
			match = match || strings.HasPrefix(w, t) && len(w)-len(t) <= 3
		}
		if match {
			spans = append(spans, span{i, j, exact})
			if anchor < 0 || (exact && !spans[anchor].exact) {
				anchor = len(spans) - 1
			}
		}
		if anchor >= 0 && spans[anchor].exact && i > spans[anchor].lo+width {
			break // past the window of the first exact match
		}
		i = j
	}
	lo := 0
	if anchor >= 0 && spans[anchor].lo > width/3 {
		lo = spans[anchor].lo - width/3
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
