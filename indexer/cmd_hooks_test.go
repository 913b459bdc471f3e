package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/doctor"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

func TestHooksInstallStatusUninstall(t *testing.T) {
	path := hooktest.FreshClaude(t)
	orig, err := os.ReadFile("../core/settings/testdata/competitors.json")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := hooktest.FakeBinDir(t)

	for i := 0; i < 2; i++ {
		if code := run([]string{"hooks", "install", "--bin-dir", bin}); code != 0 {
			t.Fatalf("install #%d exit %d", i+1, code)
		}
	}
	src, _ := os.ReadFile(path)
	entries, err := settings.Inspect(src)
	if err != nil {
		t.Fatal(err)
	}
	wired, err := doctor.HookWiring(install.SettingsTemplate, entries, config.Hooks{}, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wired {
		if w.State != doctor.Wired || w.Problem != "" || len(w.Commands) != 1 || !strings.HasPrefix(w.Commands[0], "'"+bin+"/") {
			t.Errorf("%s: %+v, want one quoted command in %s", w.Event, w, bin)
		}
	}
	if code := run([]string{"hooks", "status"}); code != 0 {
		t.Errorf("status exit %d", code)
	}
	if code := run([]string{"hooks", "uninstall"}); code != 0 {
		t.Fatalf("uninstall exit %d", code)
	}
	if got, _ := os.ReadFile(path); string(got) != string(orig) {
		t.Errorf("uninstall did not restore the file")
	}
	if b, _ := filepath.Glob(path + ".bak-*"); len(b) == 0 {
		t.Errorf("no backup beside %s", path)
	}
	// --remove-backups takes ours away, this run's too.
	run([]string{"hooks", "install", "--bin-dir", bin})
	code, out := runCaptured(t, "hooks", "uninstall", "--remove-backups")
	if code != 0 || !strings.Contains(out, "removed "+path+".bak-") {
		t.Errorf("uninstall --remove-backups: exit %d\n%s", code, out)
	}
	if b, _ := filepath.Glob(path + ".bak-*"); len(b) != 0 {
		t.Errorf("backups left: %q", b)
	}
	if got, _ := os.ReadFile(path); string(got) != string(orig) {
		t.Errorf("uninstall --remove-backups did not restore the file")
	}
}

func TestHooksProjectAndErrors(t *testing.T) {
	userPath := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	proj := t.TempDir()
	t.Chdir(proj)

	if code := run([]string{"hooks", "install", "--project", "--bin-dir", bin}); code != 0 {
		t.Fatalf("install --project exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); err != nil {
		t.Errorf("--project did not write ./.claude/settings.json: %v", err)
	}
	if _, err := os.Stat(userPath); err == nil {
		t.Errorf("--project also wrote the user settings")
	}

	invalid := filepath.Join(proj, "bad.json")
	os.WriteFile(invalid, []byte(`{"hooks": {,}}`), 0o600)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"both targets", []string{"hooks", "install", "--project", "--settings", "x.json", "--bin-dir", bin}, 2},
		{"missing binaries", []string{"hooks", "install", "--settings", "y.json", "--bin-dir", proj}, 2},
		{"invalid json", []string{"hooks", "install", "--settings", invalid, "--bin-dir", bin}, 1},
		{"invalid json uninstall", []string{"hooks", "uninstall", "--settings", invalid}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code := run(tt.args); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
		})
	}
	if got, _ := os.ReadFile(invalid); string(got) != `{"hooks": {,}}` {
		t.Errorf("invalid file changed to %q", got)
	}
	for _, f := range []string{"x.json", "y.json"} {
		if _, err := os.Stat(filepath.Join(proj, f)); err == nil {
			t.Errorf("%s written despite the error", f)
		}
	}
}

// wiredEvents returns the events our entries in the settings file at path
// are wired to, in file order.
func wiredEvents(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	entries, err := settings.Inspect(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Ours {
			out = append(out, e.Event)
		}
	}
	return out
}

