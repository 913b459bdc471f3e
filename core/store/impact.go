package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// The impact index: BM25 for common terms without FTS5's per-row cost.
//
// FTS5's bm25() costs about 1 µs per matching row (it reads the row's
// column sizes and walks its position lists), and a natural-language query
// over a 160,000-chunk vault matches 40,000 to 80,000 rows through its
// common words, so a search took 40-100 ms. BM25 is a sum over the query's
// phrases, so KeywordHits splits it:
//
//   - common terms (single tokens in at least ImpactMinDF chunks) are scored
//     in Go from impact_terms, one bit-packed posting list per term holding
//     each chunk's per-column frequencies (see encodePostings), with the
//     chunk lengths from impact_doclen;
//   - every other phrase (rare tokens, multi-token words, CJK bigram
//     phrases) is scored by FTS5's bm25() as before; they match few rows;
//   - chunks added after the build are held by a delta (impact_delta, ids
//     up to meta impact_delta_max) that every incremental run brings up to
//     date in a fraction of a second; chunks newer still (a search during
//     an index run) get their common-term part from FTS5, restricted to
//     rowid > impact_delta_max; chunks deleted since the build or the delta
//     (impact_dead, filled by a trigger) are skipped, and each term's
//     postings in them, counted by the incremental run (impact_gone),
//     come off its document frequency.
//
// The Go part uses FTS5's own formula, constants and statistics (N and the
// average length from FTS5's averages record, idf from the live document
// frequency), so the sum equals bm25(chunks_fts, ...) up to floating-point
// rounding; TestImpactMatchesFTS5 checks this on real notes. A term enters
// the index only when its document and instance counts, computed from
// ftsTokens, equal FTS5's own vocabulary counts; query words reach their
// FTS5 term through impact_forms, the surface forms FTS5 itself stemmed.

// ImpactMinDF returns the least number of chunks a term must occur in to be
// stored in the impact index of a corpus of n chunks: max(500, n/300). At
// 163,000 chunks that is about 1,200 terms, 6 million postings and 6 MB;
// the rarer terms left to FTS5 match at most 542 rows each.
func ImpactMinDF(n int) int { return max(500, n/300) }

// ImpactStaleShare is the share of chunks added or deleted since the last
// build above which MaintainImpact rebuilds the index.
const ImpactStaleShare = 0.05

// ftsTokenizer is chunks_fts's tokenize option (see schema.sql).
const ftsTokenizer = "porter unicode61 remove_diacritics 2"

// ImpactStats describes a build of the impact index.
type ImpactStats struct {
	Terms    int   // terms stored
	Rejected int   // common terms left to FTS5 because their counts differed
	Postings int   // postings stored
	Bytes    int64 // size of the posting lists
}

