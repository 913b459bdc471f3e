// Package hookio is the shared plumbing of vaultctx's three Claude Code hook
// binaries (UserPromptSubmit, PreToolUse, PostToolUse): decoding the hook
// JSON on stdin, the fail-open runner every hook main calls, the protocol
// output builders, the "## Relevant Memory Context" block formatter, prompt
// gating helpers and the per-session "already injected" state.
//
// The contract is Claude Code's hooks reference, summarised in the
// repository's ../shared/hook-payloads/README.md. The rules this package
// enforces for every hook:
//
//   - stdout carries only protocol JSON; any error, panic or deadline leads to
//     exit status 0, empty stdout and one line on stderr;
//   - nothing here ever blocks or decides: no exit status 2, no "decision",
//     "permissionDecision" or "updatedInput" fields are ever produced;
//   - VAULTCTX_LOG=FILE turns on a debug log (log/slog text) appended to FILE.
package hookio
