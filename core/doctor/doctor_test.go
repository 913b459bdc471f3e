package doctor

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/install"
)

func TestDoctorIndexChecks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := filepath.Join(dir, "index.db")
	st, err := store.Open(ctx, good, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	// A corrupt copy: the header survives, the pages behind it do not.
	corrupt := filepath.Join(dir, "corrupt.db")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for i := 100; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	os.WriteFile(corrupt, b, 0o600)
	// Another program's database, and a folder, given as the index: no
	// index run replaces them, so the fix is another path, not a rebuild.
	foreign := filepath.Join(dir, "other.db")
	if db, err := sql.Open("sqlite3", foreign); err != nil {
		t.Fatal(err)
	} else if _, err := db.Exec("CREATE TABLE notes(x)"); err != nil {
		t.Fatal(err)
	} else {
		db.Close()
	}
	folder := filepath.Join(dir, "folder")
	os.Mkdir(folder, 0o700)

	tests := []struct {
		name   string
		db     string
		index  Status
		vector Status
		hint   Hint // of the failed checkIndex, when not NoHint
	}{
		{"fresh index", good, OK, OK, NoHint},
		{"missing index", filepath.Join(dir, "none.db"), Fail, Fail, HintIndex},
		{"corrupt index", corrupt, Fail, Fail, HintRebuildIndex},
		{"another program's database", foreign, Fail, Fail, HintIndexPath},
		{"a folder", folder, Fail, Fail, HintIndexPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &doctor{opt: testOptions(), cfg: &doctorConfig{DB: tt.db}}
			if f := d.checkIndex(ctx); f.Status != tt.index {
				t.Errorf("checkIndex = %+v, want status %d", f, tt.index)
			} else if f.Status == Fail && f.Hint != tt.hint {
				t.Errorf("checkIndex = %+v, want hint %d", f, tt.hint)
			}
			if f := d.checkVec(ctx); f.Status != tt.vector {
				t.Errorf("checkVec = %+v, want status %d", f, tt.vector)
			}
		})
	}
}

