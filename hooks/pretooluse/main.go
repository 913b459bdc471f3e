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
	"os"

	"github.com/vaultctx/vaultctx/core/recall"
)

func main() {
	os.Exit(recall.Main(recall.EventPreTool, recall.PreTool))
}
