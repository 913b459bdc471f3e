package ftsquery

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
//   - A span between double quotes ("..." or “...”) is one phrase, stop
//     words included, and contributes nothing else: `"will self"` matches
//     only the two words in that order. A quote without its closing quote
//     is read as a separator.
//   - The rest is split at white space into words. Every word is emitted
//     as a quoted FTS5 string, which FTS5 tokenizes with the table's
//     tokenizer into a phrase, so `_rrf_fuse`, `snake_case` and
//     `os.path.join` match their tokens in order; a word of several tokens
//     also contributes each token of two or more characters on its own (a
//     one-character fragment such as the "s" of `mbstowcs_s` would match
//     almost every chunk and is only searched inside the phrase).
//   - A word whose tokens are joined by hyphens also contributes their
//     join (`plug-in` gives "plugin", looked for in the TextColumns); the
//     index holds the join of every hyphenated word in its cjk column
//     (see Extras), so `plugin` finds `plug-in` and `plug-in` finds
//     `plugin`.
//   - Quotes are doubled inside strings, so no user text (quotes, -, *, :,
//     parentheses, NEAR, AND/OR/NOT) is ever read as syntax.
//   - English stop words are dropped unless nothing else remains.
//   - Runs of CJK characters (textan.CJK) become their overlapping bigrams,
//     searched as a phrase in the cjk column (see CJKBigrams); an emoji
//     (textan.Emoji) becomes its token there (see EmojiToken).
//   - At most MaxTerms terms are kept, in order of first appearance.
//
// It returns nil when the text has no searchable term.
func Terms(text string) []string {
	terms, _ := build(text)
	return terms
}

// ExactTerms returns the terms of Terms(text) that keyword search also
// matches against the unstemmed text: the phrase of every quoted span and
// the phrase and tokens of every identifier (textan.Identifier: mbstowcs_s,
// EnableQuickCustomization, os.path.join), the words the porter stemmer
// must not conflate with others. English words are left to the stemmed
// match alone: on the vault reference set, matching every rare word as
// written as well cost 0.03 nDCG@10 on its concept queries, whose words
// rarely take the note's own inflection. It returns nil when there are
// none.
func ExactTerms(text string) []string {
	_, exact := build(text)
	return exact
}

// build returns Terms and ExactTerms.
func build(text string) (terms, exact []string) {
	text = norm.NFC.String(text)
	var stopTerms []string
	seen := map[string]bool{}
	add := func(list *[]string, t string) bool {
		if t == "" || seen[t] {
			return false
		}
		seen[t] = true
		*list = append(*list, t)
		return true
	}
	extras := func(s string, cjk []string) {
		for _, run := range cjk {
			add(&terms, "cjk:"+quote(bigramString(run)))
		}
		for _, r := range s {
			if textan.Emoji(r) {
				add(&terms, "cjk:"+quote(EmojiToken(r)))
			}
		}
	}
	for _, seg := range quotedSpans(text) {
		if seg.quoted {
			toks, cjk := SplitTokens(seg.text)
			extras(seg.text, cjk)
			if len(toks) > 0 && add(&terms, quote(strings.Join(toks, " "))) {
				exact = append(exact, terms[len(terms)-1])
			}
			continue
		}
		for _, word := range strings.Fields(seg.text) {
			toks, cjk := SplitTokens(word)
			extras(word, cjk)
			ident := textan.Identifier(word)
			emit := func(t string) {
				if add(&terms, t) && ident {
					exact = append(exact, t)
				}
			}
			switch len(toks) {
			case 0:
			case 1:
				t := toks[0]
				if textan.StopWord(t) {
					add(&stopTerms, quote(t))
				} else {
					emit(quote(t))
				}
			default:
				emit(quote(strings.Join(toks, " ")))
				for _, t := range toks {
					if utf8.RuneCountInString(t) > 1 && !textan.StopWord(t) {
						emit(quote(t))
					}
				}
				for _, j := range HyphenJoins(word) {
					add(&terms, TextColumns+quote(j))
				}
			}
		}
	}
	if len(terms) == 0 {
		terms = stopTerms
	}
	if len(terms) > MaxTerms {
		terms = terms[:MaxTerms]
		var kept []string
		for _, t := range exact {
			if slices.Contains(terms, t) {
				kept = append(kept, t)
			}
		}
		exact = kept
	}
	return terms, exact
}

