package recall

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// Signals is the relevance evidence of one hybrid result list, as the
// relevance floor (Floor) sees it.
type Signals struct {
	// Evidence is the largest total weight (TermWeight) of the query's
	// topical terms that one hit found by the BM25 leg contains, in
	// "rare-term units": a term found in no chunk weighs 1, one found in
	// N^a of the index's N chunks weighs 1-a. Matching two common words
	// gives little evidence, matching an error code or an identifier found
	// in a handful of chunks nearly 1 each.
	Evidence float64
	// Coverage is that hit's share, in [0, 1], of the query's total term
	// weight: the part of what the query asks about that the hit holds.
	Coverage float64
	// Matched is the number of query terms behind Evidence; each is
	// matched by prefix after cutting a common English suffix (see
	// textan.StemForContains), in the hit's title, section heading or text.
	Matched int
	// Terms is the number of topical terms of the query (TopicalTerms).
	Terms int
	// IdentEvidence is the largest total weight (TermWeight) of the
	// query's identifiers (QueryIdentifiers: Get-ChildItem, wcstombs_s)
	// that one BM25 hit contains as written; 0 when the query has none.
	IdentEvidence float64
	// Cosine is the highest cosine similarity in [-1, 1] between the query
	// vector and any returned hit found by the vector leg; 0 when no hit
	// came from the vector leg (no model, or no vectors in the index).
	Cosine float64
	// BM25 is the best BM25 score (-bm25() of SQLite FTS5, higher is
	// better) among the hits; 0 when BM25 found nothing. Its scale depends
	// on the corpus, so the floor does not use it; it is kept for
	// measurement (see FLOOR.md).
	BM25 float64
	// RRF is the fused score of the best hit (see retrieve.Fuse).
	RRF float64
}

// TermWeight is the weight of a term found in df of an index's n chunks:
// its inverse document frequency on a scale that does not depend on the
// index's size, 1 - ln(1+df)/ln(1+n), in [0, 1] (1 for a term in no
// chunk, 0 for one in every chunk, and 0 for an empty index). It is the
// idf of Spärck Jones ("A statistical interpretation of term specificity",
// J. Documentation 28(1), 1972), log(n/df), divided by its largest value:
// a term in n^a chunks weighs 1-a in a vault of any size.
func TermWeight(n, df int64) float64 {
	if n <= 0 {
		return 0
	}
	df = min(max(df, 0), n)
	return 1 - math.Log1p(float64(df))/math.Log1p(float64(n))
}

// Measure computes the Signals of hits, the result of a hybrid search for
// a query whose topical terms (TopicalTerms) are terms, found in df[i] of
// the index's n chunks each (store.DocFreqs). It looks at every hit, not
// only the first: with RRF the first hit may be a weak match found by both
// legs while the strongest single-leg match sits second. df shorter than
// terms counts the missing terms as found nowhere.
//
// With words, a term counts only as a whole word of the hit (the words of
// a Grep pattern, "func main", are code: "func" is not in "function",
// "main" not in "domain"); else by prefix after cutting a common suffix
// (textan.StemForContains), as a question's words are.
func Measure(hits []retrieve.Hit, terms []string, n int64, df []int64, idents []string, identDF []int64, words bool) Signals {
	s := Signals{Terms: len(terms)}
	iw := make([]float64, len(idents))
	for i := range idents {
		var d int64
		if i < len(identDF) {
			d = identDF[i]
		}
		iw[i] = TermWeight(n, d)
	}
	w := make([]float64, len(terms))
	total := 0.0
	for i := range terms {
		var d int64
		if i < len(df) {
			d = df[i]
		}
		w[i] = TermWeight(n, d)
		total += w[i]
	}
	if len(hits) > 0 {
		s.RRF = hits[0].Score
	}
	for _, h := range hits {
		if h.VecRank > 0 && h.VecScore > s.Cosine {
			s.Cosine = h.VecScore
		}
		if h.BM25Rank == 0 {
			continue
		}
		if h.BM25Score > s.BM25 {
			s.BM25 = h.BM25Score
		}
		if e, m := matchedWeight(h, terms, w, words); e > s.Evidence || e == s.Evidence && m > s.Matched {
			s.Evidence, s.Matched = e, m
		}
		s.IdentEvidence = max(s.IdentEvidence, identWeight(h, idents, iw))
	}
	if total > 0 {
		s.Coverage = min(1, s.Evidence/total)
	}
	return s
}

// Clause is one way through the relevance floor: a BM25 hit that holds at
// least Coverage of the query's term weight (Signals.Coverage, a share)
// and at least Evidence of it (Signals.Evidence, rare-term units). With
// Ident, the hit must instead hold Evidence of the weight of the query's
// identifiers as written (Signals.IdentEvidence), whatever its coverage.
type Clause struct {
	Ident    bool    `json:"ident,omitempty"`
	Coverage float64 `json:"coverage"`
	Evidence float64 `json:"evidence"`
}

