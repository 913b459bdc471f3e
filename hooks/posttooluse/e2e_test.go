package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/claudetest"
)

// noisyCommand runs the package noisyPackage writes, verbosely.
const noisyCommand = "go test -count=1 -v ."

// noisyPackage writes a small Go module into dir whose verbose test run
// (noisyCommand) prints some 600 lines: 200 subtests that log and pass.
func noisyPackage(t *testing.T, dir string) {
	t.Helper()
	src := `package noisy

import (
	"fmt"
	"testing"
)

func TestSteps(t *testing.T) {
	for i := 0; i < 200; i++ {
		t.Run(fmt.Sprintf("step_%03d", i), func(t *testing.T) {
			t.Logf("processed batch %d: 128 records, checksum ok", i)
		})
	}
}
`
	for name, body := range map[string]string{
		"go.mod":         "module example.com/noisy\n\ngo 1.26\n",
		"noisy_test.go":  src,
		"noisy_other.go": "package noisy\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkHooks fails the test unless the CLI's debug log shows want hook
// runs, each exiting 0.
func checkHooks(t *testing.T, r claudetest.Result, want int) {
	t.Helper()
	runs := r.HookRuns()
	for _, h := range runs {
		if h.Status != 0 {
			t.Errorf("hook %s (%s) exited %d", h.Event, h.Command, h.Status)
		}
	}
	if len(runs) != want {
		t.Errorf("%d hook runs in the debug log, want %d: %+v", len(runs), want, runs)
	}
}

// TestClaudeCodeReceivesExtract runs the real Claude Code CLI with the
// installed hooks against a scripted model that runs two Bash commands: a
// verbose `go test -v` (about 30 KB) and an echo. The model's next request
// must hold vaultctx's extract as the first tool_result and the echo's
// output untouched as the second.
func TestClaudeCodeReceivesExtract(t *testing.T) {
	cli := claudetest.Claude(t)
	bins := claudetest.BuildHooks(t)
	mock := claudetest.NewMock(t,
		claudetest.Bash("toolu_noisy", noisyCommand),
		claudetest.Bash("toolu_small", "echo small output"),
		claudetest.Say("Both ran."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	s.Env = append(claudetest.GoEnv(t), "VAULTCTX_HOOK_DEADLINE=60s")
	noisyPackage(t, s.Project)

	r := s.Run(t, "run the noisy tests, then echo something")
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("claude -p took %v", r.Elapsed)
	got, ok := mock.ToolResult("toolu_noisy")
	if !ok {
		t.Fatal("no tool_result for the go test call reached the model")
	}
	if !strings.HasPrefix(got, "[vaultctx: Bash output condensed from ") {
		t.Fatalf("the model received the raw output, not the extract:\n%.1500s", got)
	}
	for _, want := range []string{"\nPASS\n", "\nok  \texample.com/noisy"} {
		if !strings.Contains(got, want) {
			t.Errorf("extract lost the summary line %q:\n%s", want, got)
		}
	}
	if len(got) > 8000 {
		t.Errorf("extract is %d bytes", len(got))
	}
	small, ok := mock.ToolResult("toolu_small")
	if !ok || small != "small output" {
		t.Errorf("small output reached the model as %q (found %v), want it untouched", small, ok)
	}
	for _, u := range mock.Unexpected() {
		t.Errorf("unexpected request %s %s", u.Method, u.Path)
	}
	checkHooks(t, r, 3) // UserPromptSubmit, PostToolUse twice
}
