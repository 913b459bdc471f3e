package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// phraseMatches returns OR-expressions of one to three of the query terms
// that the impact index cannot serve (phrases of several tokens, joins
// looked for in some columns only): the matches phraseScores scores.
func phraseMatches(queries []string) []string {
	var phrases []string
	seen := map[string]bool{}
	for _, q := range queries {
		for _, t := range ftsquery.Terms(q) {
			if _, ok := ftsquery.SingleToken(t); !ok && !seen[t] {
				seen[t] = true
				phrases = append(phrases, t)
			}
		}
	}
	var out []string
	for i, p := range phrases {
		out = append(out, p)
		if i+2 < len(phrases) && i%3 == 0 {
			out = append(out, p+" OR "+phrases[i+1]+" OR "+phrases[i+2])
		}
	}
	return out
}

// TestPhraseScoresMatchBM25: the scores computed from the phrases'
// instance counts are FTS5's bm25() ones, for single phrases and ORs of
// several, for chunks the impact index holds and chunks newer than it.
func TestPhraseScoresMatchBM25(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 420)
	s := mustOpen(t)
	for _, p := range paths[:380] {
		put(t, s, p, sections[p]...)
	}
	// Phrases of the cjk column (bigrams, hyphen joins) take chunk_text's
	// weight there.
	cjk := []string{"全文検索エンジンの設定について。検索エンジンは速い。", "検索エンジン and the plug-in manager", "a plugin for the 検索エンジン"}
	put(t, s, "cjk-old.md", cjk...)
	if _, err := s.BuildImpact(ctx, 25); err != nil {
		t.Fatal(err)
	}
	// Newer chunks (no recorded length) and a deleted one.
	for _, p := range paths[380:] {
		put(t, s, p, sections[p]...)
	}
	put(t, s, "cjk-new.md", cjk...)
	del(t, s, paths[3])
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		t.Fatalf("loadImpact = %v, %v", ix, err)
	}
	nRow, totals, err := s.ftsAverages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	avgdl := 0.0
	for _, v := range totals {
		avgdl += float64(v)
	}
	avgdl /= float64(nRow)
	w := [3]float64{1, 0.4, 0.2}
	matches := phraseMatches(append(testQueries(t, sections), "検索エンジン", "plug-in manager"))
	rows, newer, multi := 0, 0, 0
	for _, m := range matches {
		got, want := map[int64]float64{}, map[int64]float64{}
		if err := s.phraseScores(ctx, w, m, nRow, avgdl, &ix.lens, ix.deltaID, got); err != nil {
			t.Fatalf("phraseScores(%s): %v", m, err)
		}
		if err := s.ftsScores(ctx, w, m, 0, want); err != nil {
			t.Fatalf("ftsScores(%s): %v", m, err)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d chunks scored, bm25() scores %d", m, len(got), len(want))
			continue
		}
		for id, x := range want {
			if d := math.Abs(got[id] - x); d > 1e-9*math.Max(1, math.Abs(x)) {
				t.Errorf("%s: chunk %d scores %.15f, bm25() %.15f", m, id, got[id], x)
			}
			if id > ix.deltaID {
				newer++
			}
		}
		rows += len(want)
		if strings.Contains(m, " OR ") && len(want) > 0 {
			multi++
		}
	}
	t.Logf("%d matches, %d scored chunks (%d newer than the impact index), %d ORs", len(matches), rows, newer, multi)
	if rows < 200 || newer == 0 || multi < 5 {
		t.Fatalf("the matches scored %d chunks, %d of them newer, %d ORs: too few to compare", rows, newer, multi)
	}

	// A match of nothing scores nothing; a bad expression is an error.
	none := map[int64]float64{}
	if err := s.phraseScores(ctx, w, `"zzqx qqzx"`, nRow, avgdl, &ix.lens, ix.deltaID, none); err != nil || len(none) != 0 {
		t.Errorf("phraseScores of no match = %v, %v", none, err)
	}
	if err := s.phraseScores(ctx, w, `"unclosed`, nRow, avgdl, &ix.lens, ix.deltaID, none); err == nil {
		t.Error("phraseScores of a malformed expression: no error")
	}
}

