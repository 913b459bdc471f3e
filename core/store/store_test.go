package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

func mustOpen(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(context.Background(), filepath.Join(tb.TempDir(), "index.db"), Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func put(tb testing.TB, s *Store, path string, texts ...string) []Chunk {
	tb.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	var cs []Chunk
	for i, t := range texts {
		cs = append(cs, Chunk{Ordinal: i, Section: fmt.Sprintf("S%d", i), Text: t, HeadingContext: path + " | note", Hash: []byte("h")})
	}
	if err := tx.ReplaceFile(ctx, File{Path: path, MtimeNS: 1, Size: 2, Hash: "x", Title: path}, cs, nil); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return cs
}

func del(tb testing.TB, s *Store, path string) {
	tb.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if err := tx.DeleteFile(ctx, path); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

func topPath(tb testing.TB, s *Store, q string) string {
	tb.Helper()
	ctx := context.Background()
	hits, err := s.KeywordHits(ctx, q, 5, DefaultColumnWeights)
	if err != nil {
		tb.Fatalf("KeywordHits(%q): %v", q, err)
	}
	if len(hits) == 0 {
		return ""
	}
	cs, err := s.Chunks(ctx, []int64{hits[0].ChunkID})
	if err != nil || len(cs) != 1 {
		tb.Fatalf("Chunks: %v", err)
	}
	return cs[0].Path
}

// The FTS5 build tag is required: a store test creates an FTS5 table, so a
// build without -tags sqlite_fts5 fails here loudly.
func TestOpenNeedsFTS5(t *testing.T) {
	s := mustOpen(t)
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestKeywordTokenisation(t *testing.T) {
	s := mustOpen(t)
	put(t, s, "code.md", "The function _rrf_fuse merges lists; call requestAnimationFrame each tick.")
	put(t, s, "snake.md", "Use snake_case names and os.path.join for paths.")
	put(t, s, "chem.md", "Le Châtelier's principle predicts the shift of an equilibrium.")
	put(t, s, "cjk.md", "市场交易中设置止损是风险控制的基础，物竞天择适者生存是进化论的核心观点。")
	put(t, s, "other.md", "Nothing relevant here: fuse boxes, animation frames, snakes and paths.")
	for _, tc := range []struct{ q, want string }{
		{"_rrf_fuse", "code.md"},
		{"requestAnimationFrame", "code.md"},
		{"snake_case", "snake.md"},
		{"os.path.join", "snake.md"},
		{"chatelier", "chem.md"},
		{"Châtelier", "chem.md"},
		{"止损", "cjk.md"},
		{"适者生存", "cjk.md"},
		{"how do equilibria shift", "chem.md"}, // porter stemming
	} {
		t.Run(tc.q, func(t *testing.T) {
			if got := topPath(t, s, tc.q); got != tc.want {
				t.Errorf("top hit for %q = %q, want %q", tc.q, got, tc.want)
			}
		})
	}
}

func TestKeywordQueriesNeverError(t *testing.T) {
	s := mustOpen(t)
	put(t, s, "a.md", `Quotes "here" and NEAR(x y) AND OR NOT - * : ( ) ^ {col} end.`)
	for _, q := range []string{`"`, `""`, `"unterminated`, `-`, `*`, `:`, `(`, `)`, `NEAR`, `NEAR(a b)`, `AND`, `OR`, `NOT`,
		`a AND`, `col:here`, `{chunk_text}: x`, `^start`, `x*`, `- - -`, `'`, `\`, "\x00", `🙂`, `a"b`, `"a" OR "b"`, ``, `   `,
		`chunk_text:quotes`, `cjk:"x"`, `NOT here`, `here -there`} {
		t.Run(q, func(t *testing.T) {
			if _, err := s.KeywordHits(context.Background(), q, 10, DefaultColumnWeights); err != nil {
				t.Errorf("KeywordHits(%q): %v", q, err)
			}
		})
	}
}

func TestORSemantics(t *testing.T) {
	s := mustOpen(t)
	put(t, s, "a.md", "alpha bravo")
	put(t, s, "b.md", "charlie delta")
	hits, err := s.KeywordHits(context.Background(), "alpha delta zulu", 10, DefaultColumnWeights)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 {
		t.Fatalf("OR query found %d chunks, want 2", len(hits))
	}
}

func TestFTSIntegrityAfterEditsDeletesRenames(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	put(t, s, "a.md", "first version of a", "second chunk of a")
	put(t, s, "b.md", "bravo text")
	put(t, s, "a.md", "edited version of a") // edit
	del(t, s, "b.md")                        // delete
	put(t, s, "c.md", "bravo text")          // rename b -> c
	if err := s.Check(ctx); err != nil {
		t.Fatalf("integrity after edits: %v", err)
	}
	if got := topPath(t, s, "bravo"); got != "c.md" {
		t.Errorf("renamed file: top hit %q, want c.md", got)
	}
	if hits, _ := s.KeywordHits(ctx, "first", 10, DefaultColumnWeights); len(hits) != 0 {
		t.Errorf("stale FTS entry for edited chunk: %v", hits)
	}
	files, err := s.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["b.md"]; ok || len(files) != 2 {
		t.Errorf("files after rename = %v", files)
	}
}

func TestReadOnlyMissing(t *testing.T) {
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true})
	if !errors.Is(err, ErrNotIndexed) {
		t.Fatalf("err = %v, want ErrNotIndexed", err)
	}
}

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64()) + 0.3 // a shared offset, like static embeddings
	}
	return v
}

