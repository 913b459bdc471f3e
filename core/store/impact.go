package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
	"github.com/vaultctx/vaultctx/core/internal/postings"
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
//     by core/internal/bm25 from impact_terms, one posting list per term holding
//     each chunk's per-column frequencies (see core/internal/postings), with the
//     chunk lengths from impact_doclen;
//   - every other phrase (rare tokens, multi-token words, CJK bigram
//     phrases) is matched by FTS5 in one pass that returns its instance
//     counts per column (phraseScores), and scored in Go with the same
//     lengths; a multi-token word of common tokens ("microsoft specific")
//     can match thousands of rows, and bm25() itself cost three times as
//     much there;
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
// ftsquery.Tokens, equal FTS5's own vocabulary counts; query words reach their
// FTS5 term through impact_forms, the surface forms FTS5 itself stemmed.

// ImpactMinDF is the least number of chunks a term must occur in to be
// stored in the impact index, at any corpus size. FTS5's bm25() costs
// about 1-5 µs per matching row, a stored list one row read and a few ns
// per posting, so every term whose FTS5 part would read more than a few
// dozen rows is cheaper as a list; fixed, a query's FTS5 part reads at most
// ImpactMinDF rows per rare term however large the vault grows (issue 17).
// The earlier bound max(500, chunks/300) let it grow with the vault: 2,170
// rows per term at four times the large corpus. Measured there (BM25 leg in
// process, 73 queries, first run of each): the fixed 64 took 12.9 -> 6.8
// ms at 4x (651,120 chunks) and 4.0 -> 2.9 ms at 1x, for 10x the terms
// (12,059), 1.13x the postings and the same build time; 16 gave the same
// 1x time for 2.7x the terms of 64.
const ImpactMinDF = 64

// ExactMaxDF is the most chunks the stemmed match of an identifier or
// quoted phrase may hold for keyword search to match it as written
// (exactSplit reads those chunks). It is fixed, like ImpactMinDF, so that
// the chunks a query reads do not grow with the vault: the earlier bound
// max(500, chunks/300) read up to 2,170 chunks per term at four times the
// large corpus. Measured there (BenchmarkExactLeg, 152 bench queries with
// such terms): with the bound of 2,170, 4.3-4.5 ms mean and 14-15 ms p95
// per query against 1.3-1.45 ms and 5 ms at 1x. A term whose stem is in
// more chunks has a low IDF, and keeps its stemmed match.
const ExactMaxDF = 500

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
	// SkipBytes is the size of the lists' skip tables (impact_skips).
	SkipBytes int64
	// Spilled is the bytes of posting lists moved to the temporary file
	// while the chunks were read (see BuildImpact), 0 when they fit.
	Spilled int64
}

// BuildImpact rebuilds the impact index from the chunks now stored, for
// terms in at least minDF chunks (minDF <= 0 means ImpactMinDF). A corpus
// without such terms gets an empty index, and KeywordHits then uses FTS5
// alone. It reads every chunk twice and takes about 2 s at 160,000 chunks.
//
// Its memory is bounded by impactSpillBytes and the vocabulary, not by
// the corpus: while the chunks stream past, posting lists that outgrow
// the budget move to a temporary file beside the index (see spill), and
// each term's list is put back together, encoded and written one term at
// a time. Errors wrap the SQLite or file error.
func (s *Store) BuildImpact(ctx context.Context, minDF int) (ImpactStats, error) {
	if s.opt.Bulk {
		// FTS5's vocabulary, which the build reads, is read faster from
		// one segment than from the many a Bulk load leaves.
		if err := s.mergeText(ctx); err != nil {
			return ImpactStats{}, fmt.Errorf("build impact index: %w", err)
		}
	}
	return s.buildImpact(ctx, minDF, impactSpillBytes)
}

