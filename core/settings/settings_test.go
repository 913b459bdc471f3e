package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/install"
)

// freshEnv gives the test an empty HOME and CLAUDE_CONFIG_DIR and returns the
// settings path they select.
func freshEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "claude-config")
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	p, err := UserPath(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cfg, "settings.json"); p != want {
		t.Fatalf("UserPath = %s, want %s", p, want)
	}
	return p
}

// mustPlan renders the real template for binDir.
func mustPlan(t testing.TB, binDir string) *Plan {
	t.Helper()
	p, err := Render(install.SettingsTemplate, binDir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// layouts returns the competitors fixture as written, on one line, and
// indented with tabs and with four spaces.
func layouts(t *testing.T) map[string][]byte {
	orig := readFixture(t, "competitors.json")
	var compact, tabs, four bytes.Buffer
	if err := json.Compact(&compact, orig); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&tabs, compact.Bytes(), "", "\t"); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&four, compact.Bytes(), "", "    "); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"two spaces": orig,
		"one line":   compact.Bytes(),
		"tabs":       append(tabs.Bytes(), '\n'),
		"four":       four.Bytes(),
		"crlf":       bytes.ReplaceAll(orig, []byte("\n"), []byte("\r\n")),
	}
}

// foreign returns the entries of src that are not ours.
func foreign(t testing.TB, src []byte) []Entry {
	t.Helper()
	es, err := Inspect(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for _, e := range es {
		if !e.Ours {
			out = append(out, e)
		}
	}
	return out
}

// topLevel returns each top-level key of src but "hooks" with its value's
// exact bytes, in order.
func topLevel(t testing.TB, src []byte) []string {
	t.Helper()
	root, err := parseTree(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range root.members {
		if m.key != "hooks" {
			out = append(out, m.key+"="+string(src[m.val.start:m.val.end]))
		}
	}
	return out
}

// ours returns event -> commands of our entries in src.
func ours(t testing.TB, src []byte) map[string][]string {
	t.Helper()
	es, err := Inspect(src)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range es {
		if e.Ours {
			out[e.Event] = append(out[e.Event], e.Command)
		}
	}
	return out
}

func TestInstallTwiceUninstallRestoresEveryByte(t *testing.T) {
	for name, orig := range layouts(t) {
		t.Run(name, func(t *testing.T) {
			path := freshEnv(t)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, orig, 0o640); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(t.TempDir(), "bin")
			plan := mustPlan(t, bin)
			ctx := context.Background()

			res, err := Install(ctx, path, plan)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed || res.Backup == "" {
				t.Fatalf("first install: %+v, want a change with a backup", res)
			}
			if b, err := os.ReadFile(res.Backup); err != nil || !bytes.Equal(b, orig) {
				t.Fatalf("backup %s does not hold the original (err %v)", res.Backup, err)
			}
			installed, _ := os.ReadFile(path)
			if !json.Valid(installed) {
				t.Fatalf("installed file is not JSON:\n%s", installed)
			}
			if lf, crlf := bytes.Count(installed, []byte("\n")), bytes.Count(installed, []byte("\r\n")); crlf > 0 && crlf != lf {
				t.Errorf("mixed line ends: %d of %d lines end in CRLF", crlf, lf)
			}
			if got, want := topLevel(t, installed), topLevel(t, orig); !reflect.DeepEqual(got, want) {
				t.Errorf("top-level keys or values changed:\n got %q\nwant %q", got, want)
			}
			if got, want := foreign(t, installed), foreign(t, orig); !reflect.DeepEqual(got, want) {
				t.Errorf("foreign hooks changed:\n got %+v\nwant %+v", got, want)
			}
			wired := ours(t, installed)
			for _, g := range plan.Groups {
				if got := wired[g.Event]; len(got) != 1 || got[0] != g.Handler.Command {
					t.Errorf("%s: our commands %q, want exactly [%s]", g.Event, got, g.Handler.Command)
				}
			}
			if len(wired) != len(plan.Groups) {
				t.Errorf("wired events %v, want only the plan's %d", wired, len(plan.Groups))
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
			}

			res, err = Install(ctx, path, plan)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadFile(path); res.Changed || !bytes.Equal(again, installed) {
				t.Errorf("second install changed the file (%+v)", res)
			}

			res, err = Uninstall(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed || res.Backup == "" {
				t.Errorf("uninstall: %+v, want a change with a backup", res)
			}
			final, _ := os.ReadFile(path)
			if !bytes.Equal(final, orig) {
				t.Errorf("uninstall did not restore the file:\n%s", final)
			}
			backups, _ := filepath.Glob(path + ".bak-*")
			if len(backups) != 2 {
				t.Errorf("backups %v, want 2 (install, uninstall)", backups)
			}
			if tmp, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(tmp) != 0 {
				t.Errorf("temporary files left: %v", tmp)
			}
		})
	}
}

func TestInstallCreatesMissingFileAndDir(t *testing.T) {
	path := freshEnv(t) // CLAUDE_CONFIG_DIR does not exist yet
	ctx := context.Background()
	plan := mustPlan(t, "/opt/vaultctx/bin")
	res, err := Install(ctx, path, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || !res.Changed || res.Backup != "" {
		t.Errorf("result %+v, want created without backup", res)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(src, []byte("{\n  \"hooks\": {\n")) || !bytes.HasSuffix(src, []byte("}\n")) {
		t.Errorf("new file is not laid out like Claude Code's:\n%s", src)
	}
	if got := ours(t, src)["PreToolUse"]; len(got) != 1 || got[0] != "/opt/vaultctx/bin/vaultctx-pretooluse" {
		t.Errorf("PreToolUse commands %q", got)
	}
	if _, err := Uninstall(ctx, path); err != nil {
		t.Fatal(err)
	}
	if src, _ := os.ReadFile(path); string(src) != "{}\n" {
		t.Errorf("after uninstall: %q, want {}", src)
	}
}

func TestUninstallEmptyFileWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte("\n"), 0o600)
	res, err := Uninstall(context.Background(), path)
	if err != nil || res.Changed {
		t.Fatalf("Uninstall = %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(path); string(got) != "\n" {
		t.Errorf("file changed to %q", got)
	}
}

func TestUninstallMissingFileWritesNothing(t *testing.T) {
	path := freshEnv(t)
	res, err := Uninstall(context.Background(), path)
	if err != nil || res.Changed {
		t.Fatalf("Uninstall = %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("uninstall created %s", filepath.Dir(path))
	}
}

func TestInvalidJSONIsNeverTouched(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
	}{
		{"trailing comma", "{\n  \"model\": \"opus\",\n}\n", 3},
		{"comment", "{\n  // my settings\n  \"model\": \"opus\"\n}\n", 2},
		{"truncated", "{\n  \"hooks\": {\n    \"Stop\": [\n", 4},
		{"two values", "{}\n{}\n", 2},
		{"byte order mark", "\ufeff{}", 1},
		{"single quotes", "{'model': 'opus'}", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := freshEnv(t)
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, []byte(tt.src), 0o600); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for op, run := range map[string]func() error{
				"install":   func() error { _, err := Install(ctx, path, mustPlan(t, "/b")); return err },
				"uninstall": func() error { _, err := Uninstall(ctx, path); return err },
				"status":    func() error { _, err := Status(ctx, path); return err },
			} {
				err := run()
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("%s: error %v, want *SyntaxError", op, err)
				}
				if se.Path != path || se.Line != tt.line {
					t.Errorf("%s: path %q line %d, want %q line %d", op, se.Path, se.Line, path, tt.line)
				}
				if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "not valid JSON") {
					t.Errorf("%s: unclear message %q", op, msg)
				}
			}
			if got, _ := os.ReadFile(path); string(got) != tt.src {
				t.Errorf("file changed to %q", got)
			}
			if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
				t.Errorf("directory holds %d entries, want only settings.json", len(ents))
			}
		})
	}
}

