package ftsquery

import (
	"strings"
	"unicode"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"golang.org/x/text/unicode/norm"
)

// MaxTerms caps the number of terms of one FTS5 query so a pasted essay
// cannot make a search slow.
const MaxTerms = 48

// Terms turns user text into the terms of a safe FTS5 MATCH expression,
// each a complete FTS5 expression; the query is their join with " OR ".
//
// Semantics: a query is the OR of its terms, ranked by BM25, because
// queries are natural-language prompts, not boolean expressions.
//
//   - The text is split at white space into words. Every word is emitted as a
//     quoted FTS5 string, which FTS5 tokenizes with the table's tokenizer
//     into a phrase, so `_rrf_fuse`, `snake_case` and `os.path.join` match
//     their tokens in order; a word of several tokens also contributes each
//     token on its own.
//   - Quotes are doubled inside strings, so no user text (quotes, -, *, :,
//     parentheses, NEAR, AND/OR/NOT) is ever read as syntax.
//   - English stop words are dropped unless nothing else remains.
//   - Runs of CJK characters become their overlapping bigrams, searched as
//     a phrase in the cjk column (see CJKBigrams).
//   - At most MaxTerms terms are kept, in order of first appearance.
//
// It returns nil when the text has no searchable term.
func Terms(text string) []string {
	text = norm.NFC.String(text)
	var terms, stopTerms []string
	seen := map[string]bool{}
	add := func(list *[]string, t string) {
		if t == "" || seen[t] {
			return
		}
		seen[t] = true
		*list = append(*list, t)
	}
	for _, word := range strings.Fields(text) {
		toks, cjk := SplitTokens(word)
		for _, run := range cjk {
			add(&terms, "cjk:"+quote(bigramString(run)))
		}
		switch len(toks) {
		case 0:
		case 1:
			t := toks[0]
			if textan.StopWord(t) {
				add(&stopTerms, quote(t))
			} else {
				add(&terms, quote(t))
			}
		default:
			add(&terms, quote(strings.Join(toks, " ")))
			for _, t := range toks {
				if !textan.StopWord(t) {
					add(&terms, quote(t))
				}
			}
		}
	}
	if len(terms) == 0 {
		terms = stopTerms
	}
	if len(terms) > MaxTerms {
		terms = terms[:MaxTerms]
	}
	return terms
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// SplitTokens splits a word into lowercase runs of letters and digits, the
// way FTS5's unicode61 tokenizer does, and returns CJK runs separately.
func SplitTokens(word string) (toks, cjk []string) {
	var cur, cur2 []rune
	flush := func() {
		if len(cur) > 0 {
			toks = append(toks, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
		if len(cur2) > 0 {
			cjk = append(cjk, string(cur2))
			cur2 = cur2[:0]
		}
	}
	for _, r := range word {
		switch {
		case isCJK(r):
			if len(cur) > 0 {
				toks = append(toks, strings.ToLower(string(cur)))
				cur = cur[:0]
			}
			cur2 = append(cur2, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r):
			if len(cur2) > 0 {
				cjk = append(cjk, string(cur2))
				cur2 = cur2[:0]
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return toks, cjk
}

func isCJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// mayHaveCJK is a fast byte prefilter: every CJK script rune starts with a
// UTF-8 lead byte of 0xE2 to 0xF0 (three- and four-byte sequences).
func mayHaveCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0xE2 && c <= 0xF0 {
			return true
		}
	}
	return false
}

// CJKBigrams returns the overlapping bigrams of every run of CJK characters
// in text, separated by spaces, with runs separated by newlines (so a
// phrase never spans two runs). A run of one character yields itself. It
// returns "" when text has no CJK character. FTS5's unicode61 tokenizer
// keeps a whole CJK run as one token, so without this column a two to four
// character query could never match inside a longer run.
func CJKBigrams(text string) string {
	if !mayHaveCJK(text) {
		return ""
	}
	var b strings.Builder
	var run []rune
	flush := func() {
		if len(run) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(bigramString(string(run)))
		run = run[:0]
	}
	for _, r := range text {
		if isCJK(r) {
			run = append(run, r)
		} else {
			flush()
		}
	}
	flush()
	return b.String()
}

func bigramString(run string) string {
	rs := []rune(run)
	if len(rs) < 2 {
		return run
	}
	parts := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		parts = append(parts, string(rs[i:i+2]))
	}
	return strings.Join(parts, " ")
}

// SingleToken reports whether term, one of Terms, is one quoted token,
// and returns that token as Tokens forms it.
func SingleToken(term string) (string, bool) {
	if len(term) < 2 || term[0] != '"' || term[len(term)-1] != '"' {
		return "", false
	}
	raw := strings.ReplaceAll(term[1:len(term)-1], `""`, `"`)
	var tok string
	n := 0
	Tokens(raw, func(b []byte) {
		n++
		tok = string(b)
	})
	return tok, n == 1
}