// TestHooksInstallOnlyAndSwitches: --only wires the named hooks and takes
// out our others; the config's switches keep a hook out whatever --only
// says, and a plain re-install honours them; status shows both, and the
// passthrough list.
func TestHooksInstallOnlyAndSwitches(t *testing.T) {
	path := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	t.Setenv("VAULTCTX_CONFIG", cfg)
	writeConfig := func(s string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeConfig("")
	// The prompt hook (userprompt) answers three events.
	prompt := []string{"UserPromptSubmit", "SessionStart", "SubagentStart"}
	all := append(slices.Clone(prompt), "PreToolUse", "PostToolUse")
	steps := []struct {
		name   string
		config string
		args   []string
		want   []string
		out    []string // substrings of stdout
	}{
		{"only two", "", []string{"--only", "prompt,pretool"}, append(slices.Clone(prompt), "PreToolUse"),
			[]string{"PostToolUse       not wired: not in --only"}},
		{"all again", "", nil, all, nil},
		{"only one takes the others out", "", []string{"--only", "posttooluse"}, []string{"PostToolUse"}, nil},
		{"config turns one off", "[hooks]\nposttooluse = false\n", nil, append(slices.Clone(prompt), "PreToolUse"),
			[]string{"PostToolUse       not wired: posttooluse = false under [hooks] in " + cfg}},
		{"--only cannot wire a hook the config turns off", "[hooks]\nposttooluse = false\n", []string{"--only", "userprompt,posttooluse"},
			prompt, []string{"not wired: posttooluse = false"}},
		{"the config is named before --only", "[hooks]\nposttooluse = false\n", []string{"--only", "userprompt,pretooluse"},
			append(slices.Clone(prompt), "PreToolUse"), []string{"PostToolUse       not wired: posttooluse = false under [hooks]"}},
		{"nothing left to wire", "[hooks]\nuserprompt = false\npretooluse = false\nposttooluse = false\n", nil, nil,
			[]string{"No hook to wire: took ours out of " + path}},
		{"on again", "[hooks]\nposttooluse = true\n", nil, all, nil},
	}
	for _, st := range steps {
		writeConfig(st.config)
		code, out := runCaptured(t, append([]string{"hooks", "install", "--bin-dir", bin}, st.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", st.name, code, out)
		}
		if got := wiredEvents(t, path); !slices.Equal(got, st.want) {
			t.Errorf("%s: wired %q, want %q", st.name, got, st.want)
		}
		for _, o := range st.out {
			if !strings.Contains(out, o) {
				t.Errorf("%s: output lacks %q:\n%s", st.name, o, out)
			}
		}
	}

	// Status: per hook its switch and its wiring, then the passthrough list.
	writeConfig("[hooks]\npretooluse = false\noutput_passthrough = [\"terraform plan\", \"git diff\"]\n")
	runCaptured(t, "hooks", "install", "--bin-dir", bin, "--only", "userprompt")
	writeConfig("[hooks]\nuserprompt = false\npretooluse = false\noutput_passthrough = [\"terraform plan\", \"git diff\"]\n")
	code, out := runCaptured(t, "hooks", "status")
	if code != 0 {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	want := []string{
		path,
		"  ! UserPromptSubmit  off (hooks.userprompt = false), but wired: '" + bin + "/vaultctx-userprompt' answers nothing; `vaultctx hooks install` takes it out",
		"  ! SessionStart      off (hooks.userprompt = false), but wired: '" + bin + "/vaultctx-userprompt' answers nothing; `vaultctx hooks install` takes it out",
		"  ! SubagentStart     off (hooks.userprompt = false), but wired: '" + bin + "/vaultctx-userprompt' answers nothing; `vaultctx hooks install` takes it out",
		"  – PreToolUse        off (hooks.pretooluse = false), not wired",
		"  ! PostToolUse       on, but not wired: `vaultctx hooks install` wires it",
		cfg + `: output of commands starting with "terraform plan", "git diff" passes through untouched`,
	}
	if got := strings.Split(strings.TrimSpace(out), "\n"); !slices.Equal(got, want) {
		t.Errorf("status =\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}
	writeConfig("")
	runCaptured(t, "hooks", "install", "--bin-dir", bin)
	if _, out := runCaptured(t, "hooks", "status"); strings.Count(out, "✓") != 5 || !strings.Contains(out, "no output_passthrough") {
		t.Errorf("status after a full install:\n%s", out)
	}

	// Bad input is a usage error that names it, and writes nothing.
	before, _ := os.ReadFile(path)
	code, _, stderr := runStderr(t, "hooks", "install", "--bin-dir", bin, "--only", "prompt,posttol")
	if code != 2 || !strings.Contains(stderr, `unknown hook "posttol": want userprompt, pretooluse or posttooluse`) {
		t.Errorf("--only with a bad name: exit %d, stderr %q", code, stderr)
	}
	writeConfig("[hooks]\npostooluse = false\n")
	code, _, stderr = runStderr(t, "hooks", "install", "--bin-dir", bin)
	if code != 1 || !strings.Contains(stderr, `"hooks.postooluse" (did you mean "hooks.posttooluse"?)`) {
		t.Errorf("a misspelt switch: exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Errorf("a refused install changed settings.json")
	}
}

// TestHooksInstallSummaryShowsFile: the summary of a re-install names what
// the file holds, the user's wrapper, matcher and timeout, not the
// template's (a fresh user's report: it printed "timeout 5s" and the
// template's matcher for an entry the install had kept at 30 s).
func TestHooksInstallSummaryShowsFile(t *testing.T) {
	path := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	if code := run([]string{"hooks", "install", "--bin-dir", bin}); code != 0 {
		t.Fatalf("install exit %d", code)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	es, err := settings.Inspect(src)
	if err != nil {
		t.Fatal(err)
	}
	var post settings.Entry
	for _, e := range es {
		if e.Event == "PostToolUse" && e.Ours {
			post = e
		}
	}
	if post.Command == "" {
		t.Fatalf("no PostToolUse entry of ours in\n%s", src)
	}
	edited := bytes.Replace(src, []byte(`"matcher": "`+post.Matcher+`"`), []byte(`"matcher": "`+post.Matcher+`|mcp__shell"`), 1)
	edited = bytes.Replace(edited, []byte(`"timeout": `+strconv.FormatFloat(post.Timeout, 'g', -1, 64)), []byte(`"timeout": 30`), 1)
	cmd, _ := json.Marshal(post.Command)
	wrapped, _ := json.Marshal("nice -n 5 " + post.Command)
	edited = bytes.Replace(edited, cmd, wrapped, 1)
	if bytes.Equal(edited, src) {
		t.Fatalf("could not edit\n%s", src)
	}
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin)
	if code != 0 {
		t.Fatalf("re-install exit %d\n%s", code, out)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "PostToolUse ") {
			line = l
		}
	}
	if !strings.Contains(line, "nice -n 5 ") || !strings.Contains(line, "|mcp__shell") || !strings.HasSuffix(line, ", timeout 30s") {
		t.Errorf("summary line %q, want the file's wrapper, matcher and 30 s timeout; output:\n%s", line, out)
	}
}

// TestHooksCdPrefixedEntry: a prompt hook entry the user wrote as
// `cd DIR && /…/vaultctx-userprompt` is ours to hooks install, status and
// uninstall: install keeps it (no second entry beside it) and stays
// idempotent, status shows it wired, uninstall takes it out; the user's
// own hook behind the same cd is never touched.
func TestHooksCdPrefixedEntry(t *testing.T) {
	isolateCLI(t)
	path := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	proj := t.TempDir()
	ourCmd := "cd " + settings.ShellQuote(proj) + " && " + settings.ShellQuote(filepath.Join(bin, settings.UserPromptBinary))
	userCmd := "cd " + settings.ShellQuote(proj) + " && ./my-hook.sh"
	src := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + jsonString(t, ourCmd) + `}]}, ` +
		`{"hooks": [{"type": "command", "command": ` + jsonString(t, userCmd) + `}]}]}}`
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := func() (ours, theirs []string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		es, err := settings.Inspect(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			switch {
			case e.Ours && e.Event == "UserPromptSubmit":
				ours = append(ours, e.Command)
			case !e.Ours:
				theirs = append(theirs, e.Command)
			}
		}
		return ours, theirs
	}

	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	installed, _ := os.ReadFile(path)
	if ours, theirs := commands(); !slices.Equal(ours, []string{ourCmd}) || !slices.Equal(theirs, []string{userCmd}) {
		t.Errorf("after install: ours %q, want only %q; the user's %q", ours, ourCmd, theirs)
	}
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second install: exit %d, want nothing changed\n%s", code, out)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, installed) {
		t.Errorf("second install changed the file:\n%s", again)
	}
	code, out := runCaptured(t, "hooks", "status")
	if want := "✓ UserPromptSubmit  on, wired: " + ourCmd + " (+1 other hook)"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("status: exit %d, want a line %q:\n%s", code, want, out)
	}
	if code, out := runCaptured(t, "hooks", "uninstall"); code != 0 {
		t.Fatalf("uninstall: exit %d\n%s", code, out)
	}
	if ours, theirs := commands(); len(ours) != 0 || !slices.Equal(theirs, []string{userCmd}) {
		t.Errorf("after uninstall: ours %q, want none; the user's %q, want %q", ours, theirs, userCmd)
	}
}

// jsonString returns s as a JSON string literal.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHooksStatusExitsOneOnFailure: hooks status exits 1, as doctor does
// for a failed check, whenever it marks a line ✗ (nothing wired, a wired
// binary gone, "disableAllHooks": true in settings.json, a config that
// does not parse), and 0 when every hook is wired or left out on purpose,
// all three included: turning every hook off in the config is a choice,
// and doctor's hooks check passes too. Its help says so.
func TestHooksStatusExitsOneOnFailure(t *testing.T) {
	vaultctx := hooktest.Build(t) // before isolateCLI moves Go's build cache
	isolateCLI(t)
	path := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	t.Setenv("VAULTCTX_CONFIG", cfg)
	writeFile := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(cfg, "")
	status := func(name string, want int) {
		t.Helper()
		code, out, stderr := runStderr(t, "hooks", "status")
		crosses := strings.Count(out, "✗")
		switch {
		case code != want:
			t.Errorf("%s: hooks status exit %d, want %d\n%s%s", name, code, want, out, stderr)
		case (crosses > 0) != (want != 0):
			t.Errorf("%s: exit %d with %d lines marked ✗:\n%s", name, code, crosses, out)
		case want != 0 && !strings.Contains(stderr, "vaultctx: hooks status: "):
			t.Errorf("%s: stderr %q does not say why it failed", name, stderr)
		}
	}

	status("nothing wired", 1)
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	status("all wired", 0)
	writeFile(cfg, "[hooks]\nposttooluse = false\n")
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	status("one left out on purpose", 0)
	writeFile(cfg, "")
	status("one on but not wired (a caveat, !)", 0)
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	if err := os.Remove(filepath.Join(bin, settings.PreToolUseBinary)); err != nil {
		t.Fatal(err)
	}
	status("a wired binary gone", 1)
	writeFile(filepath.Join(bin, settings.PreToolUseBinary), "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(filepath.Join(bin, settings.PreToolUseBinary), 0o755); err != nil {
		t.Fatal(err)
	}
	status("the binary back", 0)
	writeFile(cfg, "[hooks]\nposttoolus = false\n")
	status("a config that does not parse", 1)
	writeFile(cfg, "")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(path, strings.Replace(string(src), "{", `{"disableAllHooks": true, `, 1))
	status("disableAllHooks in settings.json", 1)
	writeFile(path, string(src))
	status("disableAllHooks gone", 0)

	writeFile(cfg, "[hooks]\nuserprompt = false\npretooluse = false\nposttooluse = false\n")
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 || !strings.Contains(out, "No hook to wire: took ours out") {
		t.Fatalf("install with every hook off: exit %d\n%s", code, out)
	}
	status("every hook off in the config", 0)
	if _, out := runCaptured(t, "hooks", "status"); strings.Count(out, "  – ") != 5 {
		t.Errorf("every hook off: want 5 lines marked –:\n%s", out)
	}
	_, out := runCaptured(t, "doctor")
	if got := doctorLines(out, "hooks wired"); !strings.HasPrefix(got, "✓ hooks wired: ") {
		t.Errorf("doctor with every hook off: %q\n%s", got, out)
	}
	for _, ev := range []string{"UserPromptSubmit", "PreToolUse", "PostToolUse"} {
		if got := doctorLines(out, ev+" round trip"); !strings.HasPrefix(got, "✓ "+ev+" round trip: skipped: off in the config") {
			t.Errorf("doctor with every hook off: %q\n%s", got, out)
		}
	}

	help, err := exec.Command(vaultctx, "hooks", "status", "--help").CombinedOutput()
	flat := strings.Join(strings.Fields(string(help)), " ")
	if err != nil || !strings.Contains(flat, "exits 1 when any line is marked ✗") || !strings.Contains(flat, `"disableAllHooks": true`) ||
		!strings.Contains(flat, "off in the config is not") {
		t.Errorf("hooks status --help (%v) does not give the exit status, and that a hook off in the config is no failure:\n%s", err, help)
	}
}

// TestHooksLeaveLookalikesAlone: hooks install, status and uninstall
// leave a user's hook that merely looks like ours exactly as it was (a
// hostile tester's list, on build 3d5d7f8: install deleted, replaced or
// rewrote each of these, or took it for our wiring and never added the
// real hook). Only an entry whose program is one of our three binaries,
// by its exact name, on an event the template wires it to, is ours.
func TestHooksLeaveLookalikesAlone(t *testing.T) {
	isolateCLI(t)
	bin := hooktest.FakeBinDir(t)
	b := func(name string) string { return settings.ShellQuote(filepath.Join(bin, name)) }
	tests := []struct{ event, command string }{
		{"Stop", "vaultctx index"},
		{"Notification", "/home/u/bin/vaultctx-notify --desktop"},
		{"PreToolUse", "/home/u/bin/vaultctx-guard"},
		{"UserPromptSubmit", "cd /tmp && cd /var && ./vaultctx-userprompt-wrapper"},
		{"UserPromptSubmit", "/opt/vaultctx-userprompt.sh"},
		{"UserPromptSubmit", "/opt/vaultctx-userprompt2"},
		{"UserPromptSubmit", "cd /tmp && my-tool --exec=" + b(settings.UserPromptBinary)},
		{"UserPromptSubmit", "tee -a /tmp/log --out=" + b(settings.UserPromptBinary)},
		{"UserPromptSubmit", "rm -f /tmp/vaultctx-userprompt"},
		{"UserPromptSubmit", "cd /x && echo " + b(settings.UserPromptBinary)},
		{"UserPromptSubmit", "cat " + b(settings.UserPromptBinary)},
		{"UserPromptSubmit", "cd " + b(settings.UserPromptBinary)},
		{"Stop", b(settings.UserPromptBinary)}, // ours by name, but we never wire Stop
	}
	for _, tt := range tests {
		t.Run(tt.event+" "+tt.command, func(t *testing.T) {
			path := hooktest.FreshClaude(t)
			group := `{"hooks": [{"type": "command", "command": ` + jsonString(t, tt.command) + `}]}`
			if tt.event == "PreToolUse" {
				group = `{"matcher": "Bash", ` + group[1:]
			}
			orig := []byte(`{"hooks": {"` + tt.event + `": [` + group + `]}}` + "\n")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				t.Fatal(err)
			}
			entries := func() []settings.Entry {
				t.Helper()
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				es, err := settings.Inspect(src)
				if err != nil {
					t.Fatal(err)
				}
				return es
			}
			code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin)
			if code != 0 || strings.Contains(out, "already wired") {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
			var theirs []settings.Entry
			ours := map[string]int{}
			for _, e := range entries() {
				if e.Ours {
					ours[e.Event]++
				} else {
					theirs = append(theirs, e)
				}
			}
			if len(theirs) != 1 || theirs[0].Event != tt.event || theirs[0].Command != tt.command {
				t.Errorf("the user's hooks after install: %+v, want %s %q as it was", theirs, tt.event, tt.command)
			}
			for _, ev := range []string{"UserPromptSubmit", "SessionStart", "SubagentStart", "PreToolUse", "PostToolUse"} {
				if ours[ev] != 1 {
					t.Errorf("%s: %d entries of ours after install, want 1", ev, ours[ev])
				}
			}
			code, out = runCaptured(t, "hooks", "status")
			if code != 0 || strings.Count(out, "✓") != 5 {
				t.Errorf("status: exit %d, want 5 hooks wired (✓):\n%s", code, out)
			}
			if code, out := runCaptured(t, "hooks", "uninstall"); code != 0 {
				t.Fatalf("uninstall: exit %d\n%s", code, out)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
				t.Errorf("uninstall left\n%s\nwant the user's file back\n%s", got, orig)
			}
			// Uninstall alone, before any install, finds nothing of ours.
			if code, out := runCaptured(t, "hooks", "uninstall"); code != 0 || !strings.Contains(out, "nothing changed") {
				t.Errorf("uninstall of a file without ours: exit %d\n%s", code, out)
			}
		})
	}
}

// TestHooksStatusCdToMissingFolder: `cd DIR && /…/vaultctx-userprompt`
// with no DIR fails at every run (sh exits 2, which blocks the prompt in
// Claude Code), so hooks status marks it ✗ with the fix and exits 1, and
// doctor's hooks check fails with the same fix; once the folder exists
// both pass again.
func TestHooksStatusCdToMissingFolder(t *testing.T) {
	isolateCLI(t)
	path := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "nonexistent-dir")
	up := settings.ShellQuote(filepath.Join(bin, settings.UserPromptBinary))
	cmd := "cd " + gone + " && " + up
	edited := strings.Replace(string(src), jsonString(t, up), jsonString(t, cmd), 1) // the first: UserPromptSubmit
	if edited == string(src) {
		t.Fatalf("no %s in\n%s", up, src)
	}
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("sh", "-c", cmd).Run(); err == nil {
		t.Fatalf("sh -c %q succeeded", cmd)
	}

	code, out, stderr := runStderr(t, "hooks", "status")
	want := "  ✗ UserPromptSubmit  " + cmd + ": cd " + gone + " fails (no such folder), so the hook never runs: sh exits non-zero (dash: 2, which Claude Code takes as a block); fix: create " + gone + ", or take the cd out of the entry\n"
	if code != 1 || !strings.Contains(out, want) || strings.Count(out, "✗") != 1 || !strings.Contains(stderr, "1 line marked ✗") {
		t.Errorf("status: exit %d, want 1 and the line\n%s\ngot\n%s%s", code, want, out, stderr)
	}
	_, out = runCaptured(t, "doctor")
	if got := doctorLines(out, "hooks wired"); !strings.HasPrefix(got, "✗ hooks wired: ") || !strings.Contains(got, "UserPromptSubmit: cd "+gone+" fails") ||
		!strings.HasSuffix(got, "\n    fix: create "+gone+", or take the cd out of the hook's entry in settings.json (a re-install keeps it)") {
		t.Errorf("doctor's hooks check:\n%s\nin\n%s", got, out)
	}

	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := runCaptured(t, "hooks", "status"); code != 0 || !strings.Contains(out, "✓ UserPromptSubmit  on, wired: "+cmd+"\n") {
		t.Errorf("status once the folder exists: exit %d\n%s", code, out)
	}
	if _, out := runCaptured(t, "doctor"); !strings.HasPrefix(doctorLines(out, "hooks wired"), "✓ hooks wired: ") {
		t.Errorf("doctor once the folder exists:\n%s", out)
	}
}

// TestHooksStatusPortablePaths: entries naming our binaries as sh finds
// them from HOME or PATH ($HOME/…, "$HOME/…", ~/…, a bare name on PATH)
// work, so status passes (exit 0), doctor's hooks check passes, and a
// re-install from that bin directory leaves what the user wrote; a cd to
// a missing folder under ~ or $HOME in front of them fails every time, so
// status marks it ✗.
func TestHooksStatusPortablePaths(t *testing.T) {
	isolateCLI(t)
	path := hooktest.FreshClaude(t)
	home := os.Getenv("HOME")
	bin := filepath.Join(home, ".local", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range settings.Binaries {
		if err := os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	installed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rewrite := func(t *testing.T, form func(b string) string) string {
		t.Helper()
		src := string(installed)
		for _, b := range settings.Binaries {
			src = strings.ReplaceAll(src, jsonString(t, filepath.Join(bin, b)), jsonString(t, form(b)))
		}
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return src
	}
	for _, tc := range []struct {
		name string
		form func(b string) string
	}{
		{"$HOME", func(b string) string { return "$HOME/.local/bin/" + b }},
		{"quoted $HOME", func(b string) string { return `"$HOME/.local/bin/` + b + `"` }},
		{"${HOME}", func(b string) string { return "${HOME}/.local/bin/" + b }},
		{"tilde", func(b string) string { return "~/.local/bin/" + b }},
		{"on PATH", func(b string) string { return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := rewrite(t, tc.form)
			up := tc.form(settings.UserPromptBinary)
			if err := exec.Command("sh", "-c", up+" </dev/null").Run(); err != nil {
				t.Fatalf("premise: sh -c %s: %v", up, err)
			}
			code, out := runCaptured(t, "hooks", "status")
			if code != 0 || strings.Contains(out, "✗") || !strings.Contains(out, "✓ UserPromptSubmit  on, wired: "+up+"\n") {
				t.Errorf("status: exit %d\n%s", code, out)
			}
			if _, out := runCaptured(t, "doctor"); !strings.HasPrefix(doctorLines(out, "hooks wired"), "✓ hooks wired: ") {
				t.Errorf("doctor's hooks check:\n%s", doctorLines(out, "hooks wired"))
			}
			if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
				t.Fatalf("re-install: exit %d\n%s", code, out)
			}
			if got, _ := os.ReadFile(path); string(got) != src {
				t.Errorf("re-install rewrote the entries:\n%s\nwant\n%s", got, src)
			}

			for _, cd := range []string{"cd ~/missing && ", "cd $HOME/missing && ", "env -C ~/missing "} {
				cmd := cd + up
				if err := exec.Command("sh", "-c", cmd+" </dev/null").Run(); err == nil {
					t.Fatalf("premise: sh -c %s succeeded", cmd)
				}
				edited := strings.Replace(src, jsonString(t, up), jsonString(t, cmd), 1) // UserPromptSubmit
				if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
					t.Fatal(err)
				}
				code, out := runCaptured(t, "hooks", "status")
				if want := "  ✗ UserPromptSubmit  " + cmd + ": "; code != 1 || !strings.Contains(out, want) || !strings.Contains(out, filepath.Join(home, "missing")+" fails (no such folder)") {
					t.Errorf("status with %q: exit %d, want 1 and %q\n%s", cmd, code, want, out)
				}
			}
		})
	}
}

// TestHooksStatusAdviceKeepsTarget: the install advice of `hooks status
// --settings FILE` and `--project` carries that flag, so typed as shown it
// edits the file status looked at; and with --project, hooks the user
// settings wire count as wired (Claude Code runs the hooks of both files).
func TestHooksStatusAdviceKeepsTarget(t *testing.T) {
	isolateCLI(t)
	userPath := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	proj := t.TempDir()
	t.Chdir(proj)
	other := filepath.Join(proj, "other settings.json")
	if code, out := runCaptured(t, "hooks", "install", "--settings", other, "--bin-dir", bin, "--only", "posttooluse"); code != 0 {
		t.Fatalf("install --settings: exit %d\n%s", code, out)
	}
	code, out := runCaptured(t, "hooks", "status", "--settings", other)
	if want := "`vaultctx hooks install --settings " + settings.ShellQuote(other) + "` wires it"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("status --settings: exit %d, want the advice %s\n%s", code, want, out)
	}

	code, out = runCaptured(t, "hooks", "status", "--project")
	if want := "✗ UserPromptSubmit  on, but not wired: `vaultctx hooks install --project` wires it"; code != 1 || !strings.Contains(out, want) {
		t.Errorf("status --project with nothing wired: exit %d, want %s\n%s", code, want, out)
	}

	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "hooks", "status", "--project")
	if want := "✓ UserPromptSubmit  on, wired: in " + userPath + ": "; code != 0 || strings.Contains(out, "not wired") || !strings.Contains(out, want) {
		t.Errorf("status --project with the user settings wired: exit %d, want %s\n%s", code, want, out)
	}
	// Wired in both files, to other binaries: both run.
	if code, out := runCaptured(t, "hooks", "install", "--project", "--bin-dir", hooktest.FakeBinDir(t)); code != 0 {
		t.Fatalf("install --project: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "hooks", "status", "--project")
	if want := "wired in " + userPath + " as well: Claude Code runs both"; code != 0 || !strings.Contains(out, "! UserPromptSubmit") || !strings.Contains(out, want) {
		t.Errorf("status --project with both files wired: exit %d, want %s\n%s", code, want, out)
	}
}
