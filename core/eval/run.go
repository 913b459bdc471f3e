package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Hit is one search result as the evaluator sees it: the vault-relative
// path of the note (forward slashes) and the heading of the chunk ("" for
// text before the first heading). Vector reports that the vector leg ranked
// the chunk among its candidates (in hybrid mode: the hit has a vector
// rank), which Run counts as the vector share (QueryResult.Vec).
type Hit struct {
	Path    string
	Section string
	Vector  bool
}

// Searcher is what Run needs from a search engine: the best k hits for
// query in mode ("bm25", "vector" or "hybrid"), best first.
type Searcher interface {
	Search(ctx context.Context, query, mode string, k int) ([]Hit, error)
}

// Set is a named judged query set, built by BEIRSet or VaultSet.
type Set struct {
	Name    string
	Queries []SetQuery
}

// SetQuery is one judged query of a Set. Grades is keyed by unit (corpus id
// or note key); keyOf maps a hit to its unit.
type SetQuery struct {
	ID     string
	Kind   string
	Text   string
	Grades Grades
	keyOf  func(Hit) string
}

// Modes are the search modes Run measures when RunOptions.Modes is empty,
// in report order.
var Modes = []string{"bm25", "vector", "hybrid"}

// DefaultK is the metric cut-off: recall@10, nDCG@10, MRR@10.
const DefaultK = 10

// DefaultDepthFactor times K is the number of hits Run asks the Searcher
// for, so that K distinct units remain after chunks of one note collapse.
const DefaultDepthFactor = 3

// RunOptions configures Run.
type RunOptions struct {
	// Modes to measure, in report order; empty means Modes.
	Modes []string
	// K is the metric cut-off; <= 0 means DefaultK.
	K int
	// Depth is the number of hits requested per search; <= 0 means
	// DefaultDepthFactor*K. It is never below K.
	Depth int
	// PerQuery keeps each query's scores in the report.
	PerQuery bool
	// Logger receives one debug line per mode; nil discards.
	Logger *slog.Logger
}

// Report is the result of Run. It marshals to JSON as is.
type Report struct {
	Set     string `json:"set"`
	K       int    `json:"k"`
	Depth   int    `json:"depth"`
	Queries int    `json:"queries"`
	// Settings describes the ranking settings the searcher used, as its
	// caller fills it in (vaultctx eval: the [search] table), so a
	// number can be traced to the settings that produced it; Run leaves it
	// empty.
	Settings string       `json:"settings,omitempty"`
	Modes    []ModeResult `json:"modes"`
}

// ModeResult holds the scores of one mode: the means over all scored
// queries of recall@K, nDCG@K and RR@K (that is MRR@K), and the
// nearest-rank 50th and 95th percentiles of per-query search latency in
// milliseconds (wall time of the Search call).
type ModeResult struct {
	Mode   string  `json:"mode"`
	Recall float64 `json:"recall"`
	NDCG   float64 `json:"ndcg"`
	MRR    float64 `json:"mrr"`
	P50Ms  float64 `json:"p50_ms"`
	P95Ms  float64 `json:"p95_ms"`
	// VecQueries is the number of scored queries for which at least one of
	// the first K distinct units came from a hit the vector leg ranked
	// (QueryResult.Vec >= 1): in hybrid mode, how often the vector leg
	// takes part in the top K at all (issue 16's "vector share").
	VecQueries int `json:"vec_queries"`
	// Kinds holds the same means per query kind (VaultQuery.Kind), when
	// the set tags its queries.
	Kinds    map[string]KindResult `json:"kinds,omitempty"`
	PerQuery []QueryResult         `json:"per_query,omitempty"`
}

// KindResult holds the mean scores of the N queries of one kind.
type KindResult struct {
	N      int     `json:"n"`
	Recall float64 `json:"recall"`
	NDCG   float64 `json:"ndcg"`
	MRR    float64 `json:"mrr"`
}

// QueryResult holds one query's scores in one mode. Ranked is the list of
// the first K distinct units (corpus ids or note keys) that were scored.
type QueryResult struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind,omitempty"`
	Recall    float64 `json:"recall"`
	NDCG      float64 `json:"ndcg"`
	RR        float64 `json:"rr"`
	LatencyMs float64 `json:"latency_ms"`
	// Vec is the number of the first K distinct units whose best-ranked
	// hit has Hit.Vector set (vec@K).
	Vec    int      `json:"vec"`
	Ranked []string `json:"ranked"`
}

