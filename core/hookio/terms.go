package hookio

import (
	"strings"
	"unicode"
)

// IsSlashCommand reports whether prompt is a Claude Code slash command such
// as "/model" or "/clear foo": after leading whitespace it starts with "/"
// and a letter, and its first word holds no further "/" (so "/usr/bin is
// slow" is a question about a path, not a command).
func IsSlashCommand(prompt string) bool {
	p := strings.TrimLeftFunc(prompt, unicode.IsSpace)
	if len(p) < 2 || p[0] != '/' {
		return false
	}
	first := p[1:]
	if i := strings.IndexFunc(first, unicode.IsSpace); i >= 0 {
		first = first[:i]
	}
	if first == "" {
		return false
	}
	for i, r := range first {
		if i == 0 && !unicode.IsLetter(r) {
			return false
		}
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == ':') {
			return false
		}
	}
	return true
}

// SearchableTerms returns the distinct lowercased terms of text that are
// worth searching for, in order of first appearance. Terms are maximal runs
// of letters and digits; one-letter terms and English stopwords (including
// conversational fillers such as "yes", "ok", "go", "on", "please",
// "thanks", "continue") are dropped. Hooks skip prompts with fewer than two
// searchable terms.
func SearchableTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(f)) < 2 || stopwords[f] || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// stopwords is a classic English stopword list (articles, pronouns,
// auxiliaries, prepositions, conjunctions) plus the fillers of chat prompts
// that carry no search intent.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
a about above after again against all am an and any are aren as at be because been before being
below between both but by can cannot could couldn did didn do does doesn doing don down during each
few for from further had hadn has hasn have haven having he her here hers herself him himself his how
i if in into is isn it its itself just let me more most my myself no nor not of off on once only or
other ought our ours ourselves out over own same shan she should shouldn so some such than that the
their theirs them themselves then there these they this those through to too under until up very was
wasn we were weren what when where which while who whom why will with won would wouldn you your yours
yourself yourselves ll re ve im ive id youre thats theres whats lets also still even ever much many
really quite maybe perhaps etc via per
yes yeah yep yup no nope ok okay k kk sure fine great good nice cool thanks thank thx ty please pls
plz go ahead continue proceed next again done right alright well hi hello hey now then just do it
sounds lgtm agreed agree correct exactly got understood makes sense try retry keep going carry`) {
		m[w] = true
	}
	return m
}()
