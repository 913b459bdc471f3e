package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/claudetest"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// toolNames returns the names of the tools a request offers the model.
func toolNames(r claudetest.Request) []string {
	var names []string
	for _, t := range r.JSON().Get("tools").Array() {
		names = append(names, t.Get("name").String())
	}
	return names
}

// TestClaudeCodeGrepContext runs the real Claude Code CLI with the
// installed hooks and a scripted Grep call for a PowerShell cmdlet the
// vault documents. A -p session offers no Grep tool by default (checked
// here too); `--tools` adds it. The PreToolUse context must reach the
// model's next request, as "PreToolUse:Grep hook additional context",
// naming the cmdlet's note by a path that exists.
func TestClaudeCodeGrepContext(t *testing.T) {
	cli := claudetest.Claude(t)
	env := hooktest.NewEnvWith(t, false, append(append([]hooktest.Source(nil), hooktest.DefaultSources...),
		hooktest.Source{From: "corpora/large/PowerShell-Docs/reference/7.4/Microsoft.PowerShell.Management/Get-ChildItem.md", To: "ps/Get-ChildItem.md"})...)
	bins := claudetest.BuildHooks(t)

	// The default tool set of a -p session has no Grep.
	plain := claudetest.NewMock(t, claudetest.Say("ok"))
	ps := claudetest.NewSession(t, cli, plain)
	if r := ps.Run(t, "hello"); r.Code != 0 {
		t.Fatalf("claude exit %d: %s", r.Code, r.Stderr)
	}
	if names := toolNames(plain.Messages()[0]); slices.Contains(names, "Grep") || !slices.Contains(names, "Bash") {
		t.Errorf("a default -p session offers %q; docs/claude-code.md says Bash but no Grep", names)
	}

	mock := claudetest.NewMock(t,
		claudetest.Use("toolu_grep", "Grep", map[string]any{"pattern": "Get-ChildItem.*-Recurse.*-Depth", "path": "."}),
		claudetest.Say("No matches in the project; see the notes."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	rec := s.RecordHooks(t, "PreToolUse")
	s.Env = env.Vars
	// "go ahead" gets nothing from the prompt hook: only PreToolUse speaks.
	r := s.Run(t, "go ahead", "--tools", "Bash,Grep,Glob,Agent", "--allowedTools", "Grep,Glob")
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	for _, p := range r.HookProblems() {
		t.Errorf("debug log: %s", p)
	}
	msgs := mock.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d requests, want 2", len(msgs))
	}
	if names := toolNames(msgs[0]); !slices.Contains(names, "Grep") {
		t.Fatalf("--tools did not add Grep: %q", names)
	}
	if _, ok := msgs[1].ToolResult("toolu_grep"); !ok {
		t.Error("the Grep call got no tool_result")
	}
	if got := msgs[0].HookContexts("UserPromptSubmit"); len(got) != 0 {
		t.Errorf("the prompt hook answered %q", got)
	}
	ctx := msgs[1].HookContexts("PreToolUse:Grep")
	if len(ctx) != 1 || !strings.HasPrefix(ctx[0], "## Relevant Memory Context") {
		t.Fatalf("PreToolUse contexts %q, want one block", ctx)
	}
	hits := claudetest.Hits(ctx[0])
	named := false
	for _, h := range hits {
		p := h[strings.IndexByte(h, '\n')+1:]
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the context names %s, which does not exist: %v", p, err)
		}
		named = named || p == env.Vault+"/ps/Get-ChildItem.md"
	}
	if !named {
		t.Errorf("the Get-ChildItem note is not named: %q", hits)
	}
	in := claudetest.RecordedInputs(t, rec, "PreToolUse")
	if len(in) != 1 || in[0].ToolName != "Grep" || in[0].ToolInput.Get("pattern").String() != "Get-ChildItem.*-Recurse.*-Depth" || in[0].ToolUseID != "toolu_grep" {
		t.Errorf("PreToolUse payloads %+v", in)
	}
	ran := false
	for _, h := range r.HookRuns() {
		ran = ran || (h.Event == "PreToolUse:Grep" && strings.Contains(h.Command, "vaultctx-pretooluse") && h.Status == 0)
	}
	if !ran {
		t.Errorf("the PreToolUse hook did not run for Grep: %+v", r.HookRuns())
	}
}
