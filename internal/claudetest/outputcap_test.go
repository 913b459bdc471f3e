package claudetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/settings"
)

// TestUpdatedToolOutputCap pins how much text a PostToolUse hook may put
// in updatedToolOutput: an answer of 29,000 bytes reaches the model whole
// (its last newline trimmed), one of 31,000 bytes is saved to a file and
// the model gets Claude Code's <persisted-output> preview instead. The
// extract budgets of core/compress (MaxBudgetTokens, MaxContentBudgetTokens)
// stay under this limit of 30,000 bytes.
func TestUpdatedToolOutputCap(t *testing.T) {
	cli := Claude(t)
	for _, c := range []struct {
		size  int
		whole bool
	}{{29000, true}, {31000, false}} {
		mock := NewMock(t, Bash("toolu_x", "seq 1 3000"), Say("ok"))
		s := NewSession(t, cli, mock)
		body := strings.Repeat("abcdefghi\n", c.size/10)
		out, err := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PostToolUse",
			"updatedToolOutput": map[string]any{"stdout": body, "stderr": "", "interrupted": false, "isImage": false}}})
		if err != nil {
			t.Fatal(err)
		}
		answer := filepath.Join(s.Root, "answer.json")
		script := filepath.Join(s.Root, "hook.sh")
		cfg, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PostToolUse": []any{map[string]any{"matcher": "Bash",
			"hooks": []any{map[string]any{"type": "command", "command": settings.ShellQuote(script)}}}}}})
		for name, data := range map[string][]byte{answer: out, script: []byte("#!/bin/sh\ncat >/dev/null\ncat " + settings.ShellQuote(answer) + "\n"), s.SettingsPath(): cfg} {
			if err := os.WriteFile(name, data, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		s.Run(t, "count")
		got, ok := mock.ToolResult("toolu_x")
		switch {
		case !ok:
			t.Errorf("%d bytes: no tool_result reached the model", c.size)
		case c.whole && got != strings.TrimSuffix(body, "\n"):
			t.Errorf("%d bytes: the model got %d bytes, not the hook's answer whole: %.120q", c.size, len(got), got)
		case !c.whole && !strings.HasPrefix(got, "<persisted-output>"):
			t.Errorf("%d bytes: the model got %.120q, not Claude Code's preview", c.size, got)
		}
	}
}
