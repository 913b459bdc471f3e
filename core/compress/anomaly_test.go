package compress

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// TestTemplateHash: lines that differ only in numbers, names, paths and
// ids share a template; lines that differ in a word do not.
func TestTemplateHash(t *testing.T) {
	same := [][2]string{
		{"GET /api/users/17 status=200 dur=<dur>", "GET /api/orders/5 status=503 dur=<dur>"},
		{"worker 3 processed job-17 in 12 steps", "worker 12 processed job-9 in 4 steps"},
		{"req-7f3a9c1e done", "req-00aa11bb done"},
		{"at main.go:12", "at server.go:4"},
		{"  x", "x"},
		{"Downloading a.whl (643 kB)", "Downloading b.whl (9.0 MB)"},
	}
	for _, p := range same {
		if templateHash(p[0]) != templateHash(p[1]) {
			t.Errorf("%q and %q have different templates", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"GET /x status=200", "POST /x status=200"},
		{"level=info msg=ok", "level=error msg=ok"},
		{"a b", "a b c"},
		{"done.", "done"},
	}
	for _, p := range differ {
		if templateHash(p[0]) == templateHash(p[1]) {
			t.Errorf("%q and %q share a template", p[0], p[1])
		}
	}
}

// TestAnomaliesAtScale: the real 1,500-line access log of the fidelity
// case log_kv_tail_1500_a, its ordinary lines repeated to 20,000 lines
// and its two injected anomalies (a 500, a 503 after 30 s) each left
// once in place, still shows both anomalies verbatim, within the budget.
func TestAnomaliesAtScale(t *testing.T) {
	var c fidelityCase
	for _, f := range loadFidelity(t) {
		if f.Name == "log_kv_tail_1500_a" {
			c = f
		}
	}
	if len(c.Meta.Anomalies) == 0 {
		t.Fatal("no log_kv_tail_1500_a case with anomalies")
	}
	anomalous := map[string]bool{}
	for _, a := range c.Meta.Anomalies {
		anomalous[a] = true
	}
	lines := strings.Split(strings.TrimSuffix(c.Req.Stdout, "\n"), "\n")
	var b strings.Builder
	for n, round := 0, 0; n < 20000; round++ {
		for _, l := range lines {
			if anomalous[l] && round > 0 || n >= 20000 {
				continue
			}
			b.WriteString(l)
			b.WriteByte('\n')
			n++
		}
	}
	req := Request{Command: c.Req.Command, Stdout: b.String()}
	ex := Condense(context.Background(), req, Options{}, testSavedPath)
	if ex.Lines != 20000 {
		t.Fatalf("extract counts %d lines", ex.Lines)
	}
	for _, a := range c.Meta.Anomalies {
		if !strings.Contains(ex.Stdout, "\n"+a+"\n") {
			t.Errorf("anomaly lost in 20,000 lines: %q", a)
		}
	}
	if n := len(ex.Stdout) + len(ex.Stderr); n > textan.CharBudget(DefaultBudgetTokens) {
		t.Errorf("extract of %d bytes over the budget", n)
	}
}

// TestContinuationStopsAtPassingResults: jest's "FAIL test/cart.test.js"
// is an error line followed by the file's test tree; the passing "✓" lines
// under it are results to rank, not the failure's continuation, so the
// run of them collapses instead of filling the extract. Without the stop,
// all twelve "✓ of N lines" are kept.
func TestContinuationStopsAtPassingResults(t *testing.T) {
	for _, c := range loadFidelity(t) {
		if c.Name != "test_jest_verbose_fail_a" {
			continue
		}
		ex := Condense(context.Background(), c.Req, Options{}, testSavedPath)
		if n := strings.Count(ex.Stderr, "✓ of "); n > 2 {
			t.Errorf("%d passing \"✓ of N lines\" results kept, want the run collapsed:\n%s", n, ex.Stderr)
		}
		for _, want := range []string{"✕ unknown country", "● tax › unknown country", "Tests:       4 failed, 86 passed, 90 total"} {
			if !strings.Contains(ex.Stderr, want) {
				t.Errorf("%q lost", want)
			}
		}
		return
	}
	t.Fatal("case test_jest_verbose_fail_a missing")
}

// TestItemVerdictsGroup: "go test ./..." over 600 packages prints one
// verdict line per package. They are items, not the run's verdict: the
// "ok" and "?" lines show as one exemplar each with a count, and the
// failing package keeps its lines (a fresh user saw 175 "ok" lines kept).
func TestItemVerdictsGroup(t *testing.T) {
	var b strings.Builder
	for i := range 600 {
		switch {
		case i == 311:
			b.WriteString("--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 3, want 4\nFAIL\nFAIL\texample.com/proj/pkg311\t0.012s\n")
		case i%7 == 0:
			b.WriteString("?   \texample.com/proj/pkg" + itoa(i) + "\t[no test files]\n")
		default:
			b.WriteString("ok  \texample.com/proj/pkg" + itoa(i) + "\t0." + itoa(100+i%900) + "s\n")
		}
	}
	b.WriteString("FAIL\n")
	req := Request{Command: "go test ./...", Stdout: b.String()}
	ex := Condense(context.Background(), req, Options{}, testSavedPath)
	for _, want := range []string{"--- FAIL: TestParse (0.00s)", "    parse_test.go:12: got 3, want 4", "FAIL\texample.com/proj/pkg311\t0.012s"} {
		if !strings.Contains(ex.Stdout, want+"\n") {
			t.Errorf("%q lost", want)
		}
	}
	if n := strings.Count(ex.Stdout, "\nok  \t"); n > 2 {
		t.Errorf("%d \"ok\" verdicts shown, want the template's exemplar", n)
	}
	if n := strings.Count(ex.Stdout, "\n?   \t"); n > 2 {
		t.Errorf("%d \"[no test files]\" verdicts shown, want the template's exemplar", n)
	}
	if !strings.Contains(ex.Stdout, "more lines of this shape in the output") {
		t.Error("no count of the grouped verdicts")
	}
	if t.Failed() {
		t.Logf("extract:\n%s", ex.Stdout)
	}
}

// TestRareErrorAmongMany: one error of its own kind among 400 of another
// is kept, though the budget holds only part of the 400.
func TestRareErrorAmongMany(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		if i == 250 {
			b.WriteString("src/core/db.ts(12,5): error TS2307: Cannot find module 'pg' or its corresponding type declarations.\n")
		}
		fmt.Fprintf(&b, "src/mod%d/file%d.ts(%d,%d): error TS2339: Property 'name%c%d' does not exist on type 'Model%c'.\n", i%12, i, 10+i%300, 1+i%80, 'a'+rune(i%26), i, 'A'+rune(i%7))
	}
	b.WriteString("\nFound 401 errors in 401 files.\n")
	ex := Condense(context.Background(), Request{Command: "npx tsc --noEmit", Stdout: b.String()}, Options{}, testSavedPath)
	for _, want := range []string{"error TS2307: Cannot find module 'pg'", "Found 401 errors", "file0.ts(10,1): error TS2339"} {
		if !strings.Contains(ex.Stdout, want) {
			t.Errorf("extract lacks %q:\n%s", want, ex.Stdout)
		}
	}
}

