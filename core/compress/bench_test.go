package compress

import (
	"context"
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
