package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/settings"
)

// TestStatusFreshness: status reports the files changed since the last
// index run, in JSON and in text, and that no refresh runs.
func TestStatusFreshness(t *testing.T) {
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	db := filepath.Join(dir, "index.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	status := func() statusReport {
		t.Helper()
		code, out := runCaptured(t, "status", "--db", db, "--json")
		if code != 0 {
			t.Fatalf("status: exit %d: %s", code, out)
		}
		var r statusReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("status --json: %v\n%s", err, out)
		}
		return r
	}
	if r := status(); r.Changed.Files != 0 || r.Refreshing || r.Changed.Error != "" || r.LastIndexTime == "" {
		t.Errorf("right after index: %+v", r)
	}
	if err := os.WriteFile(filepath.Join(vault, "garden.md"), []byte("# Garden\n\nTomatoes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := status()
	if r.Changed.Files != 1 || r.Changed.New != 1 || len(r.Changed.Examples) != 1 || r.Changed.Examples[0] != "garden.md" || r.Refreshing {
		t.Errorf("after adding garden.md: %+v", r.Changed)
	}
	if !strings.HasSuffix(r.RefreshLog, filepath.Join("state", "vaultctx", "refresh.log")) {
		t.Errorf("refresh log %q, want it under XDG_STATE_HOME", r.RefreshLog)
	}
	_, out := runCaptured(t, "status", "--db", db)
	if !strings.Contains(out, "changed since   1 file (1 new, 0 modified, 0 deleted): garden.md\n") || !strings.Contains(out, "refresh         not running: ") {
		t.Errorf("status text:\n%s", out)
	}
}

// TestStatusRefreshAdviceNamesDB: status --db F with changes pending said
// "or run `vaultctx index`", which, typed as shown, indexes the default
// index, not F. The advised run names --db F, and typed as shown it
// brings F up to date.
func TestStatusRefreshAdviceNamesDB(t *testing.T) {
	vaultctx, dir, vault := cliWithDemoVault(t, "vault")
	db := filepath.Join(dir, "other place", "notes.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	if err := os.WriteFile(filepath.Join(vault, "garden.md"), []byte("# Garden\n\nTomatoes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := runCaptured(t, "status", "--db", db)
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "refresh ") {
			line = l
		}
	}
	if !strings.Contains(line, "`vaultctx index --db "+settings.ShellQuote(db)+"`") {
		t.Fatalf("status --db with a change pending: %q; want the index run to name --db", line)
	}
	typed := advisedCommand(t, line) + " --no-model"
	if code, out := runAdvice(t, vaultctx, typed); code != 0 {
		t.Fatalf("the advised %q: exit %d\n%s", typed, code, out)
	}
	if _, out := runCaptured(t, "status", "--db", db); !strings.Contains(out, "changed since   nothing") {
		t.Errorf("status --db after the advised run:\n%s", out)
	}
}
