package note

import (
	"os"
	"testing"
)

// BenchmarkParseLarge parses about 500 real files from corpora/large and
// reports MB/s of raw markdown.
func BenchmarkParseLarge(b *testing.B) {
	paths := largeSample(b, 33)
	files := make([][]byte, len(paths))
	var total int64
	for i, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files[i] = raw
		total += int64(len(raw))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, raw := range files {
			_ = Parse(paths[j], raw)
		}
	}
}
