package recall

import (
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// Signals is the relevance evidence of one hybrid result list, as the
// relevance floor (Floor) sees it.
type Signals struct {
	// Cosine is the highest cosine similarity in [-1, 1] between the query
	// vector and any returned hit found by the vector leg; 0 when no hit
	// came from the vector leg (no model, or no vectors in the index).
	Cosine float64
	// Coverage is the highest share, in [0, 1], of the query's topical
	// terms (TopicalTerms of textan.SearchableTerms) found in one hit found
	// by the BM25 leg,
	// matching each term by prefix after cutting a common English suffix
	// (see textan.StemForContains), in the hit's title, section heading and text.
	Coverage float64
	// Matched is the number of query terms behind Coverage.
	Matched int
	// BM25 is the best BM25 score (-bm25() of SQLite FTS5, higher is
	// better) among the hits; 0 when BM25 found nothing. Its scale depends
	// on the corpus, so the floor does not use it; it is kept for
	// measurement (see FLOOR.md).
	BM25 float64
	// RRF is the fused score of the best hit (see retrieve.Fuse).
	RRF float64
}

// Measure computes the Signals of hits, the result of a hybrid search for a
// query whose searchable terms are terms. It looks at every hit, not only
// the first: with RRF the first hit may be a weak match found by both legs
// while the strongest single-leg match sits second. Coverage counts only
// topical terms (see TopicalTerms).
func Measure(hits []retrieve.Hit, terms []string) Signals {
	terms = TopicalTerms(terms)
	var s Signals
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
		if n := matchedTerms(h, terms); n > s.Matched {
			s.Matched = n
		}
	}
	if len(terms) > 0 {
		s.Coverage = float64(s.Matched) / float64(len(terms))
	}
	return s
}

// Floor is the relevance floor of the context hooks: a result list passes
// when its Signals reach either threshold. Zero fields take the defaults
// DefaultMinCosine, DefaultMinCoverage and DefaultMinMatched. A MinCosine
// above 1 turns the cosine leg off; a MinCoverage above 1 together with a
// MinMatched above the number of query terms turns the term leg off.
type Floor struct {
	MinCosine   float64 // least Signals.Cosine, a cosine similarity
	MinCoverage float64 // least Signals.Coverage, a share of query terms
	// MinMatched caps the terms the term leg asks for: a hit that
	// contains MinMatched query terms passes even below MinCoverage, so
	// long queries (Task prompts) are not held to 70% of many terms.
	MinMatched int
}

// Pass reports whether s clears the floor (with the defaults for zero
// fields): Cosine >= MinCosine, or Matched >= min(MinCoverage x terms,
// MinMatched), that is Coverage >= MinCoverage or Matched >= MinMatched.
func (f Floor) Pass(s Signals) bool {
	minCos, minCov, minN := f.MinCosine, f.MinCoverage, f.MinMatched
	if minCos <= 0 {
		minCos = DefaultMinCosine
	}
	if minCov <= 0 {
		minCov = DefaultMinCoverage
	}
	if minN <= 0 {
		minN = DefaultMinMatched
	}
	return (s.Cosine > 0 && s.Cosine >= minCos) || (s.Matched > 0 && (s.Coverage >= minCov || s.Matched >= minN))
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

// matchedTerms counts the terms found in h's title, section and text.
func matchedTerms(h retrieve.Hit, terms []string) int {
	hay := strings.ToLower(h.Title + "\n" + h.Section + "\n" + h.Text)
	n := 0
	for _, t := range terms {
		if strings.Contains(hay, textan.StemForContains(t)) {
			n++
		}
	}
	return n
}
