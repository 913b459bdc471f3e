package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Fusion calibration: how much the vector leg of hybrid search is worth on
// one index with one model, measured at index time instead of tuned once
// to one model.
//
// Each sampled chunk gives one pseudo-query: its first sentence (see
// PseudoQuery). Both legs are asked for Candidates hits, and the rank of
// the source chunk in each list is its reciprocal rank; the mean over all
// pseudo-queries is each leg's MRR@Candidates. This is the Inverse Cloze
// Task of Lee, Chang and Toutanova ("Latent retrieval for weakly
// supervised open domain question answering", ACL 2019): a sentence of a
// passage is the query and the passage the relevant document. The vector
// weight is the ratio of the two legs' MRR, the rule of weighting each
// input of a rank fusion by its measured quality (Aslam and Montague,
// "Models for metasearch", SIGIR 2001), applied to the weights w_i of
// weighted RRF (Cormack, Clarke and Büttcher, SIGIR 2009; see Fuse), with
// pseudo-relevance judgments in place of real ones as in automatic
// evaluation without judgments (Soboroff, Nicholas and Cahan, "Ranking
// retrieval systems without relevance judgments", SIGIR 2001).
//
// Leakage: the query sentence is in its chunk word for word, which favours
// BM25 (an exact match of every term) far more than an averaged static
// embedding, and it makes both legs look better than on real queries.
// The ratio is not a bound either way: measured with GloVe, it is 0.20
// against the legs' nDCG@10 ratio of 0.16 on the large corpus's train
// queries, and 0.49 against 0.40 on SciFact train; with bm25_lead keeping
// BM25's first hit, weights in that range score within 0.001 nDCG@10 of
// the hand-measured 0.2 (eval/README.md). Headings and titles are not used as
// queries: they are indexed in every chunk of their note (section and
// heading-context columns), which would make BM25 near perfect and the
// measure blind. Near-duplicate copies of a chunk elsewhere in the vault
// are counted as misses for both legs alike.
//
// The calibration also measures the background of the vector leg: the
// cosines of the vector hits that are not the source chunk, i.e. the
// chance neighbours of the pseudo-queries (siblings of the same note
// included), and records their BackgroundQuantile-quantile as
// BackgroundCosine: the cosine that a KNN hit must pass to be closer than
// nearly all of what a query finds by chance, the score normalisation
// against a null distribution of query performance prediction (Shtok,
// Kurland and Carmel, ICTIR 2009). It is shown, not applied as the
// search.min_cosine cut-off: measured with GloVe (eval/README.md), it is
// 0.83 on the large corpus, where it keeps every vector hit of the train
// queries out (the concept query "how to handle authentication failures"
// needs its section's cosine of 0.714), and 0.69 on SciFact; the median
// (0.70 and 0.57) let in enough noise on SciFact to cost 0.007 nDCG@10, and
// the lowest cosine at which vector hits are the source chunk as often as
// BM25's hits are gave 0.37 there. Pseudo-queries of 24 words also have
// higher cosines than queries of 5 words, so one cosine cannot serve both.

// BackgroundQuantile is the quantile of the background cosines that
// CalibrateFusion records as BackgroundCosine: 0.9.
const BackgroundQuantile = 0.9

// DefaultPseudoQueries is how many chunks CalibrateFusion's caller should
// sample: 300, two searches each (1 to 2 s on the 163k-chunk large corpus
// with GloVe, model load included). The standard error of an MRR over 300 queries is
// about 0.02.
const DefaultPseudoQueries = 300

// MinPseudoQueries is the fewest usable pseudo-queries CalibrateFusion
// accepts; with fewer it returns ErrFewPseudoQueries and the index keeps
// the configured defaults.
const MinPseudoQueries = 20

// MinCalibratedVectorWeight is the least vector weight a calibration
// sets (0.05), so a leg that found nothing on the sample still breaks
// ties; MaxCalibratedVectorWeight (1) is the most, the weight of BM25: a
// vector leg that beats BM25 on its own first sentences is not trusted to
// outrank it on real queries.
const (
	MinCalibratedVectorWeight = 0.05
	MaxCalibratedVectorWeight = 1.0
)

// ErrFewPseudoQueries is returned (wrapped) by CalibrateFusion when fewer
// than MinPseudoQueries samples give a pseudo-query.
var ErrFewPseudoQueries = fmt.Errorf("too few pseudo-queries to calibrate the fusion (at least %d)", MinPseudoQueries)

// Sample is one chunk drawn for the calibration: its id and text.
type Sample struct {
	ChunkID int64
	Text    string
}

// Fusion is the fusion calibration of one index: the vector leg's RRF
// weight (BM25's is 1), with the measurements it comes from, and the
// background cosine of the vector leg. It is stored as JSON in the index
// meta.
type Fusion struct {
	VectorWeight     float64 `json:"vector_weight"`     // RRF weight of the vector leg: VecMRR / BM25MRR, clamped to [MinCalibratedVectorWeight, MaxCalibratedVectorWeight]
	BackgroundCosine float64 `json:"background_cosine"` // BackgroundQuantile-quantile of the background cosines, rounded to 0.01 (shown, not applied)
	Queries          int     `json:"queries"`           // pseudo-queries run
	BM25MRR          float64 `json:"bm25_mrr"`          // MRR@Candidates of the source chunk, BM25 leg
	VecMRR           float64 `json:"vec_mrr"`           // the same, vector leg
	Background       int     `json:"background"`        // background cosines seen (vector hits that are not the source chunk)
	Model            string  `json:"model"`             // base name of the model folder the vectors come from
}

