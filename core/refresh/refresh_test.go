package refresh

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// setup indexes a copy of the Obsidian demo vault (BM25 only) and returns
// its config, and Options whose hand-off runs a script that records its
// command line in the returned file instead of indexing: the decision is
// under test here; hooks/userprompt runs the real background refresh.
func setup(t *testing.T) (config.Config, Options, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := config.Defaults()
	cfg.Vault, cfg.DB = filepath.Join(dir, "vault"), filepath.Join(dir, "data", "index.db")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), cfg.Vault)
	if _, err := index.Run(context.Background(), indexOptions(cfg, nil)); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, "handed-off")
	bin := filepath.Join(dir, "vaultctx")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho \"$@\" >> '"+record+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	return cfg, Options{Binary: bin, Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}, record
}

func handedOff(t *testing.T, record string) string {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(record); err == nil && len(b) > 0 {
			return string(b)
		}
	}
	return ""
}

func addNotes(t *testing.T, cfg config.Config, n int) {
	t.Helper()
	dir := filepath.Join(cfg.Vault, "added")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf("# Added %d\n\nA note about pruning quince tree number %d.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%03d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAtSessionStart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	t.Run("fresh, then a small change inline", func(t *testing.T) {
		cfg, o, record := setup(t)
		if out, err := AtSessionStart(ctx, cfg, o); err != nil || out.Action != Fresh {
			t.Fatalf("fresh index: %+v, %v", out, err)
		}
		addNotes(t, cfg, 3)
		out, err := AtSessionStart(ctx, cfg, o)
		if err != nil || out.Action != Indexed || out.Summary.FilesIndexed != 3 || out.Changes.New != 3 {
			t.Fatalf("3 new notes: %+v, %v; want indexed inline", out, err)
		}
		if again, err := AtSessionStart(ctx, cfg, o); err != nil || again.Action != Fresh {
			t.Errorf("after the inline run: %+v, %v", again, err)
		}
		if _, err := os.Stat(record); err == nil {
			t.Error("a small change was handed off")
		}
	})

	t.Run("a large change is handed off", func(t *testing.T) {
		cfg, o, record := setup(t)
		o.InlineFiles = 10
		addNotes(t, cfg, 11)
		out, err := AtSessionStart(ctx, cfg, o)
		if err != nil || out.Action != HandedOn || out.Changes.New != 11 || out.Summary.FilesIndexed != 0 {
			t.Fatalf("11 new notes, 10 inline at most: %+v, %v", out, err)
		}
		got := handedOff(t, record)
		want := fmt.Sprintf("index --background --vault %s --db %s\n", cfg.Vault, cfg.DB)
		if got != want {
			t.Errorf("background command %q, want %q", got, want)
		}
	})

	t.Run("a few large notes are handed off", func(t *testing.T) {
		cfg, o, record := setup(t)
		big := "# Big\n\n" + strings.Repeat("A long paragraph of a large note, to be read and chunked. ", 6000)
		if err := os.WriteFile(filepath.Join(cfg.Vault, "big.md"), []byte(big), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := AtSessionStart(ctx, cfg, o)
		if err != nil || out.Action != HandedOn || out.Summary.FilesIndexed != 0 || !strings.Contains(out.Reason, "bytes") {
			t.Fatalf("one %d-byte note, %d inline at most: %+v, %v", len(big), DefaultInlineBytes, out, err)
		}
		if handedOff(t, record) == "" {
			t.Error("nothing started")
		}
	})

	t.Run("no time left is handed off", func(t *testing.T) {
		cfg, o, record := setup(t)
		addNotes(t, cfg, 1)
		short, cancel := context.WithTimeout(ctx, DefaultMargin)
		defer cancel()
		if out, err := AtSessionStart(short, cfg, o); err != nil || out.Action != HandedOn {
			t.Fatalf("deadline within the margin: %+v, %v", out, err)
		}
		if handedOff(t, record) == "" {
			t.Error("nothing started")
		}
	})

	t.Run("another indexer holds the index", func(t *testing.T) {
		cfg, o, record := setup(t)
		addNotes(t, cfg, 1)
		// A live process's pid in the lock file, as an indexer leaves it.
		if err := os.WriteFile(cfg.DB+".lock", []byte(fmt.Sprint(os.Getpid())), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := AtSessionStart(ctx, cfg, o)
		if err != nil || out.Action != HandedOn || out.Changes.Files() != 0 || !strings.Contains(out.Reason, "holds the index") {
			t.Fatalf("locked index: %+v, %v; want a hand-off without a walk", out, err)
		}
		if handedOff(t, record) == "" {
			t.Error("nothing started")
		}
	})

	// The README's set-up without the installer writes no config: the
	// vault is the one the index records, for the inline run and for the
	// hand-off (a fresh user's report: it did nothing while status said
	// the next session start would refresh).
	t.Run("no vault configured: the index's", func(t *testing.T) {
		cfg, o, record := setup(t)
		o.InlineFiles = 10
		bare := cfg
		bare.Vault = ""
		addNotes(t, cfg, 3)
		out, err := AtSessionStart(ctx, bare, o)
		if err != nil || out.Action != Indexed || out.Summary.FilesIndexed != 3 {
			t.Fatalf("3 new notes, no vault configured: %+v, %v; want indexed inline", out, err)
		}
		if r, err := Check(ctx, bare, o.Getenv); err != nil || r.Changes.Files() != 0 {
			t.Errorf("Check after the run, no vault configured: %+v, %v", r, err)
		}
		addNotes(t, cfg, 11)
		if out, err := AtSessionStart(ctx, bare, o); err != nil || out.Action != HandedOn {
			t.Fatalf("11 more notes, no vault configured: %+v, %v; want a hand-off", out, err)
		}
		want := fmt.Sprintf("index --background --vault %s --db %s\n", cfg.Vault, cfg.DB)
		if got := handedOff(t, record); got != want {
			t.Errorf("background command %q, want %q", got, want)
		}
	})

	t.Run("no vault or no index", func(t *testing.T) {
		cfg, o, _ := setup(t)
		none := cfg
		none.Vault = ""
		none.DB = filepath.Join(t.TempDir(), "none.db")
		if out, err := AtSessionStart(ctx, none, o); err != nil || out.Action != NoIndex {
			t.Errorf("no vault, no index: %+v, %v", out, err)
		}
		none = cfg
		none.DB = filepath.Join(t.TempDir(), "none.db")
		if out, err := AtSessionStart(ctx, none, o); err != nil || out.Action != NoIndex {
			t.Errorf("no index: %+v, %v", out, err)
		}
		if _, err := os.Stat(none.DB); err == nil {
			t.Error("AtSessionStart created an index")
		}
	})
}

// TestBackground: the background run indexes what changed, and a second
// one started while it runs returns at once.
func TestBackground(t *testing.T) {
	cfg, _, _ := setup(t)
	addNotes(t, cfg, 20)
	runs, err := Background(context.Background(), cfg, nil, nil)
	if err != nil || runs != 1 {
		t.Fatalf("Background = %d runs, %v", runs, err)
	}
	r, err := Check(context.Background(), cfg, func(string) string { return "" })
	if err != nil || r.Changes.Files() != 0 || r.Refreshing() {
		t.Errorf("after the background run: %+v, %v", r, err)
	}
}
