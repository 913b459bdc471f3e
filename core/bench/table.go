package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteTable prints the report to w as one two-column table: the index
// times and size, then one row per search, hook and grep latency (p50 and
// p95 in ms, or the note saying why a row was not measured).
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "vault\t%s (%d files, %d chunks, vectors %t)\n", r.Vault, r.Files, r.Chunks, r.Vectors)
	fmt.Fprintf(tw, "machine\t%s\n", r.Machine)
	fmt.Fprintf(tw, "index: full\t%.2f s (%.0f files/s)\n", r.FullSeconds, r.FilesPerSecond)
	fmt.Fprintf(tw, "index: no change\t%.3f s\n", r.NoChangeSeconds)
	fmt.Fprintf(tw, "index: after %d edits\t%.3f s\n", r.Edits, r.EditedSeconds)
	fmt.Fprintf(tw, "index: peak RSS\t%.0f MiB (whole bench process after the full index)\n", float64(r.PeakRSSBytes)/(1<<20))
	fmt.Fprintf(tw, "size\t%d bytes (%.0f bytes/chunk, %.2fx the %d markdown bytes)\n", r.DBBytes, r.BytesPerChunk, r.DBOverMarkdown, r.MarkdownBytes)
	row := func(kind string, l Latency) {
		if l.N == 0 {
			fmt.Fprintf(tw, "%s %s\t%s\n", kind, l.Name, l.Note)
			return
		}
		fmt.Fprintf(tw, "%s %s\tp50 %.2f ms, p95 %.2f ms (n=%d)", kind, l.Name, l.P50Ms, l.P95Ms, l.N)
		if l.Note != "" {
			fmt.Fprintf(tw, " [%s]", l.Note)
		}
		fmt.Fprintln(tw)
	}
	for _, l := range r.Search {
		row("search", l)
	}
	for _, l := range r.Hooks {
		row("hook", l)
	}
	row("baseline", r.Grep)
	if r.GrepVsHybrid > 0 {
		fmt.Fprintf(tw, "grep / hybrid\t%.1fx (p50)\n", r.GrepVsHybrid)
	}
	return tw.Flush()
}
