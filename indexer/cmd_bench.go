package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/eval"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// benchCmd is `vaultctx bench`: indexing, size and latency on a vault, all
// measured in one run on a private copy of it (the vault itself is never
// written), next to `grep -ril` for the same queries.
//
// Queries come from --queries (a reference set, see eval/README.md) or, by
// default, from the H1 titles of 50 notes spread evenly over the vault. Hook
// binaries (vaultctx-userprompt, vaultctx-pretooluse, vaultctx-posttooluse)
// are looked up in --hooks, next to the vaultctx executable, then in $PATH;
// a missing one is reported, not fatal. The table (or JSON) goes to stdout.
type benchCmd struct {
	Vault   string `help:"Vault to measure (copied to a temporary directory first)." type:"existingdir" placeholder:"DIR" required:""`
	Model   string `help:"Embedding model directory (default: model in the config; none means BM25 only)." type:"path" placeholder:"DIR"`
	Queries string `help:"Reference set whose queries are timed (default: 50 note titles)." type:"existingfile" placeholder:"FILE"`
	Hooks   string `help:"Directory holding the hook binaries (default: next to vaultctx, then $PATH)." type:"path" placeholder:"DIR"`
	Edits   int    `help:"Files edited before the incremental run." default:"20" placeholder:"N"`
	JSON    bool   `name:"json" help:"Print the results as JSON."`
}

// benchLatency is one latency row, in milliseconds.
type benchLatency struct {
	Name  string  `json:"name"`
	N     int     `json:"n"`
	P50Ms float64 `json:"p50_ms"`
	P95Ms float64 `json:"p95_ms"`
	Note  string  `json:"note,omitempty"`
}

// benchReport is the output of `vaultctx bench --json`.
type benchReport struct {
	Vault           string         `json:"vault"`
	Machine         string         `json:"machine"`
	Files           int            `json:"files"`
	Chunks          int            `json:"chunks"`
	Vectors         bool           `json:"vectors"`
	FullSeconds     float64        `json:"full_seconds"`
	FilesPerSecond  float64        `json:"files_per_second"`
	NoChangeSeconds float64        `json:"no_change_seconds"`
	Edits           int            `json:"edits"`
	EditedSeconds   float64        `json:"edited_seconds"`
	DBBytes         int64          `json:"db_bytes"`
	BytesPerChunk   float64        `json:"bytes_per_chunk"`
	MarkdownBytes   int64          `json:"markdown_bytes"`
	DBOverMarkdown  float64        `json:"db_over_markdown"`
	PeakRSSBytes    int64          `json:"full_index_peak_rss_bytes"`
	KNNRecall10     float64        `json:"knn_recall_at_10"`
	Queries         int            `json:"queries"`
	Search          []benchLatency `json:"search"`
	Hooks           []benchLatency `json:"hooks"`
	Grep            benchLatency   `json:"grep"`
	GrepVsHybrid    float64        `json:"grep_p50_over_hybrid_p50"`
}

// benchHookNames are the hook commands timed end to end.
var benchHookNames = []string{"vaultctx-userprompt", "vaultctx-pretooluse", "vaultctx-posttooluse"}

// maxHookRuns caps the process spawns per hook binary.
const maxHookRuns = 30