// Run sends every scored query of set to s once per mode and scores the
// hits: each hit becomes a unit (see BEIRSet and VaultSet), repeated units
// count once at their best rank, and Recall, NDCG and ReciprocalRank are
// taken at K. Queries without any relevant unit (grade > 0) are skipped;
// a query the searcher returns nothing for scores 0 (unlike BEIR's
// pytrec_eval averaging, which drops queries absent from the run).
//
// A Search error stops the run and is returned wrapped with the mode and
// query id; a cancelled ctx returns ctx.Err() wrapped.
func Run(ctx context.Context, s Searcher, set *Set, opt RunOptions) (*Report, error) {
	modes := opt.Modes
	if len(modes) == 0 {
		modes = Modes
	}
	k := opt.K
	if k <= 0 {
		k = DefaultK
	}
	depth := opt.Depth
	if depth <= 0 {
		depth = DefaultDepthFactor * k
	}
	depth = max(depth, k)
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}

	var scored []*SetQuery
	for i := range set.Queries {
		if set.Queries[i].Grades.relevant() > 0 {
			scored = append(scored, &set.Queries[i])
		}
	}
	rep := &Report{Set: set.Name, K: k, Depth: depth, Queries: len(scored)}
	for _, mode := range modes {
		res := ModeResult{Mode: mode}
		lat := make([]float64, 0, len(scored))
		for _, q := range scored {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("eval %s: %w", set.Name, err)
			}
			start := time.Now()
			hits, err := s.Search(ctx, q.Text, mode, depth)
			ms := float64(time.Since(start).Nanoseconds()) / 1e6
			if err != nil {
				return nil, fmt.Errorf("eval %s: mode %s: query %s: %w", set.Name, mode, q.ID, err)
			}
			lat = append(lat, ms)
			units := make([]string, len(hits))
			for i, h := range hits {
				units[i] = q.keyOf(h)
			}
			qr := QueryResult{
				ID:        q.ID,
				Kind:      q.Kind,
				Recall:    Recall(units, q.Grades, k),
				NDCG:      NDCG(units, q.Grades, k),
				RR:        ReciprocalRank(units, q.Grades, k),
				LatencyMs: ms,
				Vec:       vectorUnits(units, hits, k),
			}
			if qr.Vec > 0 {
				res.VecQueries++
			}
			res.Recall += qr.Recall
			res.NDCG += qr.NDCG
			res.MRR += qr.RR
			if q.Kind != "" {
				if res.Kinds == nil {
					res.Kinds = map[string]KindResult{}
				}
				kr := res.Kinds[q.Kind]
				kr.N++
				kr.Recall += qr.Recall
				kr.NDCG += qr.NDCG
				kr.MRR += qr.RR
				res.Kinds[q.Kind] = kr
			}
			if opt.PerQuery {
				qr.Ranked = firstK(units, k)
				res.PerQuery = append(res.PerQuery, qr)
			}
		}
		if n := float64(len(scored)); n > 0 {
			res.Recall /= n
			res.NDCG /= n
			res.MRR /= n
		}
		for kind, kr := range res.Kinds {
			n := float64(kr.N)
			kr.Recall, kr.NDCG, kr.MRR = kr.Recall/n, kr.NDCG/n, kr.MRR/n
			res.Kinds[kind] = kr
		}
		res.P50Ms = Percentile(lat, 50)
		res.P95Ms = Percentile(lat, 95)
		log.Debug("eval mode done", "set", set.Name, "mode", mode, "queries", len(scored),
			"ndcg", res.NDCG, "p50_ms", res.P50Ms)
		rep.Modes = append(rep.Modes, res)
	}
	return rep, nil
}

// vectorUnits returns how many of the first k distinct units have their
// best-ranked hit (the first in hits, units[i] being hits[i]'s unit)
// marked Vector.
func vectorUnits(units []string, hits []Hit, k int) int {
	seen := make(map[string]bool, len(units))
	n := 0
	for i, u := range units {
		if len(seen) == k {
			break
		}
		if seen[u] {
			continue
		}
		seen[u] = true
		if hits[i].Vector {
			n++
		}
	}
	return n
}

// Percentile returns the p-th percentile (0 < p <= 100) of xs by the
// nearest-rank method: the smallest value such that at least p% of xs are
// less or equal, i.e. sorted[ceil(p/100*n)-1]. It returns 0 for no values.
// xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// Mode returns the result for mode, or false when the report lacks it.
func (r *Report) Mode(mode string) (ModeResult, bool) {
	for _, m := range r.Modes {
		if m.Mode == mode {
			return m, true
		}
	}
	return ModeResult{}, false
}

// WriteTable writes the report as one aligned text table, a title line
// (and a "search:" line with Settings when set) followed by one row per
// mode, then, for a set whose queries have kinds, nDCG per kind and mode:
//
//	scifact/train@1000: 809 queries, k=10, depth 30
//	search: candidates 30, rrf_k 60, bm25_weight 1, vector_weight 0.2, ...
//	mode    recall@10  nDCG@10  MRR@10  p50 ms  p95 ms  vec@10 queries
//	bm25       0.8123   0.7012  0.6690    1.21    2.48  0/809
//
// The last column is ModeResult.VecQueries out of the scored queries.
func (r *Report) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d queries, k=%d, depth %d\n", r.Set, r.Queries, r.K, r.Depth)
	if r.Settings != "" {
		fmt.Fprintf(&b, "search: %s\n", r.Settings)
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "mode\trecall@%d\tnDCG@%d\tMRR@%d\tp50 ms\tp95 ms\tvec@%d queries\n", r.K, r.K, r.K, r.K)
	for _, m := range r.Modes {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%.2f\t%.2f\t%d/%d\n", m.Mode, m.Recall, m.NDCG, m.MRR, m.P50Ms, m.P95Ms, m.VecQueries, r.Queries)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if kinds := r.kinds(); len(kinds) > 0 {
		fmt.Fprintf(&b, "nDCG@%d by query kind:\n", r.K)
		fmt.Fprint(tw, "kind\tqueries")
		for _, m := range r.Modes {
			fmt.Fprintf(tw, "\t%s", m.Mode)
		}
		fmt.Fprintln(tw)
		for _, kind := range kinds {
			fmt.Fprintf(tw, "%s\t%d", kind, r.Modes[0].Kinds[kind].N)
			for _, m := range r.Modes {
				fmt.Fprintf(tw, "\t%.4f", m.Kinds[kind].NDCG)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// kinds returns the query kinds of the report, sorted.
func (r *Report) kinds() []string {
	if len(r.Modes) == 0 {
		return nil
	}
	var out []string
	for k := range r.Modes[0].Kinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// WriteJSON writes the report as indented JSON followed by a newline.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