// buildImpact is BuildImpact holding at most budget bytes of posting
// lists in memory while it reads the chunks.
func (s *Store) buildImpact(ctx context.Context, minDF, budget int) (ImpactStats, error) {
	var st ImpactStats
	var n, maxID int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*), coalesce(max(id), 0) FROM chunks").Scan(&n, &maxID); err != nil {
		return st, fmt.Errorf("build impact index: %w", err)
	}
	if minDF <= 0 {
		minDF = ImpactMinDF
	}
	common, err := s.commonTerms(ctx, minDF)
	if err != nil {
		return st, err
	}
	sp, err := newSpill(s.path)
	if err != nil {
		return st, fmt.Errorf("build impact index: %w", err)
	}
	defer sp.close()
	b, err := s.planLists(ctx, common, sp, budget)
	if err != nil {
		return st, err
	}
	lens, err := s.docLengths(ctx, 0, maxID)
	if err != nil {
		return st, err
	}
	st, err = s.writeImpact(ctx, common, b, lens, maxID, minDF)
	st.Spilled = sp.size()
	return st, err
}

// impactLists are the terms of a build and where their posting lists
// are: each term's surface forms' lists, merged when the term is written
// and checked against FTS5's counts then.
type impactLists struct {
	stems []string         // the FTS5 terms, sorted
	ids   [][]int32        // by term: its forms' lists in cands
	forms map[string]int32 // surface form -> term
	cands *candidates
	sp    *spill
	// copies is ChunkCopies as chunkCopies gives it, counted while the
	// chunks were read; "" and counted false when they were not read.
	copies  string
	counted bool
}

// planLists reads every chunk and groups the lists of the candidate
// words by the common term they stem to.
func (s *Store) planLists(ctx context.Context, common map[string][2]int64, sp *spill, budget int) (*impactLists, error) {
	b := &impactLists{sp: sp}
	if len(common) == 0 {
		return b, nil
	}
	cands, err := s.scanCandidates(ctx, common, sp, budget)
	if err != nil {
		return nil, err
	}
	b.cands = cands
	b.copies, b.counted = copiesOf(cands.chunks, cands.texts), true
	stemOf, err := s.stemSurfaces(ctx, slices.Collect(maps.Keys(cands.ids)))
	if err != nil {
		return nil, err
	}
	// Group the candidates' lists by the FTS5 term they stem to; the
	// lists of the other candidates are dropped.
	byStem := map[string][]int32{}
	for w, ids := range cands.ids {
		stem, ok := stemOf[w]
		if _, common := common[stem]; ok && common {
			byStem[stem] = append(byStem[stem], ids...)
			continue
		}
		for _, id := range ids {
			cands.lists[id], cands.segs[id] = postings.VarList{}, nil
		}
	}
	b.stems = slices.Sorted(maps.Keys(byStem))
	b.forms = map[string]int32{}
	for i, stem := range b.stems {
		ids := byStem[stem]
		slices.Sort(ids)
		b.ids = append(b.ids, ids)
		for _, id := range ids {
			b.forms[cands.words[id]] = int32(i)
		}
	}
	return b, nil
}

// list merges term i's lists into its encoded posting list and that
// list's skip table (chunk lengths from lenOf), with its document and
// instance counts; df is -1 when a frequency was too large to pack (the
// term is left to FTS5). The lists are released.
func (b *impactLists) list(i int, lenOf func(doc uint32) uint32) (blob, skips []byte, df, cnt int64, err error) {
	c := b.cands
	for _, id := range b.ids[i] {
		head, err := b.sp.read(c.segs[id])
		if err != nil {
			return nil, nil, 0, 0, err
		}
		c.lists[id].Restore(head)
		c.segs[id] = nil
	}
	e := postings.Encoder{LenOf: lenOf}
	postings.Merge(c.lists, b.ids[i], func(p postings.Posting) {
		e.Add(p)
		df++
		cnt += int64(p.TF[0] + p.TF[1] + p.TF[2] + p.TF[3])
	})
	for _, id := range b.ids[i] {
		c.lists[id] = postings.VarList{}
		if c.overflow[id] {
			df = -1
		}
	}
	blob = e.Finish()
	return blob, e.Skips(), df, cnt, nil
}

