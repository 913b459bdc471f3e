package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestSessionStartRefresh: a note added before a session starts is found
// by the session's first prompt. A small change is indexed by the
// SessionStart hook itself; a large one (more than refresh.DefaultInlineFiles
// notes) is handed to a detached `vaultctx index --background`, after
// which the hook's next prompt finds the notes once that run is done.
func TestSessionStartRefresh(t *testing.T) {
	env := hooktest.NewEnv(t, false)
	binDir := t.TempDir()
	bin := hooktest.BuildAs(t, binDir, "vaultctx-userprompt", ".")
	hooktest.BuildAs(t, binDir, "vaultctx", "../../indexer")
	debugLog := filepath.Join(env.Dir, "hook.log")
	vars := append(env.Vars, "VAULTCTX_VAULT="+env.Vault, "VAULTCTX_LOG="+debugLog)
	start := []byte(`{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`)
	prompt := func(q string) string {
		r := hooktest.Run(t, bin, []byte(`{"session_id":"","hook_event_name":"UserPromptSubmit","prompt":"`+q+`"}`), vars)
		if r.Code != 0 || len(r.Stderr) != 0 {
			t.Fatalf("prompt: exit %d, stderr %q", r.Code, r.Stderr)
		}
		return string(r.Stdout)
	}
	sessionStart := func() {
		t.Helper()
		r := hooktest.Run(t, bin, start, vars)
		if r.Code != 0 || len(r.Stdout) != 0 || len(r.Stderr) != 0 {
			t.Fatalf("SessionStart: exit %d, stdout %q, stderr %q; want exit 0 and nothing", r.Code, r.Stdout, r.Stderr)
		}
	}
	lastAction := func() string {
		b, _ := os.ReadFile(debugLog)
		i := strings.LastIndex(string(b), "msg=\"index refresh\" action=")
		if i < 0 {
			return ""
		}
		rest := string(b)[i+len("msg=\"index refresh\" action="):]
		return rest[:strings.Index(rest, " reason=")]
	}

	sessionStart()
	if a := lastAction(); a != "fresh" {
		t.Errorf("SessionStart on a fresh index: action %s, want fresh", a)
	}

	// Small: indexed before the hook returns.
	garden := filepath.Join(env.Vault, "garden.md")
	if err := os.WriteFile(garden, []byte("# Tomato garden\n\nPlant the tomatoes after the last frost, in full sun, and stake them early.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sessionStart()
	if a := lastAction(); a != "indexed" {
		t.Errorf("SessionStart after one new note: action %s, want indexed", a)
	}
	if out := prompt("when should I plant the tomatoes in my garden?"); !strings.Contains(out, garden) {
		t.Errorf("the first prompt does not name %s:\n%s", garden, out)
	}

	// Large: handed off, and found once the background run is done.
	if err := os.MkdirAll(filepath.Join(env.Vault, "orchard"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 150 {
		body := fmt.Sprintf("# Orchard row %d\n\nThe quince trees of row %d need pruning in late winter.\n", i, i)
		if err := os.WriteFile(filepath.Join(env.Vault, "orchard", fmt.Sprintf("row-%03d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sessionStart()
	if a := lastAction(); a != `"handed off"` {
		t.Errorf("SessionStart after 150 new notes: action %s, want handed off", a)
	}
	want := filepath.Join(env.Vault, "orchard", "row-042.md")
	found := false
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end) && !found; time.Sleep(100 * time.Millisecond) {
		found = strings.Contains(prompt("when do the quince trees of orchard row 42 need pruning?"), want)
	}
	if !found {
		log, _ := os.ReadFile(filepath.Join(env.Dir, "state", "vaultctx", "refresh.log"))
		t.Fatalf("the background refresh never made %s searchable; refresh log:\n%s", want, log)
	}
	log, _ := os.ReadFile(filepath.Join(env.Dir, "state", "vaultctx", "refresh.log"))
	if !strings.Contains(string(log), "indexed=150") {
		t.Errorf("the refresh log does not record the 150 notes:\n%s", log)
	}
}
