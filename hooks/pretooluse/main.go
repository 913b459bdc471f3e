// Command vaultctx-pretooluse is the Claude Code PreToolUse hook.
//
// For tools whose input states a search intent (Grep and Glob `pattern`,
// WebSearch `query`, WebFetch `prompt`, Task and Agent `description` and
// `prompt`) it searches the vault index and prints
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"..."}}
// under hooks.pretool_budget_tokens (300 by default), leaving out chunks
// that any of our hooks already showed in the same session, or, for a call
// a subagent makes, in that subagent (state under
// $XDG_STATE_HOME/vaultctx/sessions, expired after 24 h). The context of an
// Agent or Task call reaches the parent, not the subagent; the prompt
// hook's SubagentStart answer gives the subagent its own. The relevance
// floor is the prompt hook's (see core/recall/FLOOR.md). Every other tool,
// and a Glob pattern that names only file types, gets nothing, and so does
// every call when the config turns the hook off (hooks.pretooluse = false). It never blocks a tool, decides a permission, or rewrites
// tool input.
//
// Config, index, deadline, logging and exit status are as for
// vaultctx-userprompt: it always exits 0 and fails open.
package main

import (
	"os"
	"runtime/debug"

	"github.com/vaultctx/vaultctx/core/recall"
)

func main() {
	// The process lives for tens of milliseconds: the garbage collector
	// stays off unless the heap passes 512 MiB, and the index is left open
	// for the exit to reclaim (recall.Options).
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
	os.Exit(recall.Run(recall.EventPreTool, recall.PreTool, recall.Options{LeaveOpen: true, Stderr: os.Stderr}))
}
