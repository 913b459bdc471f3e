package chunk

import (
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/note"
)

// largeNotes parses about 500 real files from corpora/large.
func largeNotes(b *testing.B) ([]note.Note, [][]byte, []string, int64) {
	b.Helper()
	var (
		notes []note.Note
		raws  [][]byte
		total int64
	)
	paths := corpusFiles(b, "corpora/large", 33)
	for _, rel := range paths {
		n := parse(b, rel)
		notes = append(notes, n)
		raws = append(raws, readRaw(b, rel))
		total += int64(len(raws[len(raws)-1]))
	}
	return notes, raws, paths, total
}

// BenchmarkSplitLarge chunks the bodies of about 500 real files from
// corpora/large with DefaultOptions; MB/s is of raw markdown.
func BenchmarkSplitLarge(b *testing.B) {
	notes, _, _, total := largeNotes(b)
	opt := DefaultOptions()
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, n := range notes {
			_ = Split(n.Title, n.Body, opt)
		}
	}
}

// BenchmarkParseSplitLarge is the indexer's per-file CPU work before
// embedding: note.Parse and Split on the same files.
func BenchmarkParseSplitLarge(b *testing.B) {
	_, raws, paths, total := largeNotes(b)
	opt := DefaultOptions()
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, raw := range raws {
			n := note.Parse(paths[j], raw)
			_ = Split(n.Title, n.Body, opt)
		}
	}
}
