package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestNoteWrittenIsIndexed: after Claude writes (Write), edits (Edit) or
// multi-edits a note inside the vault, the hook hands a refresh off and
// exits printing nothing; the note is then searchable. A file outside the
// vault, or inside it but no note under its rules, asks for nothing.
func TestNoteWrittenIsIndexed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vaultctx with cgo and indexes a vault")
	}
	// This package stays free of cgo (it is tested with CGO_ENABLED=0), so
	// the index and vaultctx come from a build, not from core/index.
	dir := t.TempDir()
	binDir := filepath.Join(dir, "bin")
	build := func(name, pkg string) string {
		bin := filepath.Join(binDir, name)
		cmd := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
		return bin
	}
	bin := build("vaultctx-posttooluse", ".")
	vaultctx := build("vaultctx", "../../indexer")
	env := struct{ Dir, Vault, DB string }{dir, filepath.Join(dir, "vault"), filepath.Join(dir, "data", "index.db")}
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), filepath.Join(env.Vault, "tasks"))
	vars := []string{
		"HOME=" + dir, "PATH=" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "VAULTCTX_HOOK_DEADLINE=60s",
		"VAULTCTX_DB=" + env.DB, "VAULTCTX_VAULT=" + env.Vault,
	}
	index := exec.Command(vaultctx, "index", "--no-model")
	index.Env = vars
	if out, err := index.CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	type result struct {
		Stdout, Stderr []byte
		Code           int
	}
	runHook := func(stdin []byte) result {
		cmd := exec.Command(bin)
		cmd.Stdin, cmd.Env = bytes.NewReader(stdin), vars
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		r := result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.Code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return r
	}
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
		r := runHook(payload(tool, path))
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