func TestShapeErrorsLeaveFileAlone(t *testing.T) {
	tests := []struct{ name, src string }{
		{"top level array", `[{"hooks": {}}]`},
		{"hooks is an array", `{"hooks": []}`},
		{"hooks is null", `{"hooks": null}`},
		{"event is an object", `{"hooks": {"PreToolUse": {"matcher": "Bash"}}}`},
		{"duplicate hooks", `{"hooks": {}, "hooks": {}}`},
		{"duplicate event", `{"hooks": {"Stop": [], "Stop": []}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			os.WriteFile(path, []byte(tt.src), 0o600)
			_, err := Install(context.Background(), path, mustPlan(t, "/b"))
			if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want ErrShape naming the path", err)
			}
			if got, _ := os.ReadFile(path); string(got) != tt.src {
				t.Errorf("file changed to %q", got)
			}
		})
	}
}

func TestStaleAndDuplicateEntries(t *testing.T) {
	orig := readFixture(t, "stale.json")
	plan := mustPlan(t, "/new/bin")
	out, err := Merge(orig, plan)
	if err != nil {
		t.Fatal(err)
	}
	wired := ours(t, out)
	want := map[string][]string{}
	for _, g := range plan.Groups {
		want[g.Event] = []string{g.Handler.Command}
	}
	if !reflect.DeepEqual(wired, want) {
		t.Errorf("ours after merge %v, want %v", wired, want)
	}
	if got, want := foreign(t, out), foreign(t, orig); !reflect.DeepEqual(got, want) {
		t.Errorf("foreign hooks changed:\n got %+v\nwant %+v", got, want)
	}
	// The first PreToolUse entry of ours shares a group with a foreign
	// hook, under a narrower matcher: it stays there as it was, with only
	// its path updated, and the two later duplicates go.
	es, _ := Inspect(out)
	var pre []Entry
	for _, e := range es {
		if e.Event == "PreToolUse" {
			pre = append(pre, e)
		}
	}
	if len(pre) != 2 || pre[0].Ours || !pre[1].Ours || pre[1].Matcher != "Grep|Glob" || pre[1].Timeout != 5 ||
		pre[1].Command != "/new/bin/vaultctx-pretooluse" {
		t.Errorf("PreToolUse entries %+v", pre)
	}
	// No vaultctx template ever wired Stop, nor a binary named
	// vaultctx-stop: that entry is the user's and stays.
	if !bytes.Contains(out, []byte(`"/opt/old/bin/vaultctx-stop"`)) {
		t.Errorf("the user's Stop hook was taken out:\n%s", out)
	}
	if again, _ := Merge(out, plan); !bytes.Equal(again, out) {
		t.Errorf("merge is not idempotent")
	}
	removed, err := Remove(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours(t, removed)) != 0 {
		t.Errorf("entries of ours survived Remove:\n%s", removed)
	}
	if got, want := foreign(t, removed), foreign(t, orig); !reflect.DeepEqual(got, want) {
		t.Errorf("Remove changed foreign hooks")
	}
}

func TestReinstallFromAnotherDirUpdatesInPlace(t *testing.T) {
	orig := readFixture(t, "competitors.json")
	a, err := Merge(orig, mustPlan(t, "/old/bin"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Merge(a, mustPlan(t, "/new place/bin"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ours(t, b)["PostToolUse"]; len(got) != 1 || got[0] != "'/new place/bin/vaultctx-posttooluse'" {
		t.Errorf("PostToolUse commands %q", got)
	}
	// Same length apart from the path change: nothing was added or moved.
	// Five entries: the prompt hook's three events, PreToolUse, PostToolUse.
	grow := 5 * (len("'/new place/bin'") - len("/old/bin"))
	if len(b)-len(a) != grow {
		t.Errorf("size changed by %d bytes, want %d (in-place path update)", len(b)-len(a), grow)
	}
}

func TestSharedGroupKeepsForeignHandlers(t *testing.T) {
	src := []byte(`{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"rtk"},{"type":"command","command":"/x/vaultctx-posttooluse","timeout":10}]}]}}`)
	out, err := Remove(src)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"rtk"}]}]}}`
	if string(out) != want {
		t.Errorf("Remove =\n%s\nwant\n%s", out, want)
	}
}

func TestSymlinkedSettingsStayASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude-settings.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, readFixture(t, "competitors.json"), 0o600)
	link := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink("../dotfiles/claude-settings.json", link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	res, err := Install(context.Background(), link, mustPlan(t, "/b"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != target {
		t.Errorf("edited %s, want the link target %s", res.Path, target)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("settings.json is no longer a symlink")
	}
	if len(ours(t, mustRead(t, link))) != 5 {
		t.Errorf("hooks not wired through the symlink")
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestUserPath(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"home", map[string]string{"HOME": "/home/ana"}, "/home/ana/.claude/settings.json"},
		{"config dir", map[string]string{"HOME": "/home/ana", "CLAUDE_CONFIG_DIR": "/srv/claude"}, "/srv/claude/settings.json"},
		{"config dir with tilde", map[string]string{"HOME": "/home/ana", "CLAUDE_CONFIG_DIR": "~/alt"}, "/home/ana/alt/settings.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := UserPath(func(k string) string { return tt.env[k] })
			if err != nil || got != tt.want {
				t.Errorf("UserPath = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if got := ProjectPath("/repo"); got != "/repo/.claude/settings.json" {
		t.Errorf("ProjectPath = %q", got)
	}
}

func TestTemplateTimeoutsAreSecondsAtMost30(t *testing.T) {
	plan := mustPlan(t, "/b")
	events := map[string]string{}
	for _, g := range plan.Groups {
		events[g.Event] = g.Handler.Binary
		if g.Handler.Timeout <= 0 || g.Handler.Timeout > 30 {
			t.Errorf("%s: timeout %v s, want 1..30 seconds", g.Event, g.Handler.Timeout)
		}
		if !filepath.IsAbs(g.Handler.Command) {
			t.Errorf("%s: command %q is not absolute", g.Event, g.Handler.Command)
		}
	}
	want := map[string]string{
		"UserPromptSubmit": UserPromptBinary,
		"SessionStart":     UserPromptBinary,
		"SubagentStart":    UserPromptBinary,
		"PreToolUse":       PreToolUseBinary,
		"PostToolUse":      PostToolUseBinary,
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events %v, want %v", events, want)
	}
	// What lands in the file says the same.
	out, _ := Merge(nil, plan)
	es, _ := Inspect(out)
	for _, e := range es {
		if e.Timeout <= 0 || e.Timeout > 30 {
			t.Errorf("%s: written timeout %v", e.Event, e.Timeout)
		}
	}
}

func TestRenderRejectsBadTemplates(t *testing.T) {
	tests := []struct{ name, tmpl, why string }{
		{"millisecond timeout", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":{{json .UserPrompt}},"timeout":5000}]}]}}`, "timeout"},
		{"no timeout", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":{{json .UserPrompt}}}]}]}}`, "timeout"},
		{"foreign command", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"rm -rf /","timeout":5}]}]}}`, "does not run"},
		{"two groups", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":{{json .UserPrompt}},"timeout":5}]},{"hooks":[]}]}}`, "one matcher group"},
		{"not json", `{"hooks":{{.UserPrompt}}}`, ""},
		{"unknown field", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":{{json .Nope}},"timeout":5}]}]}}`, ""},
		// A new event for a binary must be added to hookEvents too, or
		// Ours would not know the entries the template writes there.
		{"an event hookEvents lacks", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":{{json .UserPrompt}},"timeout":5}]}]}}`, "hookEvents"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render([]byte(tt.tmpl), "/b")
			if err == nil || !strings.Contains(err.Error(), tt.why) {
				t.Errorf("Render(%s) = %v, want an error mentioning %q", tt.tmpl, err, tt.why)
			}
		})
	}
}

// TestOurs: an entry is ours only when the program its first command
// runs, after a leading cd, assignments and the wrappers Ours knows, is
// one of our binaries by its exact name, on an event the template wires it
// to. An argument of another program, another name, or another event is
// the user's (a hostile tester's cases, each of which a re-install used to
// rewrite or delete).
func TestOurs(t *testing.T) {
	const (
		up   = "UserPromptSubmit"
		pre  = "PreToolUse"
		post = "PostToolUse"
	)
	tests := []struct {
		event, command string
		bin            string
		ours           bool
	}{
		{up, "/home/a/.local/bin/vaultctx-userprompt", "vaultctx-userprompt", true},
		{pre, "'/home/a b/bin/vaultctx-pretooluse' --debug", "vaultctx-pretooluse", true},
		{post, `"/home/a \"b\"/vaultctx-posttooluse"`, "vaultctx-posttooluse", true},
		{post, `/home/a\ b/vaultctx-posttooluse`, "vaultctx-posttooluse", true},
		{up, `C:\tools\vaultctx-userprompt.exe`, "vaultctx-userprompt.exe", false}, // not Windows: another program
		{up, "/opt/tools/vaultctx-userprompt.exe", "vaultctx-userprompt.exe", false},
		{up, "vaultctx-userprompt", "vaultctx-userprompt", true}, // found on PATH
		{"SessionStart", "/x/vaultctx-userprompt", "vaultctx-userprompt", true},
		{"SubagentStart", "/x/vaultctx-userprompt", "vaultctx-userprompt", true},
		{up, "node ~/.claude-mem/vaultctx-userprompt.js", "node", false},
		{up, "/usr/bin/vaultctxish", "vaultctxish", false},
		{up, "echo vaultctx-userprompt", "echo", false},
		{up, "/x/vaultctx-userprompt;rm -rf /", "vaultctx-userprompt", true},
		{up, "", "", false},
		{up, "VAULTCTX_LOG=/tmp/hook.log /x/vaultctx-userprompt", "vaultctx-userprompt", true},
		{pre, "env A=1 B='x y' /x/vaultctx-pretooluse", "vaultctx-pretooluse", true},
		{pre, "env -u HOME -C /tmp A=1 /x/vaultctx-pretooluse", "vaultctx-pretooluse", true},
		{post, "exec /x/vaultctx-posttooluse", "vaultctx-posttooluse", true},
		{up, "'A=1' /x/vaultctx-userprompt", "A=1", false}, // sh runs a program named "A=1"
		{up, "nice -n 5 /x/vaultctx-userprompt", "vaultctx-userprompt", true},
		{up, "nice -n5 nohup /x/vaultctx-userprompt", "vaultctx-userprompt", true},
		{pre, "VAULTCTX_LOG=/tmp/l /usr/bin/time -o /tmp/t '/a b/vaultctx-pretooluse' --x", "vaultctx-pretooluse", true},
		{post, "timeout -s KILL 9 /x/vaultctx-posttooluse", "vaultctx-posttooluse", true},
		{post, "flock -w 3 /tmp/lock /x/vaultctx-posttooluse", "vaultctx-posttooluse", true},
		{post, "flock /tmp/lock -c '/x/vaultctx-posttooluse 2>>/tmp/e'", "vaultctx-posttooluse", true},
		{post, "stdbuf -oL ionice -c 3 /x/vaultctx-posttooluse", "vaultctx-posttooluse", true},
		{up, "command -v /x/vaultctx-userprompt", "command", false}, // prints the path, runs nothing
		{up, "timeout 9 /x/vaultctx-stop", "timeout", false},        // a wrapped binary must be one of ours by name
		{post, "my-tool --conf /etc/vaultctx-posttooluse.toml", "my-tool", false},
		{up, "VAULTCTX_LOG=/tmp/vaultctx-userprompt /x/other", "other", false},   // assignments are not commands
		{up, "run /x/vaultctx-userprompt; /y/vaultctx-pretooluse", "run", false}, // an argument of another program
		{pre, "run x; /y/vaultctx-pretooluse", "run", false},                     // only the first command counts
		{up, "A=1", "A=1", false},
		{up, "A=1; /x/vaultctx-userprompt", "A=1", false},
		{up, "/opt/a=b/vaultctx-userprompt", "vaultctx-userprompt", true},
		// A leading `cd DIR &&` (or `cd DIR;`) only picks the folder the
		// next command runs in: that command is the one that counts.
		{up, "cd /some/dir && /x/vaultctx-userprompt", "vaultctx-userprompt", true},
		{up, `cd "$CLAUDE_PROJECT_DIR" && VAULTCTX_LOG=/tmp/l /x/vaultctx-userprompt`, "vaultctx-userprompt", true},
		{pre, "cd /a; cd '/b c'&&nice -n 5 /x/vaultctx-pretooluse --x", "vaultctx-pretooluse", true},
		{post, `sh -c 'cd /p && exec /x/vaultctx-posttooluse'`, "vaultctx-posttooluse", true},
		{up, `bash -lc "VAULTCTX_LOG=/tmp/l /x/vaultctx-userprompt"`, "vaultctx-userprompt", true},
		{up, "sh /x/vaultctx-userprompt", "sh", false}, // a script for sh, not our binary
		{up, "cd /x && node ~/.claude-mem/vaultctx-userprompt.js", "node", false},
		{up, "cd /x/vaultctx-userprompt && ls", "ls", false},  // cd's folder is no program of ours
		{up, "cd /x || /x/vaultctx-userprompt", "cd", false},  // runs only when cd fails
		{up, "cd /x & /x/vaultctx-userprompt", "cd", false},   // cd in the background
		{up, "make && /x/vaultctx-userprompt", "make", false}, // only cd is skipped
		{up, "cd && /x/vaultctx-userprompt", "vaultctx-userprompt", true},
		// Another name than our three binaries is never ours: the CLI, a
		// tool of the user's named like ours, a wrapper script.
		{"Stop", "vaultctx index", "vaultctx", false},
		{up, "vaultctx index", "vaultctx", false},
		{up, "  vaultctx-new-hook", "vaultctx-new-hook", false},
		{"Notification", "/home/u/bin/vaultctx-notify --desktop", "vaultctx-notify", false},
		{pre, "/home/u/bin/vaultctx-guard", "vaultctx-guard", false},
		{up, "cd /tmp && cd /var && ./vaultctx-userprompt-wrapper", "vaultctx-userprompt-wrapper", false},
		{up, "/opt/vaultctx-userprompt.sh", "vaultctx-userprompt.sh", false},
		{up, "/opt/vaultctx-userprompt2", "vaultctx-userprompt2", false},
		// Arguments of another program are never ours, paths or not.
		{up, "cd /tmp && my-tool --exec=/b/vaultctx-userprompt", "my-tool", false},
		{up, "tee -a /tmp/log --out=/b/vaultctx-userprompt", "tee", false},
		{up, "rm -f /tmp/vaultctx-userprompt", "rm", false},
		{up, "cd /x && echo /b/vaultctx-userprompt", "echo", false},
		{up, "cat /b/vaultctx-userprompt", "cat", false},
		{up, "cd /b/vaultctx-userprompt", "cd", false},
		// Our binary on an event the template never wires it to is the
		// user's.
		{"Stop", "/b/vaultctx-userprompt", "vaultctx-userprompt", false},
		{pre, "/b/vaultctx-userprompt", "vaultctx-userprompt", false},
		{up, "/b/vaultctx-posttooluse", "vaultctx-posttooluse", false},
	}
	for _, tt := range tests {
		t.Run(tt.event+" "+tt.command, func(t *testing.T) {
			bin, ok := Ours(tt.event, tt.command)
			if bin != tt.bin || ok != tt.ours {
				t.Errorf("Ours(%q, %q) = %q, %v; want %q, %v", tt.event, tt.command, bin, ok, tt.bin, tt.ours)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/usr/local/bin/x", "/usr/local/bin/x"},
		{"/home/a b/x", "'/home/a b/x'"},
		{"/it's/x", `'/it'\''s/x'`},
		{"", "''"},
	}
	for _, tt := range tests {
		if got := ShellQuote(tt.in); got != tt.want {
			t.Errorf("ShellQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if bin, _ := Ours("UserPromptSubmit", ShellQuote(tt.in+"/vaultctx-x")); bin != "vaultctx-x" {
			t.Errorf("Ours does not read back ShellQuote(%q): %q", tt.in, bin)
		}
	}
}

func TestDisabled(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`{"disableAllHooks": true}`, true},
		{`{"disableAllHooks": false}`, false},
		{`{"disableAllHooks": "true"}`, false},
		{`{"nested": {"disableAllHooks": true}}`, false},
		{`{}`, false},
		{`not json`, false},
	}
	for _, tt := range tests {
		if got := Disabled([]byte(tt.src)); got != tt.want {
			t.Errorf("Disabled(%s) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestProgram(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b", "/a/b"},
		{"/a/b --x", "/a/b"},
		{"'/a b/c'", "/a b/c"},
		{`'/it'\''s/c' --x`, "/it's/c"},
		{`"/a \"q\"/c"`, `/a "q"/c`},
		{`/a\ b/c`, "/a b/c"},
		{"VAULTCTX_LOG=/tmp/l env X='1 2' exec /a/c -v", "/a/c"},
		{"  /a/c;rm x", "/a/c"},
		{"'A=1' /a/c", "A=1"},
		{"A=1", "A=1"},
		{"env", "env"},
		{"nice -n 5 /a/c", "nice"},
		{"cd /p && /a/c --x", "/a/c"},
		{`cd "/p q" ; X=1 /a/c`, "/a/c"},
		{"cd /p", "cd"},
		{"cd /p || /a/c", "cd"},
	}
	for _, tt := range tests {
		if got := Program(tt.in); got != tt.want {
			t.Errorf("Program(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Program(ShellQuote(tt.want)); got != tt.want {
			t.Errorf("Program(ShellQuote(%q)) = %q", tt.want, got)
		}
	}
}

func TestWriteAtomicRefusesAConcurrentEdit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"theirs": 2}`), 0o600)
	// We read {"theirs": 1}; someone wrote {"theirs": 2} since.
	err := writeAtomic(path, []byte(`{"theirs": 1}`), false, []byte(`{"ours": 1}`), 0o600)
	if !errors.Is(err, ErrConcurrentEdit) {
		t.Fatalf("error %v, want ErrConcurrentEdit", err)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"theirs": 2}` {
		t.Errorf("file overwritten: %s", got)
	}
	// A file that appeared while we were creating one is not replaced either.
	err = writeAtomic(path, nil, true, []byte(`{"ours": 1}`), 0o600)
	if !errors.Is(err, ErrConcurrentEdit) {
		t.Fatalf("create over a new file: %v, want ErrConcurrentEdit", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("temporary file left behind: %d entries", len(ents))
	}
}

// TestBackupsAreCapped: however often the hooks are installed and removed,
// at most MaxBackups backups stay, the newest; files that only look like
// backups are never touched; PruneBackups(path, 0) removes all of ours.
func TestBackupsAreCapped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	orig := readFixture(t, "competitors.json")
	os.WriteFile(path, orig, 0o600)
	foreign := []string{"settings.json.bak-mine", "settings.json.bak-20200101T000000Z-x", "settings.json.bak-20200101T000000Z-1", "other.json.bak-20200101T000000Z"}
	for _, f := range foreign {
		os.WriteFile(filepath.Join(dir, f), []byte("keep"), 0o600)
	}
	// Old backups of ours, one second: -10 is newer than -2.
	for _, n := range []string{"", "-2", "-10"} {
		os.WriteFile(filepath.Join(dir, "settings.json.bak-20200101T000000Z"+n), []byte("old"+n), 0o600)
	}
	ctx := context.Background()
	var last Result
	for i := range 8 {
		var err error
		if i%2 == 0 {
			last, err = Install(ctx, path, mustPlan(t, "/b"))
		} else {
			last, err = Uninstall(ctx, path)
		}
		if err != nil || !last.Changed {
			t.Fatalf("edit %d: %+v, %v", i, last, err)
		}
	}
	bs, err := backups(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != MaxBackups || bs[len(bs)-1].path != last.Backup {
		t.Errorf("backups %+v, want the newest %d ending with %s", bs, MaxBackups, last.Backup)
	}
	for _, b := range bs {
		if strings.Contains(b.path, "20200101") {
			t.Errorf("an old backup survived: %s", b.path)
		}
	}
	// The three old ones go oldest first: plain, -2, then -10.
	for _, n := range []string{"", "-2", "-10"} {
		os.WriteFile(filepath.Join(dir, "settings.json.bak-20200101T000000Z"+n), []byte("old"), 0o600)
	}
	removed, err := PruneBackups(path, MaxBackups+1)
	if err != nil || len(removed) != 2 || !strings.HasSuffix(removed[0], "000000Z") || !strings.HasSuffix(removed[1], "000000Z-2") {
		t.Errorf("PruneBackups(%d) removed %q, %v; want the plain and the -2 one", MaxBackups+1, removed, err)
	}
	if removed, err := PruneBackups(path, 0); err != nil || len(removed) != MaxBackups+1 {
		t.Errorf("PruneBackups(0) removed %q, %v", removed, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range foreign {
		if !slices.Contains(left, filepath.Join(dir, f)) {
			t.Errorf("%s was removed", f)
		}
	}
	if len(left) != len(foreign)+1 {
		t.Errorf("left %q, want the settings file and the look-alikes", left)
	}
}

// TestReinstallKeepsUserEdits: a re-install from another bin directory
// changes only the path of our binary in each entry; an env prefix, a
// wrapper, arguments, a longer timeout, a wider matcher and a changed
// status message stay, byte for byte. Events the template gained since
// are appended.
func TestReinstallKeepsUserEdits(t *testing.T) {
	edited := `{
  "hooks": {
    "UserPromptSubmit": [
      {"hooks": [{"type": "command", "command": "VAULTCTX_LOG=/tmp/vaultctx.log '/old/bin/vaultctx-userprompt' --x", "timeout": 20, "statusMessage": "Notes…"}]}
    ],
    "PreToolUse": [
      {"matcher": "Grep|Glob|WebSearch|WebFetch|Task|Agent|Read", "hooks": [{"type": "command", "command": "/old/bin/vaultctx-pretooluse", "timeout": 5}]}
    ],
    "PostToolUse": [
      {"matcher": "Bash|mcp__shell", "hooks": [{"command": "nice -n 5 /old/bin/vaultctx-posttooluse 2>>/tmp/err"}]}
    ]
  }
}
`
	want := strings.NewReplacer(
		"'/old/bin/vaultctx-userprompt'", "'/new dir/bin/vaultctx-userprompt'",
		"/old/bin/vaultctx-pretooluse", "'/new dir/bin/vaultctx-pretooluse'",
		"nice -n 5 /old/bin/vaultctx-posttooluse", "nice -n 5 '/new dir/bin/vaultctx-posttooluse'",
	).Replace(edited)
	// The PostToolUse entry had no "type", which Claude Code needs.
	want = strings.Replace(want, `2>>/tmp/err"}]}`, `2>>/tmp/err","type": "command"}]}`, 1)
	// An install from before the prompt hook answered SessionStart and
	// SubagentStart gains those two events, appended as the template has
	// them.
	want = strings.Replace(want, "\n    ]\n  }\n}\n", `
    ],
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "'/new dir/bin/vaultctx-userprompt'",
            "timeout": 5
          }
        ]
      }
    ],
    "SubagentStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "'/new dir/bin/vaultctx-userprompt'",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
`, 1)
	plan := mustPlan(t, "/new dir/bin")
	out, err := Merge([]byte(edited), plan)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("Merge =\n%s\nwant\n%s", out, want)
	}
	if again, _ := Merge(out, plan); !bytes.Equal(again, out) {
		t.Errorf("not idempotent:\n%s", again)
	}
	// Back to the first directory: only the paths change back.
	back, err := Merge(out, mustPlan(t, "/old/bin"))
	if err != nil {
		t.Fatal(err)
	}
	es, _ := Inspect(back)
	for _, e := range es {
		if !strings.HasPrefix(OurProgram(e.Command), "/old/bin/") {
			t.Errorf("%s: %q", e.Event, e.Command)
		}
	}
	if removed, _ := Remove(out); len(ours(t, removed)) != 0 {
		t.Errorf("Remove left entries of ours:\n%s", removed)
	}
}

// TestReinstallKeepsShellWrapper: a command string the user handed to a
// shell (`sh -c '...'`) keeps its env prefix, redirections and quoting; only
// the path of our binary inside changes, written so that the shell inside
// reads it: bare, in double quotes inside single ones, in single quotes
// inside double ones. A re-install back to the first directory restores
// the line byte for byte, and doctor's view (OurProgram) follows.
func TestReinstallKeepsShellWrapper(t *testing.T) {
	tests := []struct {
		name, command, spaced string // spaced: after a re-install into "/new dir/bin"
	}{
		{"single quotes", `sh -c 'VAULTCTX_LOG=/tmp/l /old/bin/vaultctx-userprompt 2>>/tmp/e'`,
			`sh -c 'VAULTCTX_LOG=/tmp/l "/new dir/bin/vaultctx-userprompt" 2>>/tmp/e'`},
		{"double quotes, a flag cluster", `bash -lc "VAULTCTX_LOG=\"$HOME/l\" exec /old/bin/vaultctx-userprompt"`,
			`bash -lc "VAULTCTX_LOG=\"$HOME/l\" exec '/new dir/bin/vaultctx-userprompt'"`},
		{"a wrapper around the shell", `nice -n 5 sh -c '/old/bin/vaultctx-userprompt'`,
			`nice -n 5 sh -c '"/new dir/bin/vaultctx-userprompt"'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if bin, ok := Ours("UserPromptSubmit", tc.command); !ok || bin != UserPromptBinary || OurProgram(tc.command) != "/old/bin/vaultctx-userprompt" {
				t.Fatalf("Ours = %q, %v; OurProgram = %q", bin, ok, OurProgram(tc.command))
			}
			src := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + string(mustJSON(t, tc.command)) + `, "timeout": 12}]}]}}`
			out, err := Merge([]byte(src), promptOnly(t, "/new dir/bin"))
			if err != nil {
				t.Fatal(err)
			}
			es, _ := Inspect(out)
			if len(es) != 1 || es[0].Command != tc.spaced || es[0].Timeout != 12 {
				t.Fatalf("after a re-install into /new dir/bin: %+v, want %q", es, tc.spaced)
			}
			if got := OurProgram(tc.spaced); got != "/new dir/bin/vaultctx-userprompt" {
				t.Errorf("OurProgram(%q) = %q", tc.spaced, got)
			}
			back, err := Merge(out, promptOnly(t, "/old/bin"))
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != src {
				t.Errorf("back to /old/bin:\n%s\nwant\n%s", back, src)
			}
		})
	}
	// A directory with a ' in it (a fresh user's report: the line kept
	// the old path while the summary named the new one): inside single
	// quotes the ' goes as '\'', and the result reads back as that path.
	odd := `/tmp/odd dir/it's bin`
	src := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + string(mustJSON(t, `sh -c 'VAULTCTX_LOG=/tmp/x.log /old/bin/vaultctx-userprompt'`)) + `}]}]}}`
	out, err := Merge([]byte(src), promptOnly(t, odd))
	if err != nil {
		t.Fatal(err)
	}
	es, _ := Inspect(out)
	want := `sh -c 'VAULTCTX_LOG=/tmp/x.log "/tmp/odd dir/it'\''s bin/vaultctx-userprompt"'`
	if len(es) != 1 || es[0].Command != want {
		t.Fatalf("after a re-install into %s: %+v, want %q", odd, es, want)
	}
	if got := OurProgram(want); got != odd+"/vaultctx-userprompt" {
		t.Errorf("OurProgram(%q) = %q", want, got)
	}
	if again, err := Merge(out, promptOnly(t, odd)); err != nil || string(again) != string(out) {
		t.Errorf("a second install into %s changed the file (%v):\n%s", odd, err, again)
	}
	if back, err := Merge(out, promptOnly(t, "/old/bin")); err != nil || string(back) != src {
		t.Errorf("back to /old/bin (%v):\n%s\nwant\n%s", err, back, src)
	}
	// A chain of installs through directories that need every kind of
	// escape, in both quotings of a shell's command string, and back (a
	// second attack: a bash -lc "..." entry stuck on a directory with a $
	// once its path had been written with \$ inside the double quotes).
	// Each directory is real and holds a script that says which it is,
	// so sh itself shows the path reads back as written.
	base := t.TempDir()
	var dirs []string
	for _, name := range []string{`d$x`, `c d`, `say "hi"`, "$HOME $(id) `x`", `back\slash`, `it's`, `all ' " $ \ ; & | * ?`, "old"} {
		d := filepath.Join(base, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, UserPromptBinary), []byte("#!/bin/sh\necho ran in "+ShellQuote(name)+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	old := ShellQuote(filepath.Join(base, "old", UserPromptBinary))
	for _, wrapped := range []string{
		`sh -c 'VAULTCTX_LOG=/dev/null ` + strings.ReplaceAll(old, "'", `'\''`) + ` 2>>/dev/null'`,
		`sh -c "VAULTCTX_LOG=\"$HOME/l\" exec ` + old + `"`,
	} {
		src := []byte(`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + string(mustJSON(t, wrapped)) + `}]}]}}`)
		cur := src
		for i, dir := range dirs {
			next, err := Merge(cur, promptOnly(t, dir))
			if err != nil {
				t.Fatalf("%s: install into %q: %v", wrapped, dir, err)
			}
			es, _ := Inspect(next)
			if len(es) != 1 || OurProgram(es[0].Command) != filepath.Join(dir, UserPromptBinary) {
				t.Fatalf("%s: after an install into %q: %+v, OurProgram %q", wrapped, dir, es, OurProgram(es[0].Command))
			}
			out, err := exec.Command("sh", "-c", es[0].Command).CombinedOutput()
			if want := "ran in " + filepath.Base(dir) + "\n"; err != nil || string(out) != want || i == len(dirs)-1 && es[0].Command != wrapped {
				t.Errorf("sh -c %s: %q, %v; want %q", es[0].Command, out, err, want)
			}
			if again, err := Merge(next, promptOnly(t, dir)); err != nil || string(again) != string(next) {
				t.Errorf("%s: a second install into %q changed the file (%v)", wrapped, dir, err)
			}
			cur = next
		}
		if string(cur) != string(src) {
			t.Errorf("%s: back to /old/bin:\n%s\nwant\n%s", wrapped, cur, src)
		}
	}
	// A quoted path with blanks after a wrapper is a path, not a command
	// string: the whole word is replaced.
	if got := withProgram(`nice -n 5 '/a b/vaultctx-posttooluse'`, "/c/vaultctx-posttooluse"); got != "nice -n 5 /c/vaultctx-posttooluse" {
		t.Errorf("withProgram of a quoted path = %q", got)
	}
}

// TestCdPrefixedEntryIsOurs: an entry whose command reaches our binary
// behind `cd DIR &&` is ours: a re-install changes only the path of the
// binary in it and adds no second entry beside it, a second install
// changes nothing, and Remove takes it out. A user's command behind the
// same `cd` stays untouched through all three.
func TestCdPrefixedEntryIsOurs(t *testing.T) {
	cmd := `cd "$CLAUDE_PROJECT_DIR" && /old/bin/vaultctx-userprompt`
	mine := `cd "$CLAUDE_PROJECT_DIR" && ./scripts/prompt-hook.sh`
	src := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + string(mustJSON(t, cmd)) + `, "timeout": 12}]}, ` +
		`{"hooks": [{"type": "command", "command": ` + string(mustJSON(t, mine)) + `}]}]}}`
	out, err := Merge([]byte(src), promptOnly(t, "/new dir/bin"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(src, "/old/bin/vaultctx-userprompt", `'/new dir/bin/vaultctx-userprompt'`, 1)
	if string(out) != want {
		t.Fatalf("re-install:\n%s\nwant\n%s", out, want)
	}
	if got := ours(t, out)["UserPromptSubmit"]; len(got) != 1 || OurProgram(got[0]) != "/new dir/bin/vaultctx-userprompt" {
		t.Errorf("our entries after a re-install: %q", got)
	}
	if again, err := Merge(out, promptOnly(t, "/new dir/bin")); err != nil || string(again) != string(out) {
		t.Errorf("a second install changed the file (%v):\n%s", err, again)
	}
	removed, err := Remove(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours(t, removed)) != 0 {
		t.Errorf("Remove left an entry of ours:\n%s", removed)
	}
	if got := foreign(t, removed); len(got) != 1 || got[0].Command != mine {
		t.Errorf("Remove changed the user's hook: %+v", got)
	}
}

// promptOnly is the plan for binDir with its UserPromptSubmit group only.
func promptOnly(t *testing.T, binDir string) *Plan {
	t.Helper()
	g := mustPlan(t, binDir).group("UserPromptSubmit", UserPromptBinary)
	if g == nil {
		t.Fatal("the template wires no UserPromptSubmit")
	}
	return &Plan{Groups: []Group{*g}}
}

func mustJSON(t *testing.T, s string) []byte {
	t.Helper()
	b, err := marshalNoEscape(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReinstallUpdatesEarlierTemplateMatchers: an install from a version
// whose template gave SessionStart "compact|clear" and PostToolUse "Bash"
// takes the current template's matchers on re-install (else the
// session-start refresh and the re-index of notes Claude writes never
// run), while a matcher the user wrote, or a group the user shares with a
// hook of their own, keeps its matcher.
func TestReinstallUpdatesEarlierTemplateMatchers(t *testing.T) {
	old := `{"hooks": {
  "SessionStart": [{"matcher": "compact|clear", "hooks": [{"type": "command", "command": "/b/vaultctx-userprompt", "timeout": 5}]}],
  "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/b/vaultctx-posttooluse", "timeout": 5}]}]
}}
`
	plan := mustPlan(t, "/b")
	out, err := Merge([]byte(old), plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"matcher": "startup|resume|clear|compact"`, `"matcher": "Bash|Write|Edit|MultiEdit"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("re-install kept an earlier template's matcher, want %s:\n%s", want, out)
		}
	}
	if again, _ := Merge(out, plan); !bytes.Equal(again, out) {
		t.Errorf("not idempotent:\n%s", again)
	}
	for _, user := range []string{
		`{"hooks": {"PostToolUse": [{"matcher": "Bash|mcp__shell", "hooks": [{"type": "command", "command": "/b/vaultctx-posttooluse"}]}]}}`,
		`{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/b/vaultctx-posttooluse"}, {"type": "command", "command": "my-logger"}]}]}}`,
	} {
		out, err := Merge([]byte(user), plan)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "Write|Edit") {
			t.Errorf("a matcher of the user's changed:\n%s\n->\n%s", user, out)
		}
	}
}