// TestLongLogLineNamed: a log line too long to show is named by its line
// number and quotes its end as well as its head, where the error is.
func TestLongLogLineNamed(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		if i == 120 {
			fmt.Fprintf(&b, "2026-12-02T10:00:%02dZ INFO sync item=%d payload=%s ERROR checksum mismatch\n", i%60, i, strings.Repeat("y", 3000))
			continue
		}
		fmt.Fprintf(&b, "2026-12-02T10:00:%02dZ INFO sync item=%d ok\n", i%60, i)
	}
	ex := Condense(context.Background(), Request{Command: "./sync --verbose", Stdout: b.String()}, Options{}, testSavedPath)
	if !strings.Contains(ex.Stdout, "[… line 121 of stdout, 3072 bytes, cut; it begins: 2026-12-02T10:00:00Z INFO sync item=120 payload=yyy") ||
		!strings.Contains(ex.Stdout, "yyy ERROR checksum mismatch …]") {
		t.Errorf("the long line's marker does not name it and quote its end:\n%s", ex.Stdout)
	}
}

// TestListingOutliers: a listing that measures things keeps the line whose
// measure is an outlier: a 7 GB file among kilobyte ones (bytes and -h
// sizes), a process at 98.7% CPU among idle ones.
func TestListingOutliers(t *testing.T) {
	size := func(i int) string { return fmt.Sprintf("%d.%dK", 1+i%7, i%10) }
	for _, c := range []struct {
		cmd, want string
		row       func(i int) string
	}{
		{"ls -la data", "7500000000", func(i int) string {
			n := strconv.Itoa(1000 + i*37%9000)
			if i == 150 {
				n = "7500000000"
			}
			return "-rw-r--r--  1 dev dev " + n + " Dec  2 14:01 part-" + fmt.Sprintf("%04d", i) + ".parquet"
		}},
		{"ls -lah data", "7.0G", func(i int) string {
			n := size(i)
			if i == 150 {
				n = "7.0G"
			}
			return "-rw-r--r--  1 dev dev " + n + " Dec  2 14:01 part-" + fmt.Sprintf("%04d", i) + ".parquet"
		}},
		{"ps aux", "98.7", func(i int) string {
			cpu, rss := "0.0", 4000+i*13%3000
			if i == 150 {
				cpu, rss = "98.7", 12582912
			}
			return fmt.Sprintf("dev      %5d %s  0.1 %6d %5d ?        S    14:01   0:00 worker --id %d", 2000+i, cpu, 20000+i, rss, i)
		}},
	} {
		var b strings.Builder
		for i := range 300 {
			b.WriteString(c.row(i) + "\n")
		}
		ex := Condense(context.Background(), Request{Command: c.cmd, Stdout: b.String()}, Options{}, testSavedPath)
		if !strings.Contains(ex.Stdout, c.want) {
			t.Errorf("%s: extract lacks the outlier %s:\n%s", c.cmd, c.want, ex.Stdout)
		}
	}
}

