package scrub

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// largeCorpus is the shared 103 MB markdown corpus (Microsoft C++ and
// PowerShell documentation).
func largeCorpus(tb testing.TB) string { return testkit.Shared(tb, "corpora/large") }

// benchBytes is how much text each throughput benchmark scrubs per op.
const benchBytes = 4 << 20

var (
	benchOnce        sync.Once
	benchProse       string
	benchCode        string
	benchCorpusError error
)

// loadBenchText concatenates real files: prose is whole markdown files,
// code is the fenced code blocks (C++, PowerShell, JSON, XML ...) found in
// them, each up to benchBytes.
func loadBenchText(tb testing.TB) (prose, code string) {
	tb.Helper()
	benchOnce.Do(func() {
		var files []string
		benchCorpusError = filepath.WalkDir(largeCorpus(tb), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				files = append(files, p)
			}
			return nil
		})
		if benchCorpusError != nil {
			return
		}
		sort.Strings(files)
		var pb, cb strings.Builder
		// Interleave the three documentation sets by striding through the
		// sorted list.
		for i := 0; i < len(files) && (pb.Len() < benchBytes || cb.Len() < benchBytes); i += 7 {
			b, err := os.ReadFile(files[i])
			if err != nil {
				benchCorpusError = err
				return
			}
			if pb.Len() < benchBytes {
				pb.Write(b)
			}
			if cb.Len() < benchBytes {
				for _, block := range fencedBlocks(string(b)) {
					cb.WriteString(block)
				}
			}
		}
		benchProse, benchCode = pb.String(), cb.String()
	})
	if benchCorpusError != nil {
		tb.Skipf("shared corpus: %v", benchCorpusError)
	}
	return benchProse, benchCode
}

// fencedBlocks returns the bodies of ``` fenced blocks in a markdown file.
func fencedBlocks(md string) []string {
	var out []string
	lines := strings.SplitAfter(md, "\n")
	in := false
	var cur strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			if in {
				out = append(out, cur.String())
				cur.Reset()
			}
			in = !in
			continue
		}
		if in {
			cur.WriteString(l)
		}
	}
	return out
}

func benchScrub(b *testing.B, text string) {
	s := New()
	s.Scrub(text) // compile the expressions the text needs
	b.SetBytes(int64(len(text)))
	cpu0 := testkit.CPUTime()
	n := 0
	for b.Loop() {
		s.Scrub(text)
		n++
	}
	reportCPU(b, cpu0, n, len(text))
}

// reportCPU adds process CPU time per op (cpu-ns/op) and, for throughput
// benchmarks, CPU-time throughput (cpu-MB/s). The machine running these is
// shared, so wall-clock ns/op includes time spent waiting for a core.
func reportCPU(b *testing.B, cpu0 time.Duration, n, bytes int) {
	cpu := testkit.CPUTime() - cpu0
	if cpu <= 0 || n == 0 {
		return
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(n)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// BenchmarkScrubProse scrubs 4 MiB of real markdown documentation.
func BenchmarkScrubProse(b *testing.B) {
	prose, _ := loadBenchText(b)
	benchScrub(b, prose)
}

// BenchmarkScrubCode scrubs 4 MiB of real code blocks from the same docs.
func BenchmarkScrubCode(b *testing.B) {
	_, code := loadBenchText(b)
	benchScrub(b, code)
}

// BenchmarkScrubSecrets scrubs the shared mixed note, dense with secrets,
// including first-use compilation of the expressions it needs.
func BenchmarkScrubSecrets(b *testing.B) {
	text, err := os.ReadFile(filepath.Join(secretsDir(b), "notes_mixed.md"))
	if err != nil {
		b.Skip(err)
	}
	benchScrub(b, string(text))
}

// BenchmarkNew measures setup: building the rule table and the anchor
// automaton (no expression is compiled).
func BenchmarkNew(b *testing.B) {
	cpu0 := testkit.CPUTime()
	n := 0
	for b.Loop() {
		New()
		n++
	}
	reportCPU(b, cpu0, n, 0)
}

// BenchmarkFirstScrub measures New plus the first Scrub of the mixed note,
// which compiles every provider expression the note needs: the cost a hook
// pays once per process.
func BenchmarkFirstScrub(b *testing.B) {
	text, err := os.ReadFile(filepath.Join(secretsDir(b), "notes_mixed.md"))
	if err != nil {
		b.Skip(err)
	}
	cpu0 := testkit.CPUTime()
	n := 0
	for b.Loop() {
		New().Scrub(string(text))
		n++
	}
	reportCPU(b, cpu0, n, 0)
}

// hostileInputs are texts built to make a naive scrubber quadratic: anchors
// every few bytes, one long line, many blocks without ends.
func hostileInputs(n int) map[string]string {
	rep := func(s string) string { return strings.Repeat(s, n/len(s)+1)[:n] }
	return map[string]string{
		"key words":       rep("pass"),
		"chained assigns": rep("a=password="),
		"one long line":   rep("x token=ab "),
		"begin lines":     rep("-----BEGIN RSA PRIVATE KEY-----\n"),
		"end lines":       rep("-----END RSA PRIVATE KEY-----\n"),
		"curl flags":      "curl" + rep(" -u x"),
		"mysql flags":     "mysql" + rep(" -p x"),
		"url userinfo":    rep("a://b:c@"),
		"jwt prefixes":    rep("eyJ"),
		"bearer words":    rep("Bearer "),
		"context words":   rep("discord "),
	}
}

// BenchmarkScrubHostile scrubs 128 KiB of each hostile input. Every parse
// is bounded (key 80 bytes, value 1 KiB, line look-back 512 bytes), so the
// cost stays linear in the input.
func BenchmarkScrubHostile(b *testing.B) {
	s := New()
	for name, in := range hostileInputs(128 << 10) {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				s.Scrub(in)
			}
		})
	}
}