// Run measures the vault.
func (c *benchCmd) Run(g *globals) error {
	if c.Edits < 0 {
		return usageError{"--edits must be 0 or more"}
	}
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	ctx := g.Ctx
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	model := orDefault(c.Model, cfg.Model)

	tmp, err := os.MkdirTemp("", "vaultctx-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	vault, db := filepath.Join(tmp, "vault"), filepath.Join(tmp, "index.db")
	fmt.Fprintf(os.Stderr, "copying %s ...\n", c.Vault)
	notes, err := copyVault(ctx, c.Vault, vault)
	if err != nil {
		return err
	}
	queries, err := c.queries(vault, notes)
	if err != nil {
		return err
	}
	rep := &benchReport{Vault: c.Vault, Machine: machine(), Queries: len(queries), Edits: min(c.Edits, len(notes))}

	opt := index.Options{
		Vault: vault, DB: db, Full: true, ModelDir: model, NoModel: model == "",
		Rules: cfg.Rules(), Logger: log,
	}
	fmt.Fprintln(os.Stderr, "full index ...")
	sum, secs, err := timedIndex(ctx, opt)
	if err != nil {
		return err
	}
	rep.Files, rep.FullSeconds, rep.Vectors = sum.FilesIndexed, secs, sum.Vectors
	rep.PeakRSSBytes = peakRSS()
	if secs > 0 {
		rep.FilesPerSecond = float64(sum.FilesIndexed) / secs
	}
	opt.Full = false
	fmt.Fprintln(os.Stderr, "incremental index, nothing changed ...")
	if _, rep.NoChangeSeconds, err = timedIndex(ctx, opt); err != nil {
		return err
	}
	if err := editNotes(vault, notes, rep.Edits); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "incremental index after %d edits ...\n", rep.Edits)
	if sum, rep.EditedSeconds, err = timedIndex(ctx, opt); err != nil {
		return err
	}
	rep.Chunks = sum.Chunks
	for _, p := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			rep.DBBytes += fi.Size()
		}
	}
	if rep.Chunks > 0 {
		rep.BytesPerChunk = float64(rep.DBBytes) / float64(rep.Chunks)
	}
	for _, n := range notes {
		if fi, err := os.Stat(filepath.Join(vault, filepath.FromSlash(n))); err == nil {
			rep.MarkdownBytes += fi.Size()
		}
	}
	if rep.MarkdownBytes > 0 {
		rep.DBOverMarkdown = float64(rep.DBBytes) / float64(rep.MarkdownBytes)
	}

	fmt.Fprintf(os.Stderr, "timing %d queries ...\n", len(queries))
	if err := c.searchLatency(ctx, cfg, db, queries, rep, log); err != nil {
		return err
	}
	c.hookLatency(ctx, db, vault, tmp, queries, rep)
	rep.Grep = grepLatency(ctx, vault, queries)
	if h := findLatency(rep.Search, retrieve.ModeHybrid); h != nil && h.P50Ms > 0 {
		rep.GrepVsHybrid = rep.Grep.P50Ms / h.P50Ms
	}
	if err := ctx.Err(); err != nil {
		return errInterrupted
	}
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.writeTable()
}

// timedIndex runs the indexer and returns its summary and wall seconds.
func timedIndex(ctx context.Context, opt index.Options) (index.Summary, float64, error) {
	start := time.Now()
	sum, err := index.Run(ctx, opt)
	return sum, time.Since(start).Seconds(), err
}

// queries returns the query texts: the reference set's, or the titles of
// up to 50 notes spread evenly over the sorted note list.
func (c *benchCmd) queries(vault string, notes []string) ([]string, error) {
	if c.Queries != "" {
		qs, err := eval.ReadVaultQueries(c.Queries)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(qs))
		for i, q := range qs {
			out[i] = q.Query
		}
		return out, nil
	}
	const n = 50
	var out []string
	for i := range min(n, len(notes)) {
		p := notes[i*len(notes)/min(n, len(notes))]
		out = append(out, noteTitle(filepath.Join(vault, filepath.FromSlash(p))))
	}
	if len(out) == 0 {
		return nil, usageError{"the vault has no .md notes to take queries from: pass --queries FILE"}
	}
	return out, nil
}

// noteTitle returns the first H1 of a note, else its file name stem.
func noteTitle(path string) string {
	data, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(data), "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok && strings.TrimSpace(t) != "" {
			return strings.TrimSpace(t)
		}
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// searchLatency times every query in every available mode, in process,
// after one untimed warm-up search per mode.
func (c *benchCmd) searchLatency(ctx context.Context, cfg config.Config, db string, queries []string, rep *benchReport, log *slog.Logger) error {
	e, err := engine.Open(ctx, db, engine.Options{ReadOnly: true, Columns: cfg.Search.Columns, Logger: log})
	if err != nil {
		return err
	}
	defer e.Close()
	for _, mode := range eval.Modes {
		row := benchLatency{Name: mode}
		if mode != retrieve.ModeBM25 && !e.VecAvailable() {
			row.Note = "no vectors (pass --model DIR)"
			rep.Search = append(rep.Search, row)
			continue
		}
		opt := cfg.Search.Options(mode, 0)
		if _, err := e.Search(ctx, queries[0], opt); err != nil {
			return fmt.Errorf("bench %s search: %w", mode, err)
		}
		ms := make([]float64, 0, len(queries))
		for _, q := range queries {
			start := time.Now()
			if _, err := e.Search(ctx, q, opt); err != nil {
				return fmt.Errorf("bench %s search: %w", mode, err)
			}
			ms = append(ms, millis(time.Since(start)))
		}
		rep.Search = append(rep.Search, latencyRow(mode, ms))
	}
	if e.VecAvailable() {
		if err := vectorLeg(ctx, e, queries, rep); err != nil {
			return err
		}
	}
	rep.Search = append(rep.Search, processLatency(ctx, c.findHook("vaultctx"), db, queries))
	return nil
}