// Floor is the relevance floor of the context hooks. A result list passes
// when its Signals meet one of Clauses (nil means DefaultClauses), or,
// when MinCosine is above 0, when a vector hit reaches that cosine. A zero
// MinCosine turns the cosine path off, the default (see FLOOR.md: no
// cosine threshold separated the prompt sets, and a cosine scale belongs
// to one embedding model).
//
// The clauses trade coverage for rarity: a hit that holds a third of a
// long prompt must share many rare terms with it, one that holds nearly
// all of a short question may share common ones. Calibrate sets one clause
// per CoverageLevels for each index.
type Floor struct {
	Clauses []Clause
	// Prompt marks the floor of a prompt (UserPromptSubmit, SubagentStart),
	// which skips the identifier clause: a prompt's names are mostly the
	// user's own code (localStorage, EADDRINUSE), which docs may mention in
	// passing; a code search's names (PreToolUse: Grep, Glob) are what it
	// looks for. Measured in FLOOR.md.
	Prompt    bool
	MinCosine float64 // least Signals.Cosine, a cosine similarity; 0 = not used
}

// Pass reports whether s clears the floor.
func (f Floor) Pass(s Signals) bool {
	cl := f.Clauses
	if cl == nil {
		cl = DefaultClauses
	}
	if s.Matched > 0 {
		for _, c := range cl {
			if c.Ident {
				if !f.Prompt && s.IdentEvidence > 0 && s.IdentEvidence >= c.Evidence {
					return true
				}
				continue
			}
			if s.Coverage >= c.Coverage && s.Evidence >= c.Evidence {
				return true
			}
		}
	}
	return f.MinCosine > 0 && s.Cosine > 0 && s.Cosine >= f.MinCosine
}

// MinIdentRunes is the shortest identifier QueryIdentifiers keeps: "v2",
// "s3" and "x64" are written like code but name nothing in particular.
const MinIdentRunes = 4

// QueryIdentifiers returns the identifiers query writes (textan.Identifier:
// Get-ChildItem, wcstombs_s, LNK1104, CWnd::Create), lower-cased and
// whole, of MinIdentRunes or more, leaving out file names ("main.go",
// "CONTRIBUTING.md": a word ending in a dot and one to four letters), which
// name the user's files rather than what the vault documents. An
// identifier is one name, however many tokens search splits it into:
// weighed whole it is as rare as the name, not as common as its parts.
func QueryIdentifiers(query string) []string {
	var idents []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(query) {
		word := strings.Trim(w, "\"'`()[]{}<>,;:!?*")
		word = strings.TrimRight(word, ".")
		word = strings.Trim(word, "\"'`()[]{}<>,;:!?*")
		if utf8.RuneCountInString(word) < MinIdentRunes || !textan.Identifier(word) || fileName(word) {
			continue
		}
		if id := strings.ToLower(word); !seen[id] {
			seen[id] = true
			idents = append(idents, id)
		}
	}
	return idents
}

// fileName reports whether w ends like a file name: a dot and one to four
// letters after something.
func fileName(w string) bool {
	i := strings.LastIndexByte(w, '.')
	if i <= 0 || len(w)-i-1 < 1 || len(w)-i-1 > 4 {
		return false
	}
	for _, r := range w[i+1:] {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// TopicalTerms returns terms without the instruction words of requests to
// a coding agent ("find", "fix", "investigate", "codebase", "suggest" ...):
// they say what to do, not what about, and no note is expected to contain
// them. A prompt made of instruction words alone ("run the tests", "fix
// the build") has no topical term, so no hit can clear the floor: in a
// small vault with a testing note, "run" and "tests" would otherwise be
// rare enough to answer it. (Git's verbs, commit and push, are not among
// them: measured in FLOOR.md.)
func TopicalTerms(terms []string) []string {
	var out []string
	for _, t := range terms {
		if !instructionWords[t] {
			out = append(out, t)
		}
	}
	return out
}

// instructionWords are the verbs and nouns of requests to a coding agent.
var instructionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
find look search survey investigate research explore check review audit inspect figure
explain describe summarise summarize suggest propose recommend tell show give help
fix debug solve resolve make write add update change modify refactor implement create build
improve clean remove delete rename move migrate port replace convert handle support
run test verify ensure report list go through across every everything anything something
codebase repo repository project code file files folder directory issue issues bug bugs
task way ways thing things like need needs want wants use using used`) {
		m[w] = true
	}
	return m
}()

// matchedWeight returns the total weight w of the terms found in h's
// title, section and text, and their number: as whole words with words,
// else by their stems' prefix anywhere (see Measure).
func matchedWeight(h retrieve.Hit, terms []string, w []float64, words bool) (float64, int) {
	hay := strings.ToLower(h.Title + "\n" + h.Section + "\n" + h.Text)
	e, n := 0.0, 0
	for i, t := range terms {
		if words && containsWord(hay, t) || !words && strings.Contains(hay, textan.StemForContains(t)) {
			e += w[i]
			n++
		}
	}
	return e, n
}

// identWeight returns the total weight w of the identifiers found in h's
// title, section and text as written (case aside).
func identWeight(h retrieve.Hit, idents []string, w []float64) float64 {
	if len(idents) == 0 {
		return 0
	}
	hay := strings.ToLower(h.Title + "\n" + h.Section + "\n" + h.Text)
	e := 0.0
	for i, id := range idents {
		if containsWord(hay, id) {
			e += w[i]
		}
	}
	return e
}

// containsWord reports whether word occurs in s with no letter, digit or
// underscore on either side ("eaddrinuse" is not in "wsaeaddrinuse").
func containsWord(s, word string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], word)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(word):])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		from = i + 1
	}
}

func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
