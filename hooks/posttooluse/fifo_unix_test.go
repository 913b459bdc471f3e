//go:build unix

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tidwall/gjson"
)

// TestFIFOTranscript: a FIFO given as transcript_path (nobody writes to
// it) must not hold the hook until its deadline: it still answers with the
// extract, ranked without a prompt.
func TestFIFOTranscript(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(payload(t, "go_test_fail_panic_a"), &m); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = fifo
	p, _ := json.Marshal(m)
	r := run(t, p)
	if r.code != 0 || len(r.stderr) != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	out := gjson.GetBytes(r.stdout, "hookSpecificOutput.updatedToolOutput.stdout").String()
	if !strings.HasPrefix(out, "[vaultctx: Bash output condensed") || !strings.Contains(out, "--- FAIL") {
		t.Fatalf("no extract with a FIFO transcript: %.300q", r.stdout)
	}
}
