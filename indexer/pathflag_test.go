package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/alecthomas/kong"
)

// TestEmptyPathFlagRefused: an empty --vault (an unset shell variable) is a
// usage error, not the current directory: run from a folder of notes, the
// index stays unwritten. A path flag still expands "." and "~".
func TestEmptyPathFlagRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.md"), []byte("# A note\n\nwords\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VAULTCTX_CONFIG", cfg)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	db := filepath.Join(t.TempDir(), "x.db")
	if code := run([]string{"index", "--vault", "", "--db", db, "--no-model"}); code != exitUsage {
		t.Errorf("index --vault \"\": exit %d, want %d", code, exitUsage)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("index --vault \"\" wrote %s (%v)", db, err)
	}
	if code := run([]string{"index", "--vault", ".", "--db", db, "--no-model"}); code != 0 {
		t.Errorf("index --vault .: exit %d, want 0", code)
	}
	var c struct {
		P string `type:"path"`
	}
	k, err := kong.New(&c, kong.NamedMapper("path", pathMapper{}))
	if err != nil {
		t.Fatal(err)
	}
	// "~" is $HOME, as in the config file, even when the user database
	// names another home folder.
	t.Setenv("HOME", t.TempDir())
	if _, err := k.Parse([]string{"--p", "~/notes"}); err != nil || c.P != filepath.Join(os.Getenv("HOME"), "notes") {
		t.Errorf("--p ~/notes: %q, %v; want $HOME/notes", c.P, err)
	}
}