// TextColumns is the column filter of a hyphen join in a query: the
// columns of the text as written. Every chunk holding "plug-in" holds the
// join "plugin" in its cjk column (Extras), and the query "plug-in"
// already matches those chunks through the phrase "plug in"; its join is
// therefore looked for only where the text itself says "plugin", so that
// no chunk is scored twice for one word.
const TextColumns = "{chunk_text section heading_context}:"

// span is a part of a query: quoted (between double quotes) or not.
type span struct {
	text   string
	quoted bool
}

// quotedSpans cuts text into the spans between matching double quotes
// (ASCII " ... " or “ ... ”) and the text around them.
func quotedSpans(text string) []span {
	var out []span
	for text != "" {
		i := strings.IndexAny(text, "\"“")
		if i < 0 {
			break
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		j := strings.IndexAny(text[i+n:], "\"”")
		if j < 0 {
			break
		}
		_, m := utf8.DecodeRuneInString(text[i+n+j:])
		out = append(out, span{text: text[:i]}, span{text: text[i+n : i+n+j], quoted: true})
		text = text[i+n+j+m:]
	}
	return append(out, span{text: text})
}

// HyphenJoins returns, for every chain of two or more letter-and-digit
// runs joined by single hyphens (-, U+2010, U+2011) in word, the runs
// written together and lowercased: "plug-in" gives "plugin", "A-Company's"
// gives "acompany", "Get-ChildItem -Path" gives "getchilditem". A chain
// must hold a letter ("2024-01-31" gives nothing), and CJK characters end
// a run.
func HyphenJoins(word string) []string {
	var out []string
	var cur, chain []rune
	parts, letter := 0, false
	end := func() {
		if len(cur) > 0 {
			chain = append(chain, cur...)
			parts++
			cur = cur[:0]
		}
		if parts >= 2 && letter {
			out = append(out, strings.ToLower(string(chain)))
		}
		chain, parts, letter = chain[:0], 0, false
	}
	prevHyphen := false
	for _, r := range word {
		switch {
		case tokenRune(r) && !textan.CJK(r):
			cur = append(cur, r)
			letter = letter || unicode.IsLetter(r)
			prevHyphen = false
		case (r == '-' || r == 0x2010 || r == 0x2011) && len(cur) > 0 && !prevHyphen:
			chain = append(chain, cur...)
			parts++
			cur = cur[:0]
			prevHyphen = true
		default:
			if prevHyphen { // "a-" then a separator: the chain ends before the hyphen
				prevHyphen = false
			}
			end()
		}
	}
	end()
	return out
}

func tokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
}

// EmojiToken is the token that stands for the emoji r in the cjk column:
// "emoji" and r's code point in decimal ("📅", U+1F4C5, gives
// "emoji128197"). FTS5's unicode61 tokenizer treats symbols as separators,
// so an emoji can only be found through such a stand-in; a decimal ending
// leaves it untouched by the porter stemmer.
func EmojiToken(r rune) string { return "emoji" + strconv.Itoa(int(r)) }

