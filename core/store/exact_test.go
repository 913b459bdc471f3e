package store

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// exactQueries returns queries whose exact terms (ftsquery.ExactTerms)
// come from the notes: identifiers as written, in another case, with a
// plural s, and quoted two- and three-word spans.
func exactQueries(sections map[string][]string) []string {
	keys := make([]string, 0, len(sections))
	for k := range sections {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var qs []string
	seen := map[string]bool{}
	for i, k := range keys {
		words := strings.Fields(sections[k][0])
		n := 0
		for _, w := range words {
			w = strings.Trim(w, "`*,.;:()[]<>\"'")
			if n < 3 && textan.Identifier(w) && !seen[w] {
				seen[w] = true
				qs = append(qs, w, strings.ToUpper(w), w+"s", w+" index")
				n++
			}
		}
		if i%5 == 0 && len(words) > 20 {
			qs = append(qs, `"`+strings.Join(words[10:12], " ")+`"`, `"`+strings.Join(words[14:17], " ")+`" notes`)
		}
	}
	return qs
}

// refExact creates refexact, the unstemmed FTS5 table schema 2 kept
// (chunks_exact), over s's chunks: the reference of the exact-form leg.
func refExact(t *testing.T, s *Store) {
	t.Helper()
	for _, q := range []string{
		"CREATE VIRTUAL TABLE refexact USING fts5(chunk_text, section, heading_context, content='chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
		"INSERT INTO refexact(refexact) VALUES('rebuild')",
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestExactLegMatchesUnstemmedFTS5 checks that the exact-form leg, which
// counts the terms as written in the chunks of their stemmed match, picks
// the terms and gives the scores that FTS5's bm25() gives over an
// unstemmed FTS5 table of the same texts, on real notes and with uneven
// column weights: first reading the texts (no impact index), then with an
// impact index, where the terms whose tokens are the only surface forms
// of their stems are counted by FTS5 instead (exactScan), and the legs
// must be the same.
func TestExactLegMatchesUnstemmedFTS5(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 300)
	s := mustOpen(t)
	for _, p := range paths {
		put(t, s, p, sections[p]...)
	}
	refExact(t, s)
	all := exactQueries(sections)
	if len(all) < 400 {
		t.Fatalf("only %d queries", len(all))
	}
	var queries []string // about 300, a spread of the notes
	for i := 0; i < len(all); i += max(1, len(all)/300) {
		queries = append(queries, all[i])
	}
	read := checkExactLeg(t, s, nil, queries)
	// Every term of two chunks or more in the index: most tokens' forms
	// are known, and many are the only form of their stem.
	if _, err := s.BuildImpact(ctx, 2); err != nil {
		t.Fatal(err)
	}
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		t.Fatalf("loadImpact = %v, %v", ix, err)
	}
	scanned := 0
	for _, q := range queries {
		terms, exact := ftsquery.Terms(q), ftsquery.ExactTerms(q)
		_, byScan, err := s.exactSplit(ctx, ix, nil, terms, exact)
		if err != nil {
			t.Fatal(err)
		}
		if byRead := read[q]; !sameLeg(byScan, byRead) {
			t.Errorf("%q: the leg counted with the impact index differs from the leg read from the texts:\n%+v\n%+v", q, byScan, byRead)
		}
		var toks []string
		for _, e := range exact {
			toks = append(toks, ftsquery.PhraseTokens(e)...)
		}
		sole, err := s.soleSurfaces(ctx, ix, toks)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exact {
			tk := ftsquery.PhraseTokens(e)
			if len(tk) > 0 && !slices.ContainsFunc(tk, func(w string) bool { return !sole[w] }) && byScan != nil && slices.Contains(byScan.terms, e) {
				scanned++
			}
		}
	}
	t.Logf("with the impact index: %d terms matched as written were counted by FTS5", scanned)
	if scanned < 50 {
		t.Errorf("only %d terms were counted by FTS5: the test does not check exactScan", scanned)
	}
	checkExactLeg(t, s, ix, queries)
}

// sameLeg reports whether two exact legs hold the same terms, counts and
// rows (in any order).
func sameLeg(a, b *exactLeg) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !slices.Equal(a.terms, b.terms) || !slices.Equal(a.df, b.df) || a.n != b.n || a.avgdl != b.avgdl || len(a.rows) != len(b.rows) {
		return false
	}
	byID := func(r []exactRow) []exactRow {
		r = slices.Clone(r)
		slices.SortFunc(r, func(x, y exactRow) int { return int(x.id - y.id) })
		return r
	}
	ra, rb := byID(a.rows), byID(b.rows)
	for i := range ra {
		if ra[i].id != rb[i].id || ra[i].dl != rb[i].dl || !slices.Equal(ra[i].tf, rb[i].tf) {
			return false
		}
	}
	return true
}

