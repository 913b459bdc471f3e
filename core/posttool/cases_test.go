package posttool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/compress"
)

var casesDir = testkit.SharedDir("tool-outputs")

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
	metas, err := filepath.Glob(filepath.Join(casesDir, "*", "meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no tool-output cases under %s", casesDir)
	}
	var out []toolCase
	for _, m := range metas {
		dir := filepath.Dir(m)
		c := toolCase{Name: filepath.Base(dir)}
		if c.Payload, err = os.ReadFile(filepath.Join(dir, "posttooluse.json")); err != nil {
			t.Fatal(err)
		}
		var p struct {
			ToolUseID string `json:"tool_use_id"`
			ToolInput struct {
				Command     string `json:"command"`
				Description string `json:"description"`
			} `json:"tool_input"`
			ToolResponse struct {
				Stdout      string `json:"stdout"`
				Stderr      string `json:"stderr"`
				Interrupted bool   `json:"interrupted"`
				IsImage     bool   `json:"isImage"`
			} `json:"tool_response"`
		}
		if err := json.Unmarshal(c.Payload, &p); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		c.ToolUse = p.ToolUseID
		c.Req = compress.Request{Command: p.ToolInput.Command, Description: p.ToolInput.Description,
			Stdout: p.ToolResponse.Stdout, Stderr: p.ToolResponse.Stderr,
			Interrupted: p.ToolResponse.Interrupted, IsImage: p.ToolResponse.IsImage}
		if c.FailData, err = os.ReadFile(filepath.Join(dir, "posttoolusefailure.json")); err == nil {
			c.HasFail = true
		}
		out = append(out, c)
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