// BuildImpact rebuilds the impact index from the chunks now stored, for
// terms in at least minDF chunks (minDF <= 0 means ImpactMinDF). A corpus
// without such terms gets an empty index, and KeywordHits then uses FTS5
// alone. It reads every chunk twice and takes about 2 s at 160,000 chunks.
func (s *Store) BuildImpact(ctx context.Context, minDF int) (ImpactStats, error) {
	var st ImpactStats
	var n, maxID int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*), coalesce(max(id), 0) FROM chunks").Scan(&n, &maxID); err != nil {
		return st, fmt.Errorf("build impact index: %w", err)
	}
	if minDF <= 0 {
		minDF = ImpactMinDF(int(n))
	}
	common, err := s.commonTerms(ctx, minDF)
	if err != nil {
		return st, err
	}
	var stems []string
	var lists []postingEncoder
	var df, cnt []int64
	var forms map[string]int32
	if len(common) > 0 {
		cands, err := s.scanCandidates(ctx, common)
		if err != nil {
			return st, err
		}
		stemOf, err := s.stemSurfaces(ctx, slices.Collect(maps.Keys(cands.ids)))
		if err != nil {
			return st, err
		}
		// Group the candidates' lists by the FTS5 term they stem to.
		byStem := map[string][]int32{}
		for w, ids := range cands.ids {
			stem, ok := stemOf[w]
			if _, common := common[stem]; ok && common {
				byStem[stem] = append(byStem[stem], ids...)
			}
		}
		forms = map[string]int32{}
		for stem, ids := range byStem {
			i := int32(len(stems))
			stems = append(stems, stem)
			var e postingEncoder
			var d, c int64
			mergeLists(cands.lists, ids, func(p posting) {
				e.add(p)
				d++
				c += int64(p.tf[0] + p.tf[1] + p.tf[2] + p.tf[3])
			})
			lists = append(lists, e)
			df, cnt = append(df, d), append(cnt, c)
			for _, id := range ids {
				if cands.overflow[id] {
					df[i] = -1 // frequencies too large to pack: leave to FTS5
				}
				forms[cands.words[id]] = i
			}
		}
	}
	lens, err := s.docLengths(ctx, 0, maxID)
	if err != nil {
		return st, err
	}

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("build impact index: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []string{"DELETE FROM impact_terms", "DELETE FROM impact_forms", "DELETE FROM impact_doclen", "DELETE FROM impact_dead", "DELETE FROM impact_delta",
		"DELETE FROM impact_gone", "DELETE FROM meta WHERE key = 'impact_gone_dead'"} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	keep := make([]bool, len(stems))
	for i, stem := range stems {
		want := common[stem]
		if df[i] != want[0] || cnt[i] != want[1] {
			st.Rejected++
			continue
		}
		keep[i] = true
		blob := lists[i].finish()
		st.Terms++
		st.Postings += int(df[i])
		st.Bytes += int64(len(blob))
		if _, err := tx.ExecContext(ctx, "INSERT INTO impact_terms(term, df, postings) VALUES(?, ?, ?)", stem, df[i], blob); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	st.Rejected += len(common) - len(stems)
	for surf, i := range forms {
		if !keep[i] {
			continue
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO impact_forms(surface, term) VALUES(?, ?)", surf, stems[i]); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	maxMeta := ""
	if st.Terms > 0 {
		for i, part := range splitLens(lens) {
			if _, err := tx.ExecContext(ctx, "INSERT INTO impact_doclen(id, lens) VALUES(?, ?)", lensPartID+i, part); err != nil {
				return st, fmt.Errorf("build impact index: %w", err)
			}
		}
		maxMeta = strconv.FormatInt(maxID, 10)
	}
	for _, key := range []string{"impact_max_id", "impact_delta_max"} {
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, maxMeta); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("build impact index: %w", err)
	}
	s.imp.Store(nil)
	return st, nil
}

// MaintainImpact rebuilds the impact index when it is missing for a corpus
// large enough to have common terms, or when more than ImpactStaleShare of
// the chunks were added or deleted since it was built; otherwise it brings
// the delta (the postings of chunks added since the build) up to date. It
// reports whether it rebuilt.
func (s *Store) MaintainImpact(ctx context.Context) (bool, ImpactStats, error) {
	var n, maxID, dead int64
	var built string
	err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(max(id), 0), (SELECT count(*) FROM impact_dead),
		coalesce((SELECT value FROM meta WHERE key = 'impact_max_id'), '') FROM chunks`).Scan(&n, &maxID, &dead, &built)
	if err != nil {
		return false, ImpactStats{}, fmt.Errorf("impact index: %w", err)
	}
	if built == "" {
		if n < int64(ImpactMinDF(0)) {
			return false, ImpactStats{}, nil // no term can be common yet
		}
	} else {
		b, _ := strconv.ParseInt(built, 10, 64)
		var added int64
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks WHERE id > ?", b).Scan(&added); err != nil {
			return false, ImpactStats{}, fmt.Errorf("impact index: %w", err)
		}
		if float64(added+dead) <= ImpactStaleShare*float64(max(n, 1)) {
			if err := s.updateDelta(ctx, b, maxID); err != nil {
				return false, ImpactStats{}, err
			}
			return false, ImpactStats{}, s.countGone(ctx)
		}
	}
	st, err := s.BuildImpact(ctx, 0)
	return err == nil, st, err
}

// updateDelta rebuilds impact_delta, the postings of the chunks with ids in
// (built, maxID], for the terms of the impact index. Their surface forms
// not seen at the build are stemmed by FTS5 and added to impact_forms.
func (s *Store) updateDelta(ctx context.Context, built, maxID int64) error {
	cur, err := s.Meta(ctx, metaImpactDeltaMax)
	if err != nil {
		return err
	}
	if c, _ := strconv.ParseInt(cur, 10, 64); c == maxID && cur != "" {
		return nil
	}
	wrap := func(err error) error { return fmt.Errorf("impact delta: %w", err) }
	terms := map[string]int32{}
	var names []string
	rows, err := s.db.QueryContext(ctx, "SELECT term FROM impact_terms")
	if err != nil {
		return wrap(err)
	}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return wrap(err)
		}
		terms[t] = int32(len(names))
		names = append(names, t)
	}
	rows.Close()
	forms := map[string]int32{}
	rows, err = s.db.QueryContext(ctx, "SELECT surface, term FROM impact_forms")
	if err != nil {
		return wrap(err)
	}
	for rows.Next() {
		var w, t string
		if err := rows.Scan(&w, &t); err != nil {
			rows.Close()
			return wrap(err)
		}
		if i, ok := terms[t]; ok {
			forms[w] = i
		}
	}
	rows.Close()
	common := make(map[string][2]int64, len(terms))
	for t := range terms {
		common[t] = [2]int64{}
	}
	prefixes, maxPrefix := candidatePrefixes(common)
	sc := &candScanner{prefixes: prefixes, maxPrefix: maxPrefix, class: map[string]int32{}}

	// The chunks added since the build, tokenized once.
	type row struct {
		id   int64
		cols [4]string
	}
	var added []row
	if err := s.chunkColumnsAfter(ctx, built, func(id int64, cols *[4]string) {
		added = append(added, row{id, *cols})
	}); err != nil {
		return err
	}
	// New surface forms that may stem to an indexed term.
	unknown := map[string]struct{}{}
	for i := range added {
		for _, text := range added[i].cols {
			ftsTokens(text, func(tok []byte) {
				if _, ok := forms[string(tok)]; !ok && sc.classify(tok) >= 0 {
					unknown[string(tok)] = struct{}{}
				}
			})
		}
	}
	var newForms [][2]string
	if len(unknown) > 0 {
		stemOf, err := s.stemSurfaces(ctx, slices.Collect(maps.Keys(unknown)))
		if err != nil {
			return err
		}
		for w, stem := range stemOf {
			if i, ok := terms[stem]; ok {
				forms[w] = i
				newForms = append(newForms, [2]string{w, stem})
			}
		}
	}
	lists := make([]postingEncoder, len(names))
	var counter tfCounter
	lookup := func(tok []byte) int32 {
		if t, ok := forms[string(tok)]; ok {
			return t
		}
		return -1
	}
	for i := range added {
		counter.count(&added[i].cols, lookup, func(t int32, tf [4]uint32) {
			lists[t].add(posting{doc: uint32(added[i].id), tf: tf})
		})
	}
	lens, err := s.docLengths(ctx, built+1, maxID)
	if err != nil {
		return err
	}

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return wrap(err)
	}
	defer tx.Rollback()
	for _, q := range []string{"DELETE FROM impact_delta", "DELETE FROM impact_doclen WHERE id = 2"} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return wrap(err)
		}
	}
	for i, name := range names {
		if lists[i].n == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO impact_delta(term, postings) VALUES(?, ?)", name, lists[i].finish()); err != nil {
			return wrap(err)
		}
	}
	for _, f := range newForms {
		if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO impact_forms(surface, term) VALUES(?, ?)", f[0], f[1]); err != nil {
			return wrap(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO impact_doclen(id, lens) VALUES(2, ?)", lens); err != nil {
		return wrap(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('impact_delta_max', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", strconv.FormatInt(maxID, 10)); err != nil {
		return wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return wrap(err)
	}
	s.imp.Store(nil)
	return nil
}

// countGone fills impact_gone: for every term, its postings (build and
// delta) in the chunks impact_dead lists, so that a search corrects the
// document frequency without decoding whole posting lists. It records in
// meta('impact_gone_dead') how many dead ids it counted against; nothing is
// done when that is still the number impact_dead holds.
func (s *Store) countGone(ctx context.Context) error {
	wrap := func(err error) error { return fmt.Errorf("impact dead counts: %w", err) }
	var n int64
	var counted string
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM impact_dead),
		coalesce((SELECT value FROM meta WHERE key = 'impact_gone_dead'), '')`).Scan(&n, &counted); err != nil {
		return wrap(err)
	}
	if c, err := strconv.ParseInt(counted, 10, 64); err == nil && c == n {
		return nil
	}
	dead, err := s.impactDead(ctx)
	if err != nil {
		return wrap(err)
	}
	gone := map[string]int64{}
	if dead.n > 0 {
		rows, err := s.db.QueryContext(ctx, `SELECT t.term, t.postings, d.postings FROM impact_terms t LEFT JOIN impact_delta d ON d.term = t.term`)
		if err != nil {
			return wrap(err)
		}
		for rows.Next() {
			var term string
			var postings, delta []byte
			if err := rows.Scan(&term, &postings, &delta); err != nil {
				rows.Close()
				return wrap(err)
			}
			c, err := dead.countIn(postings, delta)
			if err != nil {
				rows.Close()
				return wrap(err)
			}
			if c > 0 {
				gone[term] = c
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return wrap(err)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return wrap(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM impact_gone"); err != nil {
		return wrap(err)
	}
	for term, c := range gone {
		if _, err := tx.ExecContext(ctx, "INSERT INTO impact_gone(term, n) VALUES(?, ?)", term, c); err != nil {
			return wrap(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('impact_gone_dead', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", strconv.FormatInt(int64(dead.n), 10)); err != nil {
		return wrap(err)
	}
	return tx.Commit()
}

// commonTerms returns FTS5's document and instance counts of every term in
// at least minDF rows.
func (s *Store) commonTerms(ctx context.Context, minDF int) (map[string][2]int64, error) {
	if _, err := s.db.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.impact_vocab USING fts5vocab(main, chunks_fts, 'row')"); err != nil {
		return nil, fmt.Errorf("build impact index: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT term, doc, cnt FROM temp.impact_vocab WHERE doc >= ?", minDF)
	if err != nil {
		return nil, fmt.Errorf("build impact index: %w", err)
	}
	defer rows.Close()
	out := map[string][2]int64{}
	for rows.Next() {
		var t string
		var d, c int64
		if err := rows.Scan(&t, &d, &c); err != nil {
			return nil, fmt.Errorf("build impact index: %w", err)
		}
		out[t] = [2]int64{d, c}
	}
	return out, rows.Err()
}

// chunkColumns streams every chunk's id and its four FTS5 column values.
func (s *Store) chunkColumns(ctx context.Context, fn func(id int64, cols *[4]string)) error {
	return s.chunkColumnsAfter(ctx, 0, fn)
}

// chunkColumnsAfter is chunkColumns for the chunks with an id above after.
func (s *Store) chunkColumnsAfter(ctx context.Context, after int64, fn func(id int64, cols *[4]string)) error {
	rows, err := s.db.QueryContext(ctx, "SELECT id, chunk_text, section, heading_context, coalesce(cjk, '') FROM chunks WHERE id > ? ORDER BY id", after)
	if err != nil {
		return fmt.Errorf("build impact index: %w", err)
	}
	defer rows.Close()
	var cols [4]string
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id, &cols[0], &cols[1], &cols[2], &cols[3]); err != nil {
			return fmt.Errorf("build impact index: %w", err)
		}
		fn(id, &cols)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("build impact index: %w", err)
	}
	return nil
}

// stemSurfaces asks FTS5 for the term each surface token becomes, by
// indexing the tokens in a temporary FTS5 table with chunks_fts's tokenizer
// and reading its vocabulary. Tokens FTS5 does not keep as one term are
// left out.
func (s *Store) stemSurfaces(ctx context.Context, list []string) (map[string]string, error) {
	wrap := func(err error) error { return fmt.Errorf("build impact index: stem: %w", err) }
	for _, q := range []string{
		"DROP TABLE IF EXISTS temp.impact_stem",
		"CREATE VIRTUAL TABLE temp.impact_stem USING fts5(w, tokenize='" + ftsTokenizer + "')",
		"CREATE VIRTUAL TABLE IF NOT EXISTS temp.impact_stemv USING fts5vocab(temp, impact_stem, 'instance')",
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return nil, wrap(err)
		}
	}
	defer s.db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS temp.impact_stem")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap(err)
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, "INSERT INTO temp.impact_stem(rowid, w) VALUES(?, ?)")
	if err != nil {
		return nil, wrap(err)
	}
	for i, w := range list {
		if _, err := ins.ExecContext(ctx, i+1, w); err != nil {
			return nil, wrap(err)
		}
	}
	ins.Close()
	rows, err := tx.QueryContext(ctx, "SELECT doc, term FROM temp.impact_stemv")
	if err != nil {
		return nil, wrap(err)
	}
	terms := make([]string, len(list))
	bad := make([]bool, len(list))
	for rows.Next() {
		var doc int64
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			rows.Close()
			return nil, wrap(err)
		}
		if doc < 1 || doc > int64(len(list)) {
			continue
		}
		if terms[doc-1] != "" {
			bad[doc-1] = true
		}
		terms[doc-1] = term
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, wrap(err)
	}
	out := make(map[string]string, len(list))
	for i, w := range list {
		if terms[i] != "" && !bad[i] {
			out[w] = terms[i]
		}
	}
	return out, nil
}

// candidates are the surface tokens that may stem to a common term, each
// with one or more postings lists, each in doc order (see candList).
type candidates struct {
	ids      map[string][]int32 // word -> its lists
	words    []string           // by list
	lists    []candList
	overflow []bool // by list
}

// scanCandidates reads every chunk once and collects the postings of the
// tokens that may stem to a common term. Porter stemming only rewrites a
// word's ending, so a word can stem to t only if it starts with t less its
// last letter (y→i, an added e) - or, for t of one or two letters, with
// all of t and at most three more letters ("ties" → "ti"). Words this test
// lets through needlessly cost memory, never correctness; a missed form
// would show as a count mismatch and keep its term out of the index.
//
// One goroutine reads the rows (SQLite) while up to four tokenize them,
// each taking every fourth batch, so each worker's lists stay in doc order.
func (s *Store) scanCandidates(ctx context.Context, common map[string][2]int64) (*candidates, error) {
	prefixes, maxPrefix := candidatePrefixes(common)
	type row struct {
		id   int64
		cols [4]string
	}
	const batchLen = 256
	workers := min(max(runtime.GOMAXPROCS(0), 1), 4)
	chans := make([]chan []row, workers)
	scanners := make([]*candScanner, workers)
	var wg sync.WaitGroup
	for i := range chans {
		chans[i] = make(chan []row, 4)
		scanners[i] = &candScanner{prefixes: prefixes, maxPrefix: maxPrefix, class: map[string]int32{}}
		wg.Add(1)
		go func(sc *candScanner, in chan []row) {
			defer wg.Done()
			for batch := range in {
				for i := range batch {
					sc.chunk(batch[i].id, &batch[i].cols)
				}
			}
		}(scanners[i], chans[i])
	}
	batch, next := make([]row, 0, batchLen), 0
	err := s.chunkColumns(ctx, func(id int64, cols *[4]string) {
		batch = append(batch, row{id, *cols})
		if len(batch) == batchLen {
			chans[next] <- batch
			batch, next = make([]row, 0, batchLen), (next+1)%workers
		}
	})
	if len(batch) > 0 {
		chans[next] <- batch
	}
	for _, ch := range chans {
		close(ch)
	}
	wg.Wait()
	c := &candidates{ids: map[string][]int32{}}
	for _, sc := range scanners {
		for j, w := range sc.words {
			id := int32(len(c.words))
			c.words = append(c.words, w)
			c.lists = append(c.lists, sc.lists[j])
			c.overflow = append(c.overflow, sc.overflow[j])
			c.ids[w] = append(c.ids[w], id)
		}
	}
	return c, err
}

// candidatePrefixes returns, for the terms of common, the prefixes a word
// must start with to possibly stem to one of them, each with the longest
// word it admits, and the longest prefix (see scanCandidates).
func candidatePrefixes(common map[string][2]int64) (map[string]int, int) {
	prefixes := map[string]int{}
	maxPrefix := 0
	for t := range common {
		p, longest := t, len(t)+3 // "ties" -> "ti"
		if len(t) > 2 {
			p, longest = t[:len(t)-1], math.MaxInt
		}
		prefixes[p] = max(prefixes[p], longest)
		maxPrefix = max(maxPrefix, len(p))
	}
	return prefixes, maxPrefix
}

// candScanner is one scanCandidates worker.
type candScanner struct {
	prefixes  map[string]int
	maxPrefix int
	class     map[string]int32 // surface -> index in words, or -1
	words     []string
	lists     []candList
	overflow  []bool
	tfCounter
}

func (sc *candScanner) classify(tok []byte) int32 {
	if id, ok := sc.class[string(tok)]; ok {
		return id
	}
	id := int32(-1)
	for l := 1; l <= min(len(tok), sc.maxPrefix); l++ {
		if longest, ok := sc.prefixes[string(tok[:l])]; ok && len(tok) <= longest {
			id = int32(len(sc.words))
			sc.words = append(sc.words, string(tok))
			sc.lists = append(sc.lists, candList{})
			sc.overflow = append(sc.overflow, false)
			break
		}
	}
	sc.class[string(tok)] = id
	return id
}

// chunk adds one chunk's postings.
func (sc *candScanner) chunk(doc int64, cols *[4]string) {
	sc.count(cols, sc.classify, func(id int32, tf [4]uint32) {
		packed, ok := packTF(tf)
		if !ok {
			sc.overflow[id] = true
		}
		sc.lists[id].add(uint32(doc), packed)
	})
}

// tfCounter counts the column frequencies of terms in one chunk at a time.
type tfCounter struct {
	tf      [][4]uint32 // by term id, zero between chunks
	touched []int32
}

// count maps each token of the four columns to a term id with id (negative
// for tokens that do not count) and then calls emit once per term found,
// in first-seen order, with its frequency in each column.
func (c *tfCounter) count(cols *[4]string, id func(tok []byte) int32, emit func(id int32, tf [4]uint32)) {
	for col, text := range cols {
		ftsTokens(text, func(tok []byte) {
			i := id(tok)
			if i < 0 {
				return
			}
			for int(i) >= len(c.tf) {
				c.tf = append(c.tf, [4]uint32{})
			}
			if c.tf[i] == ([4]uint32{}) {
				c.touched = append(c.touched, i)
			}
			c.tf[i][col]++
		})
	}
	for _, i := range c.touched {
		emit(i, c.tf[i])
		c.tf[i] = [4]uint32{}
	}
	c.touched = c.touched[:0]
}

// packTF packs four column frequencies into 32 bits (16, 6, 6 and 4 bits);
// ok is false when one does not fit.
func packTF(tf [4]uint32) (uint32, bool) {
	ok := tf[0] < 1<<16 && tf[1] < 1<<6 && tf[2] < 1<<6 && tf[3] < 1<<4
	return min(tf[0], 1<<16-1) | min(tf[1], 63)<<16 | min(tf[2], 63)<<22 | min(tf[3], 15)<<28, ok
}

func unpackTF(p uint32) [4]uint32 {
	return [4]uint32{p & 0xffff, p >> 16 & 63, p >> 22 & 63, p >> 28}
}

// candList is a candidate's postings while the chunks stream past: per
// posting uvarint(doc gap) and uvarint(packed frequencies), about 2.5 bytes
// where a uint64 would take 8, which keeps a build of 160,000 chunks within
// the indexer's memory budget.
type candList struct {
	b    []byte
	last uint32
}

func (l *candList) add(doc, packed uint32) {
	l.b = binary.AppendUvarint(l.b, uint64(doc-l.last))
	l.b = binary.AppendUvarint(l.b, uint64(packed))
	l.last = doc
}

// candCursor reads a candList.
type candCursor struct {
	b      []byte
	doc    uint32
	packed uint32
	ok     bool
}

func (c *candCursor) next() {
	gap, k := binary.Uvarint(c.b)
	if k <= 0 {
		c.ok = false
		return
	}
	p, k2 := binary.Uvarint(c.b[k:])
	if k2 <= 0 {
		c.ok = false
		return
	}
	c.b = c.b[k+k2:]
	c.doc += uint32(gap)
	c.packed = uint32(p)
	c.ok = true
}

// mergeLists merges the candidate lists ids (each in doc order) into one
// posting list, adding up the frequencies of forms of the same term in the
// same chunk.
func mergeLists(lists []candList, ids []int32, fn func(posting)) {
	cur := make([]candCursor, len(ids))
	for i, id := range ids {
		cur[i].b = lists[id].b
		cur[i].next()
	}
	for {
		best, any := uint32(math.MaxUint32), false
		for i := range cur {
			if cur[i].ok && (!any || cur[i].doc < best) {
				best, any = cur[i].doc, true
			}
		}
		if !any {
			return
		}
		p := posting{doc: best}
		for i := range cur {
			if cur[i].ok && cur[i].doc == best {
				tf := unpackTF(cur[i].packed)
				for c := range tf {
					p.tf[c] += tf[c]
				}
				cur[i].next()
			}
		}
		fn(p)
	}
}

// docLengths returns each chunk's length in tokens over all FTS5 columns
// (the "D" of FTS5's bm25), read from chunks_fts_docsize, for ids from..to:
// a blob of one width byte (2 or 4) and then the little-endian lengths.
func (s *Store) docLengths(ctx context.Context, from, to int64) ([]byte, error) {
	lens := make([]uint32, max(to-from+1, 0))
	rows, err := s.db.QueryContext(ctx, "SELECT id, sz FROM chunks_fts_docsize WHERE id BETWEEN ? AND ?", from, to)
	if err != nil {
		return nil, fmt.Errorf("impact index: %w", err)
	}
	defer rows.Close()
	var sz sql.RawBytes
	width := 2
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id, &sz); err != nil {
			return nil, fmt.Errorf("impact index: %w", err)
		}
		var total uint64
		for b := []byte(sz); len(b) > 0; {
			v, k := sqliteVarint(b)
			if k == 0 {
				break
			}
			total += v
			b = b[k:]
		}
		if id >= from && id <= to {
			lens[id-from] = uint32(min(total, math.MaxUint32))
			if total > math.MaxUint16 {
				width = 4
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("impact index: %w", err)
	}
	out := make([]byte, 1, 1+width*len(lens))
	out[0] = byte(width)
	for _, l := range lens {
		if width == 2 {
			out = binary.LittleEndian.AppendUint16(out, uint16(l))
		} else {
			out = binary.LittleEndian.AppendUint32(out, l)
		}
	}
	return out, nil
}

// lensPartID is the impact_doclen id of the first part of the build's
// chunk lengths (ids 1 and 2 are the whole build and the delta).
const lensPartID = 16

// lensPartBytes is the most length bytes one impact_doclen part holds: 8
// KiB fits in one 16 KiB page, so SQLite hands a search each part where it
// lies, where a single blob of 325 KB (163k chunks) had to be assembled
// from a chain of overflow pages into fresh memory first.
const lensPartBytes = 8192

// splitLens cuts a docLengths blob (width byte, then the lengths) into
// parts of lensPartBytes/width lengths each, every part with its own width
// byte.
func splitLens(lens []byte) [][]byte {
	if len(lens) == 0 {
		return nil
	}
	w := int(lens[0])
	per := lensPartBytes / w
	var out [][]byte
	for at := 1; at < len(lens); at += per * w {
		part := make([]byte, 1, 1+per*w)
		part[0] = byte(w)
		out = append(out, append(part, lens[at:min(at+per*w, len(lens))]...))
	}
	return out
}

// sqliteVarint decodes SQLite's variable-length integer (big-endian, 7 bits
// per byte, the ninth byte contributing all 8 bits), as FTS5 writes its
// docsize and averages records. It returns the value and its length in
// bytes, or 0 bytes for a truncated input.
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// impactIndex is the part of the impact index a reader keeps in memory.
type impactIndex struct {
	maxID   int64  // the last chunk id of the build
	deltaID int64  // the last chunk id of the delta; larger ids are newer
	lens    []byte // ids 0..maxID, see docLengths (a file written before the parts)
	dlens   []byte // ids maxID+1..deltaID
	noDelta bool   // a file written before impact_delta existed
	// parts hold the lengths of ids 0..maxID instead of lens: part p
	// covers the ids from p<<partShift on (see splitLens).
	parts     [][]byte
	partShift uint
}

func (ix *impactIndex) docLen(id uint32) float64 {
	lens, i := ix.lens, int64(id)
	switch {
	case i > ix.maxID:
		lens, i = ix.dlens, i-ix.maxID-1
	case ix.parts != nil:
		p := i >> ix.partShift
		if p >= int64(len(ix.parts)) {
			return 0
		}
		lens, i = ix.parts[p], i&(1<<ix.partShift-1)
	}
	if len(lens) == 0 {
		return 0
	}
	w := int64(lens[0])
	at := 1 + i*w
	if at+w > int64(len(lens)) {
		return 0
	}
	if w == 2 {
		return float64(binary.LittleEndian.Uint16(lens[at:]))
	}
	return float64(binary.LittleEndian.Uint32(lens[at:]))
}

// loadImpact returns the impact index, or nil when the file has none (an
// older file, or a corpus without common terms). The chunk lengths are kept
// between calls; the meta keys are read every time (not from the snapshot
// of a read-only store), so a reader that stays open across a rebuild or a
// delta update picks it up.
func (s *Store) loadImpact(ctx context.Context) (*impactIndex, error) {
	var built, delta string
	err := s.db.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'impact_max_id'), ''),
		coalesce((SELECT value FROM meta WHERE key = 'impact_delta_max'), '')`).Scan(&built, &delta)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, fmt.Errorf("load impact index: %w", err)
	}
	maxID, _ := strconv.ParseInt(built, 10, 64)
	if maxID <= 0 {
		return nil, nil
	}
	deltaID, _ := strconv.ParseInt(delta, 10, 64)
	deltaID = max(deltaID, maxID)
	if ix := s.imp.Load(); ix != nil && ix.maxID == maxID && ix.deltaID == deltaID {
		return ix, nil
	}
	ix := &impactIndex{maxID: maxID, deltaID: deltaID}
	var hasDelta int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = 'impact_delta'").Scan(&hasDelta); err != nil {
		return nil, fmt.Errorf("load impact index: %w", err)
	}
	ix.noDelta = hasDelta == 0
	err = s.queryOwned(ctx, "SELECT id, lens FROM impact_doclen", nil, func(vals []driver.Value) error {
		id, err := valInt64(vals[0])
		if err != nil {
			return err
		}
		lens, err := valBytes(vals[1])
		if err != nil {
			return err
		}
		if len(lens) == 0 || (lens[0] != 2 && lens[0] != 4) {
			return nil
		}
		switch {
		case id == 1:
			ix.lens = lens
		case id == 2:
			ix.dlens = lens
		case id >= lensPartID:
			p := int(id - lensPartID)
			if p >= len(ix.parts) {
				ix.parts = append(ix.parts, make([][]byte, p+1-len(ix.parts))...)
			}
			ix.parts[p] = lens
		}
		return nil
	})
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, fmt.Errorf("load impact index: %w", err)
	}
	if ix.parts != nil {
		// Parts come in id order, share one width, are full but for the
		// last, and cover every id of the build; anything else means a
		// damaged file: use FTS5 alone.
		if slices.ContainsFunc(ix.parts, func(p []byte) bool { return p == nil }) {
			return nil, nil
		}
		w := int(ix.parts[0][0]) // 2 or 4: rows of another width were skipped
		per := lensPartBytes / w
		for i, part := range ix.parts {
			if int(part[0]) != w || (i < len(ix.parts)-1 && len(part) != 1+per*w) {
				return nil, nil
			}
		}
		last := ix.parts[len(ix.parts)-1]
		if int64((len(ix.parts)-1)*per+(len(last)-1)/w) < maxID+1 {
			return nil, nil
		}
		ix.partShift = uint(bits.TrailingZeros(uint(per)))
		ix.lens = nil
	} else if ix.lens == nil {
		return nil, nil
	}
	if ix.dlens == nil {
		ix.deltaID = maxID // a delta without lengths is not used
	}
	s.imp.Store(ix)
	return ix, nil
}

// bm25 constants of FTS5's bm25() (fts5_aux.c).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// ftsIDF is FTS5's inverse document frequency of a phrase in hits of n rows.
func ftsIDF(n, hits int64) float64 {
	idf := math.Log((float64(n) - float64(hits) + 0.5) / (float64(hits) + 0.5))
	if idf <= 0 {
		idf = 1e-6
	}
	return idf
}

// impactTerm is one query phrase served by the impact index.
type impactTerm struct {
	expr     string // the FTS5 phrase
	postings []byte
	delta    []byte // postings in chunks added since the build
	df       int64  // live document frequency
}

// keywordImpact is KeywordHits over the impact index; see the comment at
// the top of this file.
func (s *Store) keywordImpact(ctx context.Context, ix *impactIndex, terms []string, k int, w [3]float64) ([]Hit, error) {
	wrap := func(err error) error { return fmt.Errorf("keyword search: %w", err) }
	nRow, totals, err := s.ftsAverages(ctx)
	if err != nil {
		return nil, wrap(err)
	}
	if nRow == 0 {
		return nil, nil
	}
	var avgdl float64
	for _, t := range totals {
		avgdl += float64(t)
	}
	avgdl /= float64(nRow)

	// Which phrases the impact index serves.
	surface := make([]string, len(terms))
	var lookup []string
	for i, t := range terms {
		if w, ok := singleToken(t); ok {
			surface[i] = w
			lookup = append(lookup, w)
		}
	}
	var maxID int64
	var goneDead string
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0),
		coalesce((SELECT value FROM meta WHERE key = 'impact_gone_dead'), '') FROM chunks`).Scan(&maxID, &goneDead); err != nil {
		return nil, wrap(err)
	}
	dead, err := s.impactDead(ctx)
	if err != nil {
		return nil, wrap(err)
	}
	newer := maxID > ix.deltaID // chunks neither the build nor the delta holds
	// impact_gone counts each term's dead postings while impact_dead is
	// as countGone saw it; otherwise the lists are decoded to count them.
	counted := dead.n == 0
	if c, err := strconv.ParseInt(goneDead, 10, 64); err == nil && c == int64(dead.n) {
		counted = true
	}

	type stored struct {
		df, gone        int64
		postings, delta []byte
	}
	byForm := map[string]stored{}
	if len(lookup) > 0 {
		list, _ := json.Marshal(lookup)
		delta := "(SELECT postings FROM impact_delta d WHERE d.term = f.term)"
		if ix.noDelta || ix.deltaID == ix.maxID {
			delta = "NULL"
		}
		gone := "0"
		if counted && dead.n > 0 {
			gone = "coalesce((SELECT n FROM impact_gone g WHERE g.term = f.term), 0)"
		}
		err := s.queryOwned(ctx, `SELECT f.surface, t.df, t.postings, `+delta+`, `+gone+` FROM impact_forms f JOIN impact_terms t ON t.term = f.term
			WHERE f.surface IN (SELECT value FROM json_each(?))`, []any{string(list)}, func(vals []driver.Value) error {
			w, err := valString(vals[0])
			if err != nil {
				return err
			}
			var st stored
			if st.df, err = valInt64(vals[1]); err != nil {
				return err
			}
			if st.postings, err = valBytes(vals[2]); err != nil {
				return err
			}
			if st.delta, err = valBytes(vals[3]); err != nil {
				return err
			}
			if st.gone, err = valInt64(vals[4]); err != nil {
				return err
			}
			byForm[w] = st
			return nil
		})
		if err != nil {
			return nil, wrap(err)
		}
	}

	// Live document frequencies, and the pruning of pruneCommon.
	limit := max(int64(MinCommonDocs), int64(CommonTermShare*float64(nRow)))
	prune := nRow > limit && len(terms) > 1
	var fast []impactTerm
	var slow []string
	var slowDF []int64
	for i, t := range terms {
		st, ok := byForm[surface[i]]
		if !ok {
			slow = append(slow, t)
			continue
		}
		it := impactTerm{expr: t, postings: st.postings, delta: st.delta, df: st.df}
		if n, k := binary.Uvarint(st.delta); k > 0 {
			it.df += int64(n)
		}
		switch {
		case counted:
			it.df -= st.gone
		default:
			gone, err := dead.countIn(st.postings, st.delta)
			if err != nil {
				return nil, wrap(err)
			}
			it.df -= gone
		}
		if newer {
			var c int64
			if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid > ?", t, ix.deltaID).Scan(&c); err != nil {
				return nil, wrap(err)
			}
			it.df += c
		}
		fast = append(fast, it)
	}
	if prune {
		for _, t := range slow {
			var c int64
			if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)", t, limit+1).Scan(&c); err != nil {
				return nil, wrap(err)
			}
			slowDF = append(slowDF, c)
		}
		anyRare := false
		for _, c := range slowDF {
			anyRare = anyRare || c <= limit
		}
		for _, it := range fast {
			anyRare = anyRare || it.df <= limit
		}
		if anyRare {
			keptSlow := slow[:0:0]
			for i, t := range slow {
				if slowDF[i] <= limit {
					keptSlow = append(keptSlow, t)
				}
			}
			keptFast := fast[:0:0]
			for _, it := range fast {
				if it.df <= limit {
					keptFast = append(keptFast, it)
				}
			}
			slow, fast = keptSlow, keptFast
		}
	}

	// FTS5 part: rare phrases everywhere, common ones in newer chunks.
	extra := map[int64]float64{}
	ftsPart := func(match string, after int64) error {
		rows, err := s.db.QueryContext(ctx, "SELECT rowid, bm25(chunks_fts, ?, ?, ?, ?) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid > ?",
			w[0], w[1], w[2], w[0], match, after)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var r float64
			if err := rows.Scan(&id, &r); err != nil {
				return err
			}
			extra[id] -= r
		}
		return rows.Err()
	}
	if len(slow) > 0 {
		if err := ftsPart(strings.Join(slow, " OR "), 0); err != nil {
			return nil, wrap(err)
		}
	}
	if newer && len(fast) > 0 {
		exprs := make([]string, len(fast))
		for i, it := range fast {
			exprs[i] = it.expr
		}
		if err := ftsPart(strings.Join(exprs, " OR "), ix.deltaID); err != nil {
			return nil, wrap(err)
		}
	}

	// Go part: common phrases in chunks the index covers, scored term at a
	// time into an accumulator, one window of chunk ids at a time. Each
	// chunk's contributions are added in phrase order, then its FTS5 part,
	// so the scores are those of bm25() bit for bit; the window keeps the
	// accumulator at scoreWindow floats however many chunks there are.
	type cursor struct {
		dec  blockDecoder
		n, i int // postings in dec's block, next one to score
		idf  float64
		done bool
	}
	var curs []*cursor
	for _, it := range fast {
		idf := ftsIDF(nRow, it.df)
		for _, list := range [][]byte{it.postings, it.delta} {
			if len(list) == 0 {
				continue
			}
			c := &cursor{idf: idf}
			if err := c.dec.reset(list); err != nil {
				return nil, wrap(err)
			}
			curs = append(curs, c)
		}
	}
	var early []int64 // chunk ids of extra that fall in the windows
	for id := range extra {
		if id <= ix.deltaID && len(curs) > 0 {
			early = append(early, id)
		}
	}
	slices.Sort(early)
	top := topk.New(k)
	if len(curs) > 0 {
		win := scoreWindow
		if ix.parts != nil {
			win = min(win, 1<<ix.partShift) // a window reads one part
		}
		acc := make([]float64, win)
		// Every score is positive (FTS5's idf is at least 1e-6), so a
		// floor above zero also skips the chunks no phrase matched.
		floor := math.SmallestNonzeroFloat64
		norm := bm25K1 * bm25B / avgdl
		for lo := int64(0); lo <= ix.deltaID; lo += win {
			hi := min(lo+win, ix.deltaID+1)
			// The chunk lengths of a window inside one part are read
			// straight from it (loadImpact checked the parts' sizes).
			var part []byte
			var base int64
			if ix.parts != nil && hi-1 <= ix.maxID && lo>>ix.partShift == (hi-1)>>ix.partShift {
				base = lo >> ix.partShift << ix.partShift
				part = ix.parts[lo>>ix.partShift]
			}
			for _, c := range curs {
				for !c.done {
					if c.i == c.n {
						n, err := c.dec.next()
						if err != nil {
							return nil, wrap(err)
						}
						c.n, c.i, c.done = n, 0, n == 0
						continue
					}
					docs, tfs := &c.dec.docs, &c.dec.tfs
					for ; c.i < c.n; c.i++ {
						doc := docs[c.i]
						if int64(doc) >= hi {
							break
						}
						if dead.n > 0 && dead.has(doc) {
							continue
						}
						var dl float64
						switch {
						case part == nil:
							dl = ix.docLen(doc)
						case part[0] == 2:
							dl = float64(binary.LittleEndian.Uint16(part[1+2*(int64(doc)-base):]))
						default:
							dl = float64(binary.LittleEndian.Uint32(part[1+4*(int64(doc)-base):]))
						}
						f := w[0]*float64(tfs[0][c.i]) + w[1]*float64(tfs[1][c.i]) + w[2]*float64(tfs[2][c.i]) + w[0]*float64(tfs[3][c.i])
						acc[int64(doc)-lo] += c.idf * (f * (bm25K1 + 1)) / (f + bm25K1*(1-bm25B) + norm*dl)
					}
					if c.i < c.n {
						break // the rest of the block is past this window
					}
				}
			}
			for len(early) > 0 && early[0] < hi {
				acc[early[0]-lo] += extra[early[0]]
				delete(extra, early[0])
				early = early[1:]
			}
			// Most chunks cannot enter the top k: compare with the worst
			// kept score before offering.
			for i, sc := range acc[:hi-lo] {
				if sc >= floor {
					top.Offer(lo+int64(i), sc)
					if f, full := top.Floor(); full {
						floor = f
					}
				}
			}
			clear(acc[:hi-lo])
		}
	}
	for id, sc := range extra {
		top.Offer(id, sc)
	}
	return topHits(top), nil
}

