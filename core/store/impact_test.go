package store

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// realNotes returns up to n markdown files of the large shared corpus, each
// split at H2 headings, keyed by vault-relative path.
func realNotes(tb testing.TB, n int) (paths []string, sections map[string][]string) {
	tb.Helper()
	root := testkit.SharedDir("corpora/large")
	sections = map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || len(paths) >= n {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var parts []string
		for _, part := range strings.Split(string(b), "\n## ") {
			if len(strings.TrimSpace(part)) >= 30 {
				parts = append(parts, part)
			}
		}
		if len(parts) == 0 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		paths = append(paths, rel)
		sections[rel] = parts
		return nil
	})
	if err != nil && err != filepath.SkipDir {
		tb.Fatal(err)
	}
	if len(paths) < n/2 {
		tb.Skipf("only %d notes under %s", len(paths), root)
	}
	return paths, sections
}

// testQueries returns the queries of the vault reference set plus single
// words and identifiers drawn from the notes.
func testQueries(tb testing.TB, sections map[string][]string) []string {
	tb.Helper()
	f, err := os.Open("../../eval/large-queries.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct{ Query string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			tb.Fatal(err)
		}
		qs = append(qs, q.Query)
	}
	keys := make([]string, 0, len(sections))
	for k := range sections {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i%9 != 0 {
			continue
		}
		words := strings.Fields(sections[k][0])
		if len(words) > 12 {
			qs = append(qs, strings.Join(words[3:9], " "), words[len(words)/2], "the "+words[len(words)/3]+" café")
		}
	}
	return qs
}

// sameRanking fails unless got and want hold the same ids with the same
// scores (to rounding), where ids may swap only within equal scores.
func sameRanking(t *testing.T, q string, got, want []Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%q: %d hits, FTS5 alone gives %d", q, len(got), len(want))
		return
	}
	for i := range got {
		if d := math.Abs(got[i].Score - want[i].Score); d > 1e-9*math.Max(1, math.Abs(want[i].Score)) {
			t.Errorf("%q: hit %d scores %.12f (id %d), FTS5 alone %.12f (id %d)", q, i, got[i].Score, got[i].ChunkID, want[i].Score, want[i].ChunkID)
			return
		}
	}
	key := func(s []Hit) []int64 {
		var ids []int64
		for _, h := range s {
			ids = append(ids, h.ChunkID)
		}
		slices.Sort(ids)
		return ids
	}
	// The last score may be tied with hits past k, so compare the ids
	// scored strictly above it.
	var g, w []Hit
	for i := range got {
		if math.Abs(want[i].Score-want[len(want)-1].Score) > 1e-9 {
			g, w = append(g, got[i]), append(w, want[i])
		}
	}
	if !slices.Equal(key(g), key(w)) {
		t.Errorf("%q: ids differ from FTS5 alone:\n got %v\nwant %v", q, got, want)
	}
}

func compareWithFTS5(t *testing.T, s *Store, queries []string) (served int) {
	t.Helper()
	ctx := context.Background()
	eachImpactQuery(t, s, queries, func(ix *impactIndex, q string, terms []string, exact *exactLeg) {
		got, err := s.keywordImpact(ctx, ix, terms, exact, 20, DefaultColumnWeights)
		if err != nil {
			t.Fatalf("keywordImpact(%q): %v", q, err)
		}
		want, err := s.keywordFTS(ctx, terms, exact, 20, DefaultColumnWeights)
		if err != nil {
			t.Fatalf("keywordFTS(%q): %v", q, err)
		}
		sameRanking(t, q, got, want)
		for _, term := range terms {
			if w, ok := ftsquery.SingleToken(term); ok {
				var n int
				s.db.QueryRow("SELECT count(*) FROM impact_forms WHERE surface = ?", w).Scan(&n)
				served += n
			}
		}
	})
	return served
}

