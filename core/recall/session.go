package recall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/internal/session"
	"github.com/vaultctx/vaultctx/core/internal/xdg"
	"github.com/vaultctx/vaultctx/core/refresh"
)

// Further events the prompt hook answers (PromptHook).
const (
	EventSessionStart  = "SessionStart"
	EventSubagentStart = "SubagentStart"
)

// PromptHook answers every event the prompt hook (vaultctx-userprompt) is
// wired to, by the payload's hook_event_name: SessionStart goes to
// SessionStart, SubagentStart to SubagentStart, and UserPromptSubmit (or a
// payload without hook_event_name, as when the hook is run by hand) to
// Prompt.
func PromptHook(ctx context.Context, cfg config.Config, in hookio.Input, opts Options) ([]byte, error) {
	switch in.Event {
	case EventSessionStart:
		return SessionStart(ctx, cfg, in, opts)
	case EventSubagentStart:
		return SubagentStart(ctx, cfg, in, opts)
	}
	return Prompt(ctx, cfg, in, opts)
}

// ResetSources are the SessionStart sources after which a session's
// conversation no longer holds what the hooks showed before: "compact"
// (Claude Code 2.1.332 keeps the session_id across /compact) and "clear"
// (it starts a new session_id, whose state is empty anyway).
var ResetSources = []string{"compact", "clear"}

// SessionStart answers a SessionStart payload. It prints nothing: it
// returns nil, and an error (one stderr line) when one of its two jobs
// fails.
//
// First, for a source in ResetSources it forgets the chunks every vaultctx
// hook showed in the session (session.Reset of session_id), so that the
// next prompt gets them again instead of nothing: after /compact none of
// them are in the conversation any more. It does so whatever the config's
// switches say, as forgetting never adds anything to a conversation, and
// leaves the state of the session's subagents alone.
//
// Then, for every source, it brings the index up to date before the
// session's first prompt (refresh.AtSessionStart): a stat walk, an inline
// incremental run for a small change, and a hand-off to a detached
// background run for a large one or when another indexer holds the index.
// It never waits on another indexer.
func SessionStart(ctx context.Context, cfg config.Config, in hookio.Input, opts Options) ([]byte, error) {
	reset := false
	for _, s := range ResetSources {
		reset = reset || in.Source == s
	}
	var errs []error
	if reset && in.SessionID != "" {
		if err := resetSession(in.SessionID); err != nil {
			errs = append(errs, err)
		} else {
			hookio.Logger(ctx).Debug("session state reset", "source", in.Source)
		}
	}
	out, err := refresh.AtSessionStart(ctx, cfg, refresh.Options{Logger: hookio.Logger(ctx)})
	if err != nil {
		errs = append(errs, fmt.Errorf("refresh: %w", err))
	}
	hookio.Logger(ctx).Debug("index refresh", "action", out.Action, "reason", out.Reason, "changed", out.Changes.Files())
	return nil, errors.Join(errs...)
}

// resetSession forgets the chunks shown in session id.
func resetSession(id string) error {
	dir, err := sessionsDir()
	if err != nil {
		return fmt.Errorf("session start: %w", err)
	}
	return session.Reset(dir, id)
}

// SubagentStart answers a SubagentStart payload: context for the
// subagent's task, which Claude Code 2.1.332 adds to the subagent's first
// request (as a system message starting "SubagentStart hook additional
// context: "), where a PreToolUse answer for the Agent call reaches only
// the parent. The payload does not carry the task: SubagentTask reads it
// from the parent's transcript, waiting up to SubagentWait for the client
// to write it there. It answers nil when the config turns the
// prompt hook off (hooks.userprompt = false), when the task cannot be
// told apart (SubagentTask), when PromptSkip skips it, and below the
// relevance floor. The context block is at most
// hooks.prompt_budget_tokens, and the subagent has its own session state
// (a subagent starts with a fresh conversation: what the parent was shown
// is not in it).
func SubagentStart(ctx context.Context, cfg config.Config, in hookio.Input, opts Options) ([]byte, error) {
	if !cfg.Hooks.Enabled(config.HookUserPrompt) {
		return nil, nil
	}
	task := SubagentTask(ctx, in)
	if task == "" {
		hookio.Logger(ctx).Debug("subagent task not found", "agent", in.AgentID)
		return nil, nil
	}
	if why := PromptSkip(task); why != "" {
		hookio.Logger(ctx).Debug("subagent task not searched", "reason", why)
		return nil, nil
	}
	return answer(ctx, cfg, in, opts, EventSubagentStart, task, cfg.Hooks.PromptBudgetTokens)
}

// sessionsDir is the folder of the session state files:
// $XDG_STATE_HOME/vaultctx/sessions.
func sessionsDir() (string, error) {
	dir, err := xdg.StateDir(os.Getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "sessions"), nil
}

// stateID is the session state a payload's hook reads and adds to: the
// session's, or, for a payload about a subagent (agent_id set: a
// SubagentStart, or a tool call the subagent makes), that subagent's own
// within the session. "" when the payload names no session.
func stateID(in hookio.Input) string {
	switch {
	case in.SessionID == "":
		return ""
	case in.AgentID != "":
		return in.SessionID + "/agent/" + in.AgentID
	}
	return in.SessionID
}