// scoreWindow is the number of chunk ids keywordImpact scores at a time:
// 64 KiB of float64, which stays in the L2 cache and costs a search process
// 16 fresh pages instead of one per 512 chunks of the index. Tests shrink
// it to cross many window edges.
var scoreWindow int64 = 8192

// singleToken reports whether an FTS5 term of ftsTerms is one quoted token,
// and returns that token as ftsTokens forms it.
func singleToken(term string) (string, bool) {
	if len(term) < 2 || term[0] != '"' || term[len(term)-1] != '"' {
		return "", false
	}
	raw := strings.ReplaceAll(term[1:len(term)-1], `""`, `"`)
	var tok string
	n := 0
	ftsTokens(raw, func(b []byte) {
		n++
		tok = string(b)
	})
	return tok, n == 1
}

// impactDead returns the ids of indexed chunks deleted since the build.
func (s *Store) impactDead(ctx context.Context) (idSet, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM impact_dead")
	if err != nil {
		return idSet{}, err
	}
	defer rows.Close()
	var dead idSet
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return idSet{}, err
		}
		dead.add(uint32(id))
	}
	return dead, rows.Err()
}

// idSet is a set of chunk ids as a bitmap: a membership test per posting
// costs a shift, where a map lookup cost more than scoring the posting.
type idSet struct {
	bits []uint64
	n    int // members
}

