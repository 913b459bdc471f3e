package main

import (
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/claudetest"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestClaudeCodeReceivesContext runs the real Claude Code CLI with the
// installed hooks on a small real index: the context block the
// UserPromptSubmit hook prints must reach the model in the first request,
// after the prompt.
func TestClaudeCodeReceivesContext(t *testing.T) {
	cli := claudetest.Claude(t)
	env := hooktest.NewEnv(t, false)
	bins := claudetest.BuildHooks(t)
	mock := claudetest.NewMock(t, claudetest.Say("Use WideCharToMultiByte."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	s.Env = env.Vars // HOME, XDG folders, VAULTCTX_DB and a generous deadline

	prompt := "How do I convert a wide character string to a multibyte string safely in C++?"
	r := s.Run(t, prompt)
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("claude -p took %v", r.Elapsed)
	msgs := mock.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d requests to /v1/messages, want 1", len(msgs))
	}
	if text := msgs[0].Text("user"); !strings.Contains(text, prompt) {
		t.Errorf("the prompt did not reach the model:\n%.3000s", text)
	}
	// 2.1.332 sends the context as a system-role message after the prompt.
	text := msgs[0].Text("system")
	for _, want := range []string{"UserPromptSubmit hook additional context: ## Relevant Memory Context",
		"cpp-text/how-to-convert-between-various-string-types.md"} {
		if !strings.Contains(text, want) {
			t.Errorf("the hook's context (%q) did not reach the model:\n%.3000s", want, text)
		}
	}
	runs := r.HookRuns()
	if len(runs) != 1 || runs[0].Event != "UserPromptSubmit" || runs[0].Status != 0 {
		t.Errorf("hook runs %+v, want one UserPromptSubmit exiting 0", runs)
	}
}
