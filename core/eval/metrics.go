package eval

import (
	"math"
	"sort"
)

// Grades holds the judgments of one query: judged unit (a document id or a
// note key) to relevance grade. A grade <= 0 means judged not relevant;
// units that are absent are not relevant either.
type Grades map[string]int

// relevant reports the number of units with a grade > 0.
func (g Grades) relevant() int {
	n := 0
	for _, v := range g {
		if v > 0 {
			n++
		}
	}
	return n
}

// firstK returns the first k distinct ids of ranked (best first): a repeated
// id counts only at its first (best) rank, later copies are dropped. k <= 0
// means no cut-off.
func firstK(ranked []string, k int) []string {
	seen := make(map[string]bool, len(ranked))
	out := make([]string, 0, min(len(ranked), max(k, 0)))
	for _, id := range ranked {
		if k > 0 && len(out) == k {
			break
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

// Recall returns recall@k: the fraction of the query's relevant units
// (grade > 0) that occur among the first k distinct ids of ranked (best
// first), as trec_eval's recall_k / BEIR's Recall@k. It returns 0 when the
// query has no relevant unit.
func Recall(ranked []string, g Grades, k int) float64 {
	rel := g.relevant()
	if rel == 0 {
		return 0
	}
	hit := 0
	for _, id := range firstK(ranked, k) {
		if g[id] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(rel)
}

// NDCG returns nDCG@k as trec_eval's ndcg_cut_k (and so BEIR's NDCG@k)
// computes it (Järvelin and Kekäläinen, "Cumulated gain-based evaluation of
// IR techniques", TOIS 2002, with the log2(i+1) discount of Burges et al.
// 2005):
//
//	DCG@k  = Σ_{i=1..k} gain(d_i) / log2(i+1)
//	nDCG@k = DCG@k / IDCG@k
//
// where d_i is the i-th distinct id of ranked (repeats are dropped, see
// firstK), gain is the linear grade from g (grades <= 0 and unjudged ids
// give 0, never a negative gain), and IDCG@k is the DCG@k of the ideal
// ordering of all judged relevant units of the query by grade, whether or
// not they were retrieved. It returns 0 when the query has no relevant unit.
func NDCG(ranked []string, g Grades, k int) float64 {
	dcg := 0.0
	for i, id := range firstK(ranked, k) {
		if gain := g[id]; gain > 0 {
			dcg += float64(gain) / math.Log2(float64(i+2))
		}
	}
	ideal := make([]int, 0, len(g))
	for _, v := range g {
		if v > 0 {
			ideal = append(ideal, v)
		}
	}
	if len(ideal) == 0 {
		return 0
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	idcg := 0.0
	for i, gain := range ideal {
		if k > 0 && i == k {
			break
		}
		idcg += float64(gain) / math.Log2(float64(i+2))
	}
	return dcg / idcg
}

// ReciprocalRank returns RR@k: 1/r for the rank r (1-based, over distinct
// ids) of the first relevant unit (grade > 0) among the first k ids of
// ranked, and 0 when none of them is relevant. Its mean over queries is
// MRR@k; later relevant hits do not count.
func ReciprocalRank(ranked []string, g Grades, k int) float64 {
	for i, id := range firstK(ranked, k) {
		if g[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}
