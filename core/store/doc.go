// Package store owns the one SQLite file that holds a vault's index. It is
// the only package of vaultctx that speaks SQL.
//
// The file holds:
//
//   - meta: key/value pairs (schema version, model hash and directory,
//     last index time, chunking rules version, scrub counts);
//   - files: one row per indexed note (path, mtime_ns, size, ctime_ns,
//     inode, content hash, problems recorded while parsing);
//   - skips: files the last walk skipped, and why, marked when they are
//     there but unreadable (their files rows are kept);
//   - chunks: one row per chunk (path, ordinal, section, text, heading
//     context, mtime_ns, content hash);
//   - chunks_fts: an FTS5 table over chunk_text, section, heading_context and
//     cjk (ftsquery.Extras: CJK bigrams, Latin runs inside CJK text, hyphen
//     joins, emoji tokens), porter-stemmed, content-synced to chunks by
//     triggers that issue the FTS5 'delete' command before every delete or
//     update of a chunk row (quoted phrases and identifiers are matched
//     as written by reading the chunks of their stemmed match, see
//     exactSplit in keyword.go);
//   - impact_terms, impact_skips, impact_forms, impact_doclen, impact_delta,
//     impact_dead, impact_gone: the BM25 impact index of common terms, bit-packed
//     posting lists that give bm25()'s scores for common words without
//     FTS5's per-row cost (see impact.go and keyword.go);
//   - chunk_vecs: a sqlite-vec vec0 table of int8 embeddings (minus the
//     corpus centre) keyed by chunk id, partitioned into IVF lists, plus
//     chunk_vec_lists with the lists' centroids (present only when a model
//     is configured; vec.go describes the layout and the search).
//
// While a full run builds a new file (a Bulk store), FTS5 merges its
// segments only once, before the impact index is built, and the vectors
// wait in a plain table (vec_pending) until TrainVectorLists writes
// chunk_vecs in list order; Seal leaves neither behind.
//
// The store keeps the SQL and cgo glue; the arithmetic it feeds lives in
// cgo-free packages under core/internal: ftsquery (FTS5 query terms and the
// tokenizer mirror), postings (the impact index's lists and lengths), bm25
// (FTS5's bm25() over those lists), topk (the ranking heap) and ivf
// (quantisation, k-means, nearest lists). Results are Hit values; the
// BM25 column weights are passed with each KeywordHits call.
//
// The database runs in WAL mode with a busy timeout so that readers (search,
// hooks) keep answering while the indexer writes. Builds must use the
// sqlite_fts5 build tag; without it Open fails with an error that says so.
package store