// writeImpact replaces the impact index with the lists of b whose counts
// equal FTS5's (common, the terms in at least minDF chunks), and the chunk
// lengths lens of ids 0..maxID, in one transaction, merging and encoding
// one term's list at a time.
func (s *Store) writeImpact(ctx context.Context, common map[string][2]int64, b *impactLists, lens []byte, maxID int64, minDF int) (ImpactStats, error) {
	var st ImpactStats
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("build impact index: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []string{"DELETE FROM impact_terms", "DELETE FROM impact_skips", "DELETE FROM impact_forms", "DELETE FROM impact_doclen", "DELETE FROM impact_dead", "DELETE FROM impact_delta",
		"DELETE FROM impact_gone", "DELETE FROM meta WHERE key = 'impact_gone_dead'"} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	// One prepared statement per table: database/sql would prepare a query
	// string again for every one of the thousands of rows.
	var ins [4]*sql.Stmt
	for i, q := range []string{
		"INSERT INTO impact_terms(term, df, postings) VALUES(?, ?, ?)",
		"INSERT INTO impact_skips(term, skips) VALUES(?, ?)",
		"INSERT INTO impact_forms(surface, term) VALUES(?, ?)",
		"INSERT INTO impact_doclen(id, lens) VALUES(?, ?)",
	} {
		if ins[i], err = tx.PrepareContext(ctx, q); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
		defer ins[i].Close()
	}
	insTerm, insSkips, insForm, insLens := ins[0], ins[1], ins[2], ins[3]
	whole := postings.Lengths{MaxID: maxID, Whole: lens}
	lenOf := func(doc uint32) uint32 { return uint32(whole.Len(doc)) }
	keep := make([]bool, len(b.stems))
	for i, stem := range b.stems {
		blob, skips, df, cnt, err := b.list(i, lenOf)
		if err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
		if want := common[stem]; df != want[0] || cnt != want[1] {
			st.Rejected++
			continue
		}
		keep[i] = true
		st.Terms++
		st.Postings += int(df)
		st.Bytes += int64(len(blob))
		if _, err := insTerm.ExecContext(ctx, stem, df, blob); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
		st.SkipBytes += int64(len(skips))
		if _, err := insSkips.ExecContext(ctx, stem, skips); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	st.Rejected += len(common) - len(b.stems)
	for surf, i := range b.forms {
		if !keep[i] {
			continue
		}
		if _, err := insForm.ExecContext(ctx, surf, b.stems[i]); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	maxMeta := ""
	if st.Terms > 0 {
		for i, part := range postings.SplitLengths(lens) {
			if _, err := insLens.ExecContext(ctx, lensPartID+i, part); err != nil {
				return st, fmt.Errorf("build impact index: %w", err)
			}
		}
		maxMeta = strconv.FormatInt(maxID, 10)
	}
	copies := b.copies
	if !b.counted {
		if copies, err = chunkCopies(ctx, tx); err != nil {
			return st, fmt.Errorf("build impact index: %w", err)
		}
	}
	for key, v := range map[string]string{"impact_max_id": maxMeta, metaImpactDeltaMax: maxMeta, metaImpactMinDF: strconv.Itoa(minDF), metaChunkCopies: copies} {
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, v); err != nil {
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
// large enough to have common terms, when it has no skip tables or no
// recorded ImpactMinDF (built by an older version, whose bound grew with
// the corpus), or when more than ImpactStaleShare of
// the chunks were added or deleted since it was built; otherwise it brings
// the delta (the postings of chunks added since the build) up to date, and
// records ChunkCopies when the build did not. It reports whether it
// rebuilt.
func (s *Store) MaintainImpact(ctx context.Context) (bool, ImpactStats, error) {
	var n, maxID, dead int64
	var built string
	var noSkips, noMinDF bool
	err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(max(id), 0), (SELECT count(*) FROM impact_dead),
		coalesce((SELECT value FROM meta WHERE key = 'impact_max_id'), ''),
		EXISTS (SELECT 1 FROM impact_terms) AND NOT EXISTS (SELECT 1 FROM impact_skips),
		NOT EXISTS (SELECT 1 FROM meta WHERE key = ?) FROM chunks`, metaImpactMinDF).Scan(&n, &maxID, &dead, &built, &noSkips, &noMinDF)
	if err != nil {
		return false, ImpactStats{}, fmt.Errorf("impact index: %w", err)
	}
	// An index built before the skip tables is rebuilt once, so that its
	// searches prune, and one built before ImpactMinDF was fixed, so that
	// its rare terms get lists.
	if noSkips || noMinDF {
		built = ""
	}
	if built == "" {
		if n < ImpactMinDF {
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
			if err := s.recordChunkCopies(ctx); err != nil {
				return false, ImpactStats{}, err
			}
			return false, ImpactStats{}, s.countGone(ctx)
		}
	}
	st, err := s.BuildImpact(ctx, 0)
	return err == nil, st, err
}

// chunkCopies returns the mean number of chunks per distinct chunk text
// of the chunks table as metaChunkCopies records it ("" for no chunks).
func chunkCopies(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (string, error) {
	var chunks, texts int64
	if err := q.QueryRowContext(ctx, "SELECT count(*), count(DISTINCT hash) FROM chunks").Scan(&chunks, &texts); err != nil {
		return "", err
	}
	return copiesOf(chunks, texts), nil
}

// copiesOf is chunkCopies of chunks chunks with texts distinct hashes.
func copiesOf(chunks, texts int64) string {
	if texts == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(chunks)/float64(texts), 'f', 3, 64)
}

// recordChunkCopies records metaChunkCopies for an impact index built
// before the impact build recorded it, or whose record is damaged (once:
// later builds refresh it).
func (s *Store) recordChunkCopies(ctx context.Context) error {
	if c, err := s.ChunkCopies(ctx); err != nil || c != 0 {
		return err
	}
	v, err := chunkCopies(ctx, s.db)
	if err != nil || v == "" {
		return err
	}
	return s.SetMeta(ctx, metaChunkCopies, v)
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
	terms, names, forms, err := s.impactVocabulary(ctx)
	if err != nil {
		return wrap(err)
	}
	common := make(map[string][2]int64, len(terms))
	for t := range terms {
		common[t] = [2]int64{}
	}
	sc := postings.NewScanner(postings.StemPrefixes(common))

	// The chunks added since the build, tokenized once.
	type row struct {
		id   int64
		cols [4]string
	}
	var added []row
	if err := s.chunkColumnsAfter(ctx, built, func(id int64, cols *[4]string, _ []byte) {
		added = append(added, row{id, *cols})
	}); err != nil {
		return err
	}
	// New surface forms that may stem to an indexed term.
	unknown := map[string]struct{}{}
	for i := range added {
		for _, text := range added[i].cols {
			ftsquery.Tokens(text, func(tok []byte) {
				if _, ok := forms[string(tok)]; !ok && sc.Classify(tok) >= 0 {
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
	lists := make([]postings.Encoder, len(names))
	var counter postings.Counter
	lookup := func(tok []byte) int32 {
		if t, ok := forms[string(tok)]; ok {
			return t
		}
		return -1
	}
	for i := range added {
		counter.Count(&added[i].cols, lookup, func(t int32, tf [4]uint32) {
			lists[t].Add(postings.Posting{Doc: uint32(added[i].id), TF: tf})
		})
	}
	lens, err := s.docLengths(ctx, built+1, maxID)
	if err != nil {
		return err
	}
	return s.writeDelta(ctx, names, lists, newForms, lens, maxID)
}

// writeDelta replaces impact_delta with lists (by term, of names), adds
// newForms (surface, term) to impact_forms, and stores lens, the chunk
// lengths of the delta up to maxID, in one transaction.
func (s *Store) writeDelta(ctx context.Context, names []string, lists []postings.Encoder, newForms [][2]string, lens []byte, maxID int64) error {
	wrap := func(err error) error { return fmt.Errorf("impact delta: %w", err) }
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
		if lists[i].Len() == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO impact_delta(term, postings) VALUES(?, ?)", name, lists[i].Finish()); err != nil {
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

// impactVocabulary returns the terms of the impact index (name -> index
// in names) and its surface forms (surface -> term index).
func (s *Store) impactVocabulary(ctx context.Context) (terms map[string]int32, names []string, forms map[string]int32, err error) {
	terms = map[string]int32{}
	rows, err := s.db.QueryContext(ctx, "SELECT term FROM impact_terms")
	if err != nil {
		return nil, nil, nil, err
	}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return nil, nil, nil, err
		}
		terms[t] = int32(len(names))
		names = append(names, t)
	}
	rows.Close()
	forms = map[string]int32{}
	rows, err = s.db.QueryContext(ctx, "SELECT surface, term FROM impact_forms")
	if err != nil {
		return nil, nil, nil, err
	}
	for rows.Next() {
		var w, t string
		if err := rows.Scan(&w, &t); err != nil {
			rows.Close()
			return nil, nil, nil, err
		}
		if i, ok := terms[t]; ok {
			forms[w] = i
		}
	}
	rows.Close()
	return terms, names, forms, nil
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
	if dead.Len() > 0 {
		// A list with a skip table has only the blocks that can hold a
		// dead chunk decoded (a few edits touch few blocks); the delta and
		// lists without a table are decoded whole.
		//
		// The blobs are read in place (sql.RawBytes, valid until the next
		// row) and one skip table is decoded over and over: copying every
		// list of the index into fresh memory took most of this pass.
		ids := dead.IDs()
		rows, err := s.db.QueryContext(ctx, `SELECT t.term, t.postings, d.postings, k.skips FROM impact_terms t
			LEFT JOIN impact_delta d ON d.term = t.term LEFT JOIN impact_skips k ON k.term = t.term`)
		if err != nil {
			return wrap(err)
		}
		var sk postings.Skips
		for rows.Next() {
			var term string
			var blob, delta, table sql.RawBytes
			if err := rows.Scan(&term, &blob, &delta, &table); err != nil {
				rows.Close()
				return wrap(err)
			}
			var c int64
			if skipsOf(&sk, blob, table) {
				c, err = dead.CountInBlocks(blob, &sk, ids)
			} else {
				c, err = dead.CountIn(blob)
			}
			if err == nil {
				var cd int64
				cd, err = dead.CountIn(delta)
				c += cd
			}
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
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('impact_gone_dead', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", strconv.FormatInt(int64(dead.Len()), 10)); err != nil {
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

// chunkColumns streams every chunk's id, its four FTS5 column values and
// its hash (valid during the call only).
func (s *Store) chunkColumns(ctx context.Context, fn func(id int64, cols *[4]string, hash []byte)) error {
	return s.chunkColumnsAfter(ctx, 0, fn)
}

// chunkColumnsAfter is chunkColumns for the chunks with an id above after.
func (s *Store) chunkColumnsAfter(ctx context.Context, after int64, fn func(id int64, cols *[4]string, hash []byte)) error {
	rows, err := s.db.QueryContext(ctx, "SELECT id, chunk_text, section, heading_context, coalesce(cjk, ''), hash FROM chunks WHERE id > ? ORDER BY id", after)
	if err != nil {
		return fmt.Errorf("build impact index: %w", err)
	}
	defer rows.Close()
	var cols [4]string
	var hash sql.RawBytes
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id, &cols[0], &cols[1], &cols[2], &cols[3], &hash); err != nil {
			return fmt.Errorf("build impact index: %w", err)
		}
		fn(id, &cols, hash)
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
//
// Each row holds stemColumns tokens, one per column, and the 'instance'
// vocabulary names each term's row and column, so a token's term is found
// as it would be in a row of its own, for a stemColumnsth of the
// statements (a row per token took 0.4 s of an impact build at 163k
// chunks). The unicode61 and porter tokenizers see each column's text
// alone.
func (s *Store) stemSurfaces(ctx context.Context, list []string) (map[string]string, error) {
	wrap := func(err error) error { return fmt.Errorf("build impact index: stem: %w", err) }
	var cols, params strings.Builder
	for c := range stemColumns {
		if c > 0 {
			cols.WriteString(", ")
		}
		fmt.Fprintf(&cols, "c%d", c)
		params.WriteString(", ?")
	}
	for _, q := range []string{
		"DROP TABLE IF EXISTS temp.impact_stem",
		"CREATE VIRTUAL TABLE temp.impact_stem USING fts5(" + cols.String() + ", tokenize='" + ftsTokenizer + "')",
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
	ins, err := tx.PrepareContext(ctx, "INSERT INTO temp.impact_stem(rowid, "+cols.String()+") VALUES(?"+params.String()+")")
	if err != nil {
		return nil, wrap(err)
	}
	args := make([]any, 1+stemColumns)
	for at := 0; at < len(list); at += stemColumns {
		args[0] = at/stemColumns + 1
		for c := range stemColumns {
			args[1+c] = ""
			if at+c < len(list) {
				args[1+c] = list[at+c]
			}
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return nil, wrap(err)
		}
	}
	ins.Close()
	rows, err := tx.QueryContext(ctx, "SELECT doc, col, term FROM temp.impact_stemv")
	if err != nil {
		return nil, wrap(err)
	}
	terms := make([]string, len(list))
	bad := make([]bool, len(list))
	for rows.Next() {
		var doc int64
		var col, term string
		if err := rows.Scan(&doc, &col, &term); err != nil {
			rows.Close()
			return nil, wrap(err)
		}
		c, err := strconv.Atoi(strings.TrimPrefix(col, "c"))
		i := (doc-1)*stemColumns + int64(c)
		if err != nil || doc < 1 || c < 0 || c >= stemColumns || i >= int64(len(list)) {
			continue
		}
		if terms[i] != "" {
			bad[i] = true
		}
		terms[i] = term
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

// stemColumns is the number of tokens stemSurfaces puts in one row.
const stemColumns = 64

// candidates are the surface tokens that may stem to a common term, each
// with one or more postings lists, each in doc order (see postings.VarList):
// list i is the bytes at segs[i] in the spill file, in order, followed by
// lists[i].
type candidates struct {
	// chunks and texts count the chunks read and their distinct hashes
	// (see chunkCopies).
	chunks, texts int64
	ids           map[string][]int32 // word -> its lists
	words         []string           // by list
	lists         []postings.VarList
	segs          [][]spillSeg
	overflow      []bool // by list
}

// impactSpillBytes bounds the posting lists a build holds in memory
// while it reads the chunks; beyond it, scanCandidates moves the lists of
// at least impactSpillMin bytes to the spill file (every list, when that
// leaves more than half the budget).
const impactSpillBytes = 48 << 20

// impactSpillMin is the least size of a list that a spill moves to the
// file while the smaller ones fit in half the budget: rare words stay in
// memory and cost no segment.
const impactSpillMin = 4 << 10

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
// A worker whose lists outgrow its share of budget (bytes) moves them
// to sp.
func (s *Store) scanCandidates(ctx context.Context, common map[string][2]int64, sp *spill, budget int) (*candidates, error) {
	prefixes := postings.StemPrefixes(common)
	type row struct {
		id   int64
		cols [4]string
	}
	const batchLen = 256
	workers := min(max(runtime.GOMAXPROCS(0), 1), 4)
	budget /= workers
	chans := make([]chan []row, workers)
	scanners := make([]*postings.Scanner, workers)
	segs := make([][][]spillSeg, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range chans {
		chans[i] = make(chan []row, 4)
		scanners[i] = postings.NewScanner(prefixes)
		wg.Add(1)
		go func(w int, sc *postings.Scanner, in chan []row) {
			defer wg.Done()
			keep := func(id int32, b []byte) error {
				sg, err := sp.write(b)
				for int(id) >= len(segs[w]) {
					segs[w] = append(segs[w], nil)
				}
				segs[w][id] = append(segs[w][id], sg)
				return err
			}
			for batch := range in {
				for i := range batch {
					sc.Chunk(batch[i].id, &batch[i].cols)
				}
				if sc.Size() > budget && errs[w] == nil {
					errs[w] = sc.Spill(impactSpillMin, keep)
					if sc.Size() > budget/2 && errs[w] == nil {
						errs[w] = sc.Spill(1, keep)
					}
				}
			}
		}(i, scanners[i], chans[i])
	}
	batch, next := make([]row, 0, batchLen), 0
	var hashes distinctHashes
	err := s.chunkColumns(ctx, func(id int64, cols *[4]string, hash []byte) {
		hashes.add(hash)
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
	if err == nil {
		err = errors.Join(errs...)
	}
	total := 0
	for _, sc := range scanners {
		total += len(sc.Words)
	}
	c := &candidates{
		ids: make(map[string][]int32, total), chunks: hashes.n, texts: hashes.distinct(),
		words: make([]string, 0, total), lists: make([]postings.VarList, 0, total),
		segs: make([][]spillSeg, 0, total), overflow: make([]bool, 0, total),
	}
	for w, sc := range scanners {
		for j, word := range sc.Words {
			id := int32(len(c.words))
			c.words = append(c.words, word)
			c.lists = append(c.lists, sc.Lists[j])
			var sg []spillSeg
			if j < len(segs[w]) {
				sg = segs[w][j]
			}
			c.segs = append(c.segs, sg)
			c.overflow = append(c.overflow, sc.Overflow[j])
			c.ids[word] = append(c.ids[word], id)
		}
	}
	return c, err
}

// docLengths returns each chunk's length in tokens over all FTS5 columns
// (the "D" of FTS5's bm25), read from chunks_fts_docsize, for ids from..to,
// as a postings.EncodeLengths blob.
func (s *Store) docLengths(ctx context.Context, from, to int64) ([]byte, error) {
	lens := make([]uint32, max(to-from+1, 0))
	rows, err := s.db.QueryContext(ctx, "SELECT id, sz FROM chunks_fts_docsize WHERE id BETWEEN ? AND ?", from, to)
	if err != nil {
		return nil, fmt.Errorf("impact index: %w", err)
	}
	defer rows.Close()
	var sz sql.RawBytes
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id, &sz); err != nil {
			return nil, fmt.Errorf("impact index: %w", err)
		}
		if id >= from && id <= to {
			lens[id-from] = postings.DocSize(sz)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("impact index: %w", err)
	}
	return postings.EncodeLengths(lens), nil
}

// lensPartID is the impact_doclen id of the first part of the build's
// chunk lengths (ids 1 and 2 are the whole build and the delta).
const lensPartID = 16

// distinctHashes counts chunk hashes and the distinct ones among them, as
// count(*) and count(DISTINCT hash) over the chunks table would: hashes of
// 8 bytes (every chunk an indexer writes) as integers, sorted at the end,
// any others by value.
type distinctHashes struct {
	n     int64
	words []uint64
	other map[string]struct{}
}

func (h *distinctHashes) add(hash []byte) {
	h.n++
	if len(hash) == 8 {
		h.words = append(h.words, binary.BigEndian.Uint64(hash))
		return
	}
	if h.other == nil {
		h.other = map[string]struct{}{}
	}
	h.other[string(hash)] = struct{}{}
}

// distinct returns the number of distinct hashes added.
func (h *distinctHashes) distinct() int64 {
	slices.Sort(h.words)
	return int64(len(slices.Compact(h.words)) + len(h.other))
}