// realVectors embeds paragraphs of real notes with the GloVe test model.
func realVectors(tb testing.TB, n int) (texts []string, vecs [][]float32) {
	tb.Helper()
	m, err := embed.Open(testkit.SharedDir("models/glove-120k"))
	if err != nil {
		tb.Fatal(err)
	}
	defer m.Close()
	files, _ := filepath.Glob(testkit.SharedDir("corpora/large/cpp-docs/docs/c-runtime-library/reference/*.md"))
	more, _ := filepath.Glob(testkit.SharedDir("corpora/large/cpp-docs/docs/error-messages/*/*.md"))
	files = append(files, more...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range strings.Split(string(b), "\n\n") {
			if len(p) > 80 && len(texts) < n {
				texts = append(texts, p)
			}
		}
	}
	vecs, err = m.EncodeBatch(context.Background(), texts)
	if err != nil {
		tb.Fatal(err)
	}
	return texts, vecs
}

func TestVectorsRoundTripAndRecall(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	texts, vecs := realVectors(t, 12000)
	dim := len(vecs[0])
	if err := s.EnsureVec(ctx, dim, false); err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.SetCenter(ctx, vecs[:512]); err != nil {
		t.Fatal(err)
	}
	// Every 50th paragraph is held out as a query; the rest are more than
	// MinTrain vectors, so the search probes IVF lists.
	var queries [][]float32
	n := 0
	for i := range texts {
		if i%50 == 0 {
			queries = append(queries, vecs[i])
			continue
		}
		if err := tx.ReplaceFile(ctx, File{Path: fmt.Sprint(i, ".md")}, []Chunk{{Text: texts[i]}}, [][]float32{vecs[i]}); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	lists, err := s.TrainVectorLists(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if lists == 0 {
		t.Fatalf("%d vectors gave no IVF lists (MinTrain %d)", n, MinTrain)
	}
	var found, total int
	for _, qv := range queries {
		got, err := s.VectorHits(ctx, qv, 10)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.ExactVectorHits(ctx, qv, 10)
		if err != nil {
			t.Fatal(err)
		}
		in := map[int64]bool{}
		for _, h := range got {
			in[h.ChunkID] = true
		}
		for _, h := range want {
			total++
			if in[h.ChunkID] {
				found++
			}
		}
	}
	recall := float64(found) / float64(total)
	t.Logf("recall@10 of the IVF search (%d lists, %d probed) against an exhaustive scan, %d real vectors, %d queries: %.3f", lists, Probes(lists), n, len(queries), recall)
	if recall < 0.95 {
		t.Errorf("recall@10 = %.3f, want >= 0.95", recall)
	}
	del(t, s, "7.md")
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Vectors != n-1 || st.Chunks != n-1 {
		t.Errorf("after delete: %d vectors, %d chunks, want %d", st.Vectors, st.Chunks, n-1)
	}
}

func TestPruneCommonTerms(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	// "common" is in every chunk, "rare" in one: with more chunks than
	// MinCommonDocs the common term leaves the query, and the rare one
	// still decides the ranking.
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := MinCommonDocs + 500
	for i := 0; i < n; i++ {
		text := "common filler words"
		if i == n/2 {
			text = "common rare words"
		}
		if err := tx.ReplaceFile(ctx, File{Path: fmt.Sprint(i, ".md")}, []Chunk{{Text: text}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	terms, err := s.pruneCommon(ctx, ftsquery.Terms("common rare"))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(terms) != `["rare"]` {
		t.Errorf("pruned terms = %v, want only \"rare\"", terms)
	}
	only, err := s.pruneCommon(ctx, ftsquery.Terms("common filler"))
	if err != nil || len(only) != 2 {
		t.Errorf("all terms common: kept %v (%v), want both", only, err)
	}
	if got := topPath(t, s, "common rare"); got != fmt.Sprint(n/2, ".md") {
		t.Errorf("top hit %s", got)
	}
}

func TestReplaceOverGarbage(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "index.db")
	os.WriteFile(dst, []byte(strings.Repeat("garbage!", 20000)), 0o644)
	src := filepath.Join(dir, "new.db")
	s, err := Open(context.Background(), src, Options{Bulk: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := Replace(context.Background(), dst, src); err != nil {
		t.Fatalf("Replace over a garbage file: %v", err)
	}
	r, err := Open(context.Background(), dst, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
}

func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere; the read-only directory case needs an ordinary user")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	s, err := Open(context.Background(), db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a.md", "alpha bravo charlie")
	s.Close()
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	r, err := Open(context.Background(), db, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open in a read-only directory: %v", err)
	}
	defer r.Close()
	if hits, err := r.KeywordHits(context.Background(), "bravo", 5, DefaultColumnWeights); err != nil || len(hits) != 1 {
		t.Errorf("search: %v %v", hits, err)
	}
}
