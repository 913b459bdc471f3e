package textan

import (
	"strings"
	"unicode"
)

// Terms splits text into its terms: text is lowercased (strings.ToLower)
// and cut into maximal runs of Unicode letters and digits (unicode.IsLetter,
// unicode.IsDigit), so "wcstombs_s vs os.path" gives "wcstombs", "s", "vs",
// "os", "path". Every term is returned, in order, duplicates included.
func Terms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), notTermRune)
}

func notTermRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

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
