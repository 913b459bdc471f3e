// Command vaultctx-userprompt is the Claude Code UserPromptSubmit hook.
//
// It reads the hook JSON on stdin, searches the vault index (hybrid BM25 +
// vector, RRF) for the prompt, and prints
// {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"..."}}
// with a "## Relevant Memory Context" block of at most hooks.prompt_budget_tokens
// tokens (500 by default). It prints nothing when the config turns it off
// (hooks.userprompt = false), for slash commands, prompts with fewer than
// two searchable terms, or prompts whose results fall below
// the relevance floor (a cosine of hooks.min_score, 0.77 by default, or
// enough of the prompt's terms in one BM25 hit; see core/recall/FLOOR.md).
// Chunks it shows are remembered per session_id so that no vaultctx hook
// repeats them in the same session (24 h).
//
// It finds its config and index as `vaultctx` does (VAULTCTX_CONFIG,
// VAULTCTX_DB, XDG dirs). It always exits 0: on any error, timeout
// (hooks.deadline_ms, 1.5 s by default; VAULTCTX_HOOK_DEADLINE overrides)
// or panic it prints nothing to stdout and one line to stderr.
// VAULTCTX_LOG=FILE appends a debug log to FILE.
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
	os.Exit(recall.Run(recall.EventPrompt, recall.Prompt, recall.Options{LeaveOpen: true, Stderr: os.Stderr}))
}
