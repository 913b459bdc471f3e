package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteTable pins the table layout `vaultctx bench` prints: a
// measured row, an unmeasured one with its note, and the grep ratio.
func TestWriteTable(t *testing.T) {
	r := &Report{
		Vault: "v", Machine: "m", Files: 2, Chunks: 4, FullSeconds: 1.5, FilesPerSecond: 1.3333,
		NoChangeSeconds: 0.01, Edits: 1, EditedSeconds: 0.02, PeakRSSBytes: 3 << 20,
		DBBytes: 4096, BytesPerChunk: 1024, MarkdownBytes: 2048, DBOverMarkdown: 2,
		Search: []Latency{{Name: "bm25", N: 2, P50Ms: 0.5, P95Ms: 1.25}, {Name: "vector", Note: "no vectors"}},
		Hooks:  []Latency{{Name: "h", N: 1, P50Ms: 2, P95Ms: 2, Note: "1/1 with output"}},
		Grep:   Latency{Name: "grep -ril", N: 2, P50Ms: 1, P95Ms: 3}, GrepVsHybrid: 2.04,
	}
	var b strings.Builder
	if err := r.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"vault                 v (2 files, 4 chunks, vectors false)",
		"machine               m",
		"index: full           1.50 s (1 files/s)",
		"index: no change      0.010 s",
		"index: after 1 edits  0.020 s",
		"index: peak RSS       3 MiB (whole bench process after the full index)",
		"size                  4096 bytes (1024 bytes/chunk, 2.00x the 2048 markdown bytes)",
		"search bm25           p50 0.50 ms, p95 1.25 ms (n=2)",
		"search vector         no vectors",
		"hook h                p50 2.00 ms, p95 2.00 ms (n=1) [1/1 with output]",
		"baseline grep -ril    p50 1.00 ms, p95 3.00 ms (n=2)",
		"grep / hybrid         2.0x (p50)",
		"",
	}, "\n")
	if got := b.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestBenchQueries(t *testing.T) {
	dir := t.TempDir()
	notes := []string{"a.md", "b.md"}
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("intro\n#  \n# Alpha title \n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.md"), []byte("no heading\n"), 0o644)
	got, err := benchQueries("", dir, notes)
	if err != nil || strings.Join(got, "|") != "Alpha title|b" {
		t.Errorf("benchQueries = %q, %v; want the H1, else the file stem", got, err)
	}
	if _, err := benchQueries("", dir, nil); err != ErrNoNotes {
		t.Errorf("no notes: %v, want ErrNoNotes", err)
	}
}
