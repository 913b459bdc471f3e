package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/store"
)

// isolateCLI points every config, data and cache directory into a temp dir.
// cliWithDemoVault builds the vaultctx binary (before isolateCLI moves
// Go's build cache), isolates the CLI in a fresh folder (isolateCLI) and
// copies the tasks demo vault of ../shared into its subfolder name. It
// returns the binary, the folder and the vault.
func cliWithDemoVault(t *testing.T, name string) (vaultctx, dir, vault string) {
	t.Helper()
	vaultctx = hooktest.BuildAs(t, t.TempDir(), "vaultctx", ".")
	dir = isolateCLI(t)
	vault = filepath.Join(dir, name)
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	return vaultctx, dir, vault
}

func isolateCLI(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	for _, k := range []string{"VAULTCTX_CONFIG", "VAULTCTX_DB", "VAULTCTX_VAULT", "VAULTCTX_MODEL"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	return dir
}

// The whole CLI on real notes: index, search (human and JSON), status,
// incremental re-index, and the usage errors a new user meets first.
func TestIndexSearchStatusEndToEnd(t *testing.T) {
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), filepath.Join(vault, "tasks"))
	testkit.CopyTree(t, testkit.Shared(t, "corpora/edge"), filepath.Join(vault, "edge"))
	db := filepath.Join(dir, "index.db")
	model := testkit.Shared(t, "models/glove-120k")

	if code, _ := runCaptured(t, "search", "--db", db, "anything"); code != 1 {
		t.Errorf("search before index: exit %d, want 1", code)
	}
	if code, _ := runCaptured(t, "index", "--db", db); code != 2 {
		t.Errorf("index without a vault: exit %d, want 2 (usage)", code)
	}

	code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--model", model, "--json")
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("index --json: %v\n%s", err, out)
	}
	for _, k := range []string{"files_indexed", "files_unchanged", "files_deleted", "files_skipped", "chunks", "seconds"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("index --json lacks %q: %s", k, out)
		}
	}
	if sum["files_indexed"].(float64) == 0 || sum["chunks"].(float64) == 0 {
		t.Fatalf("nothing indexed: %s", out)
	}

	code, out = runCaptured(t, "search", "--db", db, "--mode", "hybrid", "--json", "-k", "5", "recurring", "tasks")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, out)
	}
	var hits []map[string]any
	if err := json.Unmarshal([]byte(out), &hits); err != nil || len(hits) == 0 {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	for _, k := range []string{"path", "section", "heading_context", "text", "score", "chunk_id", "bm25_rank", "vec_rank"} {
		if _, ok := hits[0][k]; !ok {
			t.Errorf("search --json lacks %q", k)
		}
	}
	if len(hits) > 5 {
		t.Errorf("-k 5 returned %d hits", len(hits))
	}

	// The note's own **bold** must not collide with the match markers.
	if code, out := runCaptured(t, "search", "--db", db, "--mode", "bm25", "tasks toggle"); code != 0 || strings.Contains(out, "****") {
		t.Errorf("search 'tasks toggle': exit %d, markers collide with the note's bold:\n%s", code, out)
	}
	if code, out := runCaptured(t, "search", "--db", db, "  "); code != 2 {
		t.Errorf("search with an empty query: exit %d, want 2 (usage): %s", code, out)
	}
	if code, out := runCaptured(t, "search", "--db", db, "--max-tokens", "20", "recurring tasks"); code != 0 || strings.Contains(out, "no results") {
		t.Errorf("search with a small --max-tokens: exit %d, want the first hit cut: %s", code, out)
	}

	code, out = runCaptured(t, "search", "--db", db, "--mode", "hybrid", "--explain", "recurring tasks")
	if code != 0 || !strings.Contains(out, "vec_available=true") || !strings.Contains(out, "bm25_rank=") || !strings.Contains(out, "vec_rank=") {
		t.Errorf("search --explain: exit %d\n%s", code, out)
	}
	for _, q := range []string{`"`, `NEAR(`, `-`, `AND OR NOT`, `*:`} {
		if code, out := runCaptured(t, "search", "--db", db, "--mode", "bm25", q); code != 0 {
			t.Errorf("search %q: exit %d: %s", q, code, out)
		}
	}

	code, out = runCaptured(t, "status", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, out)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st["vec_available"] != true || st["files"].(float64) == 0 || st["schema_version"] != fmt.Sprint(store.SchemaVersion) {
		t.Errorf("status: %s", out)
	}
	if probs, _ := st["problems"].([]any); len(probs) == 0 {
		t.Errorf("status shows no parse problems for the edge corpus: %s", out)
	}

	code, out = runCaptured(t, "index", "--vault", vault, "--db", db, "--json")
	if code != 0 {
		t.Fatalf("re-index: exit %d: %s", code, out)
	}
	var again map[string]any
	json.Unmarshal([]byte(out), &again)
	if again["files_indexed"].(float64) != 0 || again["files_unchanged"] != sum["files_indexed"] {
		t.Errorf("no-change re-index: %s", out)
	}
	if code, out := runCaptured(t, "search", "--db", db, "--mode", "vector", "recurring tasks"); code != 0 {
		t.Errorf("vector search finds the model from the index alone: exit %d: %s", code, out)
	}
}
