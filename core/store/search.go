package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// Hit is one search result of the store: a chunk id (chunks.id) and its
// score, higher is better. KeywordHits scores by -bm25 (positive, unbounded),
// VectorHits by centred cosine similarity in [-1, 1].
type Hit struct {
	ChunkID int64
	Score   float64
}

// topHits returns the hits top keeps, best first, as store hits.
func topHits(top *topk.K) []Hit {
	kept := top.Sorted()
	out := make([]Hit, len(kept))
	for i, h := range kept {
		out[i] = Hit{ChunkID: h.ID, Score: h.Score}
	}
	return out
}

// KeywordHits runs a BM25 search over chunks_fts and returns up to k chunk
// ids, best first, with Score = -bm25 (higher is better). The query is user
// text, never FTS5 syntax: see ftsquery.Terms for how it becomes one. A query
// with no searchable term returns no hits and no error.
//
// The score is bm25(chunks_fts, text, section, heading context, text) with
// the column weights w (text, section, heading context: a query-time
// setting; the zero value means DefaultColumnWeights). Common terms are scored from the impact index
// when the file has one (see impact.go), which gives the same scores
// without FTS5's per-row cost. A term found in more than CommonTermShare of
// the chunks (at least MinCommonDocs) is left out of the query when rarer
// terms remain, since its IDF is close to zero; see pruneCommon. To the
// stemmed score is added the exact-form leg: the query's quoted
// phrases and identifiers (ftsquery.ExactTerms) are scored by the same
// bm25() over the texts as written instead, when few enough chunks hold
// them (see exactSplit), so an identifier matched as written
// cannot be outranked by a word it only shares a stem with.
func (s *Store) KeywordHits(ctx context.Context, query string, k int, w [3]float64) ([]Hit, error) {
	terms := ftsquery.Terms(query)
	if len(terms) == 0 || k <= 0 {
		return nil, nil
	}
	if w == ([3]float64{}) {
		w = DefaultColumnWeights
	}
	st, err := s.readSearchStats(ctx)
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	ix, err := s.loadImpactAt(ctx, st.built, st.delta)
	if err != nil {
		return nil, err
	}
	terms, exact, err := s.exactSplit(ctx, ix, st, terms, ftsquery.ExactTerms(query))
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	if ix != nil {
		return s.keywordImpactScored(ctx, ix, terms, exact, k, w, impactScoring{stats: st})
	}
	return s.keywordFTS(ctx, terms, exact, k, w)
}

// keywordFTS ranks terms (FTS5 expressions of ftsquery.Terms) by FTS5's bm25()
// alone, plus the exact-form leg exact (exactSplit; nil when the query has
// no term matched as written): the path for files without
// an impact index, and the reference the impact index is tested against.
func (s *Store) keywordFTS(ctx context.Context, terms []string, exact *exactLeg, k int, w [3]float64) ([]Hit, error) {
	wrap := func(err error) error { return fmt.Errorf("keyword search: %w", err) }
	scores := map[int64]float64{}
	exact.addScores(w, scores)
	terms, err := s.pruneCommon(ctx, terms)
	if err != nil {
		return nil, err
	}
	if exact != nil || len(terms) == 0 {
		// Both legs' sums are needed before the top k is known.
		if len(terms) > 0 {
			if err := s.ftsScores(ctx, w, strings.Join(terms, " OR "), 0, scores); err != nil {
				return nil, wrap(err)
			}
		}
		top := topk.New(k)
		for id, sc := range scores {
			top.Offer(id, sc)
		}
		return topHits(top), nil
	}
	rows, err := s.db.QueryContext(ctx,
		"SELECT rowid, bm25(chunks_fts, ?, ?, ?, ?) AS r FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY r, rowid LIMIT ?",
		w[0], w[1], w[2], w[0], strings.Join(terms, " OR "), k)
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var sc Hit
		var r float64
		if err := rows.Scan(&sc.ChunkID, &r); err != nil {
			return nil, wrap(err)
		}
		sc.Score = -r
		out = append(out, sc)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(err)
	}
	return out, nil
}

// CommonTermShare and MinCommonDocs define a common term for KeywordHits:
// one that occurs in more than max(MinCommonDocs, CommonTermShare × chunks)
// chunks. Measured on the vault reference set over the whole large corpus
// (163k chunks), BM25 nDCG@10 is 0.6269 without pruning and at 0.3, but
// 0.6175 at 0.25, 0.5928 at 0.15 and 0.5730 at 0.05: common words still
// carry signal in technical notes, so only the most common are dropped.
const (
	CommonTermShare = 0.3
	MinCommonDocs   = 2000
)

// pruneCommon drops common terms from terms when at least one term is not
// common. Document counts are capped (COUNT over a LIMIT), so finding out
// that a term is common costs at most MinCommonDocs-ish row visits.
func (s *Store) pruneCommon(ctx context.Context, terms []string) ([]string, error) {
	if len(terms) < 2 {
		return terms, nil
	}
	n, _, err := s.ftsAverages(ctx)
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	limit := max(int64(MinCommonDocs), int64(CommonTermShare*float64(n)))
	if n <= limit {
		return terms, nil
	}
	var rare []string
	for _, t := range terms {
		var c int64
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)", t, limit+1).Scan(&c); err != nil {
			return nil, fmt.Errorf("keyword search: %w", err)
		}
		if c <= limit {
			rare = append(rare, t)
		}
	}
	if len(rare) == 0 {
		return terms, nil
	}
	return rare, nil
}

