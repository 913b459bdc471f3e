package claudetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

// DefaultTimeout bounds one Session.Run: a scripted run takes about a
// second, plus the commands the script runs.
const DefaultTimeout = 3 * time.Minute

// DummyAPIKey is the API key every run gets. No real key exists here, and
// none may be used: the Mock accepts any.
const DummyAPIKey = "sk-ant-claudetest-dummy"

// Session is a private Claude Code installation state for one test: its
// own HOME, CLAUDE_CONFIG_DIR (settings.json, transcripts, the files the
// CLI saves large tool outputs to), XDG folders, TMPDIR and project
// folder, all under Root, talking only to one Mock.
type Session struct {
	Root      string // temp root holding everything below
	Home      string // HOME of claude and so of its hooks
	ConfigDir string // CLAUDE_CONFIG_DIR
	Project   string // the working directory claude runs in
	// Env holds extra KEY=VALUE pairs for claude, which passes them to its
	// hooks and tools (e.g. VAULTCTX_DB, or hooktest.Env.Vars). A later
	// value wins, but the API, telemetry and traffic settings are always
	// forced after them.
	Env     []string
	Timeout time.Duration // per Run; 0 means DefaultTimeout

	cli  *CLI
	mock *Mock
	runs int
}

// NewSession makes a Session for cli talking to mock, with its folders
// under a new tb.TempDir().
func NewSession(tb testing.TB, cli *CLI, mock *Mock) *Session {
	tb.Helper()
	root := tb.TempDir()
	s := &Session{
		Root: root, Home: filepath.Join(root, "home"), ConfigDir: filepath.Join(root, "claude"),
		Project: filepath.Join(root, "project"), cli: cli, mock: mock,
	}
	for _, d := range []string{s.Home, s.ConfigDir, s.Project, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// SettingsPath is the session's user settings file,
// ConfigDir/settings.json.
func (s *Session) SettingsPath() string { return filepath.Join(s.ConfigDir, "settings.json") }

// WireHooks wires the hook binaries in binDir (see BuildHooks) into the
// session's settings.json exactly as `vaultctx hooks install` does: the
// template install.SettingsTemplate rendered and merged by core/settings.
func (s *Session) WireHooks(tb testing.TB, binDir string) {
	tb.Helper()
	plan, err := settings.Render(install.SettingsTemplate, binDir)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := settings.Install(context.Background(), s.SettingsPath(), plan); err != nil {
		tb.Fatal(err)
	}
}

// Result is one run of the CLI.
type Result struct {
	Stdout, Stderr []byte
	Code           int           // exit status
	Elapsed        time.Duration // spawn to exit
	Output         gjson.Result  // Stdout parsed (--output-format json); its "result" is the final text
	Debug          string        // what the CLI wrote to its --debug-file
}

// Run runs `claude -p --output-format json --allowedTools Bash
// --debug-file FILE args... -- prompt` in the session's project folder with
// the session's environment (see Session.Env) and the Mock as its API,
// killing it and its children after the session's Timeout. It fails the
// test when claude cannot be started or times out; a non-zero exit is
// returned in Result.Code, for the test to judge.
func (s *Session) Run(tb testing.TB, prompt string, args ...string) Result {
	tb.Helper()
	s.runs++
	debug := filepath.Join(s.Root, fmt.Sprintf("debug-%d.log", s.runs))
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	argv := append([]string{"-p", "--output-format", "json", "--allowedTools", "Bash", "--debug-file", debug}, args...)
	argv = append(argv, "--", prompt)
	cmd := exec.CommandContext(ctx, s.cli.Claude, argv...)
	cmd.Dir = s.Project
	cmd.Env = s.environ()
	killGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.Bytes(), Stderr: errb.Bytes(), Elapsed: time.Since(start)}
	if b, rerr := os.ReadFile(debug); rerr == nil {
		r.Debug = string(b)
	}
	if ctx.Err() != nil {
		tb.Fatalf("claude timed out after %v\nstdout: %s\nstderr: %s", timeout, out.Bytes(), errb.Bytes())
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		tb.Fatalf("run claude: %v", err)
	}
	if gjson.ValidBytes(r.Stdout) {
		r.Output = gjson.ParseBytes(r.Stdout)
	}
	return r
}

// environ is the environment of a run: a fresh one (nothing inherited but
// PATH, so no real key or config of the machine leaks in), then
// Session.Env, then the settings that keep the CLI on the Mock.
func (s *Session) environ() []string {
	env := []string{
		"PATH=" + s.cli.BinDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + s.Home,
		"CLAUDE_CONFIG_DIR=" + s.ConfigDir,
		"XDG_CONFIG_HOME=" + filepath.Join(s.Home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.Home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(s.Home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(s.Home, ".local", "state"),
		"TMPDIR=" + filepath.Join(s.Root, "tmp"),
		"LANG=C.UTF-8",
		"TERM=dumb",
	}
	if sh, err := exec.LookPath("bash"); err == nil {
		env = append(env, "SHELL="+sh)
	}
	env = append(env, s.Env...)
	return append(env,
		"ANTHROPIC_BASE_URL="+s.mock.URL,
		"ANTHROPIC_API_KEY="+DummyAPIKey,
		"ANTHROPIC_AUTH_TOKEN=",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
}

// HookRun is one hook command the CLI ran, as its debug log reports it.
type HookRun struct {
	Event   string // e.g. "UserPromptSubmit", "PostToolUse:Bash" (event:matched tool)
	Command string // the command line from settings.json
	Status  int    // exit status
	MS      int    // duration in milliseconds
}

// hookFinished matches the debug log's line for a finished hook command
// (2.1.332): "Hooks: PostToolUse:Bash [/path/hook] finished with status 0 (19ms)".
var hookFinished = regexp.MustCompile(`(?m)Hooks: (\S+) \[(.*)\] finished with status (-?\d+) \((\d+)ms\)`)

// HookRuns returns the hook commands the run's debug log reports as
// finished, in order. A hook that timed out or could not start has no
// such line.
func (r Result) HookRuns() []HookRun {
	var runs []HookRun
	for _, m := range hookFinished.FindAllStringSubmatch(r.Debug, -1) {
		status, _ := strconv.Atoi(m[3])
		ms, _ := strconv.Atoi(m[4])
		runs = append(runs, HookRun{Event: m[1], Command: m[2], Status: status, MS: ms})
	}
	return runs
}

// hookProblem matches the debug log lines (Claude Code 2.1.332) that say a
// hook failed, timed out or was cancelled, or that a setting was skipped
// as invalid:
//
//	[ERROR] "Hook UserPromptSubmit (UserPromptSubmit) error: status code 1\nstderr:\nboom"
//	[ERROR] Hook PostToolUse:Bash (PostToolUse) error: status code 2
//	[DEBUG] Hooks: PreToolUse:Bash [sleep 5] timed out after 1000ms (1081ms)
//	[DEBUG] Hook PreToolUse:Bash (PreToolUse) cancelled:
//	[ERROR] Invalid setting skipped without dialog (automated session): …: hooks.NoSuchEvent: Unknown hook event …
var hookProblem = regexp.MustCompile(`(?m)^.*(?:Hook \S+ \(\S+\) (?:error|cancelled)|Hooks: .* timed out after|Invalid setting|[Ss]ettings? (?:validation|error)).*$`)

// HookProblems returns the lines of the run's debug log that report a hook
// error, timeout or cancellation or an invalid setting (see hookProblem),
// and the "finished with status N" line of every hook that exited non-zero,
// in log order; none for a clean run. TestHookProblemsSeesFailures checks
// that it sees each kind.
func (r Result) HookProblems() []string {
	var out []string
	for _, l := range strings.Split(r.Debug, "\n") {
		if hookProblem.MatchString(l) {
			out = append(out, l)
			continue
		}
		if m := hookFinished.FindStringSubmatch(l); m != nil && m[3] != "0" {
			out = append(out, l)
		}
	}
	return out
}

// RecordHooks adds to the session's settings.json, beside any hooks
// already there, a command hook for each event (no matcher: every tool)
// that saves its stdin, the exact payload the CLI sends, as a new file
// <dir>/<event>-XXXXXX.json and prints nothing. It returns dir, for
// Recorded. It needs sh and mktemp.
func (s *Session) RecordHooks(tb testing.TB, events ...string) string {
	tb.Helper()
	dir := filepath.Join(s.Root, "hook-input")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	cfg := map[string]any{}
	if b, err := os.ReadFile(s.SettingsPath()); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			tb.Fatalf("settings.json: %v", err)
		}
	}
	hooks, _ := cfg["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	for _, ev := range events {
		cmd := fmt.Sprintf(`cat > "$(mktemp %s)"`, settings.ShellQuote(filepath.Join(dir, ev+"-XXXXXX.json")))
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 10}}}
		list, _ := hooks[ev].([]any)
		hooks[ev] = append(list, group)
	}
	cfg["hooks"] = hooks
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(s.SettingsPath(), b, 0o600); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Recorded returns the payloads RecordHooks saved in dir for event, oldest
// first (by modification time, then name).
func Recorded(tb testing.TB, dir, event string) [][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, event+"-*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	type file struct {
		mod  int64
		name string
		body []byte
	}
	var files []file
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			tb.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, file{info.ModTime().UnixNano(), p, b})
	}
	sort.Slice(files, func(i, j int) bool {
		if files[i].mod != files[j].mod {
			return files[i].mod < files[j].mod
		}
		return files[i].name < files[j].name
	})
	out := make([][]byte, len(files))
	for i, f := range files {
		out[i] = f.body
	}
	return out
}

// RecordedInputs decodes the payloads RecordHooks saved in dir for event,
// oldest first, with core/hookio exactly as the hooks decode their stdin
// (hookio.ReadInput with hookio.MaxInput(event)), and fails the test when
// one does not decode or names another event.
func RecordedInputs(tb testing.TB, dir, event string) []hookio.Input {
	tb.Helper()
	var out []hookio.Input
	for _, b := range Recorded(tb, dir, event) {
		in, err := hookio.ReadInput(bytes.NewReader(b), hookio.MaxInput(event))
		if err != nil {
			tb.Fatalf("the %s payload Claude Code sent does not decode: %v\n%s", event, err, b)
		}
		if in.Event != event {
			tb.Errorf("a %s payload says hook_event_name %q", event, in.Event)
		}
		out = append(out, in)
	}
	return out
}