// lookalikes are hook entries of users that an earlier build took for
// ours (a hostile tester's list): install deleted them, rewrote them, or
// said "already wired" and left our hook out. B is the bin directory of
// the plan they are merged with.
func lookalikes(b string) []lookalike {
	return []lookalike{
		{"Stop", "vaultctx index", ""},
		{"Notification", "/home/u/bin/vaultctx-notify --desktop", ""},
		{"PreToolUse", "/home/u/bin/vaultctx-guard", ""},
		{"UserPromptSubmit", "cd /tmp && cd /var && ./vaultctx-userprompt-wrapper", ""},
		{"UserPromptSubmit", "/opt/vaultctx-userprompt.sh", ""},
		{"UserPromptSubmit", "/opt/vaultctx-userprompt2", ""},
		{"UserPromptSubmit", "cd /tmp && my-tool --exec=" + b + "/vaultctx-userprompt", ""},
		{"UserPromptSubmit", "tee -a /tmp/log --out=" + b + "/vaultctx-userprompt", ""},
		{"UserPromptSubmit", "rm -f /tmp/vaultctx-userprompt", ""},
		{"UserPromptSubmit", "cd /x && echo " + b + "/vaultctx-userprompt", ""},
		{"UserPromptSubmit", "cat " + b + "/vaultctx-userprompt", ""},
		{"UserPromptSubmit", "cd " + b + "/vaultctx-userprompt", ""},
		{"Stop", b + "/vaultctx-userprompt", UserPromptBinary},
		{"PreToolUse", b + "/vaultctx-posttooluse", PostToolUseBinary},
	}
}

