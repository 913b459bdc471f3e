package main

import (
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/bench"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

var tasksVault = testkit.SharedDir("corpora/obsidian/tasks-demo-vault")

// treeHash hashes every path and content under dir.
func treeHash(t *testing.T, dir string) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		h.Write([]byte(p))
		h.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func TestBenchCommand(t *testing.T) {
	isolate(t)
	t.Setenv("PATH", "/usr/bin:/bin") // grep, but no installed hooks
	before := treeHash(t, tasksVault)
	code, out := runCaptured(t, "bench", "--vault", tasksVault, "--edits", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if treeHash(t, tasksVault) != before {
		t.Fatal("bench modified the vault it measures")
	}
	notes := 0
	filepath.WalkDir(tasksVault, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != tasksVault && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			notes++
		}
		return nil
	})
	if rep.Files != notes || rep.Chunks == 0 || rep.Edits != 5 || rep.DBBytes == 0 || rep.Vectors {
		t.Errorf("files %d (want %d), chunks %d, edits %d, bytes %d, vectors %t",
			rep.Files, notes, rep.Chunks, rep.Edits, rep.DBBytes, rep.Vectors)
	}
	if rep.FullSeconds <= 0 || rep.NoChangeSeconds <= 0 || rep.EditedSeconds <= 0 {
		t.Errorf("index times: %+v", rep)
	}
	// bm25, vector, hybrid, then the process-level row (which needs an
	// installed vaultctx binary, absent under go test).
	if len(rep.Search) != 4 || rep.Search[0].Name != "bm25" || rep.Search[0].N != rep.Queries || rep.Queries != min(50, notes) {
		t.Fatalf("search rows %+v for %d queries", rep.Search, rep.Queries)
	}
	if p := rep.Search[3]; !strings.Contains(p.Name, "(process)") || (p.N == 0 && p.Note == "") {
		t.Errorf("process row: %+v", p)
	}
	for _, row := range rep.Search[1:3] {
		if row.N != 0 || !strings.Contains(row.Note, "no vectors") {
			t.Errorf("without a model, %s must be reported unavailable: %+v", row.Name, row)
		}
	}
	if len(rep.Hooks) != 3 || rep.Grep.N != rep.Queries {
		t.Errorf("hooks %+v, grep %+v", rep.Hooks, rep.Grep)
	}
}
