package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/eval"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// HookNames are the hook binaries timed end to end, in report order.
var HookNames = []string{"vaultctx-userprompt", "vaultctx-pretooluse", "vaultctx-posttooluse"}

// maxHookRuns caps the process spawns per hook binary.
const maxHookRuns = 30

// searchLatency times every query in every available mode, in process,
// after one untimed warm-up search per mode.
func searchLatency(ctx context.Context, opt Options, db string, queries []string, rep *Report) error {
	cfg := opt.Config
	e, err := engine.Open(ctx, db, engine.Options{ReadOnly: true, Columns: cfg.Search.Columns, Logger: opt.Logger})
	if err != nil {
		return err
	}
	defer e.Close()
	for _, mode := range eval.Modes {
		row := Latency{Name: mode}
		if mode != retrieve.ModeBM25 && !e.VecAvailable() {
			row.Note, row.Missing = "no vectors", MissingVectors
			rep.Search = append(rep.Search, row)
			continue
		}
		search, _ := cfg.Search.WithFusion(e.Fusion(ctx))
		sopt := search.Options(mode, 0)
		if _, err := e.Search(ctx, queries[0], sopt); err != nil {
			return fmt.Errorf("bench %s search: %w", mode, err)
		}
		ms := make([]float64, 0, len(queries))
		for _, q := range queries {
			start := time.Now()
			if _, err := e.Search(ctx, q, sopt); err != nil {
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
	rep.Search = append(rep.Search, processLatency(ctx, findBinary(opt.Hooks, "vaultctx"), db, queries))
	return nil
}

// vectorLeg times the vector leg alone (query embedding plus IVF
// KNN) and measures its recall@10 against an exhaustive scan.
func vectorLeg(ctx context.Context, e *engine.Engine, queries []string, rep *Report) error {
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
func processLatency(ctx context.Context, exe, db string, queries []string) Latency {
	name := "vaultctx search --mode hybrid (process)"
	if exe == "" {
		return Latency{Name: name, Note: "vaultctx binary not found next to this one or on $PATH"}
	}
	ms := make([]float64, 0, len(queries))
	for _, q := range queries {
		cmd := exec.CommandContext(ctx, exe, "search", "--db", db, "--mode", "hybrid", "--json", q)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return Latency{Name: name, Note: fmt.Sprintf("%v: %s", err, out)}
		}
		ms = append(ms, millis(time.Since(start)))
	}
	return latencyRow(name, ms)
}

// hookLatency times each hook binary from process spawn to exit, with a
// payload built from each query, against the bench index.
// The hooks run with their cache and state directories under tmp, so the
// bench leaves no saved outputs or session files in the user's own.
func hookLatency(ctx context.Context, hooksDir, db, vault, tmp string, queries []string, rep *Report) {
	big := bigOutput(vault)
	for _, name := range HookNames {
		bin := findBinary(hooksDir, name)
		if bin == "" {
			rep.Hooks = append(rep.Hooks, Latency{Name: name, Note: "not found", Missing: MissingHook})
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

// findBinary returns the path of the named binary in dir (if not ""),
// else next to this executable, else on $PATH; "" when none has it.
func findBinary(dir, name string) string {
	var dirs []string
	if dir != "" {
		dirs = append(dirs, dir)
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

// grepLatency times `grep -rilF QUERY VAULT` per query (fixed strings, so a
// query is never a broken regular expression).
func grepLatency(ctx context.Context, vault string, queries []string) Latency {
	bin, err := exec.LookPath("grep")
	if err != nil {
		return Latency{Name: "grep -ril", Note: "grep not found"}
	}
	ms := make([]float64, 0, len(queries))
	for _, q := range queries {
		cmd := exec.CommandContext(ctx, bin, "-rilF", "--", q, vault)
		start := time.Now()
		err := cmd.Run()
		ms = append(ms, millis(time.Since(start)))
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1 = no match
			return Latency{Name: "grep -ril", Note: err.Error()}
		}
	}
	return latencyRow("grep -ril", ms)
}

// latencyRow summarises ms (milliseconds) as its p50 and p95.
func latencyRow(name string, ms []float64) Latency {
	return Latency{Name: name, N: len(ms), P50Ms: eval.Percentile(ms, 50), P95Ms: eval.Percentile(ms, 95)}
}

// findLatency returns the measured row called name, or nil.
func findLatency(rows []Latency, name string) *Latency {
	for i := range rows {
		if rows[i].Name == name && rows[i].N > 0 {
			return &rows[i]
		}
	}
	return nil
}

func millis(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