// lookalike is a user's hook entry that looks like ours.
type lookalike struct {
	event, command string
	runs           string // the binary of ours it runs, on an event we never wire it to; "" for none
}

// TestLookalikesStayTheUsers: each entry of lookalikes, alone in a
// settings file, survives Merge byte for byte beside one entry of ours
// per event, and Remove after Merge gives the file back exactly.
func TestLookalikesStayTheUsers(t *testing.T) {
	const b = "/home/u/.local/bin"
	plan := mustPlan(t, b)
	for _, l := range lookalikes(b) {
		t.Run(l.event+" "+l.command, func(t *testing.T) {
			src := []byte(`{"hooks":{` + string(mustJSON(t, l.event)) + `:[{"hooks":[{"type":"command","command":` + string(mustJSON(t, l.command)) + `}]}]}}`)
			if es, _ := Inspect(src); len(es) != 1 || es[0].Ours {
				t.Fatalf("Inspect = %+v, want one entry of the user's", es)
			}
			out, err := Merge(src, plan)
			if err != nil {
				t.Fatal(err)
			}
			if got := foreign(t, out); len(got) != 1 || got[0].Event != l.event || got[0].Command != l.command {
				t.Errorf("the user's entries after Merge: %+v\n%s", got, out)
			}
			wired := ours(t, out)
			for _, g := range plan.Groups {
				if got := wired[g.Event]; len(got) != 1 || got[0] != g.Handler.Command {
					t.Errorf("%s: ours %q, want the plan's %q", g.Event, got, g.Handler.Command)
				}
			}
			back, err := Remove(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, src) {
				t.Errorf("Remove(Merge(x)) =\n%s\nwant\n%s", back, src)
			}
			if removed, err := Remove(src); err != nil || !bytes.Equal(removed, src) {
				t.Errorf("Remove took the user's entry out (%v):\n%s", err, removed)
			}
		})
	}
}

