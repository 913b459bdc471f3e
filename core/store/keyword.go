package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/bm25"
	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
	"github.com/vaultctx/vaultctx/core/internal/postings"
)

// The read side of the impact index (see impact.go for what it holds): a
// keyword search over it fetches, per query phrase, the posting lists and
// document frequencies from SQLite, chooses which phrases the lists serve
// (the rest go to FTS5's bm25()), and hands both to core/internal/bm25,
// which accumulates and ranks.

// impactIndex is the part of the impact index a reader keeps in memory.
type impactIndex struct {
	maxID   int64 // the last chunk id of the build
	deltaID int64 // the last chunk id of the delta; larger ids are newer
	noDelta bool  // a file written before impact_delta existed
	noSkips bool  // a file written before impact_skips existed
	// lens are the chunk lengths of the build (ids 0..maxID) and of the
	// delta (ids maxID+1..deltaID).
	lens postings.Lengths
}

// searchStats is what a keyword search reads of the file before it looks
// at any term, read in one statement (readSearchStats) so that a search
// pays one SQLite round trip for it instead of five, and sees one
// snapshot: the impact index's meta keys, FTS5's averages record (N and
// each column's total tokens, as ftsAverages reads them), the largest
// chunk id, the dead chunks impact_gone was counted against, and whether
// any chunk is dead.
type searchStats struct {
	built, delta string   // meta impact_max_id and impact_delta_max, "" when unset
	nRow         int64    // FTS5's N
	totals       []uint64 // FTS5's total tokens per column
	maxChunk     int64    // max(chunks.id), 0 for none
	goneDead     string   // meta impact_gone_dead, "" when unset
	anyDead      bool     // impact_dead holds a chunk (or the file may have no such table)
}

// searchStatsSQL reads searchStats (searchStatsCols and whether a chunk is
// dead); searchStatsNoDead is it for a file
// without impact_dead (written before the impact index), which then
// reports anyDead so that the search reads impact_dead as it always did.
const (
	searchStatsCols = `SELECT coalesce((SELECT value FROM meta WHERE key = 'impact_max_id'), ''),
		coalesce((SELECT value FROM meta WHERE key = 'impact_delta_max'), ''),
		(SELECT block FROM chunks_fts_data WHERE id = 1),
		(SELECT coalesce(max(id), 0) FROM chunks),
		coalesce((SELECT value FROM meta WHERE key = 'impact_gone_dead'), ''),
		`
	searchStatsSQL    = searchStatsCols + `EXISTS (SELECT 1 FROM impact_dead)`
	searchStatsNoDead = searchStatsCols + `1`
)

// readSearchStats reads the searchStats of one keyword search.
func (s *Store) readSearchStats(ctx context.Context) (*searchStats, error) {
	st := new(searchStats)
	var avg []byte
	scan := func(q string) error {
		return s.db.QueryRowContext(ctx, q).Scan(&st.built, &st.delta, &avg, &st.maxChunk, &st.goneDead, &st.anyDead)
	}
	err := scan(searchStatsSQL)
	if err != nil && strings.Contains(err.Error(), "no such table") {
		err = scan(searchStatsNoDead)
	}
	if err != nil {
		return nil, fmt.Errorf("search statistics: %w", err)
	}
	if st.nRow, st.totals, err = parseAverages(avg); err != nil {
		return nil, fmt.Errorf("search statistics: %w", err)
	}
	return st, nil
}

// loadImpact returns the impact index, or nil when the file has none (an
// older file, or a corpus without common terms); see loadImpactAt.
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
	return s.loadImpactAt(ctx, built, delta)
}

