package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/ftsquery"
)

// TestAddFile: AddFile stores a new path as ReplaceFile would, and refuses
// a path the index holds without writing any of it.
func TestAddFile(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	put(t, s, "old.md", "original words of the old note")
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	added := []Chunk{{Text: "a plug-in for the new note", Section: "S", HeadingContext: "new.md | note", Hash: []byte("h")}}
	if err := tx.AddFile(ctx, File{Path: "new.md", Hash: "y", Title: "new.md"}, added, nil); err != nil {
		t.Fatal(err)
	}
	if added[0].ID == 0 {
		t.Error("AddFile assigned no chunk id")
	}
	clash := []Chunk{{Text: "replacement words", Section: "S", Hash: []byte("h")}}
	if err := tx.AddFile(ctx, File{Path: "old.md", Hash: "z", Title: "old.md"}, clash, nil); err == nil {
		t.Fatal("AddFile of a path the index holds succeeded")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if got := topPath(t, s, "plugin"); got != "new.md" {
		t.Errorf("top hit for the added note's hyphen join: %q, want new.md", got)
	}
	if got := topPath(t, s, "original"); got != "old.md" {
		t.Errorf("top hit for the kept note: %q, want old.md", got)
	}
	if hits, _ := s.KeywordHits(ctx, "replacement", 5, DefaultColumnWeights); len(hits) != 0 {
		t.Errorf("the refused file's chunk was written: %v", hits)
	}
}

// TestPrepareStale: the cjk column is ftsquery.Extras of the chunk as
// written, whether Prepare ran on it, ran before its text changed, or did
// not run.
func TestPrepareStale(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	fresh := Chunk{Text: "an e-mail", Section: "S"}
	fresh.Prepare()
	stale := Chunk{Text: "no joins", Section: "S"}
	stale.Prepare()
	stale.Text = "a co-author"
	resec := Chunk{Text: "plain", Section: "S"}
	resec.Prepare()
	resec.Section = "re-use"
	cs := []Chunk{fresh, stale, resec, {Text: "a plug-in", Section: "S"}, {Text: "nothing", Section: "S"}}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.ReplaceFile(ctx, File{Path: "a.md", Hash: "x"}, cs, nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		var got sql.NullString
		if err := s.db.QueryRowContext(ctx, "SELECT cjk FROM chunks WHERE id = ?", c.ID).Scan(&got); err != nil {
			t.Fatal(err)
		}
		want := ftsquery.Extras(c.Text + "\n" + c.Section)
		if got.String != want || got.Valid != (want != "") {
			t.Errorf("chunk %q/%q: cjk %v, want %q", c.Text, c.Section, got, want)
		}
	}
}

// TestChunkIDs: the chunks of a transaction take ids counting up from
// past every chunk id and the impact index's last id, so an id the build
// held is never reused, even when its chunk was deleted.
func TestChunkIDs(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	ids := func(cs []Chunk) []int64 {
		var out []int64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	write := func(fn func(tx *Tx)) {
		t.Helper()
		tx, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		fn(tx)
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	chunks := func(texts ...string) []Chunk {
		var cs []Chunk
		for i, x := range texts {
			cs = append(cs, Chunk{Ordinal: i, Text: x, Section: "S", Hash: []byte("h")})
		}
		return cs
	}
	a, b := chunks("common words one", "common words two"), chunks("common words three")
	write(func(tx *Tx) {
		if err := tx.AddFile(ctx, File{Path: "a.md"}, a, nil); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddFile(ctx, File{Path: "b.md"}, b, nil); err != nil {
			t.Fatal(err)
		}
	})
	if got := append(ids(a), ids(b)...); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("first ids %v, want 1 2 3", got)
	}
	if st, err := s.BuildImpact(ctx, 1); err != nil || st.Terms == 0 {
		t.Fatalf("impact build: %+v, %v", st, err)
	}
	c := chunks("common words four")
	write(func(tx *Tx) {
		if err := tx.DeleteFile(ctx, "b.md"); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddFile(ctx, File{Path: "c.md"}, c, nil); err != nil {
			t.Fatal(err)
		}
	})
	if c[0].ID != 4 {
		t.Errorf("id after the build's last (3) was deleted: %d, want 4", c[0].ID)
	}
	c2 := chunks("common words five")
	write(func(tx *Tx) {
		if err := tx.ReplaceFile(ctx, File{Path: "c.md"}, c2, nil); err != nil {
			t.Fatal(err)
		}
	})
	if c2[0].ID <= 3 {
		t.Errorf("id replacing the newest chunk (4): %d, not past the build's last (3)", c2[0].ID)
	}
	d := chunks("common words six", "common words seven")
	write(func(tx *Tx) {
		if err := tx.AddFile(ctx, File{Path: "d.md"}, d, nil); err != nil {
			t.Fatal(err)
		}
	})
	if d[0].ID != c2[0].ID+1 || d[1].ID != c2[0].ID+2 {
		t.Errorf("ids after %d: %v, want the next two", c2[0].ID, ids(d))
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestBulkDefersMerges: a Bulk store loads with FTS5's automerge off,
// BuildImpact and Seal merge the segments and give it back its default,
// and the sealed file answers as a file written with merges on.
func TestBulkDefersMerges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	load := func(s *Store) {
		t.Helper()
		for batch := range 8 { // a transaction each: a segment each
			tx, err := s.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 40 {
				n := batch*40 + i
				text := fmt.Sprintf("note %d on merging segments, word%d and word%d, with filler text", n, n%7, n%13)
				if err := tx.AddFile(ctx, File{Path: fmt.Sprintf("n%d.md", n)}, []Chunk{{Text: text, Section: "S", Hash: []byte("h")}}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	automerge := func(s *Store) string {
		t.Helper()
		var v string
		if err := s.db.QueryRowContext(ctx, "SELECT coalesce((SELECT v FROM chunks_fts_config WHERE k = 'automerge'), 'default')").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	plain := mustOpen(t)
	load(plain)
	if _, err := plain.BuildImpact(ctx, 10); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "bulk.db")
	bulk, err := Open(ctx, path, Options{Bulk: true})
	if err != nil {
		t.Fatal(err)
	}
	load(bulk)
	if got := automerge(bulk); got != "0" {
		t.Errorf("automerge while loading: %s, want 0", got)
	}
	if _, err := bulk.BuildImpact(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if got := automerge(bulk); got != fmt.Sprint(ftsAutomerge) {
		t.Errorf("automerge after the impact build: %s, want %d", got, ftsAutomerge)
	}
	if err := bulk.Seal(ctx); err != nil {
		t.Fatal(err)
	}
	sealed, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sealed.Close()
	if err := sealed.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if got := automerge(sealed); got != fmt.Sprint(ftsAutomerge) {
		t.Errorf("automerge of the sealed file: %s, want %d", got, ftsAutomerge)
	}
	for _, q := range []string{"word3", "merging segments", "note 17", "word5 word11 filler"} {
		want, err := plain.KeywordHits(ctx, q, 20, DefaultColumnWeights)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sealed.KeywordHits(ctx, q, 20, DefaultColumnWeights)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: sealed bulk file %v, merged as it went %v", q, got, want)
		}
	}
}
