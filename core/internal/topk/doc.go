// Package topk keeps the k best (chunk id, score) pairs of a stream: a
// bounded min-heap whose root is the worst pair kept, so that a pair that
// cannot enter costs one comparison.
//
// Ranking: a higher score ranks first; equal scores rank by the smaller
// chunk id, as SQLite's ORDER BY bm25(...), rowid and vec0's KNN do. The
// store's BM25 scorer and its vector scan both rank through it, and the
// equivalence tests against FTS5 and vec0 depend on this tie rule.
//
// SelectKeys selects the k smallest of packed integer keys in linear time,
// for rankings done without a comparison function (the IVF tree's
// neighbour lists, the skip tables' corners).
package topk