// Extras returns the text of the cjk column of a chunk whose text (body
// and section) is text: the tokens FTS5's unicode61 tokenizer cannot form
// from the text itself, on lines of their own, or "" when there are none:
//
//   - the overlapping bigrams of every CJK run (CJKBigrams);
//   - the letter-and-digit runs written inside CJK text, as words: in
//     "我们使用Docker部署服务" unicode61 sees one token, here "docker" is
//     one too (and "config.yaml" gives the phrase "config yaml");
//   - the join of every hyphenated word (HyphenJoins: "plug-in" gives
//     "plugin");
//   - every emoji as its EmojiToken.
func Extras(text string) string {
	var b strings.Builder
	line := func(s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
	}
	line(CJKBigrams(text))
	// One pass over the white-space-separated words (as strings.Fields
	// cuts them) that only looks closer at a word with a byte that can
	// start a CJK rune or an emoji, or with a hyphen: most words have
	// neither, and this runs on every chunk of a full index.
	var joins, emoji []string
	start, wide, hyphen := -1, false, false
	word := func(end int) {
		if start < 0 {
			return
		}
		w := text[start:end]
		if wide {
			if toks, cjk := SplitTokens(w); len(cjk) > 0 && len(toks) > 0 {
				line(strings.Join(toks, " "))
			}
			for _, r := range w {
				if textan.Emoji(r) {
					emoji = append(emoji, EmojiToken(r))
				}
			}
		}
		if hyphen && innerHyphen(w) {
			joins = append(joins, HyphenJoins(w)...)
		}
		start, wide, hyphen = -1, false, false
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch c {
			case ' ', '\t', '\n', '\r', '\v', '\f':
				word(i)
			default:
				if start < 0 {
					start = i
				}
				hyphen = hyphen || c == '-'
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			word(i)
		} else {
			if start < 0 {
				start = i
			}
			wide = wide || c >= 0xE2 && c <= 0xF0
			hyphen = hyphen || r == 0x2010 || r == 0x2011
		}
		i += size
	}
	word(len(text))
	line(strings.Join(joins, " "))
	line(strings.Join(emoji, " "))
	return b.String()
}

// innerHyphen reports whether word has a hyphen (-, U+2010, U+2011) with
// a letter or digit on both sides, the only place HyphenJoins joins.
func innerHyphen(word string) bool {
	for i := 0; i < len(word); {
		r, size := utf8.DecodeRuneInString(word[i:])
		if r == '-' || r == 0x2010 || r == 0x2011 {
			before, _ := utf8.DecodeLastRuneInString(word[:i])
			after, _ := utf8.DecodeRuneInString(word[i+size:])
			if tokenRune(before) && tokenRune(after) {
				return true
			}
		}
		i += size
	}
	return false
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
		case textan.CJK(r):
			if len(cur) > 0 {
				toks = append(toks, strings.ToLower(string(cur)))
				cur = cur[:0]
			}
			cur2 = append(cur2, r)
		case tokenRune(r) && (len(cur) > 0 || !unicode.Is(unicode.Mn, r)): // a mark only continues a token
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

// mayHaveCJK is a fast byte prefilter: every CJK rune (textan.CJK) and
// every emoji (textan.Emoji) starts with a UTF-8 lead byte of 0xE2 to 0xF0
// (three- and four-byte sequences).
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
		if textan.CJK(r) {
			run = append(run, r)
		} else {
			flush()
		}
	}
	flush()
	return b.String()
}

// bigramString returns the overlapping bigrams of run separated by spaces
// (a run of one character gives itself). The spacing sound marks ゛ ゜
// (U+309B, U+309C), which unicode61 reads as separators, are written as
// their halfwidth forms ﾞ ﾟ (U+FF9E, U+FF9F), which it reads as letters,
// so a bigram holding one stays one token; index and query fold alike.
func bigramString(run string) string {
	rs := []rune(run)
	for i, r := range rs {
		switch r {
		case 0x309B:
			rs[i] = 0xFF9E
		case 0x309C:
			rs[i] = 0xFF9F
		}
	}
	if len(rs) < 2 {
		return string(rs)
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
	if term == "" || term[0] != '"' {
		return "", false // a column filter, or not a phrase
	}
	if toks := PhraseTokens(term); len(toks) == 1 {
		return toks[0], true
	}
	return "", false
}
