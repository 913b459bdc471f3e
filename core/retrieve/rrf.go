package retrieve

import "sort"

// DefaultRRFK is the k constant of Reciprocal Rank Fusion recommended by
// Cormack, Clarke and Büttcher (SIGIR 2009).
const DefaultRRFK = 60

// Ranked is one ranked list to fuse: IDs in rank order (best first) and the
// list's weight w_i. A nil or empty list contributes nothing.
type Ranked struct {
	IDs    []int64
	Weight float64
}

// Fused is one fused result. Ranks holds the 1-based rank of the ID in each
// input list, in input order, with 0 when the ID is absent from that list.
type Fused struct {
	ID    int64
	Score float64
	Ranks []int
}

// Fuse merges ranked lists with Reciprocal Rank Fusion (Cormack, Clarke and
// Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and individual
// rank learning methods", SIGIR 2009):
//
//	score(d) = Σ_i w_i / (k + rank_i(d))
//
// where rank_i is 1-based and lists in which d does not occur add nothing.
// k <= 0 means DefaultRRFK. Every ID of every list is kept (the window is
// whatever the caller retrieved); a duplicate ID inside one list counts only
// at its first (best) rank.
//
// Ties are broken deterministically: higher score first, then the better
// (smaller) best rank over all lists, then the smaller ID. Empty input gives
// an empty, non-nil slice.
func Fuse(k float64, lists ...Ranked) []Fused {
	if k <= 0 {
		k = DefaultRRFK
	}
	byID := map[int64]*Fused{}
	order := []int64{}
	for li, l := range lists {
		for r, id := range l.IDs {
			f, ok := byID[id]
			if !ok {
				f = &Fused{ID: id, Ranks: make([]int, len(lists))}
				byID[id] = f
				order = append(order, id)
			}
			if f.Ranks[li] != 0 {
				continue
			}
			f.Ranks[li] = r + 1
			f.Score += l.Weight / (k + float64(r+1))
		}
	}
	out := make([]Fused, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		ba, bb := bestRank(out[a].Ranks), bestRank(out[b].Ranks)
		if ba != bb {
			return ba < bb
		}
		return out[a].ID < out[b].ID
	})
	return out
}

// KeepLead returns fused with the first n IDs of lead moved to its front,
// in lead's order, and every other result after them in fused's order. IDs
// of lead that fused lacks are skipped; n <= 0, or an empty lead, returns
// fused unchanged. Scores and ranks are not changed, so after KeepLead the
// results are no longer sorted by Score. fused is not modified.
//
// Search uses it to keep BM25's best hits first in hybrid mode
// (Options.BM25Lead): measured on SciFact train and the vault reference set
// with GloVe vectors, BM25's first hit is relevant 60% and 52% of the time,
// a lower BM25 hit the vector leg also found 6.1% and 7.5%, while RRF with
// k = 60 scores BM25's ranks 1 and 2 almost alike (1/61 against 1/62), so
// any vector support flips them (see eval/README.md).
func KeepLead(fused []Fused, lead []int64, n int) []Fused {
	if n <= 0 || len(lead) == 0 {
		return fused
	}
	head := lead[:min(n, len(lead))]
	at := make(map[int64]int, len(fused))
	for i, f := range fused {
		at[f.ID] = i
	}
	out := make([]Fused, 0, len(fused))
	taken := make(map[int64]bool, len(head))
	for _, id := range head {
		if i, ok := at[id]; ok && !taken[id] {
			out = append(out, fused[i])
			taken[id] = true
		}
	}
	for _, f := range fused {
		if !taken[f.ID] {
			out = append(out, f)
		}
	}
	return out
}

func bestRank(ranks []int) int {
	best := int(^uint(0) >> 1)
	for _, r := range ranks {
		if r > 0 && r < best {
			best = r
		}
	}
	return best
}

// Scored is a chunk id with a score from one retriever, higher is better
// (BM25: -bm25(); vectors: cosine similarity).
type Scored struct {
	ID    int64
	Score float64
}
