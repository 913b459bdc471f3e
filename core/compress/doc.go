// Package compress condenses long Bash results for Claude Code's
// PostToolUse hook into a focused extract whose every line is true.
//
// An extract is a header line, lines of the output and "[… …]" marker
// lines of its own (IsMarkerLine), nothing else: a line is shown byte for
// byte as a terminal showed it (escape sequences and '\r' redraws
// resolved, see cleanLine), never rewritten. Normalize maps volatile tokens
// (timestamps, durations, ids, temp paths) to placeholders only to compare
// lines: to group similar ones, to pick a run's representative, and so
// that two runs of a command that differ only in them pick the same lines.
//
// Condense keeps errors, failures, panics, tracebacks, warnings, the lines
// that locate them and the final verdict; the unusual lines of a
// repetitive output (markAnomalies: rare shapes and field outliers, after
// the template masking of Drain, He et al., ICWS 2017); the tail of an
// interrupted command; and ranks the rest against the command, its
// description and the user's latest prompt (BM25 fused with position by
// Reciprocal Rank Fusion). What fits the budget is emitted in original
// order with "[… N lines omitted …]" markers, under a header that says
// where the full output was saved.
//
// The content of a file or a diff (cat, sed -n, git diff, git show …, see
// contentOf) is never condensed by picking lines: up to ContentPassBytes
// it passes through (ShouldCondense is false), and past it it is cut only
// between hunks or regions, with markers that name the command reading
// what was left out.
//
// An extract that is not at least MinSavingPercent smaller than the
// output is not used (WorthReplacing). Work is linear in the output and
// bounded: at most MaxExaminedBytes of it are read line by line.
//
// The package is pure: it reads no environment, files or transcripts, and
// Condense is a function of its request, options and the saved path it is
// told to name. core/posttool does the PostToolUse hook's I/O around it.
package compress
