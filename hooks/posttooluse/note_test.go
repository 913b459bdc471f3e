package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestNoteWrittenIsIndexed: after Claude writes (Write), edits (Edit) or
// multi-edits a note inside the vault, the hook hands a refresh off and
// exits printing nothing; the note is then searchable. A file outside the
// vault, or inside it but no note under its rules, asks for nothing.
func TestNoteWrittenIsIndexed(t *testing.T) {
	env := hooktest.NewEnv(t, false)
	binDir := t.TempDir()
	bin := hooktest.BuildAs(t, binDir, "vaultctx-posttooluse", ".")
	vaultctx := hooktest.BuildAs(t, binDir, "vaultctx", "../../indexer")
	vars := append(env.Vars, "VAULTCTX_VAULT="+env.Vault)
	payload := func(tool, path string) []byte {
		b, err := json.Marshal(map[string]any{
			"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": tool, "cwd": env.Dir,
			"tool_input":    map[string]any{"file_path": path, "content": "x"},
			"tool_response": map[string]any{"filePath": path, "success": true},
		})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	request := env.DB + ".refresh"
	run := func(tool, path string) {
		t.Helper()
		r := hooktest.Run(t, bin, payload(tool, path), vars)
		if r.Code != 0 || len(r.Stdout) != 0 || len(r.Stderr) != 0 {
			t.Fatalf("%s %s: exit %d, stdout %q, stderr %q; want exit 0 and nothing", tool, path, r.Code, r.Stdout, r.Stderr)
		}
	}
	search := func(q string) string {
		cmd := exec.Command(vaultctx, "search", "--mode", "bm25", "--", q)
		cmd.Env = vars
		out, _ := cmd.CombinedOutput()
		return string(out)
	}

	// Not notes of the vault: no request.
	outside := filepath.Join(env.Dir, "elsewhere.md")
	ignored := filepath.Join(env.Vault, ".obsidian", "workspace.md")
	for _, p := range []string{outside, ignored, filepath.Join(env.Vault, "notes.txt")} {
		run("Write", p)
	}
	run("Read", filepath.Join(env.Vault, "cpp-text", "x.md"))
	if _, err := os.Stat(request); err == nil {
		t.Fatal("a refresh was requested for a file that is no note of the vault")
	}

	cases := []struct{ tool, rel, word string }{
		{"Write", "journal/quince.md", "quinces"},
		{"Edit", "journal/quince.md", "medlars"},
		{"MultiEdit", "journal/quince.md", "loquats"},
	}
	for _, c := range cases {
		note := filepath.Join(env.Vault, filepath.FromSlash(c.rel))
		if err := os.MkdirAll(filepath.Dir(note), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(note, []byte("# Fruit\n\nThe "+c.word+" ripen in October, after the first frost.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// The relative path form Claude Code may send is taken against cwd.
		path := note
		if c.tool == "Edit" {
			path, _ = filepath.Rel(env.Dir, note)
		}
		run(c.tool, path)
		found := false
		for end := time.Now().Add(time.Minute); time.Now().Before(end) && !found; time.Sleep(100 * time.Millisecond) {
			found = strings.Contains(search(c.word+" ripen"), c.rel)
		}
		if !found {
			log, _ := os.ReadFile(filepath.Join(env.Dir, "state", "vaultctx", "refresh.log"))
			t.Fatalf("%s: %s never became searchable for %q; refresh log:\n%s", c.tool, c.rel, c.word, log)
		}
	}
}
