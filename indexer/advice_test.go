package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/settings"
)

// damageHeader writes 00 00 00 09 at offset 44 of the file at db, the
// fault campaign's damage (a schema format number SQLite does not know).
func damageHeader(t *testing.T, db string) {
	t.Helper()
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte{0, 0, 0, 9}, 44); err != nil {
		t.Fatal(err)
	}
}

// hintLine returns the last stderr line of a failed command, its hint,
// without the "vaultctx: " lead.
func hintLine(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	return strings.TrimPrefix(lines[len(lines)-1], "vaultctx: ")
}

// advisedCommand returns the command between the first pair of
// backquotes of a hint.
func advisedCommand(t *testing.T, hint string) string {
	t.Helper()
	_, rest, ok := strings.Cut(hint, "`")
	cmd, _, ok2 := strings.Cut(rest, "`")
	if !ok || !ok2 {
		t.Fatalf("no command in backquotes in the hint %q", hint)
	}
	return cmd
}

// TestAdviceWithoutVault: with no config file and an index too damaged to
// say which vault it holds, search and status advised `vaultctx index
// --full`, which stops at once for want of a vault ("no vault to index").
// They name the vault flag the user must fill in, as doctor does (one
// owner of the advice), with the --db they were given; that command, so
// filled in, rebuilds the index. The same holds for an index that is not
// there yet.
func TestAdviceWithoutVault(t *testing.T) {
	vaultctx := hooktest.BuildAs(t, t.TempDir(), "vaultctx", ".") // before isolateCLI moves Go's build cache
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	const placeholder = "<your vault>"
	fill := func(cmd string) string {
		return strings.Replace(cmd, placeholder, settings.ShellQuote(vault), 1) + " --no-model"
	}
	for _, tc := range []struct {
		name string
		db   string // --db given, "" for none
	}{
		{"default index", ""},
		{"--db", filepath.Join(dir, "other place", "notes.db")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, flag := tc.db, []string{}
			if db == "" {
				db = config.DefaultDB(os.Getenv)
			} else {
				flag = []string{"--db", db}
			}
			// No index yet: the advised first run names the vault and the
			// index.
			code, _, stderr := runStderr(t, append(append([]string{"search"}, flag...), "tasks")...)
			hint := hintLine(stderr)
			if code != 1 || !strings.Contains(hint, "--vault "+placeholder) {
				t.Fatalf("search before any index: exit %d, hint %q; want exit 1 and a run naming --vault %s", code, hint, placeholder)
			}
			if tc.db != "" && !strings.Contains(hint, "--db "+settings.ShellQuote(db)) {
				t.Errorf("search --db before any index: hint %q does not name the index", hint)
			}
			if code, out := runAdvice(t, vaultctx, fill(advisedCommand(t, hint))); code != 0 {
				t.Fatalf("the advised %q: exit %d\n%s", advisedCommand(t, hint), code, out)
			}
			damageHeader(t, db)
			for _, cmd := range [][]string{{"search", "tasks"}, {"status"}} {
				args := append(append([]string{cmd[0]}, flag...), cmd[1:]...)
				code, _, stderr := runStderr(t, args...)
				hint := hintLine(stderr)
				if code != 1 || !strings.Contains(hint, "vaultctx index --full") {
					t.Fatalf("%s on the damaged index: exit %d, stderr:\n%s\nwant exit 1 and the full run", cmd[0], code, stderr)
				}
				if !strings.Contains(hint, "--vault "+placeholder) {
					t.Errorf("%s on the damaged index, no vault known: hint %q does not name the vault flag", cmd[0], hint)
				}
				if tc.db != "" && !strings.Contains(hint, "--db "+settings.ShellQuote(db)) {
					t.Errorf("%s --db on the damaged index: hint %q does not name the index", cmd[0], hint)
				}
				typed := fill(advisedCommand(t, hint))
				if code, out := runAdvice(t, vaultctx, typed); code != 0 {
					t.Fatalf("%s: the advised %q: exit %d\n%s", cmd[0], typed, code, out)
				}
				if code, out := runCaptured(t, append(append([]string{"search"}, flag...), "tasks")...); code != 0 || !strings.Contains(out, ".md") {
					t.Fatalf("search after the advised rebuild: exit %d\n%s", code, out)
				}
				damageHeader(t, db)
			}
		})
	}
	// With the vault configured, the full run finds it by itself: the
	// advice names no placeholder.
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("vault = \""+vault+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VAULTCTX_CONFIG", cfg)
	code, _, stderr := runStderr(t, "status")
	if hint := hintLine(stderr); code != 1 || hint != "run `vaultctx index --full`, which builds a new index and replaces the damaged file" {
		t.Errorf("status on the damaged index with a vault configured: exit %d, hint %q", code, hint)
	}
}

// TestTruncatedIndex: an index whose last 4 KiB were cut off (a copy cut
// short, a full disk) reads rows that are not what the schema says: a
// files row with NULL for its path. doctor's freshness check showed
// database/sql's "converting NULL to string is unsupported" and advised
// pointing vault at an existing folder; an incremental index run failed
// with the same raw message and no advice. Both call the index damaged
// and advise the full run, which repairs it.
func TestTruncatedIndex(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	doctorSetup(t, db)
	if code, out := runCaptured(t, "index", "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, fi.Size()-4096); err != nil {
		t.Fatal(err)
	}
	const raw = "converting NULL"

	_, out := runCaptured(t, "doctor")
	if strings.Contains(out, raw) {
		t.Errorf("doctor on the truncated index shows database/sql's words:\n%s", out)
	}
	for _, check := range []string{"index integrity", "index freshness"} {
		got := doctorLines(out, check)
		if !strings.HasPrefix(got, "✗ ") || !strings.HasSuffix(got, "\n    fix: rebuild it: vaultctx index --full (it replaces a damaged file)") {
			t.Errorf("doctor on the truncated index, %s:\n%s\nwant ✗ and the fix `vaultctx index --full`", check, got)
		}
	}

	code, _, stderr := runStderr(t, "index", "--no-model")
	if hint := hintLine(stderr); code != 1 || strings.Contains(stderr, raw) || !strings.Contains(stderr, "damaged") ||
		!strings.HasPrefix(hint, "run `vaultctx index --full`") {
		t.Errorf("incremental index on the truncated index: exit %d, stderr:\n%s\nwant exit 1, the index called damaged and the full run advised", code, stderr)
	}
	if code, out := runCaptured(t, "index", "--full", "--no-model"); code != 0 {
		t.Fatalf("the advised index --full: exit %d: %s", code, out)
	}
	_, out = runCaptured(t, "doctor")
	for _, check := range []string{"index integrity", "index freshness"} {
		if got := doctorLines(out, check); !strings.HasPrefix(got, "✓ ") {
			t.Errorf("doctor after the advised rebuild, %s:\n%s", check, got)
		}
	}
}
