package claudetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestPinMatchesTestScript checks that scripts/test.sh installs the CLI
// version the tests expect, so a fresh machine's cache is the one used.
func TestPinMatchesTestScript(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testkit.Root(t), "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^claude_version="([^"]+)"`).FindSubmatch(b)
	if m == nil || string(m[1]) != Version {
		t.Fatalf("scripts/test.sh pins claude_version %q, claudetest.Version is %q", m, Version)
	}
	if !strings.Contains(string(b), NodePackage) {
		t.Fatalf("scripts/test.sh does not install %s", NodePackage)
	}
}

// TestScriptedBash runs the real CLI with no hooks: the scripted model
// calls Bash, the CLI runs the command and sends its output back as the
// tool_result, and the run ends with the scripted text. Nothing but the
// Messages endpoint is asked for.
func TestScriptedBash(t *testing.T) {
	cli := Claude(t)
	mock := NewMock(t, Bash("toolu_echo", "echo hello from bash"), Say("All done."))
	s := NewSession(t, cli, mock)
	r := s.Run(t, "say hello")
	if r.Code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	if got := r.Output.Get("result").String(); got != "All done." {
		t.Errorf("result %q, want the scripted text", got)
	}
	got, ok := mock.ToolResult("toolu_echo")
	if !ok || got != "hello from bash" {
		t.Errorf("tool_result %q (found %v), want the command's output", got, ok)
	}
	msgs := mock.Messages()
	if len(msgs) != 2 {
		t.Errorf("%d requests to /v1/messages, want 2 (the prompt, the tool result)", len(msgs))
	}
	if len(msgs) > 0 && !strings.Contains(msgs[0].Text("user"), "say hello") {
		t.Errorf("first request does not carry the prompt:\n%.2000s", msgs[0].Text("user"))
	}
	for _, u := range mock.Unexpected() {
		t.Errorf("unexpected request %s %s", u.Method, u.Path)
	}
	t.Logf("claude -p took %v", r.Elapsed)
}

// TestHookProblemsSeesFailures runs the real CLI with hooks that fail in
// each way Claude Code 2.1.332 logs (a non-zero exit, a blocking exit 2, a
// timeout) and an unknown hook event in settings.json: HookProblems must
// report each, so an end-to-end test that finds none has proved something.
func TestHookProblemsSeesFailures(t *testing.T) {
	cli := Claude(t)
	mock := NewMock(t, Bash("toolu_echo", "echo hi"), Say("done"))
	s := NewSession(t, cli, mock)
	hook := func(cmd string, timeout int) map[string]any {
		return map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": timeout}}}
	}
	settings := map[string]any{"hooks": map[string]any{
		"UserPromptSubmit": []any{hook("echo boom >&2; exit 1", 10)},
		"PreToolUse":       []any{hook("sleep 5", 1)},
		"PostToolUse":      []any{hook("exit 2", 10)},
		"NoSuchEvent":      []any{hook("true", 10)},
	}}
	b, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.SettingsPath(), b, 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.Run(t, "say hello")
	problems := strings.Join(r.HookProblems(), "\n")
	for _, want := range []string{
		`Hook UserPromptSubmit (UserPromptSubmit) error: status code 1`,
		`PreToolUse:Bash [sleep 5] timed out after`,
		`Hook PostToolUse:Bash (PostToolUse) error: status code 2`,
		`Invalid setting`,
		`[exit 2] finished with status 2`,
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("HookProblems does not report %q; it reports:\n%s", want, problems)
		}
	}

	clean := NewSession(t, cli, NewMock(t, Say("hi")))
	if r := clean.Run(t, "say hello"); len(r.HookProblems()) != 0 {
		t.Errorf("a run without hooks has problems: %q", r.HookProblems())
	}
}