func (s *idSet) add(id uint32) {
	w := int(id >> 6)
	if w >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
	}
	if s.bits[w]&(1<<(id&63)) == 0 {
		s.bits[w] |= 1 << (id & 63)
		s.n++
	}
}

func (s *idSet) has(id uint32) bool {
	w := int(id >> 6)
	return w < len(s.bits) && s.bits[w]&(1<<(id&63)) != 0
}

// countIn returns how many postings of the given lists are in the set.
func (s *idSet) countIn(lists ...[]byte) (int64, error) {
	var c int64
	for _, list := range lists {
		if len(list) == 0 {
			continue
		}
		err := decodeBlocks(list, func(n int, docs *[blockLen]uint32, _ *[4][blockLen]uint32) {
			for _, d := range docs[:n] {
				if s.has(d) {
					c++
				}
			}
		})
		if err != nil {
			return 0, err
		}
	}
	return c, nil
}

// ftsAverages reads FTS5's averages record (rowid 1 of chunks_fts_data):
// the row count and the total tokens of each column, which bm25() uses for
// N and the average row length.
func (s *Store) ftsAverages(ctx context.Context) (int64, []uint64, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, "SELECT block FROM chunks_fts_data WHERE id = 1").Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	n, k := sqliteVarint(b)
	if k == 0 {
		return 0, nil, errors.New("corrupt FTS5 averages record")
	}
	var totals []uint64
	for b = b[k:]; len(b) > 0; {
		v, k := sqliteVarint(b)
		if k == 0 {
			return 0, nil, errors.New("corrupt FTS5 averages record")
		}
		totals = append(totals, v)
		b = b[k:]
	}
	return int64(n), totals, nil
}
