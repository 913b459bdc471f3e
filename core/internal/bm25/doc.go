// Package bm25 scores chunks the way SQLite FTS5's bm25() does, from the
// posting lists of core/internal/postings instead of FTS5's own index, so
// that a query's common terms cost a pass over bit-packed lists rather than
// FTS5's per-row work.
//
// The formula is FTS5's (fts5_aux.c, itself Robertson and Zaragoza, "The
// Probabilistic Relevance Framework: BM25 and Beyond", 2009): for a chunk D
// and the query's phrases q,
//
//	score(D) = Σ_q IDF(q) · f(q,D)·(k1+1) / (f(q,D) + k1·(1 − b + b·|D|/avgdl))
//
// with k1 = 1.2 and b = 0.75; f(q,D) the phrase's frequency in D, each
// column's count multiplied by that column's weight and summed; |D| the
// chunk's length in tokens over all columns (unweighted) and avgdl the mean
// of it over the N chunks; and FTS5's IDF(q) = ln((N − n(q) + 0.5) /
// (n(q) + 0.5)) for a phrase in n(q) chunks, raised to 1e-6 when it is not
// positive. FTS5 returns the negation; scores here are positive, higher is
// better.
//
// Scorer.TopK accumulates the phrases' contributions into a window of
// Window chunk ids at a time (8,192 float64 by default: 64 KiB, which stays
// in the L2 cache), adding each chunk's contributions in phrase order and
// then the score from other sources, so that a sum equals FTS5's bit for
// bit. A chunk enters the top-K heap only when its score reaches the k-th
// best kept so far.
//
// Lists with skip tables (postings.Skips) are scored by dynamic pruning
// instead (prune.go): MaxScore over the windows (Turtle and Flood, IP&M
// 1995) with block-max bounds (Ding and Suel, SIGIR 2011), as Lucene's
// MaxScoreBulkScorer does, returning the same hits and score bits as the
// exhaustive pass (Scorer.Exhaustive).
//
// The model of size and shape is bluge's search/similarity/bm25.go.
package bm25