func TestDoctorPath(t *testing.T) {
	hooktest.FreshClaude(t)
	t.Chdir(t.TempDir()) // no project settings
	bin := hooktest.FakeBinDir(t)
	os.WriteFile(filepath.Join(bin, "vaultctx"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin)
	d := &doctor{opt: testOptions()}
	if f := d.checkPath(context.Background()); f.Status != OK || !strings.Contains(f.Message, bin) {
		t.Errorf("all binaries on PATH: %+v", f)
	}
	self := &doctor{opt: testOptions()}
	self.opt.BinDir = bin
	if f := self.checkPath(context.Background()); f.Status != OK {
		t.Errorf("this install on PATH: %+v", f)
	}
	// Another install first on PATH: the shell's vaultctx is not this one.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "vaultctx"), []byte("#!/bin/sh\n"), 0o755)
	self.opt.BinDir = other
	if f := self.checkPath(context.Background()); f.Status != Warn || f.Hint != HintAddToPath || f.Subject != other ||
		!strings.Contains(f.Message, "another install") {
		t.Errorf("another install first on PATH: %+v, want a warning naming both", f)
	}
	t.Setenv("PATH", t.TempDir())
	if f := d.checkPath(context.Background()); f.Status != Fail || !strings.Contains(f.Message, "vaultctx-pretooluse") {
		t.Errorf("empty PATH: %+v", f)
	}

	// The hooks wired by absolute path and this vaultctx in BinDir: they
	// work off PATH, so it is a caveat, not a failure.
	installHooks(t, bin)
	withBin := &doctor{opt: testOptions()}
	withBin.opt.BinDir = bin
	if f := withBin.checkPath(context.Background()); f.Status != Warn || f.Hint != HintAddToPath || f.Subject != bin ||
		!strings.Contains(f.Message, "absolute path") {
		t.Errorf("hooks by absolute path: %+v, want a warning with the PATH hint for %s", f, bin)
	}
	// Without knowing where vaultctx is, or with a wired binary gone, it fails.
	if f := d.checkPath(context.Background()); f.Status != Fail {
		t.Errorf("vaultctx nowhere: %+v", f)
	}
	// A hook left out (--no-posttooluse): its binary is installed beside
	// vaultctx but wired nowhere, and the others run by absolute path.
	plan, err := settings.Render(install.SettingsTemplate, bin)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := settings.UserPath(os.Getenv)
	if _, err := settings.Install(context.Background(), path, plan.Select([]string{"userprompt", "pretooluse"})); err != nil {
		t.Fatal(err)
	}
	if f := withBin.checkPath(context.Background()); f.Status != Warn || !strings.Contains(f.Message, settings.PostToolUseBinary) {
		t.Errorf("a hook left out, the others by absolute path: %+v, want a warning", f)
	}
	os.Remove(filepath.Join(bin, settings.PostToolUseBinary))
	if f := withBin.checkPath(context.Background()); f.Status != Fail || !strings.Contains(f.Message, settings.PostToolUseBinary) {
		t.Errorf("an installed binary missing: %+v", f)
	}
	installHooks(t, bin)
	if f := withBin.checkPath(context.Background()); f.Status != Fail || !strings.Contains(f.Message, settings.PostToolUseBinary) {
		t.Errorf("a wired binary missing: %+v", f)
	}
}

// hookScript writes an executable sh script and returns its path.
func hookScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDoctorHooksAndRoundTrips(t *testing.T) {
	hooktest.FreshClaude(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "hook dir")
	os.MkdirAll(dir, 0o755)
	// Stand-ins with the hooks' names, each reading its stdin like a hook.
	hookScript(t, dir, settings.UserPromptBinary,
		`cat >/dev/null; printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}'`)
	hookScript(t, dir, settings.PreToolUseBinary, `cat >/dev/null`)
	hookScript(t, dir, settings.PostToolUseBinary, `cat >/dev/null; echo broken >&2; exit 3`)

	d := &doctor{opt: testOptions()}
	if f := d.checkHooks(ctx); f.Status != Fail || f.Hint != HintInstallHooks {
		t.Fatalf("before install: %+v", f)
	}
	installHooks(t, dir)
	if f := d.checkHooks(ctx); f.Status != OK {
		t.Fatalf("after install: %+v", f)
	}
	tests := []struct {
		event  string
		status Status
		detail string
	}{
		{"UserPromptSubmit", OK, "bytes of UserPromptSubmit output"},
		{"PreToolUse", OK, "no output"},
		{"PostToolUse", Fail, "broken"},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			f := roundTrip(tt.event)(d, ctx)
			if f.Status != tt.status || !strings.Contains(f.Message, tt.detail) || !strings.Contains(f.Message, " ms") {
				t.Errorf("round trip = %+v, want status %d with %q and a time", f, tt.status, tt.detail)
			}
		})
	}

	// "disableAllHooks": true fails the hooks check, whatever is wired.
	path, _ := settings.UserPath(os.Getenv)
	src, _ := os.ReadFile(path)
	disabled := strings.Replace(string(src), "{", `{"disableAllHooks": true, `, 1)
	os.WriteFile(path, []byte(disabled), 0o600)
	if f := (&doctor{opt: testOptions()}).checkHooks(ctx); f.Status != Fail || f.Hint != HintEnableHooks {
		t.Errorf("disableAllHooks accepted: %+v", f)
	}
	os.WriteFile(path, src, 0o600)

	// Output that is not a hook response for the event fails.
	hookScript(t, dir, settings.PreToolUseBinary, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"Stop"}}'`)
	if f := roundTrip("PreToolUse")(d, ctx); f.Status != Fail {
		t.Errorf("wrong event name accepted: %+v", f)
	}
}

func TestSamplePayloads(t *testing.T) {
	for _, ev := range []string{"UserPromptSubmit", "PreToolUse", "PostToolUse"} {
		p, err := samplePayload(ev)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(p), `"hook_event_name":"`+ev+`"`) {
			t.Errorf("%s payload lacks its event name", ev)
		}
	}
	for ev, p := range handPayloads {
		if !json.Valid([]byte(p)) || !strings.Contains(p, `"hook_event_name":"`+ev+`"`) || strings.Contains(p, "'") {
			t.Errorf("%s hand payload %s: want valid JSON with its event name and no single quote", ev, p)
		}
	}
	// The PostToolUse sample must be big enough to be condensed (4 KB is
	// the hook's default threshold).
	p, _ := samplePayload("PostToolUse")
	if len(p) < 8<<10 {
		t.Errorf("PostToolUse sample is %d bytes, want well over 4 KB", len(p))
	}
}

