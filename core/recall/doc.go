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
// floor (Floor, Measure): either some hit found by the vector leg has a
// cosine similarity to the query of at least hooks.min_score
// (DefaultMinCosine, 0.77, when unset), or some hit found by the BM25 leg
// contains at least DefaultMinCoverage (70%) of the query's searchable
// terms, or at least DefaultMinMatched (7) of them. The numbers were chosen
// by measuring 55 prompts that have a relevant note and 48 that do not
// against an index of the 16,691-file large corpus with the GloVe test
// model; FLOOR.md has the tables and the command that reproduces them. The cosine leg depends on the embedding
// model: with another model, measure again and set hooks.min_score.
package recall