// eachImpactQuery loads s's impact index and calls fn with it for each of
// queries that has terms, split as KeywordHits splits them.
func eachImpactQuery(t *testing.T, s *Store, queries []string, fn func(ix *impactIndex, q string, terms []string, exact *exactLeg)) {
	t.Helper()
	ctx := context.Background()
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		t.Fatalf("loadImpact = %v, %v; want an index", ix, err)
	}
	for _, q := range queries {
		terms, exact, err := s.exactSplit(ctx, ix, nil, ftsquery.Terms(q), ftsquery.ExactTerms(q))
		if err != nil {
			t.Fatal(err)
		}
		if len(terms) > 0 {
			fn(ix, q, terms, exact)
		}
	}
}

// TestImpactMatchesFTS5 checks that the impact index ranks exactly as
// bm25() over FTS5 alone, on real notes, before and after edits, deletes
// and additions, with and without the pruning of common terms.
func TestImpactMatchesFTS5(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 450)
	s := mustOpen(t)
	for _, p := range paths[:380] {
		put(t, s, p, sections[p]...)
	}
	st, err := s.BuildImpact(ctx, 25)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("impact index: %+v", st)
	if st.Terms < 50 || st.Postings == 0 {
		t.Fatalf("BuildImpact stats %+v: want at least 50 terms", st)
	}
	if st.Rejected > st.Terms/10 {
		t.Errorf("BuildImpact rejected %d of %d terms: the tokenizer disagrees with FTS5", st.Rejected, st.Terms+st.Rejected)
	}
	queries := testQueries(t, sections)
	served := compareWithFTS5(t, s, queries)
	t.Logf("%d queries, %d query terms served by the impact index", len(queries), served)
	if served < len(queries) {
		t.Errorf("only %d query terms were served by the impact index", served)
	}
	// Scored a few chunk ids at a time, postings blocks straddle the
	// window edges; the scores must not change.
	window := scoreWindow
	scoreWindow = 97
	compareWithFTS5(t, s, queries)
	scoreWindow = window

	// A few new, edited and deleted notes: an incremental run updates the
	// delta instead of rebuilding.
	for _, p := range paths[380:386] {
		put(t, s, p, sections[p]...)
	}
	put(t, s, paths[0], append([]string{"an edited first note about the index"}, sections[paths[0]]...)...)
	del(t, s, paths[1])
	rebuilt, _, err := s.MaintainImpact(ctx)
	if err != nil || rebuilt {
		t.Fatalf("MaintainImpact = %v, %v; want a delta update, not a rebuild", rebuilt, err)
	}
	var deltaTerms int
	s.db.QueryRow("SELECT count(*) FROM impact_delta").Scan(&deltaTerms)
	if deltaTerms == 0 {
		t.Fatal("no delta postings after adding notes")
	}
	// The deleted note's postings are counted per term, so searches
	// correct document frequencies without decoding whole lists.
	var goneTerms, deadIDs int
	var goneDead string
	s.db.QueryRow("SELECT (SELECT count(*) FROM impact_gone), (SELECT count(*) FROM impact_dead), (SELECT value FROM meta WHERE key = 'impact_gone_dead')").Scan(&goneTerms, &deadIDs, &goneDead)
	if deadIDs == 0 || goneTerms == 0 || goneDead != fmt.Sprint(deadIDs) {
		t.Fatalf("after MaintainImpact: %d dead ids, %d terms counted against %q", deadIDs, goneTerms, goneDead)
	}
	compareWithFTS5(t, s, queries)
	// Deleting a chunk of the delta, and adding one no index holds yet.
	del(t, s, paths[382])
	put(t, s, paths[386], sections[paths[386]]...)
	compareWithFTS5(t, s, queries)

	// Edits (delete + insert), deletes and new files.
	for i, p := range paths[:380] {
		switch i % 10 {
		case 0:
			put(t, s, p, append([]string{"edited note about the index and its common words"}, sections[p]...)...)
		case 1:
			if i > 1 {
				del(t, s, p)
			}
		}
	}
	for _, p := range paths[387:] {
		put(t, s, p, sections[p]...)
	}
	var dead int
	s.db.QueryRow("SELECT count(*) FROM impact_dead").Scan(&dead)
	if dead == 0 {
		t.Fatal("no deleted chunk was recorded in impact_dead")
	}
	compareWithFTS5(t, s, queries)
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}

	// A reader that stays open across the rebuild must follow it.
	reader, err := Open(ctx, s.Path(), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	compareWithFTS5(t, reader, queries[:20])

	// A rebuild absorbs the changes.
	rebuilt, _, err = s.MaintainImpact(ctx)
	if err != nil || !rebuilt {
		t.Fatalf("MaintainImpact = %v, %v; want a rebuild after 30%% churn", rebuilt, err)
	}
	s.db.QueryRow("SELECT count(*) FROM impact_dead").Scan(&dead)
	if dead != 0 {
		t.Errorf("impact_dead holds %d ids after a rebuild", dead)
	}
	compareWithFTS5(t, s, queries)
	compareWithFTS5(t, reader, queries)
}

