// Package hookio is the Claude Code hook protocol as vaultctx's three hook
// binaries (UserPromptSubmit, also wired to SessionStart and SubagentStart;
// PreToolUse; PostToolUse) speak it: decoding
// the hook JSON on stdin (ReadInput, with its field scanner Fields), the
// protocol output builders (ContextOutput, BashOutput) and the fail-open
// runner every hook main calls (Run). What a hook answers lives elsewhere:
// core/recall for the context hooks, core/posttool for PostToolUse.
//
// The contract is Claude Code's hooks reference, summarised in the
// repository's ../shared/hook-payloads/README.md. The rules this package
// enforces for every hook:
//
//   - stdout carries only protocol JSON; any error, panic or deadline leads to
//     exit status 0, empty stdout and one line on stderr;
//   - nothing here ever blocks or decides: no exit status 2, no "decision",
//     "permissionDecision" or "updatedInput" fields are ever produced;
//   - JSON nested deeper than MaxDepth (10,000 levels) is refused before any
//     recursive parse (Valid), on stdin and in every transcript line;
//   - VAULTCTX_LOG=FILE turns on a debug log (log/slog text) appended to FILE.
package hookio