// checkExactLeg runs the exact-form leg of each query with the impact
// index ix (nil: none) against the unstemmed table refexact, and returns
// each query's leg.
func checkExactLeg(t *testing.T, s *Store, ix *impactIndex, queries []string) map[string]*exactLeg {
	t.Helper()
	ctx := context.Background()
	legs := map[string]*exactLeg{}
	var n int
	s.db.QueryRow("SELECT count(*) FROM chunks").Scan(&n)
	limit := ExactMaxDF
	count := func(table, match string) int {
		var c int
		if err := s.db.QueryRow("SELECT count(*) FROM "+table+" WHERE "+table+" MATCH ?", match).Scan(&c); err != nil {
			t.Fatalf("count %s MATCH %s: %v", table, match, err)
		}
		return c
	}
	var matched, stemmedOnly, rows int
	for _, q := range queries {
		terms, exact := ftsquery.Terms(q), ftsquery.ExactTerms(q)
		stemmed, leg, err := s.exactSplit(ctx, ix, nil, terms, exact)
		if err != nil {
			t.Fatalf("exactSplit(%q): %v", q, err)
		}
		legs[q] = leg
		var want []string
		for _, e := range exact {
			if c := count("chunks_fts", ftsquery.TextColumns+e); c > 0 && c <= limit && count("refexact", e) > 0 {
				want = append(want, e)
			}
		}
		var got []string
		if leg != nil {
			got = leg.terms
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: matched as written %q, want %q", q, got, want)
			continue
		}
		if len(stemmed)+len(got) != len(terms) {
			t.Errorf("%q: %d stemmed + %d exact terms, want %d", q, len(stemmed), len(got), len(terms))
		}
		stemmedOnly += len(exact) - len(got)
		if len(want) == 0 {
			continue
		}
		matched += len(want)
		for _, w := range [][3]float64{DefaultColumnWeights, {1, 2.5, 0.25}} {
			gotScores := map[int64]float64{}
			leg.addScores(w, gotScores)
			wantScores := map[int64]float64{}
			rs, err := s.db.Query("SELECT rowid, bm25(refexact, ?, ?, ?) FROM refexact WHERE refexact MATCH ?", w[0], w[1], w[2], strings.Join(want, " OR "))
			if err != nil {
				t.Fatal(err)
			}
			for rs.Next() {
				var id int64
				var r float64
				rs.Scan(&id, &r)
				wantScores[id] = -r
			}
			rs.Close()
			if len(gotScores) != len(wantScores) {
				t.Errorf("%q: %d chunks scored, the unstemmed table scores %d", q, len(gotScores), len(wantScores))
				continue
			}
			for id, ws := range wantScores {
				if gs, ok := gotScores[id]; !ok || math.Abs(gs-ws) > 1e-9*math.Max(1, ws) {
					t.Errorf("%q weights %v: chunk %d scores %.12f, the unstemmed table %.12f", q, w, id, gs, ws)
				}
			}
			rows += len(wantScores)
		}
	}
	t.Logf("%d queries: %d terms matched as written (%d chunk scores compared), %d left to the stem", len(queries), matched, rows, stemmedOnly)
	if matched < 100 || stemmedOnly < 50 {
		t.Errorf("%d terms matched as written and %d left to the stem: the queries do not test both", matched, stemmedOnly)
	}
	return legs
}

// TestExactLegBound checks that a term whose stemmed match holds more
// than ExactMaxDF chunks keeps its stemmed match, and that one below the
// bound is matched as written even when its stem-mates are many.
func TestExactLegBound(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	var texts []string
	for i := range ExactMaxDF + 20 {
		texts = append(texts, fmt.Sprintf("chunk %d calls setWidget and getWidgets", i))
	}
	put(t, s, "many.md", texts...)
	put(t, s, "one.md", "only here: getWidget")
	split := func(q string, want bool) {
		t.Helper()
		stemmed, leg, err := s.exactSplit(ctx, nil, nil, ftsquery.Terms(q), ftsquery.ExactTerms(q))
		if err != nil {
			t.Fatal(err)
		}
		if got := leg != nil; got != want || got == (len(stemmed) == 1) {
			t.Errorf("%q: matched as written %v (stemmed %q), want %v", q, got, stemmed, want)
		}
	}
	split("setWidget", false) // in every chunk
	split("getWidget", false) // its stem (getwidget) is in every chunk
	// Below the bound, the form as written wins over its stem-mates.
	del(t, s, "many.md")
	put(t, s, "few.md", "getWidgets getWidgets getWidgets", "getWidgets and more getWidgets")
	split("getWidget", true)
	split("getWidgeted", false) // its stem-mates are there, it is not
	if p := topPath(t, s, "getWidget"); p != "one.md" {
		t.Errorf("getWidget: top note %q, want one.md", p)
	}
}

