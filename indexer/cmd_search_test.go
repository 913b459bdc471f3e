package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// runStderr runs the CLI with args and returns its exit code, stdout and
// stderr.
func runStderr(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	code, stdout = runCaptured(t, args...)
	w.Close()
	os.Stderr = old
	return code, stdout, string(<-done)
}

// An index built with one model and a config pointing at another model of
// the same dimension: hybrid search says so on stderr and answers with
// BM25 alone, as --mode bm25 does.
func TestSearchModelMismatch(t *testing.T) {
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, filepath.Join(testkit.SharedDir(), "corpora/edge"), vault)
	db := filepath.Join(dir, "index.db")
	modelA := filepath.Join(testkit.SharedDir(), "models/m2v-fixtures/float32")
	modelB := filepath.Join(testkit.SharedDir(), "models/m2v-fixtures/float16")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--model", modelA); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	const line = "vaultctx: vector search off: "
	code, _, stderr := runStderr(t, "search", "--db", db, "--json", "Get-ChildItem")
	if code != 0 || strings.Contains(stderr, line) {
		t.Fatalf("search with the index's model: exit %d, stderr %q", code, stderr)
	}

	t.Setenv("VAULTCTX_MODEL", modelB)
	code, hybrid, stderr := runStderr(t, "search", "--db", db, "--json", "Get-ChildItem")
	if code != 0 {
		t.Fatalf("hybrid search with another model: exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stderr, line) || !strings.Contains(stderr, "; answering with BM25 only\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line %q...; answering with BM25 only", stderr, line)
	}
	_, bm25, stderr := runStderr(t, "search", "--db", db, "--json", "--mode", "bm25", "Get-ChildItem")
	if stderr != "" {
		t.Errorf("bm25 search prints %q on stderr", stderr)
	}
	// The JSON scores differ (RRF against -bm25); the hits and their BM25
	// legs do not.
	if got, want := hitKeys(t, hybrid), hitKeys(t, bm25); got != want {
		t.Errorf("hybrid hits %s, want the BM25 hits %s", got, want)
	}
	if code, _, _ := runStderr(t, "search", "--db", db, "--mode", "vector", "Get-ChildItem"); code == 0 {
		t.Error("vector search with another model succeeds")
	}
}

// hitKeys lists the chunk id, BM25 rank and BM25 score of each hit of a
// `search --json` answer.
func hitKeys(t *testing.T, out string) string {
	t.Helper()
	var hits []jsonHit
	if err := json.Unmarshal([]byte(out), &hits); err != nil || len(hits) == 0 {
		t.Fatalf("search --json: %v: %q", err, out)
	}
	var b strings.Builder
	for _, h := range hits {
		if h.BM25Rank == nil || h.VecRank != nil {
			t.Fatalf("hit %d has legs bm25=%v vec=%v", h.ChunkID, h.BM25Rank, h.VecRank)
		}
		fmt.Fprintf(&b, "%d/%d/%v ", h.ChunkID, *h.BM25Rank, *h.BM25Score)
	}
	return b.String()
}
