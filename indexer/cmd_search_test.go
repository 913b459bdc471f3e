package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/internal/hooktest"
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

// searchJSON runs `vaultctx search --json` with args and decodes it.
func searchJSON(t *testing.T, args ...string) []jsonHit {
	t.Helper()
	code, out, stderr := runStderr(t, append([]string{"search", "--json"}, args...)...)
	var hits []jsonHit
	if err := json.Unmarshal([]byte(out), &hits); code != 0 || err != nil {
		t.Fatalf("search --json %q: exit %d, %v: %s%s", args, code, err, out, stderr)
	}
	return hits
}

// On five versions of the PowerShell Management docs, where one section
// is copied up to five times: `search` shows each copy once with the notes
// it is also in, no top 10 holds two near-duplicates (collapsing it again
// folds nothing), and the top 10 stays 10 hits; --all-copies shows the
// copies one by one, as before.
func TestSearchCollapsesNearDuplicates(t *testing.T) {
	isolateCLI(t)
	env := hooktest.NewEnvWith(t, true, hooktest.PowerShellVersions...)
	t.Setenv("VAULTCTX_MODEL", testkit.Shared(t, "models/glove-120k"))
	const gci = "/Microsoft.PowerShell.Management/Get-ChildItem.md"
	for _, q := range []string{"Get-ChildItem syntax", "Get-ChildItem -Recurse -Depth", "copy an item to another location",
		"registry key property value", "stop a service on a remote computer", "test whether a path exists"} {
		t.Run(q, func(t *testing.T) {
			hits := searchJSON(t, "--db", env.DB, "--", q)
			if len(hits) != 10 {
				t.Fatalf("%d hits, want 10", len(hits))
			}
			shown := make([]retrieve.Hit, len(hits))
			folded := 0
			for i, h := range hits {
				shown[i] = retrieve.Hit{ChunkID: h.ChunkID, Path: h.Path, Text: h.Text}
				folded += len(h.AlsoIn)
			}
			if again := retrieve.Collapse(shown); len(again) != len(shown) {
				for _, h := range again {
					for _, d := range h.AlsoIn {
						t.Errorf("%s § and %s hold near-duplicate texts", h.Path, d.Path)
					}
				}
			}
			if folded == 0 {
				t.Error("no copy folded: the query does not test collapsing")
			}
			all := searchJSON(t, "--db", env.DB, "--all-copies", "--", q)
			for _, h := range all {
				if h.AlsoIn != nil {
					t.Errorf("--all-copies: %s has also_in %v", h.Path, h.AlsoIn)
				}
			}
		})
	}

	hits := searchJSON(t, "--db", env.DB, "Get-ChildItem", "syntax")
	var syntax []string
	for _, h := range hits {
		if h.Section == "SYNTAX" && strings.HasSuffix(h.Path, gci) {
			line := h.Path + ":"
			for _, d := range h.AlsoIn {
				line += " " + d.Path
			}
			syntax = append(syntax, line)
		}
	}
	want := []string{"ps/7.4" + gci + ": ps/7.5" + gci + " ps/7.6" + gci + " ps/7.7" + gci, "ps/5.1" + gci + ":"}
	if strings.Join(syntax, "\n") != strings.Join(want, "\n") {
		t.Errorf("SYNTAX hits of Get-ChildItem, with also_in:\n%s\nwant\n%s", strings.Join(syntax, "\n"), strings.Join(want, "\n"))
	}
	_, text := runCaptured(t, "search", "--db", env.DB, "Get-ChildItem", "syntax")
	wantLine := "    also in 3 notes: ps/7.5" + gci + ", ps/7.6" + gci + ", ps/7.7" + gci + "\n"
	if !strings.Contains(text, "ps/7.4"+gci+" § SYNTAX\n"+wantLine) {
		t.Errorf("search output lacks %q under the 7.4 SYNTAX hit:\n%s", wantLine, text)
	}
	all := searchJSON(t, "--db", env.DB, "--all-copies", "Get-ChildItem", "syntax")
	n := 0
	for _, h := range all {
		if h.Section == "SYNTAX" && strings.HasSuffix(h.Path, gci) {
			n++
		}
	}
	if n != 5 {
		t.Errorf("--all-copies shows %d SYNTAX sections of Get-ChildItem, want all 5", n)
	}
}

// TestSearchEmptyIndex is the fault campaign's case (issue 17) through
// the CLI: the index of a vault without notes answered a query of two
// words with "corrupt FTS5 averages record" and exit 1. Every query form,
// in every mode the index supports, finds nothing with exit 0 and nothing
// on stderr, for an index made without a model and with one.
func TestSearchEmptyIndex(t *testing.T) {
	for _, tc := range []struct {
		name  string
		index []string // extra index flags
		modes []string
	}{
		{"bm25 only", []string{"--no-model"}, []string{"bm25", "hybrid"}},
		{"with a model", []string{"--model", filepath.Join(testkit.SharedDir(), "models/m2v-fixtures/float32")}, []string{"bm25", "hybrid", "vector"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := isolateCLI(t)
			vault := filepath.Join(dir, "vault")
			if err := os.Mkdir(vault, 0o755); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "index.db")
			if code, out, stderr := runStderr(t, append([]string{"index", "--vault", vault, "--db", db}, tc.index...)...); code != 0 {
				t.Fatalf("index of an empty vault: exit %d: %s%s", code, out, stderr)
			}
			for _, mode := range tc.modes {
				for _, q := range []string{"alpha", "alpha bravo", "alpha OR bravo charlie", `"alpha bravo"`} {
					code, out, stderr := runStderr(t, "search", "--db", db, "--mode", mode, q)
					// Nothing on stderr: no "corrupt ...", no "vector search off".
					if code != 0 || out != "no results\n" || stderr != "" {
						t.Errorf("search --mode %s %q: exit %d, stdout %q, stderr %q; want exit 0, \"no results\" and nothing on stderr", mode, q, code, out, stderr)
					}
				}
				code, out, stderr := runStderr(t, "search", "--db", db, "--mode", mode, "--json", "alpha bravo")
				if code != 0 || strings.TrimSpace(out) != "[]" || stderr != "" {
					t.Errorf("search --mode %s --json: exit %d, stdout %q, stderr %q; want exit 0 and []", mode, code, out, stderr)
				}
			}
		})
	}
}