// vectorLeg times the vector leg alone (query embedding plus IVF
// KNN) and measures its recall@10 against an exhaustive scan.
func vectorLeg(ctx context.Context, e *engine.Engine, queries []string, rep *benchReport) error {
	m, err := e.Model()
	if err != nil {
		return err
	}
	st := e.Store()
	ms := make([]float64, 0, len(queries))
	found, total := 0, 0
	for _, q := range queries {
		start := time.Now()
		v, err := m.Encode(q)
		if err != nil {
			return err
		}
		got, err := st.VectorHits(ctx, v, 10)
		if err != nil {
			return err
		}
		ms = append(ms, millis(time.Since(start)))
		exact, err := st.ExactVectorHits(ctx, v, 10)
		if err != nil {
			return err
		}
		in := map[int64]bool{}
		for _, h := range got {
			in[h.ChunkID] = true
		}
		for _, h := range exact {
			total++
			if in[h.ChunkID] {
				found++
			}
		}
	}
	row := latencyRow("vector leg (embed + KNN)", ms)
	if total > 0 {
		rep.KNNRecall10 = float64(found) / float64(total)
		row.Note = fmt.Sprintf("recall@10 vs exhaustive %.3f", rep.KNNRecall10)
	}
	rep.Search = append(rep.Search, row)
	return nil
}

// processLatency times `vaultctx search --mode hybrid` from process spawn
// to exit.
// exe is the vaultctx binary (found like the hooks: next to this
// executable, then on $PATH); "" skips the row.
func processLatency(ctx context.Context, exe, db string, queries []string) benchLatency {
	name := "vaultctx search --mode hybrid (process)"
	if exe == "" {
		return benchLatency{Name: name, Note: "vaultctx binary not found next to this one or on $PATH"}
	}
	ms := make([]float64, 0, len(queries))
	for _, q := range queries {
		cmd := exec.CommandContext(ctx, exe, "search", "--db", db, "--mode", "hybrid", "--json", q)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return benchLatency{Name: name, Note: fmt.Sprintf("%v: %s", err, out)}
		}
		ms = append(ms, millis(time.Since(start)))
	}
	return latencyRow(name, ms)
}

// peakRSS is this process's peak resident set size so far, in bytes.
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss * 1024 // Linux reports KiB
}

// hookLatency times each hook binary from process spawn to exit, with a
// payload built from each query, against the bench index.
// The hooks run with their cache and state directories under tmp, so the
// bench leaves no saved outputs or session files in the user's own.
func (c *benchCmd) hookLatency(ctx context.Context, db, vault, tmp string, queries []string, rep *benchReport) {
	big := bigOutput(vault)
	for _, name := range benchHookNames {
		bin := c.findHook(name)
		if bin == "" {
			rep.Hooks = append(rep.Hooks, benchLatency{Name: name, Note: "not found: build hooks/ (make install) or pass --hooks DIR"})
			continue
		}
		var ms []float64
		var note string
		answered := 0
		for i, q := range queries[:min(len(queries), maxHookRuns)] {
			payload := hookPayload(name, q, vault, big, i)
			cmd := exec.CommandContext(ctx, bin)
			cmd.Stdin = bytes.NewReader(payload)
			cmd.Env = append(os.Environ(), "VAULTCTX_DB="+db,
				"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"), "XDG_STATE_HOME="+filepath.Join(tmp, "state"))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			ms = append(ms, millis(time.Since(start)))
			if stdout.Len() > 0 {
				answered++
			}
			if err != nil && note == "" {
				note = fmt.Sprintf("exit: %v %s", err, strings.TrimSpace(stderr.String()))
			}
		}
		row := latencyRow(name, ms)
		row.Note = fmt.Sprintf("%d/%d with output", answered, len(ms))
		if note != "" {
			row.Note += "; " + note
		}
		rep.Hooks = append(rep.Hooks, row)
	}
}

// findHook returns the path of a hook binary, or "".
func (c *benchCmd) findHook(name string) string {
	var dirs []string
	if c.Hooks != "" {
		dirs = append(dirs, c.Hooks)
	}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return ""
}

