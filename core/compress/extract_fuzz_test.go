package compress

import (
	"context"
	"strings"
	"testing"
)

// FuzzCondense checks that any output gives an extract within budget that
// starts with the header, shows only verbatim lines of the output besides
// its own markers, is deterministic, and never panics.
func FuzzCondense(f *testing.F) {
	f.Add("ok  \tpkg\t0.1s\n", "", "go test ./...")
	f.Add("\x1b[31mFAIL\x1b[0m\r\n--- FAIL: TestX (0.00s)\n    x_test.go:3: bad\npanic: boom\n\ngoroutine 1 [running]:\nmain.f()\n\t/a/b.go:3 +0x1d\n", "error: x\n", "go test -v")
	f.Add(strings.Repeat("npm http fetch GET 200 https://r/x 12ms\n", 40), "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'k'\n", "npm i")
	f.Add("a.c:1:2: error: e\n    1 | x\n      | ^\n", strings.Repeat("\r 50%\r100%", 10), "gcc a.c")
	f.Fuzz(func(t *testing.T, stdout, stderr, command string) {
		req := Request{Command: command, Stdout: stdout, Stderr: stderr}
		opts := Options{ThresholdBytes: 1, BudgetTokens: 100, Scrub: func(s string) string { return s }}
		ex := Condense(context.Background(), req, opts, "/c/o.txt")
		header := headerLine(ex.Lines, len(stdout)+len(stderr), 0, "/c/o.txt", "")
		if !strings.HasPrefix(ex.Stdout, header+"\n") {
			t.Fatalf("extract does not start with the header: %q", ex.Stdout)
		}
		if n := len(ex.Stdout) + len(ex.Stderr); n > 400 && n > len(header)+1 {
			t.Fatalf("extract of %d bytes over a 400-byte budget", n)
		}
		if bad := notVerbatim(strings.TrimPrefix(ex.Stdout, header+"\n"), stdout, nil); len(bad) > 0 {
			t.Fatalf("stdout lines not in the output: %q", bad)
		}
		if bad := notVerbatim(ex.Stderr, stderr, nil); len(bad) > 0 {
			t.Fatalf("stderr lines not in the output: %q", bad)
		}
		if again := Condense(context.Background(), req, opts, "/c/o.txt"); again != ex {
			t.Fatal("not deterministic")
		}
	})
}