// TestRareZeroKept: a row whose measures are 0 among rows of 40 to 100
// (the one untested file of a coverage table) is kept; the 0 of a
// sequence ("case 0", "case 1" …) and a clock's ",000" are not anomalies.
func TestRareZeroKept(t *testing.T) {
	var b strings.Builder
	b.WriteString("File       | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s\n")
	for i := range 150 {
		v := fmt.Sprintf("%d.%d", 40+i*7%60, i%10)
		if i == 77 {
			v = "0"
		}
		fmt.Fprintf(&b, " mod%03d.js | %s | %s | %s | %s | %d-%d\n", i, v, v, v, v, 1+i%5, 9+i%7)
	}
	ex := Condense(context.Background(), Request{Command: "npx jest --coverage | cat", Stdout: b.String()}, Options{}, testSavedPath)
	if !strings.Contains(ex.Stdout, " mod077.js | 0 | 0 | 0 | 0 |") {
		t.Errorf("the untested file's row is lost:\n%s", ex.Stdout)
	}
	var seq strings.Builder
	for i := range 200 {
		fmt.Fprintf(&seq, "2026-12-02 10:00:%02d,%03d INFO ok %d - case %d\n", i%60, (i*37)%1000, i+1, i)
	}
	lines, _ := splitStreams(Request{Command: "node --test", Stdout: seq.String()}, false, newQuery(Request{}))
	for _, l := range lines {
		if l.tier == tierAnomaly {
			t.Errorf("%q marked as an anomaly", l.show)
		}
	}
}

// TestErrorKeepsItsScope: an error keeps the line above it that says
// where it happened: make's "Entering directory" of the failing sub
// folder, patch's "checking file".
func TestErrorKeepsItsScope(t *testing.T) {
	var b strings.Builder
	for d := 1; d <= 40; d++ {
		fmt.Fprintf(&b, "make[1]: Entering directory '/src/sub%02d'\n", d)
		for u := 1; u <= 4; u++ {
			fmt.Fprintf(&b, "cc -Wall -c util%d.c -o util%d.o\n", u, u)
			if d == 27 && u == 3 {
				b.WriteString("util3.c:1:21: error: 'undefined_var' undeclared (first use in this function)\n")
			}
		}
		fmt.Fprintf(&b, "make[1]: Leaving directory '/src/sub%02d'\n", d)
	}
	ex := Condense(context.Background(), Request{Command: "make -k", Stdout: b.String()}, Options{}, testSavedPath)
	if !strings.Contains(ex.Stdout, "make[1]: Entering directory '/src/sub27'") {
		t.Errorf("the failing folder is not named:\n%s", ex.Stdout)
	}
	b.Reset()
	for f := range 120 {
		fmt.Fprintf(&b, "checking file pkg/file%03d.go\n", f)
		if f == 90 {
			b.WriteString("Hunk #1 FAILED at 7.\n1 out of 1 hunk FAILED\n")
		}
	}
	ex = Condense(context.Background(), Request{Command: "patch -p1 --dry-run < p.diff", Stdout: b.String()}, Options{}, testSavedPath)
	if !strings.Contains(ex.Stdout, "checking file pkg/file090.go\nHunk #1 FAILED at 7.") {
		t.Errorf("the failing file is not named:\n%s", ex.Stdout)
	}
}

// TestLargestEntriesKept: a listing of measures keeps its largest
// entries when the field is heavy-tailed (wc -l's biggest files), though
// their log-scale z-score is under the outlier cut-off.
func TestLargestEntriesKept(t *testing.T) {
	var b strings.Builder
	for i := range 600 {
		n := 20 + i*37%900
		switch i {
		case 100:
			n = 12898
		case 300:
			n = 12894
		case 500:
			n = 12696
		}
		fmt.Fprintf(&b, "%8d ./include/h%03d.h\n", n, i)
	}
	b.WriteString("  664172 total\n")
	ex := Condense(context.Background(), Request{Command: `wc -l $(find . -name "*.h")`, Stdout: b.String()}, Options{}, testSavedPath)
	for _, want := range []string{"   12898 ./include/h100.h", "   12894 ./include/h300.h", "   12696 ./include/h500.h", "  664172 total"} {
		if !strings.Contains(ex.Stdout, want) {
			t.Errorf("extract lacks %q:\n%s", want, ex.Stdout)
		}
	}
}