// TestCdDirs: the folders a command of ours changes to before it runs our
// binary, for the cds (and env -C) that name one before the hook runs,
// with ~ and $HOME expanded as sh does; none for a command that is not
// ours.
func TestCdDirs(t *testing.T) {
	and := func(p string) CdDir { return CdDir{Path: p, And: true} }
	env := func(p string) CdDir { return CdDir{Path: p, And: true, Env: true} }
	tests := []struct {
		command string
		want    []CdDir
	}{
		{"/b/vaultctx-userprompt", nil},
		{"cd /nonexistent-dir && /b/vaultctx-userprompt", []CdDir{and("/nonexistent-dir")}},
		{"cd '/a b' ; cd -P /c&&VAULTCTX_LOG=/l nice /b/vaultctx-userprompt", []CdDir{{Path: "/a b"}, and("/c")}},
		{`cd "$CLAUDE_PROJECT_DIR" && cd /x && /b/vaultctx-userprompt`, []CdDir{and("/x")}},
		{`cd '/lit$eral' && /b/vaultctx-userprompt`, []CdDir{and("/lit$eral")}},
		{"cd ~user/n && cd /a* && cd rel && cd && cd - && cd $HOMEDIR && cd \\$HOME && /b/vaultctx-userprompt", nil},
		{"cd /p; sh -c 'cd /q && /b/vaultctx-pretooluse'", []CdDir{{Path: "/p"}, and("/q")}},
		{"cd /p && my-tool /b/vaultctx-userprompt", nil}, // not ours
		{"cd /p || /b/vaultctx-userprompt", nil},         // not ours either
		// ~ and $HOME, as sh expands them from HOME.
		{"cd ~/missing && /b/vaultctx-userprompt", []CdDir{and("/home/u/missing")}},
		{"cd ~ && /b/vaultctx-userprompt", []CdDir{and("/home/u")}},
		{`cd $HOME/missing && cd "${HOME}/m 2" && cd "$HOME"/m3 && /b/vaultctx-userprompt`,
			[]CdDir{and("/home/u/missing"), and("/home/u/m 2"), and("/home/u/m3")}},
		{`cd '$HOME/x' && cd "~/y" && /b/vaultctx-userprompt`, nil}, // quoted: relative paths, known only at run time
		{`sh -c 'cd $HOME/in && /b/vaultctx-userprompt'`, []CdDir{and("/home/u/in")}},
		// env's -C (--chdir) picks the folder too.
		{"env -C /missing /b/vaultctx-userprompt", []CdDir{env("/missing")}},
		{"env -C/m1 --chdir=/m2 --chdir $HOME/m3 -iC ~/m4 X=1 /b/vaultctx-userprompt",
			[]CdDir{env("/m1"), env("/m2"), env("/home/u/m3"), env("/home/u/m4")}},
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return ""
	}
	for _, tt := range tests {
		if got := CdDirs(tt.command, getenv); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CdDirs(%q) = %+v, want %+v", tt.command, got, tt.want)
		}
	}
}