func TestDoctorConfig(t *testing.T) {
	hooktest.FreshClaude(t)
	for _, k := range []string{"VAULTCTX_CONFIG", "VAULTCTX_VAULT", "VAULTCTX_DB", "VAULTCTX_MODEL", "XDG_CONFIG_HOME", "XDG_DATA_HOME"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	absVault := filepath.Join(testkit.SharedDir(), "corpora", "obsidian", "tasks-demo-vault")
	os.Mkdir(filepath.Join(dir, "notes"), 0o755)
	tests := []struct {
		name   string
		toml   string
		status Status
		detail string
	}{
		{"valid", `vault = "` + absVault + `"`, OK, absVault},
		{"relative vault resolved against the file", `vault = "notes"`, OK, filepath.Join(dir, "notes")},
		{"syntax error", `vault = "unterminated`, Fail, "config"},
		{"unknown key", "vault = \"" + absVault + "\"\nvalut = \"x\"", Fail, "valut"},
		{"no vault", `model = ""`, Fail, "no vault"},
		{"vault missing on disk", `vault = "/nonexistent/notes"`, Fail, "not a directory"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("c%d.toml", i))
			os.WriteFile(path, []byte(tt.toml+"\n"), 0o600)
			opt := testOptions()
			opt.ConfigPath = path
			d := &doctor{opt: opt}
			f := d.checkConfig(context.Background())
			if f.Status != tt.status || !strings.Contains(f.Message, tt.detail) {
				t.Errorf("checkConfig = %+v, want status %d mentioning %q", f, tt.status, tt.detail)
			}
			if f.Status == Fail && f.Hint == NoHint {
				t.Errorf("failure without a fix")
			}
		})
	}
}

