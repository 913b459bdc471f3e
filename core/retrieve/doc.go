// Package retrieve implements hybrid retrieval: BM25 keyword hits and KNN
// vector hits, merged with Reciprocal Rank Fusion (see Fuse), optionally
// keeping BM25's best hits first (see KeepLead), and optionally showing
// each group of near-duplicate chunks once (see Collapse; the decision is
// core/internal/neardup's).
//
// It depends only on small interfaces that it defines itself (the consumer),
// so it builds and tests without cgo; core/store satisfies them.
package retrieve