// String describes f in one line, as `vaultctx status`, `vaultctx index`
// and `vaultctx search --explain` print it: "vector_weight 0.20 =
// MRR@30 vector 0.108 / BM25 0.531 on 247 pseudo-queries of glove-120k;
// 90% of 7359 chance neighbours have a cosine below 0.83".
func (f Fusion) String() string {
	return fmt.Sprintf("vector_weight %.2f = MRR@30 vector %.3f / BM25 %.3f on %d pseudo-queries of %s; %.0f%% of %d chance neighbours have a cosine below %.2f",
		f.VectorWeight, f.VecMRR, f.BM25MRR, f.Queries, f.Model, 100*BackgroundQuantile, f.Background, f.BackgroundCosine)
}

// Valid reports whether f holds values Search can use.
func (f Fusion) Valid() bool {
	return f.Queries > 0 && finite(f.VectorWeight) && f.VectorWeight > 0 && finite(f.BackgroundCosine) && f.BackgroundCosine >= -1 && f.BackgroundCosine <= 1
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// PseudoQuery returns the pseudo-query of a chunk text: its first sentence
// of at least 4 words (lines that are headings, list markers, tables, code
// fences or links only are skipped), cut to its first 24 words; "" when
// the text has none. Markdown emphasis and link punctuation stay: both
// legs see the same string.
func PseudoQuery(text string) string {
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "|") || strings.HasPrefix(l, ">") {
			continue
		}
		l = strings.TrimLeft(l, "-*+0123456789. ")
		if s := firstSentence(l); len(sentenceWords(s)) >= 4 {
			w := sentenceWords(s)
			if len(w) > 24 {
				w = w[:24]
			}
			return strings.Join(w, " ")
		}
	}
	return ""
}

func firstSentence(l string) string {
	for i, r := range l {
		if (r == '.' || r == '?' || r == '!') && (i+1 == len(l) || l[i+1] == ' ') {
			return l[:i+1]
		}
	}
	return l
}

// sentenceWords splits s at spaces, keeping only fields holding a letter.
func sentenceWords(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		if strings.ContainsFunc(f, unicode.IsLetter) {
			out = append(out, f)
		}
	}
	return out
}

// CalibrateFusion measures the two legs on the pseudo-queries of samples
// (see the comment block above and PseudoQuery) and returns the
// calibration. Each leg is asked for opt.Candidates hits (0 =
// DefaultCandidates) of BM25 and of KNN without a cosine cut-off; a
// pseudo-query whose embedding is zero (no word the model knows) is
// skipped. Model is left empty for the caller. Errors: those of the
// source and the embedder, and ErrFewPseudoQueries.
func CalibrateFusion(ctx context.Context, src Source, emb Embedder, samples []Sample, opt Options) (Fusion, error) {
	n := opt.Candidates
	if n <= 0 {
		n = DefaultCandidates
	}
	var f Fusion
	var bm, vm float64
	var bg []float64
	for _, s := range samples {
		if err := ctx.Err(); err != nil {
			return Fusion{}, err
		}
		q := PseudoQuery(s.Text)
		if q == "" {
			continue
		}
		v, err := emb.Encode(q)
		if err != nil {
			return Fusion{}, fmt.Errorf("calibrate the fusion: embed a pseudo-query: %w", err)
		}
		if isZero(v) {
			continue
		}
		kw, err := src.KeywordHits(ctx, q, n)
		if err != nil {
			return Fusion{}, fmt.Errorf("calibrate the fusion: %w", err)
		}
		vec, err := src.VectorHits(ctx, v, n)
		if err != nil {
			return Fusion{}, fmt.Errorf("calibrate the fusion: %w", err)
		}
		f.Queries++
		bm += reciprocalRank(kw, s.ChunkID)
		vm += reciprocalRank(vec, s.ChunkID)
		for _, h := range vec {
			if h.ID != s.ChunkID {
				bg = append(bg, h.Score)
			}
		}
	}
	if f.Queries < MinPseudoQueries {
		return Fusion{}, fmt.Errorf("%w: %d of %d samples", ErrFewPseudoQueries, f.Queries, len(samples))
	}
	f.BM25MRR, f.VecMRR = bm/float64(f.Queries), vm/float64(f.Queries)
	f.VectorWeight = MaxCalibratedVectorWeight
	if f.BM25MRR > 0 {
		f.VectorWeight = min(MaxCalibratedVectorWeight, max(MinCalibratedVectorWeight, f.VecMRR/f.BM25MRR))
	}
	f.VectorWeight = math.Round(f.VectorWeight*100) / 100
	f.Background = len(bg)
	f.BackgroundCosine = math.Round(quantile(bg, BackgroundQuantile)*100) / 100
	return f, nil
}

// reciprocalRank is 1/rank of id in hits (1-based), 0 when absent.
func reciprocalRank(hits []Scored, id int64) float64 {
	for i, h := range hits {
		if h.ID == id {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// quantile is the nearest-rank q-quantile of vals (0 for none).
func quantile(vals []float64, q float64) float64 {
	if len(vals) == 0 {
		return 0
	}
	v := slices.Clone(vals)
	slices.Sort(v)
	i := int(math.Ceil(q*float64(len(v)))) - 1
	return v[min(len(v)-1, max(0, i))]
}
