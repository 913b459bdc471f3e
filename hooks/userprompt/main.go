// Command vaultctx-userprompt is the Claude Code UserPromptSubmit hook,
// wired also to SessionStart and SubagentStart.
//
// It reads the hook JSON on stdin and answers by its hook_event_name:
//
//   - UserPromptSubmit (or no hook_event_name): it searches the vault index
//     (hybrid BM25 + vector, RRF) for the prompt and prints
//     {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"..."}}
//     with a "## Relevant Memory Context" block of at most
//     hooks.prompt_budget_tokens tokens (500 by default), each note named by
//     its absolute path on disk. It prints nothing when the config turns it
//     off (hooks.userprompt = false), for prompts that are no question to the
//     vault (slash commands, <task-notification> and other text the client
//     generates, acknowledgements such as "ok" or "yes do it", lone paths or
//     URLs, pasted stack traces or logs without a question), prompts with
//     fewer than two searchable terms, or prompts whose results fall below
//     the relevance floor (a cosine of hooks.min_score, 0.77 by default, or
//     enough of the prompt's terms in one BM25 hit; see
//     core/recall/FLOOR.md).
//   - SessionStart with source "compact" or "clear": it forgets the chunks
//     shown in that session, so they can be shown again; it prints nothing.
//   - SubagentStart: the same search for the subagent's task (the Agent
//     call's description and prompt, read from the parent's transcript),
//     printed with hookEventName "SubagentStart": Claude Code adds it to the
//     subagent's first request.
//
// Chunks it shows are remembered per session_id (a subagent's apart) so
// that no vaultctx hook repeats them in the same session (24 h).
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
	os.Exit(recall.Run(recall.EventPrompt, recall.PromptHook, recall.Options{LeaveOpen: true, Stderr: os.Stderr},
		recall.EventSessionStart, recall.EventSubagentStart))
}