// TestOpenDropsUnstemmed checks that a writer upgrades a schema 2 file in
// place (chunks_exact and its triggers dropped, the version raised, the
// chunks kept and searchable) and that a reader reads a schema 2 file.
func TestOpenDropsUnstemmed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a.md", "EnableQuickCustomization turns it on", "EnableQuickCustomize is another")
	// Schema 2: the unstemmed table, fed by the triggers.
	for _, q := range []string{
		"CREATE VIRTUAL TABLE chunks_exact USING fts5(chunk_text, section, heading_context, content='chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
		"INSERT INTO chunks_exact(chunks_exact) VALUES('rebuild')",
		"DROP TRIGGER chunks_ai",
		"CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN INSERT INTO chunks_fts(rowid, chunk_text, section, heading_context, cjk) VALUES (new.id, new.chunk_text, new.section, new.heading_context, new.cjk); INSERT INTO chunks_exact(rowid, chunk_text, section, heading_context) VALUES (new.id, new.chunk_text, new.section, new.heading_context); END",
		"UPDATE meta SET value = '2' WHERE key = 'schema_version'",
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()

	r, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("reader of a schema 2 file: %v", err)
	}
	if p := topPath(t, r, "EnableQuickCustomize"); p != "a.md" {
		t.Errorf("reader of a schema 2 file: top %q", p)
	}
	r.Close()

	w, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("writer of a schema 2 file: %v", err)
	}
	defer w.Close()
	var tables, triggers int
	w.db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name LIKE 'chunks_exact%'").Scan(&tables)
	w.db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%chunks_exact%'").Scan(&triggers)
	if tables != 0 || triggers != 0 {
		t.Errorf("after the upgrade: %d chunks_exact tables, %d triggers feeding it", tables, triggers)
	}
	if v, _ := w.Meta(ctx, MetaSchemaVersion); v != fmt.Sprint(SchemaVersion) {
		t.Errorf("schema version %q after the upgrade, want %d", v, SchemaVersion)
	}
	put(t, w, "b.md", "a new note after the upgrade")
	if p := topPath(t, w, "upgrade"); p != "b.md" {
		t.Errorf("insert after the upgrade: top %q", p)
	}
	if err := w.Check(ctx); err != nil {
		t.Errorf("Check after the upgrade: %v", err)
	}
}

// TestExactScanAfterDelta: chunks added after the impact build bring new
// surface forms of indexed terms (plurals, -ing forms of the notes'
// identifiers); once the delta records them, the legs counted by FTS5 are
// still those read from the texts, and while chunks newer than the delta
// exist no term is counted by FTS5 at all.
func TestExactScanAfterDelta(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 300)
	s := mustOpen(t)
	for _, p := range paths {
		put(t, s, p, sections[p]...)
	}
	if _, err := s.BuildImpact(ctx, 2); err != nil {
		t.Fatal(err)
	}
	all := exactQueries(sections)
	var queries []string // about 150, a spread of the notes
	for i := 0; i < len(all); i += max(1, len(all)/150) {
		queries = append(queries, all[i])
	}
	// New forms of the queries' identifiers, in a few new notes (under the
	// share that rebuilds the index instead of updating the delta).
	var added []string
	for i, q := range queries {
		if i%4 != 0 || len(added) >= 12 || strings.ContainsAny(q, " \"") {
			continue
		}
		added = append(added, fmt.Sprintf("See %ss and %sing, then %s again.", q, q, strings.ToLower(q)))
	}
	for i, text := range added {
		put(t, s, fmt.Sprintf("added/%d.md", i), text)
	}
	check := func(when string, wantScan bool) {
		t.Helper()
		ix, err := s.loadImpact(ctx)
		if err != nil || ix == nil {
			t.Fatalf("%s: loadImpact = %v, %v", when, ix, err)
		}
		scanned := 0
		for _, q := range queries {
			terms, exact := ftsquery.Terms(q), ftsquery.ExactTerms(q)
			_, byScan, err := s.exactSplit(ctx, ix, nil, terms, exact)
			if err != nil {
				t.Fatal(err)
			}
			_, byRead, err := s.exactSplit(ctx, nil, nil, terms, exact)
			if err != nil {
				t.Fatal(err)
			}
			if !sameLeg(byScan, byRead) {
				t.Errorf("%s, %q: the leg counted with the impact index differs from the leg read from the texts", when, q)
			}
			var toks []string
			for _, e := range exact {
				toks = append(toks, ftsquery.PhraseTokens(e)...)
			}
			sole, err := s.soleSurfaces(ctx, ix, toks)
			if err != nil {
				t.Fatal(err)
			}
			scanned += len(sole)
		}
		if wantScan && scanned < 30 || !wantScan && scanned > 0 {
			t.Errorf("%s: %d tokens taken as their stems' only forms", when, scanned)
		}
	}
	check("chunks newer than the delta", false)
	if rebuilt, _, err := s.MaintainImpact(ctx); err != nil || rebuilt {
		t.Fatalf("MaintainImpact = %v, %v; want a delta update", rebuilt, err)
	}
	check("after the delta", true)
}
