// Package recall answers the two context hooks, UserPromptSubmit and
// PreToolUse: it turns the hook input into a query, searches the vault
// index (core/engine) in hybrid mode, drops weak results and chunks this
// session has already been shown, scrubs credentials, folds near-duplicate
// chunks (one section copied into several notes) into the first of them
// (Collapse), and renders the context block under a token budget
// (FormatContext), where a folded copy costs one path on an "also in" line,
// each note named by its absolute path on disk (the vault root joined with
// the file's real, possibly NFD, name).
//
// # Which prompts are searched
//
// PromptSkip keeps the prompt hook from searching what is no question to
// the vault: slash commands, text the client generates (Claude Code sends a
// <task-notification> as a prompt when background work finishes),
// acknowledgements ("ok", "yes do it"), lone paths or URLs, and pasted
// stack traces or logs with no question line.
//
// # Session life
//
// The prompt hook also answers SessionStart and SubagentStart
// (PromptHook). After /compact or /clear (SessionStart source "compact" or
// "clear") the session forgets what it was shown, so the chunks can be
// shown again. A subagent gets context for its task (SubagentStart: the
// Agent call's description and prompt, found in the parent's transcript by
// SubagentTask), and has its own session state, as do the tool calls it
// makes.
//
// # Relevance floor
//
// A hook prints context only when its result list clears the relevance
// floor (Floor, Measure, FloorFor): one hit found by the BM25 leg must hold
// enough of the query's term weight, where a term found in n^a of the
// index's n chunks weighs 1-a (TermWeight, a size-free idf). Either it
// holds at least the calibrated evidence and 30% of the query's weight, or
// 90% of the weight and the calibrated whole-query evidence. `vaultctx
// index` calibrates both thresholds per index (Calibrate): it searches 315
// everyday coding-agent prompts about no vault (background.txt) and sets
// each just above all but 1% of them. The vector leg ranks but does not
// decide, unless hooks.min_score sets a cosine. FLOOR.md has the method,
// the measurements on testdata/prompts (tuning and check halves) and the
// commands that reproduce them.
package recall
