package main

import (
	"os"
	"os/exec"
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
	vaultctx, dir, vault := cliWithDemoVault(t, "vault")
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

// TestDoctorRunHookAdvice: a hook that fails its round trip got the fix
// "run it by hand: HOOK < payload.json", a file nobody has. The fix is a
// command line that feeds the hook a sample payload as the round trip
// did (with the --db doctor was given), and it works as typed: it shows
// the hook's own error, and a hook that reads its payload sees the event.
func TestDoctorRunHookAdvice(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	doctorSetup(t, db)
	bin := hooktest.FakeBinDir(t) // a folder with a space in its name
	hook := filepath.Join(bin, settings.UserPromptBinary)
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho \"boom: db=$VAULTCTX_DB\" >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("hooks install: exit %d\n%s", code, out)
	}
	const lead = "run it by hand to see why: "
	_, out := runCaptured(t, "doctor", "--db", db)
	got := doctorLines(out, "UserPromptSubmit round trip")
	if !strings.HasPrefix(got, "✗ ") || strings.Contains(got, "payload.json") {
		t.Fatalf("doctor with a failing hook:\n%s\nwant ✗ and a fix that names no payload file", got)
	}
	_, fix, ok := strings.Cut(got, "\n    fix: "+lead)
	if !ok {
		t.Fatalf("doctor's fix for a failing hook:\n%s\nwant %q", got, lead)
	}
	code, typed := runAdvice(t, "vaultctx", fix)
	if code != 3 || !strings.Contains(typed, "boom: db="+db) {
		t.Errorf("the advised %q: exit %d, output %q; want the hook's exit 3 and its error naming the index", fix, code, typed)
	}
	// The line hands the hook its payload on stdin.
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ngrep -q '\"hook_event_name\":\"UserPromptSubmit\"' || exit 4\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, typed := runAdvice(t, "vaultctx", fix); code != 0 {
		t.Errorf("the advised %q with a hook that reads its payload: exit %d, output %q", fix, code, typed)
	}
}

// TestInstallerAdvice: doctor's fixes for missing or miscompiled binaries
// said `run scripts/install.sh`, which works only inside the source tree.
// A vaultctx that scripts/install.sh built records that tree, and the fix
// names the installer by its full path, which runs from any folder; one
// built otherwise says where the script is to be run.
func TestInstallerAdvice(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	hooktest.FreshClaude(t)
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir()) // no binary found
	t.Setenv("VAULTCTX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	t.Chdir(t.TempDir())

	defer func(old string) { sourceDir = old }(sourceDir)
	sourceDir = repo
	_, out := runCaptured(t, "doctor")
	fix := fixLine(t, doctorLines(out, "binaries on PATH"), "run ")
	fix = strings.TrimSuffix(fix, " to build them")
	if want := settings.ShellQuote(filepath.Join(repo, "scripts", "install.sh")); fix != want {
		t.Fatalf("doctor's fix for missing binaries runs %q, want %q", fix, want)
	}
	cmd := exec.Command("/bin/sh", "-c", fix+" --help")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+path)
	if help, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(help), "--vault DIR") {
		t.Errorf("the advised installer, from another folder: %v\n%s", err, help)
	}

	sourceDir = ""
	_, out = runCaptured(t, "doctor")
	if got := doctorLines(out, "binaries on PATH"); !strings.Contains(got, "in a checkout of the vaultctx source") {
		t.Errorf("doctor's fix from a vaultctx that does not know its source:\n%s\nwant it to say where to run the installer", got)
	}
	sourceDir = filepath.Join(t.TempDir(), "moved away")
	_, out = runCaptured(t, "doctor")
	if got := doctorLines(out, "binaries on PATH"); !strings.Contains(got, "in a checkout of the vaultctx source") {
		t.Errorf("doctor's fix when the recorded source is gone:\n%s\nwant it to say where to run the installer", got)
	}
}

// TestEmptyDBFlag: an empty --db was refused with "(use . for the current
// directory)", and --db . then fails ("is a directory"): an index is a
// file. The message names a file, and the file it names works.
func TestEmptyDBFlag(t *testing.T) {
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	t.Chdir(t.TempDir())
	for _, args := range [][]string{{"index", "--vault", vault, "--no-model", "--db", ""}, {"search", "--db", "", "tasks"}, {"status", "--db="}} {
		code, _, stderr := runStderr(t, args...)
		if code != exitUsage || strings.Contains(stderr, "use . for") || !strings.Contains(stderr, "./index.db") {
			t.Errorf("vaultctx %q: exit %d, stderr %q; want a usage error naming a file", args, code, stderr)
		}
	}
	if code, out := runCaptured(t, "index", "--vault", vault, "--no-model", "--db", "./index.db"); code != 0 {
		t.Errorf("index --db ./index.db, as advised: exit %d: %s", code, out)
	}
	// A folder flag still takes "." (the current directory).
	code, _, stderr := runStderr(t, "index", "--vault", "", "--db", "./index.db")
	if code != exitUsage || !strings.Contains(stderr, "use . for the current directory") {
		t.Errorf("index --vault \"\": exit %d, stderr %q", code, stderr)
	}
}

// TestNotAnIndexAtDefaultPath: the file at vaultctx's own default index
// path has its first page destroyed, so it is no longer an SQLite file
// and is refused as "not a vaultctx index". search advised removing it
// or choosing another --db, while doctor only said to point db at a file
// of its own. doctor now gives search's advice, in the same words, with
// the rebuild to run once the file is gone; typed as shown (the vault
// filled in), it brings search back.
func TestNotAnIndexAtDefaultPath(t *testing.T) {
	vaultctx, _, vault := cliWithDemoVault(t, "vault")
	hooktest.FreshClaude(t)
	if code, out := runCaptured(t, "index", "--vault", vault, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	db := config.DefaultDB(os.Getenv)
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	page := make([]byte, 4096)
	for i := range page {
		page[i] = byte(i*7 + 1)
	}
	if _, err := f.WriteAt(page, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()

	code, _, stderr := runStderr(t, "search", "tasks")
	hint := hintLine(stderr)
	if code != 1 || !strings.Contains(stderr, "not a vaultctx index") || !strings.HasPrefix(hint, "remove it, then run `vaultctx index --full") {
		t.Fatalf("search on the destroyed index: exit %d, stderr:\n%s\nwant exit 1 and the advice to remove it and rebuild", code, stderr)
	}
	_, out := runCaptured(t, "doctor")
	got := doctorLines(out, "index integrity")
	if !strings.HasPrefix(got, "✗ ") || !strings.Contains(got, "fix: "+hint) {
		t.Fatalf("doctor on the destroyed index:\n%s\nwant ✗ and search's advice %q", got, hint)
	}
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	typed := strings.Replace(advisedCommand(t, hint), "<your vault>", settings.ShellQuote(vault), 1) + " --no-model"
	if code, out := runAdvice(t, vaultctx, typed); code != 0 {
		t.Fatalf("the advised %q: exit %d\n%s", typed, code, out)
	}
	if code, out := runCaptured(t, "search", "tasks"); code != 0 || !strings.Contains(out, ".md") {
		t.Errorf("search after the advised rebuild: exit %d\n%s", code, out)
	}
}
