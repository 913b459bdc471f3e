package posttool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// deepNest is how deep a transcript line's test field nests: ten times
// hookio.MaxDepth, and with its closers 200 KB, well inside the 1 MiB
// tail LatestPrompt reads (which holds at most a million levels, far below
// the 6 million at which gjson's validator overflows its stack).
const deepNest = 10 * hookio.MaxDepth

func TestLatestPrompt(t *testing.T) {
	example := testkit.SharedDir("hook-payloads/transcript-example.jsonl")
	if got := LatestPrompt(example); got != "Why does the build fail on the linker step?" {
		t.Errorf("example transcript: got %q", got)
	}
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, content, want string }{
		{"missing", "", ""},
		{"partial last line", string(data) + `{"type":"user","message":{"content":"cut off`, "Why does the build fail on the linker step?"},
		{"text blocks", `{"type":"user","message":{"content":[{"type":"text","text":"first"},{"type":"image"},{"type":"text","text":"second"}]}}`, "first\nsecond"},
		{"meta skipped", `{"type":"user","message":{"content":"real"}}` + "\n" + `{"type":"user","isMeta":true,"message":{"content":"caveat"}}`, "real"},
		{"odd shapes", `{"type":"user","message":{"content":42}}` + "\n" + `[1,2]` + "\n" + `not json` + "\n" + `{"type":"user","message":null}`, ""},
		{"no trailing newline", `{"type":"user","message":{"content":"last"}}`, "last"},
		{"blank lines", "\n\n" + `{"type":"user","message":{"content":"x y"}}` + "\n\n\n", "x y"},
		// A user turn carrying a field nested past hookio.MaxDepth (issue
		// 17): the line is skipped like one that is not JSON, before any
		// gjson call, and the prompt before it is the latest.
		{"nested past the depth bound", `{"type":"user","message":{"content":"real"}}` + "\n" +
			`{"type":"user","message":{"content":"deep"},"x":` + strings.Repeat("[", deepNest) + strings.Repeat("]", deepNest) + `}`, "real"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "none.jsonl")
			if c.name != "missing" {
				path = writeFile(t, "t.jsonl", c.content)
			}
			if got := LatestPrompt(path); got != c.want {
				t.Errorf("LatestPrompt = %q, want %q", got, c.want)
			}
		})
	}
	if LatestPrompt("") != "" || LatestPrompt(t.TempDir()) != "" {
		t.Error("empty path or a directory must give no prompt")
	}
}

func TestLatestPromptReadsOnlyTail(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"user","message":{"content":"old prompt"}}` + "\n")
	filler := `{"type":"assistant","message":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1000) + `"}]}}` + "\n"
	for b.Len() < 2*transcriptTail {
		b.WriteString(filler)
	}
	b.WriteString(`{"type":"user","message":{"content":"new prompt"}}` + "\n")
	b.WriteString(`{"type":"user","message":{"content":[{"type":"tool_result","content":"..."}]}}` + "\n")
	path := writeFile(t, "big.jsonl", b.String())
	if got := LatestPrompt(path); got != "new prompt" {
		t.Fatalf("got %q", got)
	}
	// The old prompt is beyond the tail: a transcript without a recent
	// prompt gives none rather than reading the whole file.
	path = writeFile(t, "old.jsonl", b.String()[:strings.Index(b.String(), `{"type":"user","message":{"content":"new`)])
	if got := LatestPrompt(path); got != "" {
		t.Fatalf("got %q from beyond the tail", got)
	}
}