func TestDoctorModel(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // the model digest cache lives under it
	t.Setenv("XDG_CACHE_HOME", "")
	ctx := context.Background()
	f32 := filepath.Join(testkit.SharedDir(), "models", "m2v-fixtures", "float32")
	i8 := filepath.Join(testkit.SharedDir(), "models", "m2v-fixtures", "int8")
	m, err := embed.Open(f32)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := m.Hash()
	m.Close()
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	withModel := filepath.Join(dir, "with-model.db")
	bare := filepath.Join(dir, "bare.db")
	for _, p := range []string{withModel, bare} {
		st, err := store.Open(ctx, p, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p == withModel {
			if err := st.SetMeta(ctx, "model_hash", hash); err != nil {
				t.Fatal(err)
			}
			if err := st.SetMeta(ctx, "model_dir", f32); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
	}
	tests := []struct {
		name   string
		db     string
		model  string
		status Status
		detail string
	}{
		{"configured model matches", withModel, f32, OK, "matches the index"},
		{"another model configured", withModel, i8, Fail, "not the model the index was built with"},
		{"model recorded by the index", withModel, "", OK, "matches the index"},
		{"configured model missing", withModel, filepath.Join(dir, "nope"), Fail, "no usable model"},
		{"no model anywhere", bare, "", OK, "BM25-only"},
		{"model configured, index has no vectors", bare, f32, Fail, "holds no vectors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &doctor{opt: testOptions(), cfg: &doctorConfig{DB: tt.db, Model: tt.model}}
			f := d.checkModel(ctx)
			if f.Status != tt.status || !strings.Contains(f.Message, tt.detail) {
				t.Errorf("checkModel = %+v, want status %d mentioning %q", f, tt.status, tt.detail)
			}
			if f.Status == Fail && f.Hint == NoHint {
				t.Errorf("failure without a fix")
			}
		})
	}
}

// TestRunOnEmptyMachine runs every check with nothing installed: all nine
// report in order, and every failure names its remedy.
func TestRunOnEmptyMachine(t *testing.T) {
	hooktest.FreshClaude(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("VAULTCTX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	var streamed []Finding
	opt := testOptions()
	opt.OnFinding = func(f Finding) { streamed = append(streamed, f) }
	got := Run(context.Background(), opt)
	if len(got) != len(checks) || len(streamed) != len(got) {
		t.Fatalf("%d findings, %d streamed, want %d", len(got), len(streamed), len(checks))
	}
	failures := 0
	for i, f := range got {
		if f.Check != checks[i].name || streamed[i] != f {
			t.Errorf("finding %d = %+v, want check %q", i, f, checks[i].name)
		}
		if f.Status == Fail {
			failures++
			if f.Hint == NoHint {
				t.Errorf("%s fails without a hint: %+v", f.Check, f)
			}
		}
	}
	if failures == 0 {
		t.Error("nothing failed on an empty machine")
	}
}

// TestRunVaultUnknown: without a config file, the index checks' findings
// say that no vault is known while the index cannot name it (there is
// none yet), and stop saying it once the config names a vault folder.
func TestRunVaultUnknown(t *testing.T) {
	hooktest.FreshClaude(t)
	dir := t.TempDir()
	for k, v := range map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "config"), "VAULTCTX_DB": filepath.Join(dir, "index.db"),
		"VAULTCTX_CONFIG": "", "VAULTCTX_VAULT": "", "VAULTCTX_MODEL": ""} {
		t.Setenv(k, v)
	}
	index := func(fs []Finding) Finding {
		for _, f := range fs {
			if f.Check == "index integrity" {
				return f
			}
		}
		t.Fatal("no index integrity finding")
		return Finding{}
	}
	f := index(Run(context.Background(), testOptions()))
	if f.Status != Fail || f.Hint != HintIndex || !f.VaultUnknown {
		t.Errorf("no config, no index: %+v, want a failure with HintIndex and VaultUnknown", f)
	}
	cfg := filepath.Join(dir, "config", "vaultctx", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("vault = \""+dir+"\"\n"), 0o600)
	f = index(Run(context.Background(), testOptions()))
	if f.Status != Fail || f.Hint != HintIndex || f.VaultUnknown {
		t.Errorf("a configured vault, no index: %+v, want a failure with HintIndex, vault known", f)
	}
}

// testOptions are Options for the process environment and the real
// hooks template.
func testOptions() Options {
	return Options{Getenv: os.Getenv, SettingsTemplate: install.SettingsTemplate}
}

// installHooks wires the hooks template for the binaries in dir into the
// user settings, as `vaultctx hooks install --bin-dir dir` does.
func installHooks(t *testing.T, dir string) {
	t.Helper()
	plan, err := settings.Render(install.SettingsTemplate, dir)
	if err != nil {
		t.Fatal(err)
	}
	path, err := settings.UserPath(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := settings.Install(context.Background(), path, plan); err != nil {
		t.Fatal(err)
	}
}

// TestDoctorHookSwitches: the hooks check and the round trips follow the
// config's switches: a hook off and not wired is fine, one on but not
// wired (while others are) or off but still wired is a warning, and
// nothing wired at all fails.
func TestDoctorHookSwitches(t *testing.T) {
	hooktest.FreshClaude(t)
	ctx := context.Background()
	dir := t.TempDir()
	for _, b := range settings.Binaries {
		hookScript(t, dir, b, `cat >/dev/null`)
	}
	off := false
	allOn, postOff := config.Hooks{}, config.Hooks{PostToolUse: &off}
	allOff := config.Hooks{UserPrompt: &off, PreToolUse: &off, PostToolUse: &off}
	tests := []struct {
		name   string
		wire   []string // hook names wired
		hooks  config.Hooks
		status Status
		hint   Hint
		detail string
		post   Status // the PostToolUse round trip
		postIn string
	}{
		{"all on, all wired", []string{"userprompt", "pretooluse", "posttooluse"}, allOn, OK, NoHint,
			"UserPromptSubmit wired, SessionStart wired, SubagentStart wired, PreToolUse wired, PostToolUse wired", OK, "no output for the sample"},
		{"off and not wired", []string{"userprompt", "pretooluse"}, postOff, OK, NoHint,
			"PreToolUse wired, PostToolUse off (hooks.posttooluse = false)", OK, "skipped: off in the config (hooks.posttooluse = false)"},
		{"on but not wired", []string{"userprompt", "pretooluse"}, allOn, Warn, HintWireOrTurnOff,
			"PostToolUse not wired", Warn, "skipped: not wired"},
		{"off but wired", []string{"userprompt", "pretooluse", "posttooluse"}, postOff, Warn, HintUnwire,
			"PostToolUse wired but off (hooks.posttooluse = false): it answers nothing", OK, "no output for the sample (hooks.posttooluse = false)"},
		{"nothing wired", nil, allOn, Fail, HintInstallHooks, "not wired", Fail, "no PostToolUse hook wired"},
		{"everything off", nil, allOff, OK, NoHint, "UserPromptSubmit off (hooks.userprompt = false)", OK, "skipped: off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			installOnly(t, dir, tt.wire)
			d := &doctor{opt: testOptions(), cfg: &doctorConfig{Hooks: tt.hooks}}
			f := d.checkHooks(ctx)
			if f.Status != tt.status || f.Hint != tt.hint || !strings.Contains(f.Message, tt.detail) {
				t.Errorf("checkHooks = %+v, want status %d, hint %d, mentioning %q", f, tt.status, tt.hint, tt.detail)
			}
			if tt.hint == HintWireOrTurnOff || tt.hint == HintUnwire {
				if f.Subject != "posttooluse" {
					t.Errorf("subject %q, want the hook's name", f.Subject)
				}
			}
			if p := roundTrip("PostToolUse")(d, ctx); p.Status != tt.post || !strings.Contains(p.Message, tt.postIn) {
				t.Errorf("PostToolUse round trip = %+v, want status %d mentioning %q", p, tt.post, tt.postIn)
			}
		})
	}
}

// installOnly wires the named hooks for the binaries in dir into the user
// settings, as `vaultctx hooks install --only` does; none takes ours out.
func installOnly(t *testing.T, dir string, names []string) {
	t.Helper()
	plan, err := settings.Render(install.SettingsTemplate, dir)
	if err != nil {
		t.Fatal(err)
	}
	path, err := settings.UserPath(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := settings.Install(context.Background(), path, plan.Select(names)); err != nil {
		t.Fatal(err)
	}
}

func TestDoctorPassthrough(t *testing.T) {
	off := false
	tests := []struct {
		name   string
		hooks  config.Hooks
		detail string
	}{
		{"none", config.Hooks{}, "none: every long Bash output may be condensed"},
		{"two", config.Hooks{OutputPassthrough: []string{"terraform plan", "git diff"}},
			`output of commands starting with "terraform plan", "git diff" is never condensed`},
		{"hook off", config.Hooks{PostToolUse: &off, OutputPassthrough: []string{"git diff"}}, "the PostToolUse hook is off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := testOptions()
			opt.ConfigPath = "/etc/vaultctx.toml"
			d := &doctor{opt: opt, cfg: &doctorConfig{Hooks: tt.hooks}}
			f := d.checkPassthrough(context.Background())
			if f.Status != OK || f.Hint != HintConfigHooks || f.Subject != opt.ConfigPath || !strings.Contains(f.Message, tt.detail) {
				t.Errorf("checkPassthrough = %+v, want OK mentioning %q", f, tt.detail)
			}
		})
	}
	if f := (&doctor{opt: testOptions()}).checkPassthrough(context.Background()); f.Status != Fail {
		t.Errorf("without a config: %+v", f)
	}
}

// TestHookWiringThroughWrappers: entries the user wrapped (an env prefix,
// nice, a redirection) are wired as long as our binary behind the wrapper
// is executable.
func TestHookWiringThroughWrappers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	os.MkdirAll(dir, 0o755)
	for _, b := range settings.Binaries {
		hookScript(t, dir, b, `cat >/dev/null`)
	}
	q := settings.ShellQuote
	src := fmt.Sprintf(`{"hooks":{
"UserPromptSubmit":[{"hooks":[{"type":"command","command":%q,"timeout":20}]}],
"SessionStart":[{"matcher":"compact|clear|resume","hooks":[{"type":"command","command":%q}]}],
"SubagentStart":[{"hooks":[{"type":"command","command":%q}]}],
"PreToolUse":[{"matcher":"Grep|Read","hooks":[{"type":"command","command":%q}]}],
"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":%q}]}]}}`,
		"VAULTCTX_LOG=/tmp/l "+q(filepath.Join(dir, settings.UserPromptBinary)),
		"env VAULTCTX_LOG=/tmp/l "+q(filepath.Join(dir, settings.UserPromptBinary)),
		"nice "+q(filepath.Join(dir, settings.UserPromptBinary)),
		"nice -n 5 "+q(filepath.Join(dir, settings.PreToolUseBinary)),
		q(filepath.Join(dir, settings.PostToolUseBinary))+" 2>>/tmp/err")
	entries, err := settings.Inspect([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w, err := HookWiring(install.SettingsTemplate, entries, config.Hooks{}, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range w {
		if x.State != Wired || x.Problem != "" {
			t.Errorf("%s: %+v, want wired", x.Event, x)
		}
	}
	os.Remove(filepath.Join(dir, settings.PreToolUseBinary))
	w, _ = HookWiring(install.SettingsTemplate, entries, config.Hooks{}, os.Getenv)
	for _, x := range w {
		if x.Event == "PreToolUse" && (x.State != Broken || !strings.Contains(x.Problem, "does not exist")) {
			t.Errorf("a wrapped binary gone: %+v", x)
		}
	}
}

// TestHookWiringCdToMissingFolder: an entry of ours behind a cd to a
// folder that is not there is broken, whatever its binary: after `cd DIR
// &&` the hook never runs (sh exits 2, a block to Claude Code), after
// `cd DIR;` it runs elsewhere with an error. The hooks check fails with
// the fix that works (a re-install keeps the cd); a cd to a folder known
// only when Claude Code runs the hook ($CLAUDE_PROJECT_DIR) is not
// checked.
func TestHookWiringCdToMissingFolder(t *testing.T) {
	hooktest.FreshClaude(t)
	dir := filepath.Join(t.TempDir(), "b")
	os.MkdirAll(dir, 0o755)
	for _, b := range settings.Binaries {
		hookScript(t, dir, b, `cat >/dev/null`)
	}
	gone := filepath.Join(t.TempDir(), "gone")
	file := hookScript(t, t.TempDir(), "plain-file", "")
	q := settings.ShellQuote
	up := q(filepath.Join(dir, settings.UserPromptBinary))
	src := fmt.Sprintf(`{"hooks":{
"UserPromptSubmit":[{"hooks":[{"type":"command","command":%q}]}],
"SessionStart":[{"hooks":[{"type":"command","command":%q}]}],
"SubagentStart":[{"hooks":[{"type":"command","command":%q}]}],
"PreToolUse":[{"hooks":[{"type":"command","command":%q}]}],
"PostToolUse":[{"hooks":[{"type":"command","command":%q}]}]}}`,
		"cd "+q(gone)+" && "+up,
		`cd "$CLAUDE_PROJECT_DIR" && `+up,
		"cd "+q(file)+"; "+up,
		"cd "+q(dir)+" && "+q(filepath.Join(dir, settings.PreToolUseBinary)),
		q(filepath.Join(dir, settings.PostToolUseBinary)))
	entries, err := settings.Inspect([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w, err := HookWiring(install.SettingsTemplate, entries, config.Hooks{}, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		state  WiringState
		dir    string
		detail string
	}{
		"UserPromptSubmit": {Broken, gone, "cd " + gone + " fails (no such folder), so the hook never runs"},
		"SessionStart":     {Wired, "", ""},
		"SubagentStart":    {Broken, file, "cd " + file + " fails (not a folder): the hook runs in another folder"},
		"PreToolUse":       {Wired, "", ""},
		"PostToolUse":      {Wired, "", ""},
	}
	for _, x := range w {
		if tw := want[x.Event]; x.State != tw.state || x.Dir != tw.dir || !strings.Contains(x.Problem, tw.detail) || (tw.detail == "") != (x.Problem == "") {
			t.Errorf("%s: %+v, want state %d, dir %q, problem %q", x.Event, x, tw.state, tw.dir, tw.detail)
		}
	}

	// The premise: sh gives up before our binary, with exit 2 from dash.
	if err := exec.Command("sh", "-c", "cd "+q(gone)+" && "+up).Run(); err == nil {
		t.Errorf("sh ran past a cd to a missing folder")
	}

	path, _ := settings.UserPath(os.Getenv)
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	f := (&doctor{opt: testOptions()}).checkHooks(context.Background())
	if f.Status != Fail || f.Hint != HintFixHookDir || f.Subject != gone || !strings.Contains(f.Message, "UserPromptSubmit: cd "+gone+" fails") {
		t.Errorf("checkHooks = %+v, want a failure naming %s with HintFixHookDir", f, gone)
	}
	// With a binary gone as well, a re-install is the first fix.
	os.Remove(filepath.Join(dir, settings.PostToolUseBinary))
	if f := (&doctor{opt: testOptions()}).checkHooks(context.Background()); f.Status != Fail || f.Hint != HintInstallHooks {
		t.Errorf("checkHooks with a binary gone too = %+v, want HintInstallHooks", f)
	}
}

// TestHookWiringPortablePaths: an entry naming our binary as sh finds it
// from HOME or PATH ($HOME/…, "$HOME/…", ~/…, a bare name on PATH) is
// wired, not "does not exist", and the hooks check passes; a path with an
// expansion known only when the hook runs is not called missing; and a
// cd or env -C to a missing folder under ~ or $HOME is found broken,
// whose hook sh never runs.
func TestHookWiringPortablePaths(t *testing.T) {
	path := hooktest.FreshClaude(t)
	home := os.Getenv("HOME")
	bin := filepath.Join(home, ".local", "bin")
	os.MkdirAll(bin, 0o755)
	for _, b := range settings.Binaries {
		hookScript(t, bin, b, `cat >/dev/null`)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	wiring := func(t *testing.T, cmds ...any) (string, []Wiring) {
		t.Helper()
		src := fmt.Sprintf(`{"hooks":{
"UserPromptSubmit":[{"hooks":[{"type":"command","command":%q}]}],
"SessionStart":[{"hooks":[{"type":"command","command":%q}]}],
"SubagentStart":[{"hooks":[{"type":"command","command":%q}]}],
"PreToolUse":[{"hooks":[{"type":"command","command":%q}]}],
"PostToolUse":[{"hooks":[{"type":"command","command":%q}]}]}}`, cmds...)
		entries, err := settings.Inspect([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		w, err := HookWiring(install.SettingsTemplate, entries, config.Hooks{}, os.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		return src, w
	}

	src, w := wiring(t,
		"$HOME/.local/bin/vaultctx-userprompt",
		`"$HOME/.local/bin/vaultctx-userprompt"`,
		"~/.local/bin/vaultctx-userprompt",
		"vaultctx-pretooluse",
		`"$CLAUDE_PROJECT_DIR"/bin/vaultctx-posttooluse`)
	for _, x := range w {
		if x.State != Wired || x.Problem != "" || (x.Event == "PostToolUse") != (x.Unchecked != "") {
			t.Errorf("%s: %+v, want wired (unchecked only for PostToolUse)", x.Event, x)
		}
		// The premise: sh runs each of them (but the last, whose folder
		// Claude Code sets).
		if x.Event != "PostToolUse" {
			cmd := exec.Command("sh", "-c", x.Commands[0])
			cmd.Stdin = strings.NewReader("{}")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("sh -c %s: %v %s", x.Commands[0], err, out)
			}
		}
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if f := (&doctor{opt: testOptions()}).checkHooks(context.Background()); f.Status != OK || !strings.Contains(f.Message, "not checked") {
		t.Errorf("checkHooks = %+v, want passed, saying what it could not check", f)
	}

	missing := filepath.Join(home, "missing")
	_, w = wiring(t,
		"cd ~/missing && $HOME/.local/bin/vaultctx-userprompt",
		"cd $HOME/missing && vaultctx-userprompt",
		"env -C ${HOME}/missing vaultctx-userprompt",
		"~/gone/vaultctx-pretooluse",
		"vaultctx-posttooluse-gone; vaultctx-posttooluse")
	want := map[string]string{
		"UserPromptSubmit": "cd " + missing + " fails (no such folder), so the hook never runs",
		"SessionStart":     "cd " + missing + " fails (no such folder), so the hook never runs",
		"SubagentStart":    "env -C " + missing + " fails (no such folder), so the hook never runs: env exits 125",
		"PreToolUse":       filepath.Join(home, "gone", settings.PreToolUseBinary) + " does not exist",
	}
	for _, x := range w {
		if x.Event == "PostToolUse" {
			continue // not ours: the first command is another program
		}
		if x.State != Broken || !strings.Contains(x.Problem, want[x.Event]) {
			t.Errorf("%s: %+v, want broken: %s", x.Event, x, want[x.Event])
		}
		if strings.HasPrefix(x.Commands[0], "cd") || strings.HasPrefix(x.Commands[0], "env") {
			if x.Dir != missing {
				t.Errorf("%s: Dir %q, want %q", x.Event, x.Dir, missing)
			}
			if err := exec.Command("sh", "-c", x.Commands[0]).Run(); err == nil {
				t.Errorf("sh -c %s ran past the missing folder", x.Commands[0])
			}
		}
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	_, w = wiring(t, "vaultctx-userprompt", "vaultctx-userprompt", "vaultctx-userprompt", "vaultctx-pretooluse", "vaultctx-posttooluse")
	for _, x := range w {
		if x.State != Broken || !strings.Contains(x.Problem, "is not on PATH") {
			t.Errorf("off PATH: %s: %+v, want broken: not on PATH", x.Event, x)
		}
	}
}
