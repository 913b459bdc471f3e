package store

import (
	"context"
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// TestConsistency is the fault campaign's semantic corruption (issue 17):
// random or short vector blobs and stray rowids gave wrong vector results
// with exit 0, and doctor passed. Each damage is reported, by the cheap
// check when it changes a count or a length, else by the deep one; a
// rebuilt store (what `index --full` makes) is consistent again.
func TestConsistency(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		sql   string
		cheap bool   // the cheap check sees it
		want  string // in the report
	}{
		{"short vector blob", "UPDATE chunk_vecs_vector_chunks00 SET vectors = substr(vectors, 1, 10) WHERE _rowid_ = (SELECT min(_rowid_) FROM chunk_vecs_vector_chunks00)", true, "vector blobs not of"},
		{"random vector blob", "UPDATE chunk_vecs_vector_chunks00 SET vectors = randomblob(length(vectors)) WHERE _rowid_ = (SELECT min(_rowid_) FROM chunk_vecs_vector_chunks00)", false, "not as quantised"},
		{"stray rowid in the rowid map", "UPDATE chunk_vecs_rowids SET rowid = rowid + 100000 WHERE rowid = (SELECT min(rowid) FROM chunk_vecs_rowids)", false, "vectors of no chunk"},
		{"stray rowids in a slot map", "UPDATE chunk_vecs_chunks SET rowids = randomblob(length(rowids)) WHERE chunk_id = (SELECT min(chunk_id) FROM chunk_vecs_chunks)", false, "another chunk id"},
		{"chunk without a vector", "DELETE FROM chunk_vecs_rowids WHERE rowid = (SELECT max(rowid) FROM chunk_vecs_rowids)", true, "vectors for"},
		{"chunk without an FTS5 row", "DELETE FROM chunks_fts_docsize WHERE id = (SELECT min(id) FROM chunks_fts_docsize)", true, "FTS5 rows for"},
		{"FTS5 row of no chunk", "UPDATE chunks_fts_docsize SET id = id + 100000 WHERE id = (SELECT min(id) FROM chunks_fts_docsize)", false, "FTS5 rows of no chunk"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := mustOpen(t)
			vecs := clustered(rand.New(rand.NewSource(1)), 300, 32, 4)
			fillVectors(t, s, vecs, 10)
			for _, deep := range []bool{false, true} {
				if err := s.Consistency(ctx, deep); err != nil {
					t.Fatalf("Consistency(deep=%v) of an intact store: %v", deep, err)
				}
			}
			if _, err := s.db.ExecContext(ctx, c.sql); err != nil {
				t.Fatal(err)
			}
			err := s.Consistency(ctx, false)
			if c.cheap != (err != nil) {
				t.Errorf("cheap check: %v, want an error: %v", err, c.cheap)
			}
			err = s.Consistency(ctx, true)
			if !errors.Is(err, ErrInconsistent) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("deep check: %v, want ErrInconsistent naming %q", err, c.want)
			}
			// What a full index run does: a new file from the notes.
			fresh := mustOpen(t)
			fillVectors(t, fresh, vecs, 10)
			if err := fresh.Consistency(ctx, true); err != nil {
				t.Errorf("a rebuilt store: %v", err)
			}
		})
	}
}

func TestQuantized(t *testing.T) {
	for _, c := range []struct {
		v    []int8
		want bool
	}{
		{[]int8{0, 0, 0}, true},
		{[]int8{127, -3, 5}, true},
		{[]int8{-127, 126, 0}, true},
		{[]int8{100, -20, 3}, false},
		{[]int8{-128, 127, 0}, false},
	} {
		b := make([]byte, len(c.v))
		for i, x := range c.v {
			b[i] = byte(x)
		}
		if got := quantized(b); got != c.want {
			t.Errorf("quantized(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// A damaged FTS5 segment passes Open and the cheap check; the query that
// meets it fails with an error IsDamage recognises, so the CLI can say to
// rebuild.
func TestIsDamageAtQuery(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	put(t, s, "a.md", "alpha bravo charlie")
	if _, err := s.db.ExecContext(ctx, "UPDATE chunks_fts_data SET block = substr(block, 1, 7) WHERE id = (SELECT max(id) FROM chunks_fts_data WHERE id > 10)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	r, err := Open(ctx, s.path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.KeywordHits(ctx, "bravo", 5, DefaultColumnWeights)
	if err == nil || !IsDamage(err) {
		t.Errorf("search of a damaged FTS5 segment: %v; want an error IsDamage reports", err)
	}
	if IsDamage(ErrNotIndexed) || IsDamage(nil) {
		t.Error("IsDamage of a non-SQLite error")
	}
}