// hookPayload builds the stdin JSON of one hook call (see
// ../shared/hook-payloads for the contract).
func hookPayload(name, query, vault, big string, i int) []byte {
	base := map[string]any{
		"session_id":      fmt.Sprintf("vaultctx-bench-%d", i),
		"transcript_path": "",
		"cwd":             vault,
		"permission_mode": "default",
	}
	switch name {
	case "vaultctx-userprompt":
		base["hook_event_name"] = "UserPromptSubmit"
		base["prompt"] = query
	case "vaultctx-pretooluse":
		base["hook_event_name"] = "PreToolUse"
		base["tool_name"] = "Grep"
		base["tool_input"] = map[string]any{"pattern": query, "path": vault}
		base["tool_use_id"] = fmt.Sprintf("toolu_bench%04d", i)
	default:
		base["hook_event_name"] = "PostToolUse"
		base["tool_name"] = "Bash"
		base["tool_input"] = map[string]any{"command": "grep -ril " + query + " ."}
		base["tool_response"] = map[string]any{"stdout": big, "stderr": "", "interrupted": false, "isImage": false}
		base["tool_use_id"] = fmt.Sprintf("toolu_bench%04d", i)
	}
	b, _ := json.Marshal(base)
	return b
}

// bigOutput returns about 64 KiB of real text from the vault, a Bash output
// large enough for the PostToolUse hook to act on.
func bigOutput(vault string) string {
	var b strings.Builder
	filepath.WalkDir(vault, func(p string, d fs.DirEntry, err error) error {
		if err != nil || b.Len() > 64<<10 {
			return fs.SkipAll
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// grepLatency times `grep -rilF QUERY VAULT` per query (fixed strings, so a
// query is never a broken regular expression).
func grepLatency(ctx context.Context, vault string, queries []string) benchLatency {
	bin, err := exec.LookPath("grep")
	if err != nil {
		return benchLatency{Name: "grep -ril", Note: "grep not found"}
	}
	ms := make([]float64, 0, len(queries))
	for _, q := range queries {
		cmd := exec.CommandContext(ctx, bin, "-rilF", "--", q, vault)
		start := time.Now()
		err := cmd.Run()
		ms = append(ms, millis(time.Since(start)))
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1 = no match
			return benchLatency{Name: "grep -ril", Note: err.Error()}
		}
	}
	return latencyRow("grep -ril", ms)
}

func latencyRow(name string, ms []float64) benchLatency {
	return benchLatency{Name: name, N: len(ms), P50Ms: eval.Percentile(ms, 50), P95Ms: eval.Percentile(ms, 95)}
}

func findLatency(rows []benchLatency, name string) *benchLatency {
	for i := range rows {
		if rows[i].Name == name && rows[i].N > 0 {
			return &rows[i]
		}
	}
	return nil
}

func millis(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// copyVault copies the regular files of src (outside dot folders) to dst
// and returns the vault-relative paths of its .md notes, sorted.
func copyVault(ctx context.Context, src, dst string) ([]string, error) {
	var notes []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != src && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(d.Name(), ".md") {
			notes = append(notes, filepath.ToSlash(rel))
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copy vault: %w", err)
	}
	slices.Sort(notes)
	return notes, nil
}

// editNotes appends a line to n notes spread evenly over the sorted list.
func editNotes(vault string, notes []string, n int) error {
	for i := range n {
		p := filepath.Join(vault, filepath.FromSlash(notes[i*len(notes)/n]))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("edit note: %w", err)
		}
		_, err = fmt.Fprintf(f, "\n\nvaultctx bench edit %d\n", i)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("edit note: %w", err)
		}
	}
	return nil
}

// machine describes the computer the bench ran on.
func machine() string {
	cpu := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":")) + ", "
				break
			}
		}
	}
	return fmt.Sprintf("%s%d CPUs, %s/%s, %s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// writeTable prints the report as one table.
func (r *benchReport) writeTable() error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "vault\t%s (%d files, %d chunks, vectors %t)\n", r.Vault, r.Files, r.Chunks, r.Vectors)
	fmt.Fprintf(tw, "machine\t%s\n", r.Machine)
	fmt.Fprintf(tw, "index: full\t%.2f s (%.0f files/s)\n", r.FullSeconds, r.FilesPerSecond)
	fmt.Fprintf(tw, "index: no change\t%.3f s\n", r.NoChangeSeconds)
	fmt.Fprintf(tw, "index: after %d edits\t%.3f s\n", r.Edits, r.EditedSeconds)
	fmt.Fprintf(tw, "index: peak RSS\t%.0f MiB (whole bench process after the full index)\n", float64(r.PeakRSSBytes)/(1<<20))
	fmt.Fprintf(tw, "size\t%d bytes (%.0f bytes/chunk, %.2fx the %d markdown bytes)\n", r.DBBytes, r.BytesPerChunk, r.DBOverMarkdown, r.MarkdownBytes)
	row := func(kind string, l benchLatency) {
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
