package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"testing"
)

// TestChunkCopies: an impact build records the mean number of chunks per
// distinct chunk text, which ChunkCopies returns; an index without the
// record, or with a damaged one, answers 0 (unknown).
func TestChunkCopies(t *testing.T) {
	ctx := context.Background()
	paths, sections := realNotes(t, 120)
	s := mustOpen(t)
	if c, err := s.ChunkCopies(ctx); err != nil || c != 0 {
		t.Fatalf("ChunkCopies before any build = %v, %v; want 0", c, err)
	}
	// Every note once, the first 40 twice more under other names: what a
	// vault of copied notes holds.
	chunks, texts := 0, map[string]bool{}
	putHashed := func(path string, sec []string) {
		tx, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		var cs []Chunk
		for i, text := range sec {
			h := sha256.Sum256([]byte(text))
			cs = append(cs, Chunk{Ordinal: i, Section: fmt.Sprintf("S%d", i), Text: text, Hash: h[:8]})
			chunks++
			texts[text] = true
		}
		if err := tx.ReplaceFile(ctx, File{Path: path, MtimeNS: 1, Size: 2, Hash: "x", Title: path}, cs, nil); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range paths {
		putHashed(p, sections[p])
		if i < 40 {
			putHashed("copy-a/"+p, sections[p])
			putHashed("copy-b/"+p, sections[p])
		}
	}
	if _, err := s.BuildImpact(ctx, 0); err != nil {
		t.Fatal(err)
	}
	want := float64(chunks) / float64(len(texts))
	got, err := s.ChunkCopies(ctx)
	if err != nil || math.Abs(got-want) > 0.001 || got <= 1 {
		t.Fatalf("ChunkCopies = %v, %v; want %.3f (%d chunks, %d distinct texts)", got, err, want, chunks, len(texts))
	}
	for _, bad := range []string{"", "abc", "0.5", "-3", "NaN", "+Inf", "1e308"} {
		if err := s.SetMeta(ctx, metaChunkCopies, bad); err != nil {
			t.Fatal(err)
		}
		if c, err := s.ChunkCopies(ctx); err != nil || c != 0 {
			t.Errorf("ChunkCopies with %q recorded = %v, %v; want 0", bad, c, err)
		}
	}
	// An impact index built before the record, or with a damaged one,
	// gets it from the next incremental run, which only updates the delta.
	for _, damage := range []string{"DELETE FROM meta WHERE key = ?", "UPDATE meta SET value = 'abc' WHERE key = ?"} {
		if _, err := s.db.Exec(damage, metaChunkCopies); err != nil {
			t.Fatal(err)
		}
		if rebuilt, _, err := s.MaintainImpact(ctx); err != nil || rebuilt {
			t.Fatalf("MaintainImpact = %v, %v; want a delta update", rebuilt, err)
		}
		if got, err := s.ChunkCopies(ctx); err != nil || math.Abs(got-want) > 0.001 {
			t.Errorf("after %q and MaintainImpact: ChunkCopies = %v, %v; want %.3f", damage, got, err, want)
		}
	}
}
