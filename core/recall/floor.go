package recall

import (
	"math"
	"strings"

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
func Measure(hits []retrieve.Hit, terms []string, n int64, df []int64) Signals {
	s := Signals{Terms: len(terms)}
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
		if e, m := matchedWeight(h, terms, w); e > s.Evidence || e == s.Evidence && m > s.Matched {
			s.Evidence, s.Matched = e, m
		}
	}
	if total > 0 {
		s.Coverage = min(1, s.Evidence/total)
	}
	return s
}

// Clause is one way through the relevance floor: a BM25 hit that holds at
// least Coverage of the query's term weight (Signals.Coverage, a share)
// and at least Evidence of it (Signals.Evidence, rare-term units).
type Clause struct {
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
	Clauses   []Clause
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
			if s.Coverage >= c.Coverage && s.Evidence >= c.Evidence {
				return true
			}
		}
	}
	return f.MinCosine > 0 && s.Cosine > 0 && s.Cosine >= f.MinCosine
}

// TopicalTerms returns terms without the instruction words of requests to
// a coding agent ("find", "fix", "investigate", "codebase", "suggest" ...):
// they say what to do, not what about, and no note is expected to contain
// them. When that would leave no term, terms is returned unchanged.
func TopicalTerms(terms []string) []string {
	var out []string
	for _, t := range terms {
		if !instructionWords[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return terms
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
// title, section and text, and their number.
func matchedWeight(h retrieve.Hit, terms []string, w []float64) (float64, int) {
	hay := strings.ToLower(h.Title + "\n" + h.Section + "\n" + h.Text)
	e, n := 0.0, 0
	for i, t := range terms {
		if strings.Contains(hay, textan.StemForContains(t)) {
			e += w[i]
			n++
		}
	}
	return e, n
}
