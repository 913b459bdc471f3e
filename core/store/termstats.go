package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
)

// DocFreqs returns the number of chunks n in the keyword index (FTS5's row
// count) and, for each of terms, its document frequency: the number of
// chunks that contain it, as FTS5 matches it (porter-stemmed, every
// column). A term of several tokens ("store_test") counts the chunks that
// hold them as a phrase. The relevance floor of the context hooks weighs
// query terms by these (core/recall).
//
// terms are lower-case surface forms (textan.SearchableTerms). A common
// term's count is the impact index's (impact.go), as of its last build;
// the others are counted by FTS5, whose doclists for them are short (fewer
// than ImpactMinDF postings). An empty index gives n = 0 and zeros. A term
// FTS5 cannot parse counts 0.
func (s *Store) DocFreqs(ctx context.Context, terms []string) (n int64, df []int64, err error) {
	df = make([]int64, len(terms))
	n, _, err = s.ftsAverages(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("document frequencies: %w", err)
	}
	if n == 0 {
		return 0, df, nil
	}
	// Common terms (the impact index's, impact.go) have their count
	// stored; FTS5 counts the rest, whose doclists are short.
	common := map[string]int64{}
	if list, _ := json.Marshal(terms); len(terms) > 0 {
		err := s.queryOwned(ctx, `SELECT f.surface, t.df FROM impact_forms f JOIN impact_terms t ON t.term = f.term
			WHERE f.surface IN (SELECT value FROM json_each(?))`, []any{string(list)}, func(vals []driver.Value) error {
			w, err := valString(vals[0])
			if err != nil {
				return err
			}
			c, err := valInt64(vals[1])
			common[w] = c
			return err
		})
		if err != nil && !strings.Contains(err.Error(), "no such table") {
			return 0, nil, fmt.Errorf("document frequencies: %w", err)
		}
	}
	for i, t := range terms {
		if c, ok := common[t]; ok {
			df[i] = c
			continue
		}
		if strings.TrimSpace(t) == "" {
			continue
		}
		phrase := `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", phrase).Scan(&df[i]); err != nil {
			if ctx.Err() != nil {
				return 0, nil, fmt.Errorf("document frequencies: %w", ctx.Err())
			}
			df[i] = 0 // a phrase FTS5 rejects matches nothing
		}
	}
	return n, df, nil
}
