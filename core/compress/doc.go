// Package compress condenses long Bash results for Claude Code's
// PostToolUse hook into a stable, focused extract.
//
// Raw tool output is full of timestamps, timings, progress redraws and
// noise that change from run to run. Condense strips terminal escapes and
// carriage-return redraws, normalises volatile tokens (Normalize), always
// keeps errors, failures, panics, tracebacks, warnings, the lines that
// locate them and the final verdict, ranks the rest against the command, its
// description and the user's latest prompt (BM25 fused with position by
// Reciprocal Rank Fusion) and emits what fits the budget in original order
// with "[… N lines omitted …]" markers, under a one-line header that says
// where the full output was saved. An extract that is not at least
// MinSavingPercent smaller than the output is not used (WorthReplacing).
// Two runs of a command that differ only in
// volatile tokens give byte-identical extracts, which keeps Claude's prompt
// cache warm. Work is linear in the output and bounded: at most
// MaxExaminedBytes of it are read line by line.
//
// The package is pure: it reads no environment, files or transcripts, and
// Condense is a function of its request, options and the saved path it is
// told to name. core/posttool does the PostToolUse hook's I/O around it.
package compress
