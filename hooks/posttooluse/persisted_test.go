package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// persistedPayload writes an output of at least size bytes of real
// captured output, ending in a late error and a summary, to a file as
// Claude Code persists one, and returns the PostToolUse payload Claude
// Code 2.1.332 sends for it (docs/claude-code.md): the first 30,000
// bytes as stdout, the path and size.
func persistedPayload(tb testing.TB, size int) (payload, full []byte, path string) {
	tb.Helper()
	p := sizedPayload(tb, min(size, 1<<20))
	one := gjson.GetBytes(p, "tool_response.stdout").String() + gjson.GetBytes(p, "tool_response.stderr").String()
	var b bytes.Buffer
	for b.Len() < size {
		b.WriteString(one)
	}
	b.WriteString("FATAL late failure: disk quota exceeded while writing /var/cache/build/out.bin\n")
	b.WriteString("summary: 41 steps, 40 ok, 1 failed\n")
	full = b.Bytes()
	path = filepath.Join(tb.TempDir(), "tool-results", "b6cwj3vv9.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, full, 0o644); err != nil {
		tb.Fatal(err)
	}
	return payloadFor(tb, path, full, int64(len(full))), full, path
}

// payloadFor is the PostToolUse payload for an output full persisted at
// path, reporting size.
func payloadFor(tb testing.TB, path string, full []byte, size int64) []byte {
	tb.Helper()
	head := strings.TrimRight(strings.ToValidUTF8(string(full[:min(len(full), 30000)]), "\uFFFD"), "\n")
	b, err := json.Marshal(map[string]any{
		"session_id": "bench", "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_persisted",
		"tool_input": map[string]any{"command": "make check", "description": "Run the whole test suite"},
		"tool_response": map[string]any{"stdout": head, "stderr": "", "interrupted": false, "isImage": false,
			"noOutputExpected": false, "persistedOutputPath": path, "persistedOutputSize": size},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkPostToolUsePersisted16MB measures the hook from spawn to exit
// on a 16 MiB output Claude Code persisted: read the complete file,
// condense it, scrub and save it (see benchmarkHook for the metrics).
func BenchmarkPostToolUsePersisted16MB(b *testing.B) {
	p, _, _ := persistedPayload(b, 16<<20)
	benchmarkHook(b, p)
}

// BenchmarkPostToolUsePersisted64MB is BenchmarkPostToolUsePersisted16MB
// just under the 64 MiB cap (posttool.MaxPersistedBytes).
func BenchmarkPostToolUsePersisted64MB(b *testing.B) {
	p, _, _ := persistedPayload(b, 64<<20-1<<20)
	benchmarkHook(b, p)
}

// TestPersistedDefaultDeadline runs the binary on a 16 MiB persisted output
// with its default deadline (1.5 s): it exits 0 with either a complete
// extract of the whole file (late error and summary shown) or nothing,
// never a part. Which one depends on the machine's load; the benchmark
// above measures the time.
func TestPersistedDefaultDeadline(t *testing.T) {
	p, _, _ := persistedPayload(t, 16<<20)
	r := run(t, p)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	if len(r.stdout) == 0 {
		t.Logf("passed through (stderr %q)", r.stderr)
		return
	}
	ex := gjson.GetBytes(r.stdout, "hookSpecificOutput.updatedToolOutput.stdout").String()
	for _, want := range []string{"[vaultctx: Bash output condensed from ", "FATAL late failure", "summary: 41 steps"} {
		if !strings.Contains(ex, want) {
			t.Errorf("extract lacks %q:\n%s", want, ex)
		}
	}
}

// TestPersistedBadFiles: for a persisted path that cannot be read whole and
// safely, the binary exits 0 and prints nothing at all, so Claude Code's
// own preview and path reach the model.
func TestPersistedBadFiles(t *testing.T) {
	_, full, path := persistedPayload(t, 200<<10)
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.txt")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skipf("symlink: %v", err)
	}
	cases := []struct {
		name string
		p    []byte
	}{
		{"missing", payloadFor(t, filepath.Join(dir, "missing.txt"), full, int64(len(full)))},
		{"directory", payloadFor(t, dir, full, int64(len(full)))},
		{"symlink to /dev/zero", payloadFor(t, zero, full, int64(len(full)))},
		{"grown since measured", payloadFor(t, path, full, int64(len(full))-1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.p)
			if r.code != 0 || len(r.stdout) != 0 || len(r.stderr) != 0 {
				t.Errorf("exit %d, stdout %.200q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
			}
		})
	}
}