// TestImpactSpillSameIndex: a build whose posting lists are moved to the
// spill file after every batch of chunks writes the same impact index,
// byte for byte, as one that holds them all in memory.
func TestImpactSpillSameIndex(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 300)
	s := mustOpen(t)
	for _, p := range paths {
		put(t, s, p, sections[p]...)
	}
	dump := func() []string {
		var out []string
		for _, q := range []string{
			"SELECT term || ' ' || df || ' ' || hex(postings) FROM impact_terms ORDER BY term",
			"SELECT surface || ' ' || term FROM impact_forms ORDER BY surface",
			"SELECT id || ' ' || hex(lens) FROM impact_doclen ORDER BY id",
		} {
			rows, err := s.db.QueryContext(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var line string
				if err := rows.Scan(&line); err != nil {
					t.Fatal(err)
				}
				out = append(out, line)
			}
			rows.Close()
		}
		return out
	}
	whole, err := s.buildImpact(ctx, 25, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	want := dump()
	spilled, err := s.buildImpact(ctx, 25, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	got := dump()
	if whole.Spilled != 0 || spilled.Spilled == 0 {
		t.Fatalf("spilled %d bytes with no budget and %d with 1 KiB", whole.Spilled, spilled.Spilled)
	}
	if whole.Terms < 50 || whole.Terms != spilled.Terms || whole.Postings != spilled.Postings {
		t.Fatalf("kept whole %+v, spilled %+v", whole, spilled)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the spilled build wrote another index (%d rows, want %d)", len(got), len(want))
	}
	if m, _ := filepath.Glob(s.Path() + ".spill-*"); len(m) > 0 {
		t.Fatalf("spill files left: %q", m)
	}
}

// comparePruned fails unless the pruned scorer returns exactly the
// exhaustive scorer's hits (same ids, order and score bits) for every
// query at several k, and returns the blocks it skipped and the blocks
// the queries' lists hold.
func comparePruned(t *testing.T, s *Store, queries []string) (skipped, blocks int) {
	t.Helper()
	ctx := context.Background()
	eachImpactQuery(t, s, queries, func(ix *impactIndex, q string, terms []string, exact *exactLeg) {
		for _, k := range []int{1, 10, 30, 120} {
			want, err := s.keywordImpactScored(ctx, ix, terms, exact, k, DefaultColumnWeights, impactScoring{exhaustive: true})
			if err != nil {
				t.Fatalf("exhaustive %q: %v", q, err)
			}
			got, err := s.keywordImpactScored(ctx, ix, terms, exact, k, DefaultColumnWeights, impactScoring{skipped: &skipped})
			if err != nil {
				t.Fatalf("pruned %q: %v", q, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%q k=%d: pruned top k differs from exhaustive:\n got %v\nwant %v", q, k, got, want)
			}
		}
	})
	s.db.QueryRow("SELECT coalesce(sum((df + 127) / 128), 0) FROM impact_terms").Scan(&blocks)
	return skipped, blocks
}

// TestImpactPrunedMatchesExhaustive: on real notes, before and after
// edits, deletes and additions (delta lists, dead chunks, chunks newer
// than the delta), pruning by the skip tables changes no hit, and it
// skips blocks.
func TestImpactPrunedMatchesExhaustive(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 450)
	s := mustOpen(t)
	for _, p := range paths[:380] {
		put(t, s, p, sections[p]...)
	}
	st, err := s.BuildImpact(ctx, 25)
	if err != nil {
		t.Fatal(err)
	}
	if st.SkipBytes == 0 {
		t.Fatalf("BuildImpact wrote no skip tables: %+v", st)
	}
	queries := testQueries(t, sections)
	skipped, _ := comparePruned(t, s, queries)
	if skipped == 0 {
		t.Error("the pruned scorer skipped no block on real notes")
	}
	t.Logf("%d queries x 4 k: %d blocks skipped; skip tables %d bytes, postings %d", len(queries), skipped, st.SkipBytes, st.Bytes)
	window := scoreWindow
	scoreWindow = 97
	comparePruned(t, s, queries)
	scoreWindow = window

	for _, p := range paths[380:386] {
		put(t, s, p, sections[p]...)
	}
	del(t, s, paths[1])
	put(t, s, paths[0], append([]string{"an edited first note about the index"}, sections[paths[0]]...)...)
	if rebuilt, _, err := s.MaintainImpact(ctx); err != nil || rebuilt {
		t.Fatalf("MaintainImpact = %v, %v; want a delta update", rebuilt, err)
	}
	put(t, s, paths[386], sections[paths[386]]...) // newer than the delta
	comparePruned(t, s, queries)
}

// TestImpactRebuildsWithoutSkips: an impact index built before the skip
// tables (impact_skips empty) is rebuilt by the next MaintainImpact, and
// searched exhaustively, with the same results, until then.
func TestImpactRebuildsWithoutSkips(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 200)
	s := mustOpen(t)
	for _, p := range paths[:150] {
		put(t, s, p, sections[p]...)
	}
	if _, err := s.BuildImpact(ctx, 25); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("DELETE FROM impact_skips"); err != nil {
		t.Fatal(err)
	}
	queries := testQueries(t, sections)[:40]
	compareWithFTS5(t, s, queries)
	if skipped, _ := comparePruned(t, s, queries); skipped != 0 {
		t.Errorf("%d blocks skipped without skip tables", skipped)
	}
	rebuilt, _, err := s.MaintainImpact(ctx)
	if err != nil || !rebuilt {
		t.Fatalf("MaintainImpact = %v, %v; want a rebuild for the missing skip tables", rebuilt, err)
	}
	var n int
	s.db.QueryRow("SELECT count(*) FROM impact_skips").Scan(&n)
	if n == 0 {
		t.Fatal("no skip tables after the rebuild")
	}
	compareWithFTS5(t, s, queries)
}