// TestExpandPath: the program of an entry of ours with ~ and $HOME
// expanded as sh does; a bare name as is; not ok for an expansion known
// only when the hook runs.
func TestExpandPath(t *testing.T) {
	for _, tt := range []struct {
		home, command, want string
		ok                  bool
	}{
		{"/home/u", "$HOME/.local/bin/vaultctx-userprompt", "/home/u/.local/bin/vaultctx-userprompt", true},
		{"/home/u", `"$HOME/.local/bin/vaultctx-userprompt"`, "/home/u/.local/bin/vaultctx-userprompt", true},
		{"/home/u", `"${HOME}"/bin/vaultctx-userprompt`, "/home/u/bin/vaultctx-userprompt", true},
		{"/home/u", "~/.local/bin/vaultctx-userprompt", "/home/u/.local/bin/vaultctx-userprompt", true},
		{"/home/u", "VAULTCTX_LOG=/l nice ~/b/vaultctx-userprompt", "/home/u/b/vaultctx-userprompt", true},
		{"/home/u", `sh -c '$HOME/b/vaultctx-userprompt'`, "/home/u/b/vaultctx-userprompt", true},
		{"/home/u", "vaultctx-userprompt", "vaultctx-userprompt", true},
		{"/home/u", `'$HOME/b/vaultctx-userprompt'`, "$HOME/b/vaultctx-userprompt", true},
		{"/home/a b", `"$HOME/b/vaultctx-userprompt"`, "/home/a b/b/vaultctx-userprompt", true},
		{"/home/a b", `$HOME/b/vaultctx-userprompt`, "", false}, // sh splits it
		{"", "~/b/vaultctx-userprompt", "", false},
		{"/home/u", `"$CLAUDE_PROJECT_DIR"/b/vaultctx-userprompt`, "", false},
		{"/home/u", "$HOMEDIR/b/vaultctx-userprompt", "", false},
		{"/home/u", "~u/b/vaultctx-userprompt", "", false},
		{"/home/u", "/b*/vaultctx-userprompt", "", false},
		{"/home/u", "$(pwd)/vaultctx-userprompt", "", false},
	} {
		got, ok := ExpandPath(tt.command, func(k string) string {
			if k == "HOME" {
				return tt.home
			}
			return ""
		})
		if got != tt.want || ok != tt.ok {
			t.Errorf("HOME=%q ExpandPath(%q) = %q, %v; want %q, %v", tt.home, tt.command, got, ok, tt.want, tt.ok)
		}
	}
}