// loadImpactAt is loadImpact given the meta values impact_max_id (built)
// and impact_delta_max (delta) of the search. The chunk lengths are kept
// between calls; the meta keys are read for every search (not from the
// snapshot of a read-only store), so a reader that stays open across a
// rebuild or a delta update picks it up.
func (s *Store) loadImpactAt(ctx context.Context, built, delta string) (*impactIndex, error) {
	maxID, _ := strconv.ParseInt(built, 10, 64)
	if maxID <= 0 {
		return nil, nil
	}
	deltaID, _ := strconv.ParseInt(delta, 10, 64)
	deltaID = max(deltaID, maxID)
	if ix := s.imp.Load(); ix != nil && ix.maxID == maxID && ix.deltaID == deltaID {
		return ix, nil
	}
	ix := &impactIndex{maxID: maxID, deltaID: deltaID, lens: postings.Lengths{MaxID: maxID}}
	var hasDelta, hasSkips int
	var err error
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE name = 'impact_delta'), count(*) FILTER (WHERE name = 'impact_skips')
		FROM sqlite_schema WHERE name IN ('impact_delta', 'impact_skips')`).Scan(&hasDelta, &hasSkips); err != nil {
		return nil, fmt.Errorf("load impact index: %w", err)
	}
	ix.noDelta, ix.noSkips = hasDelta == 0, hasSkips == 0
	var parts [][]byte
	err = s.queryOwned(ctx, "SELECT id, lens FROM impact_doclen", nil, func(vals []driver.Value) error {
		id, err := valInt64(vals[0])
		if err != nil {
			return err
		}
		lens, err := valBytes(vals[1])
		if err != nil {
			return err
		}
		if len(lens) == 0 || (lens[0] != 2 && lens[0] != 4 && (lens[0] != 1 || id < lensPartID)) {
			return nil // a width this build does not write there: see UseParts
		}
		switch {
		case id == 1:
			ix.lens.Whole = lens
		case id == 2:
			ix.lens.Delta = lens
		case id >= lensPartID:
			p := int(id - lensPartID)
			if p >= len(parts) {
				parts = append(parts, make([][]byte, p+1-len(parts))...)
			}
			parts[p] = lens
		}
		return nil
	})
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, fmt.Errorf("load impact index: %w", err)
	}
	if parts != nil {
		// Parts that cannot be the whole build's mean a damaged file: use
		// FTS5 alone.
		if !ix.lens.UseParts(parts) {
			return nil, nil
		}
	} else if ix.lens.Whole == nil {
		return nil, nil
	}
	if ix.lens.Delta == nil {
		ix.deltaID = maxID // a delta without lengths is not used
	}
	s.imp.Store(ix)
	return ix, nil
}

// scoreWorkers is how many goroutines score the impact lists of one query
// (bm25.Scorer.Workers): the CPUs Go may use, up to maxScoreWorkers. By the
// time the lists are scored the vector leg has mostly finished, so a
// second CPU would otherwise sit idle through the slowest step of a
// search.
var scoreWorkers = min(runtime.GOMAXPROCS(0), maxScoreWorkers)

// maxScoreWorkers bounds scoreWorkers: each range of chunk ids prunes with
// its own heap until the shared floor rises, so more ranges decode more
// blocks in all.
const maxScoreWorkers = 4

// scoreWindow is the number of chunk ids keywordImpact scores at a time
// (bm25.Scorer.Window). Tests shrink it to cross many window edges.
var scoreWindow int64 = bm25.DefaultWindow

// keywordImpact is KeywordHits over the impact index; see the comment at
// the top of impact.go. It fetches the statistics and the phrases' lists
// (impactQuery), splits the phrases between the lists and FTS5 and prunes
// the common ones (choosePhrases), scores the FTS5 part (ftsScores), and
// lets bm25.Scorer add the lists' part and rank.
func (s *Store) keywordImpact(ctx context.Context, ix *impactIndex, terms []string, exact *exactLeg, k int, w [3]float64) ([]Hit, error) {
	return s.keywordImpactScored(ctx, ix, terms, exact, k, w, impactScoring{})
}

// impactScoring are keywordImpactScored's options: exhaustive scores every
// posting (bm25.Scorer.Exhaustive), and skipped, when set, receives the
// number of blocks the pruned scorer left undecoded. Tests and benchmarks
// compare the two scorers through it. stats are the search's statistics
// when KeywordHits has read them (nil: read them).
type impactScoring struct {
	exhaustive bool
	skipped    *int
	stats      *searchStats
}

// keywordImpactScored is keywordImpact scored as opt says.
func (s *Store) keywordImpactScored(ctx context.Context, ix *impactIndex, terms []string, exact *exactLeg, k int, w [3]float64, opt impactScoring) ([]Hit, error) {
	wrap := func(err error) error { return fmt.Errorf("keyword search: %w", err) }
	q, err := s.impactQuery(ctx, ix, opt.stats, terms)
	if err != nil {
		return nil, wrap(err)
	}
	if q.nRow == 0 {
		return nil, nil
	}
	// terms may be empty when every word is an identifier matched exactly.
	fast, slow, err := s.choosePhrases(ctx, ix, q, terms)
	if err != nil {
		return nil, wrap(err)
	}
	// FTS5 part: rare phrases everywhere, common ones in newer chunks.
	extra := map[int64]float64{}
	if err := s.slowScores(ctx, ix, q, w, slow, extra); err != nil {
		return nil, wrap(err)
	}
	exact.addScores(w, extra)
	if q.newer && len(fast) > 0 {
		exprs := make([]string, len(fast))
		for i, it := range fast {
			exprs[i] = it.expr
		}
		if err := s.ftsScores(ctx, w, strings.Join(exprs, " OR "), ix.deltaID, extra); err != nil {
			return nil, wrap(err)
		}
	}
	// Lists part: each phrase's build list, then its delta list.
	var lists []bm25.List
	for _, it := range fast {
		idf := bm25.IDF(q.nRow, it.df)
		lists = append(lists, bm25.List{Postings: it.postings, IDF: idf, Skips: decodeSkips(it)}, bm25.List{Postings: it.delta, IDF: idf})
	}
	sc := bm25.Scorer{Weights: w, AvgDL: q.avgdl, Lengths: &ix.lens, Dead: &q.dead, Last: ix.deltaID, Window: scoreWindow, Workers: scoreWorkers, Exhaustive: opt.exhaustive}
	top, err := sc.TopK(lists, extra, k)
	if err != nil {
		return nil, wrap(err)
	}
	if opt.skipped != nil {
		*opt.skipped += sc.Skipped
	}
	out := make([]Hit, len(top))
	for i, h := range top {
		out[i] = Hit{ChunkID: h.ID, Score: h.Score}
	}
	return out, nil
}

// decodeSkips returns the decoded skip table of it's build list, or nil
// when it has none or the table does not fit the list (which is then
// scored whole: a damaged table costs speed, not results).
func decodeSkips(it impactTerm) *postings.Skips {
	sk := new(postings.Skips)
	if !skipsOf(sk, it.postings, it.skips) {
		return nil
	}
	return sk
}

// skipsOf decodes into sk the skip table of the list blob, reusing sk's
// slices, and reports false when there is no usable table (see
// decodeSkips).
func skipsOf(sk *postings.Skips, blob, table []byte) bool {
	n, k := binary.Uvarint(blob)
	return k > 0 && table != nil && postings.DecodeSkips(sk, table, int(min(n, 1<<31)), len(blob))
}

// impactQuery is what keywordImpact reads before it scores.
type impactQuery struct {
	nRow    int64   // FTS5's N
	avgdl   float64 // FTS5's average chunk length
	newer   bool    // chunks exist that neither the build nor the delta holds
	dead    postings.IDSet
	counted bool // impact_gone counts each term's dead postings
	byForm  map[string]storedTerm
	surface []string // by phrase: its single token, or ""
}

// storedTerm is a term's row of the impact index.
type storedTerm struct {
	df, gone               int64
	postings, delta, skips []byte
}

// impactTerm is one query phrase served by the impact index.
type impactTerm struct {
	expr     string // the FTS5 phrase
	postings []byte
	delta    []byte // postings in chunks added since the build
	df       int64  // live document frequency
	skips    []byte // the skip table of postings, nil when the file has none
}

// impactQuery reads the dead chunks and the stored lists of the phrases
// of terms that are single tokens; st holds the search's statistics (nil:
// read them now).
func (s *Store) impactQuery(ctx context.Context, ix *impactIndex, st *searchStats, terms []string) (*impactQuery, error) {
	if st == nil {
		var err error
		if st, err = s.readSearchStats(ctx); err != nil {
			return nil, err
		}
	}
	if st.nRow == 0 {
		return &impactQuery{}, nil
	}
	q := &impactQuery{nRow: st.nRow, surface: make([]string, len(terms))}
	for _, t := range st.totals {
		q.avgdl += float64(t)
	}
	q.avgdl /= float64(st.nRow)
	var lookup []string
	for i, t := range terms {
		if w, ok := ftsquery.SingleToken(t); ok {
			q.surface[i] = w
			lookup = append(lookup, w)
		}
	}
	if st.anyDead {
		var err error
		if q.dead, err = s.impactDead(ctx); err != nil {
			return nil, err
		}
	}
	q.newer = st.maxChunk > ix.deltaID
	// impact_gone counts each term's dead postings while impact_dead is
	// as countGone saw it; otherwise the lists are decoded to count them.
	q.counted = q.dead.Len() == 0
	if c, err := strconv.ParseInt(st.goneDead, 10, 64); err == nil && c == int64(q.dead.Len()) {
		q.counted = true
	}
	var err error
	q.byForm, err = s.storedTerms(ctx, ix, lookup, q.counted && q.dead.Len() > 0)
	return q, err
}

// storedTerms returns the impact index's row of each surface form of
// lookup that it holds, with the postings of its delta and, with gone, the
// count of its dead postings.
func (s *Store) storedTerms(ctx context.Context, ix *impactIndex, lookup []string, gone bool) (map[string]storedTerm, error) {
	byForm := map[string]storedTerm{}
	if len(lookup) == 0 {
		return byForm, nil
	}
	list, _ := json.Marshal(lookup)
	deltaSQL := "(SELECT postings FROM impact_delta d WHERE d.term = f.term)"
	if ix.noDelta || ix.deltaID == ix.maxID {
		deltaSQL = "NULL"
	}
	skipsSQL := "(SELECT skips FROM impact_skips k WHERE k.term = f.term)"
	if ix.noSkips {
		skipsSQL = "NULL"
	}
	goneSQL := "0"
	if gone {
		goneSQL = "coalesce((SELECT n FROM impact_gone g WHERE g.term = f.term), 0)"
	}
	err := s.queryOwned(ctx, `SELECT f.surface, t.df, t.postings, `+deltaSQL+`, `+goneSQL+`, `+skipsSQL+` FROM impact_forms f JOIN impact_terms t ON t.term = f.term
		WHERE f.surface IN (SELECT value FROM json_each(?))`, []any{string(list)}, func(vals []driver.Value) error {
		w, err := valString(vals[0])
		if err != nil {
			return err
		}
		var st storedTerm
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
		if st.skips, err = valBytes(vals[5]); err != nil {
			return err
		}
		byForm[w] = st
		return nil
	})
	return byForm, err
}

// choosePhrases splits terms into the phrases the impact index serves
// (fast, with their live document frequency) and the ones FTS5 scores
// (slow), then drops the common ones as pruneCommon does.
func (s *Store) choosePhrases(ctx context.Context, ix *impactIndex, q *impactQuery, terms []string) ([]impactTerm, []string, error) {
	var fast []impactTerm
	var slow []string
	liveDF := map[string]int64{} // by surface form, of the fast terms
	for i, t := range terms {
		st, ok := q.byForm[q.surface[i]]
		if !ok {
			slow = append(slow, t)
			continue
		}
		it, err := s.liveTerm(ctx, ix, q, t, st)
		if err != nil {
			return nil, nil, err
		}
		fast = append(fast, it)
		liveDF[q.surface[i]] = it.df
	}
	limit := max(int64(MinCommonDocs), int64(CommonTermShare*float64(q.nRow)))
	if q.nRow <= limit || len(terms) <= 1 {
		return fast, slow, nil
	}
	slowDF := make([]int64, len(slow))
	for i, t := range slow {
		// A chunk that holds a phrase holds each of its tokens: a token
		// served by the lists in at most limit chunks bounds the phrase
		// without counting it, which for a phrase of common tokens
		// ("microsoft specific") walks as many rows as scoring it.
		if b, ok := phraseBound(t, liveDF); ok && b <= limit {
			slowDF[i] = b
			continue
		}
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)", t, limit+1).Scan(&slowDF[i]); err != nil {
			return nil, nil, err
		}
	}
	fast, slow = pruneFrequent(fast, slow, slowDF, limit)
	return fast, slow, nil
}

// liveTerm returns phrase t served from its stored row: the document
// frequency is the build's, plus the delta's, less the postings in dead
// chunks, plus the matches in chunks newer than the delta.
func (s *Store) liveTerm(ctx context.Context, ix *impactIndex, q *impactQuery, t string, st storedTerm) (impactTerm, error) {
	it := impactTerm{expr: t, postings: st.postings, delta: st.delta, df: st.df, skips: st.skips}
	if n, k := binary.Uvarint(st.delta); k > 0 {
		it.df += int64(n)
	}
	if q.counted {
		it.df -= st.gone
	} else {
		gone, err := q.dead.CountIn(st.postings, st.delta)
		if err != nil {
			return it, err
		}
		it.df -= gone
	}
	if q.newer {
		var c int64
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid > ?", t, ix.deltaID).Scan(&c); err != nil {
			return it, err
		}
		it.df += c
	}
	return it, nil
}

// phraseBound returns the least live document frequency (liveDF, by
// surface form) of the tokens of phrase t (ftsquery.PhraseTokens), an
// upper bound of the phrase's own; false when none of its tokens is in
// liveDF.
func phraseBound(t string, liveDF map[string]int64) (int64, bool) {
	var b int64
	ok := false
	for _, tok := range ftsquery.PhraseTokens(t) {
		if df, in := liveDF[tok]; in && (!ok || df < b) {
			b, ok = df, true
		}
	}
	return b, ok
}

// pruneFrequent keeps, of the fast and slow phrases (slowDF the slow ones'
// capped document counts), those in at most limit chunks, when at least
// one is; otherwise it keeps all (see pruneCommon).
func pruneFrequent(fast []impactTerm, slow []string, slowDF []int64, limit int64) ([]impactTerm, []string) {
	anyRare := false
	for _, c := range slowDF {
		anyRare = anyRare || c <= limit
	}
	for _, it := range fast {
		anyRare = anyRare || it.df <= limit
	}
	if !anyRare {
		return fast, slow
	}
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
	return keptFast, keptSlow
}

// slowScores adds to extra[chunk id] the BM25 of the phrases the impact
// index does not serve (slow, FTS5 expressions), over every chunk:
// phraseScores, or FTS5's bm25() itself (ftsScores) on a connection
// without vaultctx_phrase_scan or when the lengths do not fit the file.
func (s *Store) slowScores(ctx context.Context, ix *impactIndex, q *impactQuery, w [3]float64, slow []string, extra map[int64]float64) error {
	if len(slow) == 0 {
		return nil
	}
	match := strings.Join(slow, " OR ")
	err := s.phraseScores(ctx, w, match, q.nRow, q.avgdl, &ix.lens, ix.deltaID, extra)
	if err != nil && ctx.Err() == nil {
		err = s.ftsScores(ctx, w, match, 0, extra)
	}
	return err
}

// ftsScores subtracts FTS5's bm25() with weights w of every chunk above
// after that match (an FTS5 expression) from extra[chunk id]: FTS5's
// scores are negative, extra's positive.
func (s *Store) ftsScores(ctx context.Context, w [3]float64, match string, after int64, extra map[int64]float64) error {
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

// exactSplit decides which terms of exact (ftsquery.ExactTerms: quoted
// phrases and identifiers, each also one of terms) keyword search matches
// as written, and returns the rest as stemmed. A term is matched as
// written when its stemmed match (chunks_fts, in the columns of the text,
// ftsquery.TextColumns) holds at most ExactMaxDF chunks and at least
// one of them holds the term as written: the unstemmed tokens of
// ftsquery.Tokens in a row (ftsquery.PhraseCounter). The returned leg
// holds those chunks' counts; its addScores scores them.
//
// An identifier matched as written instead of by its stem cannot be
// outranked by a word the stemmer conflates with it: EnableQuickCustomization
// and EnableQuickCustomize share the stem "enablequickcustom", but only
// one chunk set holds each spelling. Its weight against the query's other
// terms stays what it was (BM25 of one term, not two). An identifier that
// no chunk holds as written (the plural "DLLs" of a vault that only says
// "DLL") keeps its stemmed match, and so does one whose stem is in more
// chunks than the bound: its IDF is low, the stemmer rarely conflates such
// a common name with another, and the bound keeps this leg as cheap as
// the rest of FTS5's (each term reads at most ExactMaxDF rows, and finding
// out that its stem is more common reads at most that many postings).
//
// The stemmed match is a superset of the match as written (equal tokens
// have equal stems), so reading its chunks finds every chunk that holds
// the term as written; the index keeps no unstemmed copy of the texts.
// Reading them cost up to 5 ms for a term of a few hundred chunks, so a
// term each of whose tokens is the only surface form of its stem in the
// impact index ix (soleSurfaces; ix may be nil) is counted without them:
// its stemmed match is its match as written, and FTS5's instance counts
// of it are the counts (exactScan). The leg is the same either way
// (TestExactLegMatchesUnstemmedFTS5 checks both).
func (s *Store) exactSplit(ctx context.Context, ix *impactIndex, st *searchStats, terms, exact []string) (stemmed []string, leg *exactLeg, err error) {
	if len(exact) == 0 {
		return terms, nil, nil
	}
	wrap := func(err error) error { return fmt.Errorf("exact terms: %w", err) }
	if st == nil {
		if st, err = s.readSearchStats(ctx); err != nil {
			return nil, nil, wrap(err)
		}
	}
	nRow, totals := st.nRow, st.totals
	if nRow == 0 {
		return terms, nil, nil
	}
	toks := make([][]string, len(exact))
	var all []string
	for i, t := range exact {
		toks[i] = ftsquery.PhraseTokens(t)
		all = append(all, toks[i]...)
	}
	sole, err := s.soleSurfaces(ctx, ix, all)
	if err != nil {
		return nil, nil, wrap(err)
	}
	var cand []string
	var phrases [][]string
	var scanned []int            // the candidates exactScan counts
	holders := map[int64][]int{} // chunk id -> the other candidates whose stemmed match holds it
	for i, t := range exact {
		if len(toks[i]) == 0 {
			continue
		}
		match := ftsquery.TextColumns + t
		if !slices.ContainsFunc(toks[i], func(tok string) bool { return !sole[tok] }) {
			n, err := s.matchCount(ctx, match, ExactMaxDF+1)
			if err != nil {
				return nil, nil, wrap(err)
			}
			if n > 0 && n <= ExactMaxDF {
				scanned = append(scanned, len(cand))
				cand, phrases = append(cand, t), append(phrases, toks[i])
			}
			continue
		}
		ids, few, err := s.matchIDs(ctx, match, ExactMaxDF)
		if err != nil {
			return nil, nil, wrap(err)
		}
		if !few || len(ids) == 0 {
			continue
		}
		for _, id := range ids {
			holders[id] = append(holders[id], len(cand))
		}
		cand, phrases = append(cand, t), append(phrases, toks[i])
	}
	leg = &exactLeg{n: nRow, df: make([]int64, len(cand))}
	var total uint64
	for i := 0; i < len(totals) && i < 3; i++ {
		total += totals[i]
	}
	leg.avgdl = float64(total) / float64(nRow)
	if len(holders) > 0 {
		if err := s.exactRows(ctx, holders, phrases, leg); err != nil {
			return nil, nil, wrap(err)
		}
	}
	if len(scanned) > 0 {
		err := s.exactScan(ctx, cand, scanned, leg)
		if errors.Is(err, errNoPhraseScan) && ix != nil {
			return s.exactSplit(ctx, nil, st, terms, exact) // a build without FTS5's API: read the texts
		}
		if err != nil {
			return nil, nil, wrap(err)
		}
	}
	moved := map[string]bool{}
	for i, t := range cand {
		if leg.df[i] > 0 {
			leg.terms = append(leg.terms, t)
			moved[t] = true
		}
	}
	for _, t := range terms {
		if !moved[t] {
			stemmed = append(stemmed, t)
		}
	}
	if len(leg.terms) == 0 {
		return stemmed, nil, nil
	}
	return stemmed, leg, nil
}

// exactLeg is the exact-form leg of one keyword search (exactSplit): the
// chunks that hold a rare term as written, with the statistics of BM25
// over the three text columns tokenized without the stemmer. N and the
// columns' token totals are chunks_fts's (stemming changes no token
// count), so avgdl and each chunk's length are those of that table.
type exactLeg struct {
	// terms are the terms matched as written; df[i] and each row's tf
	// are indexed like the candidates exactRows counted, where only those
	// with df > 0 became terms.
	terms []string
	df    []int64
	rows  []exactRow
	n     int64
	avgdl float64
}

// exactRow is one chunk of an exactLeg: its id, its length in tokens over
// the three text columns, and each candidate's instances per column.
type exactRow struct {
	id int64
	dl uint32
	tf [][3]uint32
}

// soleSurfaces reports which of toks (tokens as ftsquery.Tokens forms
// them) are the only surface form of their stem in the impact index ix:
// every token of the vault that FTS5 stems as it stems such a token is
// that token. impact_forms holds every surface form of each indexed term
// in the chunks up to the delta (the build checks its counts against
// FTS5's, each index run adds the new forms), so this holds while no
// chunk is newer than ix's delta, and for none when one is, or when ix is
// nil. Forms only deleted chunks held still count: a token may be left
// out, never wrongly kept. Porter stemming rewrites only a word's ending,
// so every form of a term t of three letters or more starts with t less
// its last letter (see scanCandidates), a short range of impact_forms'
// key; shorter terms are left out.
func (s *Store) soleSurfaces(ctx context.Context, ix *impactIndex, toks []string) (map[string]bool, error) {
	sole := map[string]bool{}
	if ix == nil || len(toks) == 0 {
		return sole, nil
	}
	list, err := json.Marshal(toks)
	if err != nil {
		return nil, err
	}
	err = s.queryOwned(ctx, `SELECT f.surface FROM impact_forms f
		WHERE f.surface IN (SELECT value FROM json_each(?1)) AND length(f.term) >= 3
		AND (SELECT coalesce(max(id), 0) FROM chunks) <= ?2
		AND NOT EXISTS (SELECT 1 FROM impact_forms g
			WHERE g.surface >= substr(f.term, 1, length(f.term) - 1)
			AND g.surface < substr(f.term, 1, length(f.term) - 1) || char(1114111)
			AND g.term = f.term AND g.surface != f.surface)`, []any{string(list), ix.deltaID}, func(vals []driver.Value) error {
		w, err := valString(vals[0])
		sole[w] = true
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("surface forms: %w", err)
	}
	return sole, nil
}

// exactScan fills leg's rows and document frequencies for the candidates
// cand[i], i in scanned, each of whose tokens is the only surface form of
// its stem (soleSurfaces): their stemmed match is their match as written,
// so FTS5's instance counts of it in the three text columns, with each
// chunk's length over those columns, read in one phrase scan
// (ftsphrase.c), are what exactRows counts in the texts. Rows of chunks
// exactRows already read get these candidates' counts added. It returns
// errNoPhraseScan on a connection without the scan.
func (s *Store) exactScan(ctx context.Context, cand []string, scanned []int, leg *exactLeg) error {
	exprs := make([]string, len(scanned))
	for k, i := range scanned {
		exprs[k] = ftsquery.TextColumns + cand[i]
	}
	var raw []byte
	err := s.queryOwned(ctx, "SELECT vaultctx_phrase_scan(?, -1, 3)", []any{strings.Join(exprs, " OR ")}, func(vals []driver.Value) error {
		b, err := valBytes(vals[0])
		raw = b
		return err
	})
	if err != nil {
		if strings.Contains(err.Error(), "no such function") {
			return errNoPhraseScan
		}
		return err
	}
	rows, err := parsePhraseScan(raw)
	if err != nil {
		return fmt.Errorf("phrase counts: %w", err)
	}
	if len(rows.ids) > 0 && rows.phrases != len(scanned) {
		return fmt.Errorf("phrase counts: %d phrases for %d terms", rows.phrases, len(scanned))
	}
	at := make(map[int64]int, len(leg.rows))
	for j, r := range leg.rows {
		at[r.id] = j
	}
	for i, id := range rows.ids {
		j, ok := at[id]
		if !ok {
			if rows.dl[i] < 0 {
				return fmt.Errorf("phrase counts: chunk %d without a length", id)
			}
			j = len(leg.rows)
			at[id] = j
			leg.rows = append(leg.rows, exactRow{id: id, dl: uint32(rows.dl[i]), tf: make([][3]uint32, len(cand))})
		}
		for p, c := range scanned {
			t := rows.tf[(i*rows.phrases+p)*4:]
			if tf := [3]uint32{t[0], t[1], t[2]}; tf != ([3]uint32{}) {
				leg.rows[j].tf[c] = tf
				leg.df[c]++
			}
		}
	}
	return nil
}

// matchCount returns how many chunks match (an FTS5 expression) in
// chunks_fts, counting at most limit.
func (s *Store) matchCount(ctx context.Context, match string, limit int) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)", match, limit).Scan(&n)
	return n, err
}

// matchIDs returns the ids of the chunks that match (an FTS5 expression)
// in chunks_fts, ascending, when they are at most limit, and nil, false
// when they are more. SQLite counts and lists them itself, so a common
// term costs no more than counting limit+1 postings.
func (s *Store) matchIDs(ctx context.Context, match string, limit int) ([]int64, bool, error) {
	var n int
	var list sql.NullString
	if err := s.db.QueryRowContext(ctx, "SELECT count(*), group_concat(rowid) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid LIMIT ?)", match, limit+1).Scan(&n, &list); err != nil {
		return nil, false, err
	}
	if n > limit {
		return nil, false, nil
	}
	ids := make([]int64, 0, n)
	for f := range strings.SplitSeq(list.String, ",") {
		if f == "" {
			continue
		}
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, false, fmt.Errorf("chunk ids of %s: %w", match, err)
		}
		ids = append(ids, id)
	}
	return ids, true, nil
}

// exactRows reads the chunks of holders (chunk id -> the candidates whose
// stemmed match holds it), each with its length over the three text
// columns, and counts in each the instances of those candidates' phrases
// as written (phrases[i]: candidate i's tokens), filling leg's rows and
// document frequencies. The chunks are read by id (json_each of the ids,
// ascending): their FTS5 matches are not walked again.
func (s *Store) exactRows(ctx context.Context, holders map[int64][]int, phrases [][]string, leg *exactLeg) error {
	ids := make([]int64, 0, len(holders))
	for id := range holders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT c.id, c.chunk_text, c.section, c.heading_context, d.sz FROM json_each(?) j JOIN chunks c ON c.id = j.value JOIN chunks_fts_docsize d ON d.id = j.value", string(list))
	if err != nil {
		return err
	}
	defer rows.Close()
	pc := ftsquery.NewPhraseCounter(phrases)
	counts := make([]uint32, len(phrases))
	for rows.Next() {
		var r exactRow
		var cols [3]string
		var sz []byte
		if err := rows.Scan(&r.id, &cols[0], &cols[1], &cols[2], &sz); err != nil {
			return err
		}
		r.tf = make([][3]uint32, len(phrases))
		for c, text := range cols {
			clear(counts)
			pc.CountOnly(text, holders[r.id], counts)
			// Only the holders: CountOnly counts every phrase in a text
			// that is not ASCII, and the others' counts may come from
			// exactScan.
			for _, i := range holders[r.id] {
				r.tf[i][c] = counts[i]
			}
		}
		held := false
		for i, tf := range r.tf {
			if tf != ([3]uint32{}) {
				leg.df[i]++
				held = true
			}
		}
		if !held {
			continue
		}
		r.dl = postings.DocSizeCols(sz, 3)
		leg.rows = append(leg.rows, r)
	}
	return rows.Err()
}

// addScores adds to extra[chunk id] the exact leg's BM25 with column
// weights w: for each term matched as written, bm25.Row of its instances
// in the chunk's text columns, with the IDF of the chunks that hold it as
// written. The score is the BM25 of a second field, the text as written,
// with its own statistics; the two fields' scores are summed as BM25F
// sums fields (Robertson, Zaragoza and Taylor, "Simple BM25 extension to
// multiple weighted fields", CIKM 2004), each query term scored in exactly
// one of them. It is what FTS5's bm25() gives over an unstemmed FTS5 table
// of the three columns (TestExactLegMatchesUnstemmedFTS5).
func (leg *exactLeg) addScores(w [3]float64, extra map[int64]float64) {
	if leg == nil {
		return
	}
	idf := make([]float64, len(leg.df))
	for i, df := range leg.df {
		idf[i] = bm25.IDF(leg.n, df)
	}
	for _, r := range leg.rows {
		sc := 0.0
		for i, tf := range r.tf {
			if leg.df[i] > 0 {
				sc += bm25.Row(w, idf[i], tf, float64(r.dl), leg.avgdl)
			}
		}
		extra[r.id] += sc
	}
}

// impactDead returns the ids of indexed chunks deleted since the build.
func (s *Store) impactDead(ctx context.Context) (postings.IDSet, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM impact_dead")
	if err != nil {
		return postings.IDSet{}, err
	}
	defer rows.Close()
	var dead postings.IDSet
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return postings.IDSet{}, err
		}
		dead.Add(uint32(id))
	}
	return dead, rows.Err()
}

// ftsAverages reads FTS5's averages record (rowid 1 of chunks_fts_data):
// the row count and the total tokens of each column, which bm25() uses for
// N and the average row length. A table that never held a row has an
// empty record (FTS5 writes it so at creation and reads it as all zero):
// 0 rows, no totals.
func (s *Store) ftsAverages(ctx context.Context) (int64, []uint64, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, "SELECT block FROM chunks_fts_data WHERE id = 1").Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return parseAverages(b)
}

// parseAverages decodes FTS5's averages record b (see ftsAverages): the
// row count and each column's total tokens; an empty record is 0 rows.
func parseAverages(b []byte) (int64, []uint64, error) {
	if len(b) == 0 {
		return 0, nil, nil
	}
	n, k := postings.SQLiteVarint(b)
	if k == 0 {
		return 0, nil, errors.New("corrupt FTS5 averages record")
	}
	var totals []uint64
	for b = b[k:]; len(b) > 0; {
		v, k := postings.SQLiteVarint(b)
		if k == 0 {
			return 0, nil, errors.New("corrupt FTS5 averages record")
		}
		totals = append(totals, v)
		b = b[k:]
	}
	return int64(n), totals, nil
}
