package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/compress"
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
	checkHooks(t, r, 4) // SessionStart (the index refresh), UserPromptSubmit, PostToolUse twice
}

// TestClaudeCodeWholeOutput runs, in the real CLI with the installed
// hooks, a command printing 3,002 lines (about 130 KB) whose error and
// summary come last: Claude Code hands the hook only the first 30,000
// bytes and persists the rest, and the extract the model receives must be
// built from the complete output: the header counts every line, and the
// late error and the summary are shown.
func TestClaudeCodeWholeOutput(t *testing.T) {
	cli := claudetest.Claude(t)
	bins := claudetest.BuildHooks(t)
	cmd := `for i in $(seq 1 3000); do echo "step $i of 3000: compiled unit_$i.o in build/obj, 0 warnings"; done; ` +
		`echo "error: unit_2999.o: undefined reference to 'frobnicate'" >&2; echo "build: 2999 units ok, 1 failed to link"`
	mock := claudetest.NewMock(t, claudetest.Bash("toolu_whole", cmd), claudetest.Say("Linked all but one."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	rec := s.RecordHooks(t, "PostToolUse")
	s.Env = []string{"VAULTCTX_HOOK_DEADLINE=60s"}
	r := s.Run(t, "build it")
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("claude -p took %v", r.Elapsed)
	got, ok := mock.ToolResult("toolu_whole")
	if !ok {
		t.Fatal("no tool_result reached the model")
	}
	for _, want := range []string{
		"[vaultctx: Bash output condensed from 3002 lines",
		"error: unit_2999.o: undefined reference to 'frobnicate'",
		"build: 2999 units ok, 1 failed to link",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the model's tool_result lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<persisted-output>") {
		t.Errorf("the model received Claude Code's preview, not the extract:\n%.500s", got)
	}
	// The saved full output is Claude Code's complete file (nothing here
	// for the scrubber to redact).
	payloads := claudetest.Recorded(t, rec, "PostToolUse")
	if len(payloads) != 1 {
		t.Fatalf("%d PostToolUse payloads recorded, want 1", len(payloads))
	}
	persisted, err := os.ReadFile(gjson.GetBytes(payloads[0], "tool_response.persistedOutputPath").String())
	if err != nil {
		t.Fatalf("Claude Code's persisted file: %v", err)
	}
	saved, err := os.ReadFile(filepath.Join(s.Home, ".cache", "vaultctx", "outputs", "toolu_whole.txt"))
	if err != nil || !bytes.Equal(saved, persisted) {
		t.Errorf("saved full output (%d bytes, %v) is not Claude Code's complete file (%d bytes)", len(saved), err, len(persisted))
	}
	checkHooks(t, r, 4) // SessionStart, UserPromptSubmit, PostToolUse: ours and the recorder
}

// TestClaudeCodeKeepsAnomalies runs, in the real CLI with the installed
// hooks, `tail -n 1500 app.log` on a real access log (the fidelity case
// log_kv_tail_1500_a: 1,500 requests, one 500 and one 503 after 30 s).
// The output is over 30,000 bytes, so Claude Code persists it; the model
// must receive the extract, with both anomalous lines verbatim, and no
// line that is not a line of the log but the extract's own markers. The
// README's before/after example is this run's.
func TestClaudeCodeKeepsAnomalies(t *testing.T) {
	cli := claudetest.Claude(t)
	bins := claudetest.BuildHooks(t)
	caseDir := filepath.Join("..", "..", "core", "compress", "testdata", "fidelity", "log_kv_tail_1500_a")
	log, err := os.ReadFile(filepath.Join(caseDir, "raw", "stdout.bin"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Anomalies []string `json:"anomalies"`
	}
	raw, err := os.ReadFile(filepath.Join(caseDir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &meta); err != nil || len(meta.Anomalies) == 0 {
		t.Fatalf("meta.json: %v, %d anomalies", err, len(meta.Anomalies))
	}
	mock := claudetest.NewMock(t, claudetest.Bash("toolu_log", "tail -n 1500 app.log"), claudetest.Say("Two failed requests."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	s.Env = []string{"VAULTCTX_HOOK_DEADLINE=60s"}
	if err := os.WriteFile(filepath.Join(s.Project, "app.log"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	r := s.Run(t, "any errors in app.log?")
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	got, ok := mock.ToolResult("toolu_log")
	if !ok {
		t.Fatal("no tool_result reached the model")
	}
	t.Logf("the model received:\n%s", got)
	if !strings.HasPrefix(got, compress.HeaderPrefix+"Bash output condensed from 1500 lines") {
		t.Fatalf("the model did not receive the extract:\n%.2000s", got)
	}
	logLines := map[string]bool{}
	for _, l := range strings.Split(string(log), "\n") {
		logLines[l] = true
	}
	for _, l := range strings.Split(got, "\n") {
		if !compress.IsMarkerLine(l) && !logLines[l] {
			t.Errorf("the model got a line that is not in the log: %q", l)
		}
	}
	for _, a := range meta.Anomalies {
		if !strings.Contains(got, a+"\n") && !strings.HasSuffix(got, a) {
			t.Errorf("anomaly lost: %q", a)
		}
	}
	checkHooks(t, r, 3) // SessionStart, UserPromptSubmit, PostToolUse
}