// TestOursExeNames: on Windows (exeNames) an entry may name our binary
// with its ".exe" suffix, in any case; elsewhere a name ending in ".exe" is
// another program's, which install and uninstall must leave alone.
func TestOursExeNames(t *testing.T) {
	for _, tc := range []struct {
		exe   bool
		cmd   string
		ours  bool
		named string
	}{
		{true, `C:\tools\vaultctx-userprompt.exe`, true, "vaultctx-userprompt"},
		{true, `C:\tools\VAULTCTX-USERPROMPT.EXE`, false, "VAULTCTX-USERPROMPT"},
		{true, `C:\tools\vaultctx-userprompt.EXE`, true, "vaultctx-userprompt"},
		{true, `C:\tools\vaultctx-userprompt.exe.bak`, false, "vaultctx-userprompt.exe.bak"},
		{false, `/opt/tools/vaultctx-userprompt.exe`, false, "vaultctx-userprompt.exe"},
		{false, `/opt/tools/vaultctx-userprompt`, true, "vaultctx-userprompt"},
	} {
		old := exeNames
		exeNames = tc.exe
		bin, ok := Ours("UserPromptSubmit", tc.cmd)
		exeNames = old
		if ok != tc.ours || bin != tc.named {
			t.Errorf("exeNames=%v Ours(%q) = %q, %v; want %q, %v", tc.exe, tc.cmd, bin, ok, tc.named, tc.ours)
		}
	}
}

// TestReinstallKeepsPortablePath: an entry that runs our binary from the
// bin directory being installed, written as sh reaches it from HOME or
// PATH ($HOME/…, "$HOME/…", ${HOME}, ~/…, a bare name on PATH, a symlink
// to it), is left as the user wrote it; one that runs another copy is
// updated.
func TestReinstallKeepsPortablePath(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, ".local", "bin")
	other := filepath.Join(home, "other")
	for _, d := range []string{bin, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, UserPromptBinary), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(bin, filepath.Join(home, "link")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
	plan := promptOnly(t, bin)
	for _, tc := range []struct {
		command string
		kept    bool
	}{
		{"$HOME/.local/bin/vaultctx-userprompt", true},
		{`"$HOME/.local/bin/vaultctx-userprompt"`, true},
		{`${HOME}/.local/bin//vaultctx-userprompt`, true},
		{"~/.local/bin/vaultctx-userprompt", true},
		{"VAULTCTX_LOG=/tmp/l vaultctx-userprompt", true},
		{"~/link/vaultctx-userprompt", true}, // a symlink to the bin directory
		{"$HOME/other/vaultctx-userprompt", false},
		{"~/missing/vaultctx-userprompt", false},
		{`"$CLAUDE_PROJECT_DIR"/bin/vaultctx-userprompt`, false},
	} {
		src := []byte(`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + string(mustJSON(t, tc.command)) + `}]}]}}`)
		out, err := Merge(src, plan)
		if err != nil {
			t.Fatal(err)
		}
		got := ours(t, out)["UserPromptSubmit"]
		switch {
		case tc.kept && (len(got) != 1 || got[0] != tc.command):
			t.Errorf("re-install of %q: %q, want it kept", tc.command, got)
		case !tc.kept && (len(got) != 1 || OurProgram(got[0]) != filepath.Join(bin, UserPromptBinary)):
			t.Errorf("re-install of %q: %q, want it pointed at %s", tc.command, got, bin)
		}
	}
}
