package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/doctor"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/core/store"
)

func TestDoctorExitsOneOnFailure(t *testing.T) {
	hooktest.FreshClaude(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("VAULTCTX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	if code := run([]string{"doctor"}); code != 1 {
		t.Errorf("doctor on an empty machine: exit %d, want 1", code)
	}
}

// TestDoctorFixWording keeps a fix line for every hint core/doctor can
// return, with the subject in it where the hint has one.
func TestDoctorFixWording(t *testing.T) {
	for h := doctor.HintInstall; h <= doctor.HintFixHookDir; h++ { // HintFixHookDir is the last
		if doctorFix(doctor.Finding{Hint: h, Subject: "/x"}) == "" {
			t.Errorf("hint %d has no wording", h)
		}
	}
	tests := []struct {
		f    doctor.Finding
		want string
	}{
		{doctor.Finding{Hint: doctor.HintAddToPath, Subject: "/b"}, `add /b to PATH: export PATH="/b:$PATH"`},
		{doctor.Finding{Hint: doctor.HintRunHook, Subject: "printf x | sh -c '/b/h'"}, "run it by hand to see why: printf x | sh -c '/b/h'"},
		{doctor.Finding{Hint: doctor.HintEnableHooks, Subject: "/s.json"}, `set "disableAllHooks": false in /s.json`},
		{doctor.Finding{Hint: doctor.HintIndex}, "run: vaultctx index"},
		{doctor.Finding{Hint: doctor.HintWireOrTurnOff, Subject: "pretooluse, posttooluse"},
			"run: vaultctx hooks install to wire pretooluse, posttooluse, or set pretooluse = false, posttooluse = false under [hooks] in the config to keep it off"},
		{doctor.Finding{Hint: doctor.HintUnwire, Subject: "posttooluse"},
			"run: vaultctx hooks install to take it out of settings.json (or set posttooluse = true under [hooks] to turn it on)"},
	}
	for _, tt := range tests {
		if got := doctorFix(tt.f); got != tt.want {
			t.Errorf("doctorFix(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

// TestDoctorShowsSwitches: doctor prints a hook the config turns on but
// settings.json does not wire as a caveat (!) with its fix, and the
// passthrough list, without failing on either.
func TestDoctorShowsSwitches(t *testing.T) {
	hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	t.Setenv("VAULTCTX_CONFIG", cfg)
	os.WriteFile(cfg, []byte("vault = \""+t.TempDir()+"\"\n[hooks]\noutput_passthrough = [\"git diff\"]\n"), 0o600)
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin, "--only", "userprompt,pretooluse"); code != 0 {
		t.Fatalf("hooks install: exit %d\n%s", code, out)
	}
	_, out := runCaptured(t, "doctor")
	for _, want := range []string{
		"! hooks wired: ",
		"PostToolUse not wired\n    fix: run: vaultctx hooks install to wire posttooluse, or set posttooluse = false under [hooks] in the config to keep it off\n",
		"✓ output passthrough: output of commands starting with \"git diff\" is never condensed (set under [hooks] in " + cfg + ": output_passthrough = [\"terraform plan\", ...])\n",
		"✓ UserPromptSubmit round trip: ",
		"! PostToolUse round trip: skipped: not wired\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "✗ hooks wired") || strings.Contains(out, "✗ PostToolUse") {
		t.Errorf("a hook left out on purpose failed a check:\n%s", out)
	}
}

// doctorSetup isolates the CLI and a fresh Claude config, copies the
// Obsidian demo vault and writes a config naming it and the index db (not
// yet made), selected by VAULTCTX_CONFIG. It returns the vault.
func doctorSetup(t *testing.T, db string) string {
	t.Helper()
	dir := isolateCLI(t)
	hooktest.FreshClaude(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("vault = \""+vault+"\"\ndb = \""+db+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VAULTCTX_CONFIG", cfg)
	return vault
}

// doctorLines returns the line doctor printed for check, with its fix
// line when it has one, or "" when it printed none.
func doctorLines(out, check string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if _, rest, ok := strings.Cut(l, " "); ok && strings.HasPrefix(rest, check+": ") {
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "    fix: ") {
				return l + "\n" + lines[i+1]
			}
			return l
		}
	}
	return ""
}

// TestDoctorDamagedHeader is the fault campaign's damage (issue 17): the
// bytes 00 00 00 09 at offset 44, a schema format number SQLite does not
// know ("unsupported file format"). doctor fails the index check naming
// the damage and advises the full run, which repairs the file.
func TestDoctorDamagedHeader(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	doctorSetup(t, db)
	if code, out := runCaptured(t, "index", "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	if _, out := runCaptured(t, "doctor"); !strings.HasPrefix(doctorLines(out, "index integrity"), "✓ ") {
		t.Fatalf("doctor on the intact index: %q", doctorLines(out, "index integrity"))
	}
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0, 0, 0, 9}, 44); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	code, out := runCaptured(t, "doctor")
	if code != 1 {
		t.Errorf("doctor on the damaged index: exit %d, want 1", code)
	}
	got := doctorLines(out, "index integrity")
	if !strings.HasPrefix(got, "✗ index integrity: ") || !strings.Contains(got, store.ErrDamaged.Error()) ||
		!strings.HasSuffix(got, "\n    fix: rebuild it: vaultctx index --full (it replaces a damaged file)") {
		t.Errorf("doctor on the damaged index:\n%s\nwant ✗, %q and the fix `vaultctx index --full`", got, store.ErrDamaged)
	}
	// Every check that opens the index gives the same advice (the
	// freshness check once pointed at the vault, which exists).
	if got := doctorLines(out, "index freshness"); !strings.HasPrefix(got, "✗ index freshness: ") ||
		!strings.HasSuffix(got, "\n    fix: rebuild it: vaultctx index --full (it replaces a damaged file)") {
		t.Errorf("doctor's freshness check on the damaged index:\n%s\nwant ✗ and the fix `vaultctx index --full`", got)
	}
	// The advice works.
	if code, out := runCaptured(t, "index", "--full", "--no-model"); code != 0 {
		t.Fatalf("index --full: exit %d: %s", code, out)
	}
	if _, out := runCaptured(t, "doctor"); !strings.HasPrefix(doctorLines(out, "index integrity"), "✓ ") {
		t.Errorf("doctor after index --full: %q", doctorLines(out, "index integrity"))
	}
}

// fileSum returns the sha256 of the file at p.
func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// copyFile copies the file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDoctorCommandLeavesIndexUnchanged is the fault campaign's case
// (issue 17), doctor's FTS5 check opening the index read-write, for the
// whole command: every check, the hook round trips (the real hooks,
// wired) included, runs on an index with a WAL pending beside it, as
// core/doctor's TestDoctorLeavesIndexUnchanged sets it up, and the index
// file and its WAL are byte-identical afterwards.
func TestDoctorCommandLeavesIndexUnchanged(t *testing.T) {
	// The real hooks, so the round trips read the index too; built before
	// doctorSetup points XDG_CACHE_HOME (and so Go's build cache) at an
	// empty folder.
	bin := t.TempDir()
	for name, dir := range map[string]string{
		settings.UserPromptBinary:  "../hooks/userprompt",
		settings.PreToolUseBinary:  "../hooks/pretooluse",
		settings.PostToolUseBinary: "../hooks/posttooluse",
	} {
		hooktest.BuildAs(t, bin, name, dir)
	}
	ctx := context.Background()
	built := filepath.Join(t.TempDir(), "index.db")
	db := filepath.Join(t.TempDir(), "index.db")
	doctorSetup(t, db)
	if code, out := runCaptured(t, "index", "--no-model", "--db", built); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	// One more note committed by a writer still open: a copy of the file
	// and its WAL taken now has the note in the WAL only.
	w, err := store.Open(ctx, built, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tx, err := w.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.ReplaceFile(ctx, store.File{Path: "late.md", MtimeNS: 1, Size: 1, Hash: "h"},
		[]store.Chunk{{Text: "recurring tasks written late", Hash: []byte("h")}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	copyFile(t, built, db)
	copyFile(t, built+"-wal", db+"-wal")
	if fi, err := os.Stat(db + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("test premise: no WAL pending (%v)", err)
	}
	before, walBefore := fileSum(t, db), fileSum(t, db+"-wal")

	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("hooks install: exit %d\n%s", code, out)
	}
	t.Setenv("VAULTCTX_HOOK_DEADLINE", "60s")

	_, out := runCaptured(t, "doctor")
	for _, check := range []string{"index integrity", "UserPromptSubmit round trip", "PreToolUse round trip"} {
		if got := doctorLines(out, check); !strings.HasPrefix(got, "✓ ") {
			t.Errorf("test premise: %s did not pass on the index: %q", check, got)
		}
	}
	if fileSum(t, db) != before {
		t.Error("vaultctx doctor changed the index file")
	}
	if fileSum(t, db+"-wal") != walBefore {
		t.Error("vaultctx doctor changed the index's WAL")
	}
}

// TestDoctorWithoutConfig is the README's set-up without the installer:
// `vaultctx index --vault DIR` and no config file. doctor takes the vault
// the index records, as the hooks' refresh does, instead of failing the
// config check, and its freshness check sees a new note there.
func TestDoctorWithoutConfig(t *testing.T) {
	dir := isolateCLI(t)
	hooktest.FreshClaude(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	if code, out := runCaptured(t, "index", "--vault", vault, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	if err := os.WriteFile(filepath.Join(vault, "zq.md"), []byte("# Zebraquokka\n\nA new note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := runCaptured(t, "doctor")
	if got := doctorLines(out, "config parses"); !strings.HasPrefix(got, "✓ ") || !strings.Contains(got, vault) {
		t.Errorf("config check without a config file:\n%s\nwant ✓ naming the index's vault %s", got, vault)
	}
	got := doctorLines(out, "index freshness")
	if !strings.HasPrefix(got, "! ") || !strings.Contains(got, "1 changed") {
		t.Errorf("freshness check without a config file:\n%s\nwant a warning of 1 changed file", got)
	}
	// Its advice works as printed: `vaultctx index` takes the index's
	// vault too.
	if !strings.Contains(got, "fix: run: vaultctx index") {
		t.Errorf("freshness fix %q, want `vaultctx index`", got)
	}
	if code, out := runCaptured(t, "index"); code != 0 {
		t.Fatalf("index without --vault or a config: exit %d: %s", code, out)
	}
	if code, out := runCaptured(t, "search", "zebraquokka"); code != 0 || !strings.Contains(out, "zq.md") {
		t.Errorf("search after the advised index: exit %d\n%s", code, out)
	}
}

// fixLine returns the command a doctor fix line advises: the text after
// "fix: "+lead up to " (" or the line's end.
func fixLine(t *testing.T, lines, lead string) string {
	t.Helper()
	_, fix, ok := strings.Cut(lines, "\n    fix: "+lead)
	if !ok {
		t.Fatalf("no fix starting %q in\n%s", lead, lines)
	}
	if i := strings.Index(fix, " ("); i >= 0 {
		fix = fix[:i]
	}
	return fix
}

// runAdvice runs command, a line doctor told the user to type, through sh
// with the folder of the vaultctx binary first on PATH, as the user's shell
// would, and returns its exit code and combined output.
func runAdvice(t *testing.T, vaultctx, command string) (int, string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(vaultctx)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatalf("sh -c %s: %v", command, err)
	}
	return 0, string(out)
}

// TestDoctorDB: doctor takes --db as index, status and search do, and
// checks that file: the config check names it, the index checks read it,
// the hook round trips are run with it (VAULTCTX_DB), and the fixes it
// prints name it, so that the advised rebuild repairs that file. Its help
// lists the flag, which its advice for a folder given as the index names.
func TestDoctorDB(t *testing.T) {
	vaultctx, dir, vault := cliWithDemoVault(t, "vault")
	hooktest.FreshClaude(t)
	// A config that names the vault but not the index: the default index
	// is another file.
	if err := os.MkdirAll(filepath.Dir(configPath()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(configPath(), []byte("vault = \""+vault+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "elsewhere", "notes.db")
	if code, out := runCaptured(t, "index", "--db", db, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	// Hooks that say which index they were given, and fail so that
	// doctor prints it.
	bin := hooktest.FakeBinDir(t)
	for _, b := range []string{settings.UserPromptBinary, settings.PreToolUseBinary, settings.PostToolUseBinary} {
		if err := os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\necho \"db=$VAULTCTX_DB\" >&2\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("hooks install: exit %d\n%s", code, out)
	}

	code, out := runCaptured(t, "doctor", "--db", db)
	if code == exitUsage {
		t.Fatalf("doctor --db: usage error (exit %d)", code)
	}
	if got := doctorLines(out, "config parses"); !strings.HasPrefix(got, "✓ ") || !strings.Contains(got, "index "+db) {
		t.Errorf("config check with --db:\n%s\nwant ✓ naming %s", got, db)
	}
	if got := doctorLines(out, "index integrity"); !strings.HasPrefix(got, "✓ index integrity: "+db+" passes") {
		t.Errorf("index check with --db:\n%s\nwant ✓ for %s", got, db)
	}
	if got := doctorLines(out, "UserPromptSubmit round trip"); !strings.Contains(got, "(db="+db+")") {
		t.Errorf("round trip with --db:\n%s\nwant the hook run with VAULTCTX_DB=%s", got, db)
	}

	// Damaged: the advised rebuild names the file, and repairs it.
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0, 0, 0, 9}, 44); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, out = runCaptured(t, "doctor", "--db", db)
	fix := fixLine(t, doctorLines(out, "index integrity"), "rebuild it: ")
	if !strings.Contains(fix, "--db "+settings.ShellQuote(db)) {
		t.Errorf("fix %q does not name the index %s", fix, db)
	}
	if code, out := runAdvice(t, vaultctx, fix); code != 0 {
		t.Fatalf("the advised %q: exit %d\n%s", fix, code, out)
	}
	if _, out := runCaptured(t, "doctor", "--db", db); !strings.HasPrefix(doctorLines(out, "index integrity"), "✓ ") {
		t.Errorf("doctor --db after the advised rebuild:\n%s", doctorLines(out, "index integrity"))
	}

	// A folder as the index: the advice names --db, which doctor takes.
	_, out = runCaptured(t, "doctor", "--db", dir)
	if got := doctorLines(out, "index integrity"); !strings.Contains(got, "fix: ") || !strings.Contains(got, "--db") {
		t.Errorf("doctor --db on a folder:\n%s\nwant a fix naming --db", got)
	}
	help, err := exec.Command(vaultctx, "doctor", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(help), "--db=FILE") {
		t.Errorf("doctor --help (%v) lists no --db:\n%s", err, help)
	}
}

// TestDoctorAdviceWithoutVault: with no config file and no index to read
// a vault from (none yet, or one too damaged to open), doctor cannot know
// the vault, and every index run it advises names the flag the user must
// fill in; that command, so filled in, works.
func TestDoctorAdviceWithoutVault(t *testing.T) {
	vaultctx, _, vault := cliWithDemoVault(t, "vault")
	hooktest.FreshClaude(t)
	db := config.DefaultDB(os.Getenv)
	const placeholder = "--vault <your vault>"

	// advice checks every fix line that runs an index names the vault
	// flag, and returns the fix of check.
	advice := func(step, check, lead string) string {
		t.Helper()
		code, out := runCaptured(t, "doctor")
		if code != 1 {
			t.Errorf("%s: doctor exit %d, want 1", step, code)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "    fix: ") && strings.Contains(l, "vaultctx index") && !strings.Contains(l, "vaultctx index --full "+placeholder) && !strings.Contains(l, "vaultctx index "+placeholder) {
				t.Errorf("%s: a fix runs an index without naming the vault: %q", step, l)
			}
		}
		return fixLine(t, doctorLines(out, check), lead)
	}
	for _, step := range []struct {
		name, lead string
		breakIt    func()
	}{
		{"no index yet", "run: ", func() {}},
		{"a damaged index", "rebuild it: ", func() {
			f, err := os.OpenFile(db, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte{0, 0, 0, 9}, 44); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		step.breakIt()
		fix := advice(step.name, "index integrity", step.lead)
		if !strings.Contains(fix, placeholder) {
			t.Fatalf("%s: fix %q does not name the vault flag", step.name, fix)
		}
		typed := strings.Replace(fix, "<your vault>", settings.ShellQuote(vault), 1)
		if code, out := runAdvice(t, vaultctx, typed+" --no-model"); code != 0 {
			t.Fatalf("%s: the advised %q: exit %d\n%s", step.name, typed, code, out)
		}
		_, out := runCaptured(t, "doctor")
		if got := doctorLines(out, "index integrity"); !strings.HasPrefix(got, "✓ ") {
			t.Errorf("%s: doctor after the advised run:\n%s", step.name, got)
		}
		if got := doctorLines(out, "config parses"); !strings.HasPrefix(got, "✓ ") || !strings.Contains(got, vault) {
			t.Errorf("%s: doctor after the advised run:\n%s\nwant the vault read from the index", step.name, got)
		}
	}
}

// TestDoctorAndIndexAgreeOnOtherVault: VAULTCTX_VAULT names another
// folder than the vault the index was built from. `vaultctx index`
// refuses to update the index (that would delete all of it), and so does
// the hooks' refresh; doctor says the same thing in the same words, fails
// the freshness check (it once warned of every note as changed and said
// the next session start or `vaultctx index` would refresh them), and
// gives the same fix, which works as printed. An index run given --vault
// names it in that fix.
func TestDoctorAndIndexAgreeOnOtherVault(t *testing.T) {
	vaultctx, dir, held := cliWithDemoVault(t, "held")
	hooktest.FreshClaude(t)
	set := filepath.Join(dir, "set")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(set, "zq.md"), []byte("# Zebraquokka\n\nThe other vault's note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := runCaptured(t, "index", "--vault", held, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	t.Setenv("VAULTCTX_VAULT", set)

	code, _, stderr := runStderr(t, "index", "--no-model")
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 1 || len(lines) < 2 || !strings.Contains(stderr, index.ErrOtherVault.Error()) {
		t.Fatalf("index with VAULTCTX_VAULT on another folder: exit %d, stderr:\n%s\nwant exit 1 and %q", code, stderr, index.ErrOtherVault)
	}
	indexSays := strings.TrimPrefix(lines[len(lines)-2], "vaultctx: ")
	indexFix := strings.TrimPrefix(lines[len(lines)-1], "vaultctx: ")

	_, out := runCaptured(t, "doctor")
	got := doctorLines(out, "index freshness")
	if !strings.HasPrefix(got, "✗ index freshness: "+indexSays) {
		t.Errorf("doctor's freshness check:\n%s\nwant ✗ saying what index says: %q", got, indexSays)
	}
	if !strings.HasSuffix(got, "\n    fix: "+indexFix) {
		t.Errorf("doctor's freshness fix:\n%s\nwant index's: %q", got, indexFix)
	}
	if strings.Contains(out, "the next session start refreshes") {
		t.Errorf("doctor promises a refresh that refuses this index:\n%s", out)
	}

	// The advice works as printed: the full run rebuilds the index for
	// the folder VAULTCTX_VAULT names.
	full := fixLine(t, "\n    fix: "+indexFix, "run `")
	full, _, _ = strings.Cut(full, "`")
	if code, out := runAdvice(t, vaultctx, full+" --no-model"); code != 0 {
		t.Fatalf("the advised %q: exit %d\n%s", full, code, out)
	}
	_, out = runCaptured(t, "doctor")
	if got := doctorLines(out, "index freshness"); !strings.HasPrefix(got, "✓ ") {
		t.Errorf("doctor after the advised rebuild:\n%s", got)
	}
	if code, out := runCaptured(t, "search", "zebraquokka"); code != 0 || !strings.Contains(out, "zq.md") {
		t.Errorf("search after the advised rebuild: exit %d\n%s", code, out)
	}

	// Given by --vault, the vault goes into the advised command too.
	os.Unsetenv("VAULTCTX_VAULT")
	code, _, stderr = runStderr(t, "index", "--vault", held, "--no-model")
	if want := "`vaultctx index --full --vault " + settings.ShellQuote(held) + "`"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("index --vault on another vault's index: exit %d, stderr:\n%s\nwant the fix %s", code, stderr, want)
	}
}
