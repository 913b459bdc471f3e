package store

import (
	"context"
	"database/sql"
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
