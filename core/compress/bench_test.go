package compress

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
)

// megabyteRequest builds a 1 MB Bash result from the real captured outputs
// (test runs, compiler errors, logs, file lists, progress), repeated.
func megabyteRequest(tb testing.TB) Request {
	tb.Helper()
	var out, errOut strings.Builder
	cases := loadCases(tb)
	for out.Len()+errOut.Len() < 1<<20 {
		for _, c := range cases {
			if c.Name == "long_single_line" || c.Name == "binary_elf_head" {
				continue
			}
			out.WriteString(c.Req.Stdout)
			errOut.WriteString(c.Req.Stderr)
		}
	}
	return Request{Command: "make check", Description: "Run the whole test suite", Prompt: "why does the calc test panic?",
		Stdout: out.String(), Stderr: errOut.String()}
}

func BenchmarkCondense1MB(b *testing.B) {
	req := megabyteRequest(b)
	b.SetBytes(int64(len(req.Stdout) + len(req.Stderr)))
	for b.Loop() {
		Condense(context.Background(), req, Options{}, testSavedPath)
	}
}

// TestParallelMatchesSequential checks that splitting a large output across
// goroutines gives the same extract as processing it on one CPU.
func TestParallelMatchesSequential(t *testing.T) {
	req := megabyteRequest(t)
	if n := strings.Count(req.Stdout, "\n"); n < parallelMinLines {
		t.Fatalf("only %d lines: the parallel path is not exercised", n)
	}
	prev := runtime.GOMAXPROCS(1)
	seq := Condense(context.Background(), req, Options{}, testSavedPath)
	runtime.GOMAXPROCS(4)
	par := Condense(context.Background(), req, Options{}, testSavedPath)
	runtime.GOMAXPROCS(prev)
	if seq != par {
		t.Fatal("parallel and sequential extracts differ")
	}
}

// BenchmarkNormalizeLogLines normalises 1 MB of log lines of the shapes
// the date, epoch and process rules read (syslog, the common log format,
// logfmt with epochs, RFC 1123 headers, Python logging), so their regexps
// run on every line.
func BenchmarkNormalizeLogLines(b *testing.B) {
	shapes := []string{
		"Nov 30 12:34:56 build-7 sshd[31188]: Accepted publickey for dev from 10.0.0.7 port 52144",
		`10.0.0.7 - - [30/Nov/2026:12:34:56 +0000] "GET /api/v1/items?page=3 HTTP/1.1" 200 5123 "-" "curl/8.5.0"`,
		"ts=1732981234 level=info msg=\"flushed batch\" count=3 took=12ms worker=4",
		"< Date: Mon, 30 Nov 2026 12:34:56 GMT",
		"2026-11-30 12:34:56,789 WARNING worker.pool: process 31188 restarted after 3 failures",
		"    at Object.<anonymous> (/home/dev/proj/src/orders.test.js:12:5)",
	}
	var lines []string
	size := 0
	for size < 1<<20 {
		for _, s := range shapes {
			lines = append(lines, s)
			size += len(s) + 1
		}
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, l := range lines {
			Normalize(l)
		}
	}
}

// BenchmarkCondenseDiff16MB condenses a 16 MiB diff as Claude Code's
// persisted copy of a huge git diff would be given: the real diffs of the
// captured cases repeated (or, without them, a diff of this package's
// sources), through the content path.
func BenchmarkCondenseDiff16MB(b *testing.B) {
	var unit strings.Builder
	for _, c := range loadCases(b) {
		if contentOf(c.Req).kind == contentDiff {
			unit.WriteString(c.Req.Stdout)
		}
	}
	if unit.Len() == 0 {
		for _, name := range []string{"extract.go", "content.go", "anomaly.go"} {
			src, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			unit.WriteString("diff --git a/" + name + " b/" + name + "\nindex 1111111..2222222 100644\n--- a/" + name + "\n+++ b/" + name + "\n")
			lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
			unit.WriteString("@@ -1," + itoa(len(lines)) + " +1," + itoa(len(lines)) + " @@\n")
			for _, l := range lines {
				unit.WriteString(" " + l + "\n")
			}
		}
	}
	var out strings.Builder
	for out.Len() < 16<<20 {
		out.WriteString(unit.String())
	}
	req := Request{Command: "git diff HEAD~50", Stdout: out.String(), FullOutputPath: "/home/dev/.claude/x.txt"}
	b.SetBytes(int64(len(req.Stdout)))
	for b.Loop() {
		Condense(context.Background(), req, Options{}, testSavedPath)
	}
}