func TestParsePhraseScan(t *testing.T) {
	row := func(id int64, dl int32, tf ...uint32) []byte {
		b := binary.NativeEndian.AppendUint64(nil, uint64(id))
		b = binary.NativeEndian.AppendUint32(b, uint32(dl))
		for _, x := range tf {
			b = binary.NativeEndian.AppendUint32(b, x)
		}
		return b
	}
	good := binary.NativeEndian.AppendUint32(nil, 1)
	good = append(good, row(7, -1, 1, 0, 0, 2)...)
	good = append(good, row(9, 12, 0, 3, 0, 0)...)
	r, err := parsePhraseScan(good)
	if err != nil || len(r.ids) != 2 || r.ids[1] != 9 || r.dl[0] != -1 || r.dl[1] != 12 || r.tf[3] != 2 || r.tf[5] != 3 {
		t.Fatalf("parsePhraseScan = %+v, %v", r, err)
	}
	for name, b := range map[string][]byte{
		"short header": {1, 0},
		"no phrases":   binary.NativeEndian.AppendUint32(nil, 0),
		"cut row":      good[:len(good)-3],
	} {
		if _, err := parsePhraseScan(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if r, err := parsePhraseScan(nil); err != nil || len(r.ids) != 0 {
		t.Errorf("parsePhraseScan(nil) = %+v, %v", r, err)
	}
}

func FuzzParsePhraseScan(f *testing.F) {
	f.Add([]byte{})
	f.Add(binary.NativeEndian.AppendUint32(nil, 2))
	f.Add(append(binary.NativeEndian.AppendUint32(nil, 1), make([]byte, 28)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parsePhraseScan(b)
		if err != nil {
			return
		}
		if len(r.tf) != len(r.ids)*r.phrases*4 || len(r.dl) != len(r.ids) {
			t.Fatalf("%d ids, %d lengths, %d counts of %d phrases", len(r.ids), len(r.dl), len(r.tf), r.phrases)
		}
	})
}

func TestPhraseBound(t *testing.T) {
	live := map[string]int64{"microsoft": 92000, "specific": 23000}
	for _, c := range []struct {
		term string
		want int64
		ok   bool
	}{
		{`"microsoft specific"`, 23000, true},
		{`"specific microsoft"`, 23000, true},
		{`"microsoft zzz"`, 92000, true},
		{`"zzz yyy"`, 0, false},
		{`{chunk_text section heading_context}: "microsoftspecific"`, 0, false},
	} {
		if b, ok := phraseBound(c.term, live); b != c.want || ok != c.ok {
			t.Errorf("phraseBound(%s) = %d, %v; want %d, %v", c.term, b, ok, c.want, c.ok)
		}
	}
}

// TestChoosePhrasesBound: bounding a phrase by its tokens' document
// frequencies drops and keeps the same phrases as counting each.
func TestChoosePhrasesBound(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 2,600 chunks: "alpha gamma" in 2,200 (more than the common bound,
	// 2,000, as are both its tokens), "beta delta" in 600 (beta in 1,000),
	// "rare" in one.
	n := MinCommonDocs + 600
	for i := range n {
		text := "alpha filler gamma"
		if i < 2200 {
			text = "alpha gamma filler"
		}
		if i < 1000 {
			text += " beta words"
		}
		if i < 600 {
			text += " beta delta"
		}
		if i == n/2 {
			text += " rare"
		}
		if err := tx.ReplaceFile(ctx, File{Path: fmt.Sprint(i, ".md")}, []Chunk{{Text: text}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BuildImpact(ctx, 25); err != nil {
		t.Fatal(err)
	}
	ix, err := s.loadImpact(ctx)
	if err != nil || ix == nil {
		t.Fatalf("loadImpact = %v, %v", ix, err)
	}
	terms := ftsquery.Terms("alpha-gamma beta-delta rare")
	q, err := s.impactQuery(ctx, ix, nil, terms)
	if err != nil {
		t.Fatal(err)
	}
	fast, slow, err := s.choosePhrases(ctx, ix, q, terms)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: every slow phrase counted.
	var allFast []impactTerm
	var allSlow []string
	for i, term := range terms {
		if st, ok := q.byForm[q.surface[i]]; ok {
			it, err := s.liveTerm(ctx, ix, q, term, st)
			if err != nil {
				t.Fatal(err)
			}
			allFast = append(allFast, it)
		} else {
			allSlow = append(allSlow, term)
		}
	}
	df := make([]int64, len(allSlow))
	for i, term := range allSlow {
		if err := s.db.QueryRow("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", term).Scan(&df[i]); err != nil {
			t.Fatal(err)
		}
	}
	wantFast, wantSlow := pruneFrequent(allFast, allSlow, df, int64(MinCommonDocs))
	exprs := func(its []impactTerm) (out []string) {
		for _, it := range its {
			out = append(out, it.expr)
		}
		return out
	}
	if fmt.Sprint(exprs(fast), slow) != fmt.Sprint(exprs(wantFast), wantSlow) {
		t.Errorf("choosePhrases kept %v %v; counting each gives %v %v", exprs(fast), slow, exprs(wantFast), wantSlow)
	}
	if !slices.Contains(slow, `"beta delta"`) || slices.Contains(slow, `"alpha gamma"`) {
		t.Errorf("slow phrases %v: want \"beta delta\" kept and \"alpha gamma\" dropped", slow)
	}
}