// Chunks loads the chunks with the given ids, in the order of ids; ids that
// no longer exist are left out.
func (s *Store) Chunks(ctx context.Context, ids []int64) ([]Chunk, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var b strings.Builder
	b.WriteString("[")
	for i, id := range ids {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprint(&b, id)
	}
	b.WriteString("]")
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, f.path, c.ordinal, f.title, c.section, c.chunk_text, c.heading_context, c.mtime_ns, c.hash
		FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))`, b.String())
	if err != nil {
		return nil, fmt.Errorf("load chunks: %w", err)
	}
	defer rows.Close()
	byID := make(map[int64]Chunk, len(ids))
	for rows.Next() {
		var c Chunk
		if err := rows.Scan(notNull(&c.ID), notNull(&c.Path), notNull(&c.Ordinal), notNull(&c.Title), notNull(&c.Section), notNull(&c.Text),
			notNull(&c.HeadingContext), notNull(&c.MtimeNS), notNull(&c.Hash)); err != nil {
			return nil, fmt.Errorf("load chunks: %w", damagedRow("chunks", err))
		}
		byID[c.ID] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load chunks: %w", err)
	}
	out := make([]Chunk, 0, len(ids))
	for _, id := range ids {
		if c, ok := byID[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// Stats summarises the index for `vaultctx status`.
type Stats struct {
	Files, Chunks, Vectors int
	Bytes                  int64 // size of the database file, plus its WAL
	Skips                  []Skip
	Problems               []Skip // files indexed with parse problems
}

// Counts returns the number of files and of chunks the index holds, as
// Stats does, without reading the lists of Stats: those read the whole
// files table, which cost an index run with nothing changed about 35 ms
// at 16,673 files (issue 17).
func (s *Store) Counts(ctx context.Context) (files, chunks int, err error) {
	if err := s.db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks)").Scan(&files, &chunks); err != nil {
		return 0, 0, fmt.Errorf("stats: %w", err)
	}
	return files, chunks, nil
}

// Stats counts what the index holds.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	if err := s.db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks)").Scan(&st.Files, &st.Chunks); err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	if s.vecOK {
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunk_vecs_rowids").Scan(&st.Vectors); err != nil {
			return st, fmt.Errorf("stats: %w", err)
		}
	}
	var pages, size int64
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err == nil {
		if err := s.db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err == nil {
			st.Bytes = pages * size
		}
	}
	var err error
	if st.Skips, err = s.list(ctx, "SELECT path, reason FROM skips ORDER BY path"); err != nil {
		return st, err
	}
	if st.Problems, err = s.list(ctx, "SELECT path, error FROM files WHERE error != '' ORDER BY path"); err != nil {
		return st, err
	}
	return st, nil
}

func (s *Store) list(ctx context.Context, q string) ([]Skip, error) {
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	defer rows.Close()
	var out []Skip
	for rows.Next() {
		var sk Skip
		if err := rows.Scan(notNull(&sk.Path), notNull(&sk.Reason)); err != nil {
			return nil, fmt.Errorf("stats: %w", damagedRow("skips or files", err))
		}
		out = append(out, sk)
	}
	return out, rows.Err()
}

// Leaks reports where text occurs in the index, for credential checks:
// "chunks" when a chunk's text, section or heading context or a file's
// title contains it, and "fts" when the FTS5 vocabulary holds a term that
// starts with the first 10 characters of any of its letter-and-digit runs
// of at least 10 characters that mix letters and digits. It returns nil
// when the text is nowhere.
func (s *Store) Leaks(ctx context.Context, text string) ([]string, error) {
	var where []string
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM chunks WHERE instr(chunk_text, ?1) OR instr(section, ?1) OR instr(heading_context, ?1)) +
		(SELECT count(*) FROM files WHERE instr(title, ?1))`, text).Scan(&n)
	if err != nil {
		return nil, fmt.Errorf("leak check: %w", err)
	}
	if n > 0 {
		where = append(where, "chunks")
	}
	if _, err := s.db.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_vocab USING fts5vocab(main, chunks_fts, 'row')"); err != nil {
		return nil, fmt.Errorf("leak check: %w", err)
	}
	toks, _ := ftsquery.SplitTokens(text)
	for _, t := range toks {
		if len(t) < 10 || !strings.ContainsAny(t, "0123456789") || strings.Trim(t, "0123456789") == "" {
			continue
		}
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM temp.fts_vocab WHERE term >= ?1 AND term < ?1 || x'ff'", t[:10]).Scan(&n); err != nil {
			return nil, fmt.Errorf("leak check: %w", err)
		}
		if n > 0 {
			where = append(where, "fts")
			break
		}
	}
	return where, nil
}
