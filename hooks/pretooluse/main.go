// Command vaultctx-pretooluse is the Claude Code PreToolUse hook.
//
// For tools whose input states a search intent (Grep and Glob `pattern`,
// WebSearch `query`, WebFetch `prompt`, Task and Agent `description` and
// `prompt`) it searches the vault index and prints
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"..."}}
// under hooks.pretool_budget_tokens (300 by default), leaving out chunks
// that any of our hooks already showed in the same session (state under
// $XDG_STATE_HOME/vaultctx/sessions, expired after 24 h). The relevance
// floor is the prompt hook's (see core/recall/FLOOR.md). Every other tool,
// and a Glob pattern that names only file types, gets nothing. It never blocks a tool, decides a permission, or rewrites
// tool input.
//
// Config, index, deadline, logging and exit status are as for
// vaultctx-userprompt: it always exits 0 and fails open.
package main

import (
	"context"
	"os"
	"runtime/debug"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/recall"
)

func main() {
	// A hook lives for tens of milliseconds: collect garbage only if the
	// heap passes 512 MiB.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
	cfg, cfgErr := config.Load("", os.Getenv)
	deadline := time.Duration(cfg.Hooks.DeadlineMS) * time.Millisecond
	os.Exit(hookio.Run(recall.EventPreTool, deadline, func(ctx context.Context, in hookio.Input) ([]byte, error) {
		if cfgErr != nil {
			return nil, cfgErr
		}
		return recall.PreTool(ctx, cfg, in)
	}))
}
