package textan

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terms splits text into its terms: text is lowercased (strings.ToLower)
// and cut into maximal runs of Unicode letters and digits (unicode.IsLetter,
// unicode.IsDigit), so "wcstombs_s vs os.path" gives "wcstombs", "s", "vs",
// "os", "path". Every term is returned, in order, duplicates included.
func Terms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), notTermRune)
}

func notTermRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// TermSeq yields the terms of text one by one, exactly as Terms returns
// them, without building the slice: the terms are substrings of one
// lowercased copy of text (no copy at all when text has no upper-case
// letter), and ASCII is split without a function call per byte. For hot
// paths that only look at each term once (near-duplicate shingling).
func TermSeq(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		s := strings.ToLower(text)
		start := -1 // byte offset of the current term, -1 between terms
		for i := 0; i < len(s); {
			c := s[i]
			var term bool
			size := 1
			if c < utf8.RuneSelf {
				term = 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
			} else {
				var r rune
				r, size = utf8.DecodeRuneInString(s[i:])
				term = !notTermRune(r)
			}
			switch {
			case term && start < 0:
				start = i
			case !term && start >= 0:
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
			i += size
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// SearchableTerms returns the distinct terms of text (see Terms) worth
// searching for, in order of first appearance: one-rune terms, stop words
// (StopWord) and fillers (Filler) are dropped. The hooks skip prompts with
// fewer than two searchable terms, and the relevance floor measures a hit's
// coverage of them.
func SearchableTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range Terms(text) {
		if len([]rune(f)) < 2 || stopWords[f] || fillers[f] || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}
