package embed

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// corpusChunks returns n chunks of about 1,000 bytes (cut at rune
// boundaries) from the large shared corpus: the size of the H2 sections the
// indexer embeds.
func corpusChunks(tb testing.TB, n int) []string {
	tb.Helper()
	var out []string
	root := testkit.Shared(tb, "corpora/large")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := strings.ToValidUTF8(string(data), "")
		for len(text) > 1000 && len(out) < n {
			cut := 1000
			for !utf8.RuneStart(text[cut]) {
				cut--
			}
			out = append(out, text[:cut])
			text = text[cut:]
		}
		if len(out) >= n {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(out) < n {
		tb.Fatalf("only %d chunks", len(out))
	}
	return out
}

// BenchmarkEncodeBatch embeds 8,192 corpus chunks of about 1,000 bytes with
// glove-120k on all cores; chunks/s is the indexing throughput.
func BenchmarkEncodeBatch(b *testing.B) {
	chunks := corpusChunks(b, 8192)
	var size int
	for _, c := range chunks {
		size += len(c)
	}
	m := mustOpen(b, "glove-120k")
	if _, err := m.EncodeBatch(b.Context(), chunks[:BatchSize*4]); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	cpu0 := testkit.CPUTime().Seconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.EncodeBatch(b.Context(), chunks); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(chunks)*b.N)/b.Elapsed().Seconds(), "chunks/s")
	// On a shared machine wall time understates the speed; chunks per
	// CPU-second times the core count is what an idle machine would do.
	b.ReportMetric(float64(len(chunks)*b.N)/(testkit.CPUTime().Seconds()-cpu0), "chunks/cpu-s")
	b.ReportMetric(float64(size)/float64(len(chunks)), "bytes/chunk")
}

// BenchmarkOpenEncodeQuery is the query path of a fresh hook process: Open
// a model and embed a 10-word query, with the tokenizer cache warm.
func BenchmarkOpenEncodeQuery(b *testing.B) {
	for _, name := range []string{"glove-120k", "m2v-fixtures/float32"} {
		b.Run(name, func(b *testing.B) {
			cache := b.TempDir()
			const query = "how do I handle authentication failures in the login flow"
			warm, err := OpenOptions(modelPath(b, name), Options{CacheDir: cache})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := warm.Encode(query); err != nil {
				b.Fatal(err)
			}
			warm.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m, err := OpenOptions(modelPath(b, name), Options{CacheDir: cache})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Encode(query); err != nil {
					b.Fatal(err)
				}
				m.Close()
			}
		})
	}
}

// BenchmarkTokenizerColdJSON is the cost the cache avoids: parsing
// glove-120k's tokenizer.json.
func BenchmarkTokenizerColdJSON(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m, err := OpenOptions(modelPath(b, "glove-120k"), Options{CacheDir: "-"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Encode("hello"); err != nil {
			b.Fatal(err)
		}
		m.Close()
	}
}
