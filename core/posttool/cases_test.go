package posttool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/compress"
)

// capturedDir holds core/compress's captured outputs (cargo, unittest,
// node --test, make), stored as files; the 1 MB benchmark mixes them in as
// core/compress's own benchmarks do.
const capturedDir = "../compress/testdata/captured"

// toolCase is one captured Bash run from ../shared/tool-outputs, as its
// PostToolUse payload.
type toolCase struct {
	Name     string
	Payload  []byte
	Req      compress.Request
	ToolUse  string
	HasFail  bool
	FailData []byte
}

func loadCases(t testing.TB) []toolCase {
	t.Helper()
	var out []toolCase
	for _, o := range testkit.ToolOutputs(t) {
		out = append(out, toolCase{Name: o.Name, Payload: o.Payload, ToolUse: o.ToolUseID,
			Req: compress.Request{Command: o.Command, Description: o.Description, Stdout: o.Stdout, Stderr: o.Stderr,
				Interrupted: o.Interrupted, IsImage: o.IsImage},
			HasFail: o.Failure != nil, FailData: o.Failure})
	}
	return out
}

// megabyteRequest builds a 1 MB Bash result from the real captured outputs
// (test runs, compiler errors, logs, file lists, progress), repeated: the
// same request as core/compress's benchmarks.
func megabyteRequest(tb testing.TB) compress.Request {
	tb.Helper()
	type stream struct{ name, stdout, stderr string }
	var cases []stream
	for _, c := range loadCases(tb) {
		cases = append(cases, stream{c.Name, c.Req.Stdout, c.Req.Stderr})
	}
	metas, _ := filepath.Glob(filepath.Join(capturedDir, "*", "meta.json"))
	if len(metas) == 0 {
		tb.Fatal("no captured cases")
	}
	for _, m := range metas {
		dir := filepath.Dir(m)
		read := func(name string) string {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				tb.Fatal(err)
			}
			return string(b)
		}
		cases = append(cases, stream{filepath.Base(dir), read("stdout"), read("stderr")})
	}
	var out, errOut strings.Builder
	for out.Len()+errOut.Len() < 1<<20 {
		for _, c := range cases {
			if c.name == "long_single_line" || c.name == "binary_elf_head" {
				continue
			}
			out.WriteString(c.stdout)
			errOut.WriteString(c.stderr)
		}
	}
	return compress.Request{Command: "make check", Description: "Run the whole test suite", Prompt: "why does the calc test panic?",
		Stdout: out.String(), Stderr: errOut.String()}
}