// TestImpactRebuildsWithoutMinDF: an impact index built while its bound
// grew with the corpus (no impact_min_df in meta) is rebuilt once by the
// next MaintainImpact with ImpactMinDF, so that its rarer terms get lists,
// and the next run only updates the delta. Results equal FTS5's throughout.
func TestImpactRebuildsWithoutMinDF(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 200)
	s := mustOpen(t)
	for _, p := range paths[:150] {
		put(t, s, p, sections[p]...)
	}
	if _, err := s.BuildImpact(ctx, 2*ImpactMinDF); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("DELETE FROM meta WHERE key = ?", metaImpactMinDF); err != nil {
		t.Fatal(err)
	}
	var before int
	s.db.QueryRow("SELECT count(*) FROM impact_terms").Scan(&before)
	queries := testQueries(t, sections)[:40]
	compareWithFTS5(t, s, queries)
	rebuilt, st, err := s.MaintainImpact(ctx)
	if err != nil || !rebuilt {
		t.Fatalf("MaintainImpact = %v, %v; want a rebuild for the missing impact_min_df", rebuilt, err)
	}
	if st.Terms <= before {
		t.Errorf("rebuild with ImpactMinDF %d stored %d terms, no more than the %d of bound %d", ImpactMinDF, st.Terms, before, 2*ImpactMinDF)
	}
	if v, _ := s.Meta(ctx, metaImpactMinDF); v != strconv.Itoa(ImpactMinDF) {
		t.Errorf("impact_min_df = %q after the rebuild, want %d", v, ImpactMinDF)
	}
	compareWithFTS5(t, s, queries)
	if rebuilt, _, err := s.MaintainImpact(ctx); err != nil || rebuilt {
		t.Fatalf("second MaintainImpact = %v, %v; want a delta update", rebuilt, err)
	}
}
