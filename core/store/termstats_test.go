package store

import (
	"context"
	"slices"
	"testing"
)

// TestDocFreqs counts chunks per term the way FTS5 matches them (stemmed,
// phrases for multi-token terms), the same before and after the impact
// index takes over the common terms.
func TestDocFreqs(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	put(t, s, "a.md", "alpha bravo charlie", "alpha indexing")
	put(t, s, "b.md", "alpha delta", "store_test runs")
	put(t, s, "c.md", "alphas indexes", "unrelated words")
	terms := []string{"alpha", "index", "bravo", "zulu", "store_test", `"quoted"`, ""}
	want := []int64{4, 2, 1, 0, 1, 0, 0} // "alphas" stems to alpha; "indexing"/"indexes" to index
	for _, stage := range []string{"fts5", "impact"} {
		if stage == "impact" {
			if _, err := s.BuildImpact(ctx, 2); err != nil {
				t.Fatal(err)
			}
		}
		n, df, err := s.DocFreqs(ctx, terms)
		if err != nil {
			t.Fatal(err)
		}
		if n != 6 || !slices.Equal(df, want) {
			t.Errorf("%s: n=%d df=%v, want n=6 df=%v", stage, n, df, want)
		}
	}
}
