package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestStatusListsChunklessNotes: a note that yields no chunk (here an
// empty one) is listed by status, in text and JSON; a short note is not,
// as it keeps a chunk.
func TestStatusListsChunklessNotes(t *testing.T) {
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.WriteTree(t, vault, map[string]string{
		"bob.md":   "# Bob Smith\n## Phone\n+1 555 0100\n",
		"empty.md": "---\ntags: [draft]\n---\n",
	})
	db := filepath.Join(dir, "index.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	code, out := runCaptured(t, "status", "--db", db)
	if code != 0 || !strings.Contains(out, "notes that yield no chunk, not searchable (1):\n  empty.md\n") || strings.Contains(out, "bob.md") {
		t.Errorf("status: exit %d, want empty.md listed alone:\n%s", code, out)
	}
	code, out = runCaptured(t, "status", "--db", db, "--json")
	var st struct {
		Chunkless  []string `json:"chunkless"`
		Unreadable []any    `json:"unreadable"`
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("status --json: exit %d, %v: %s", code, err, out)
	}
	if len(st.Chunkless) != 1 || st.Chunkless[0] != "empty.md" || st.Unreadable == nil {
		t.Errorf("status --json: chunkless %q, unreadable %v: %s", st.Chunkless, st.Unreadable, out)
	}
}
