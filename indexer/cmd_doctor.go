package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/core/store"
)

// doctorCmd is `vaultctx doctor`: it runs every check, prints ✓ or ✗ for
// each with a one-line fix, and exits 1 when any check failed.
type doctorCmd struct{}

// checkStatus is the outcome kind of one doctor check.
type checkStatus int

const (
	checkPass checkStatus = iota
	checkFail
)

// finding is the outcome of one check: what was seen, and for a failure
// the one-line fix.
type finding struct {
	status checkStatus
	detail string
	fix    string
}

// passed is a passing finding.
func passed(format string, a ...any) finding {
	return finding{status: checkPass, detail: fmt.Sprintf(format, a...)}
}

// failed is a failing finding with its one-line fix.
func failed(fix, format string, a ...any) finding {
	return finding{status: checkFail, detail: fmt.Sprintf(format, a...), fix: fix}
}

// doctor holds what checks learn for later checks: the config and the
// hooks as wired.
type doctor struct {
	g       *globals
	cfg     *doctorConfig
	cfgErr  error
	wiring  []wiring
	entries []settings.Entry
}

// doctorConfig is the part of the config the checks need.
type doctorConfig struct {
	Vault, DB, Model string
}

// check is one named doctor check.
type check struct {
	name string
	run  func(d *doctor, ctx context.Context) finding
}

// doctorChecks are run in order; later ones may use what earlier ones found.
var doctorChecks = []check{
	{"binaries on PATH", (*doctor).checkPath},
	{"config parses", (*doctor).checkConfig},
	{"index integrity", (*doctor).checkIndex},
	{"sqlite-vec loads", (*doctor).checkVec},
	{"model matches index", (*doctor).checkModel},
	{"hooks wired", (*doctor).checkHooks},
	{"UserPromptSubmit round trip", roundTrip("UserPromptSubmit")},
	{"PreToolUse round trip", roundTrip("PreToolUse")},
	{"PostToolUse round trip", roundTrip("PostToolUse")},
}

// Run executes every check and prints one line each (plus a fix line for
// failures) to stdout.
func (c *doctorCmd) Run(g *globals) error {
	d := &doctor{g: g}
	nfailed := 0
	w := os.Stdout
	for _, ch := range doctorChecks {
		f := ch.run(d, g.Ctx)
		switch f.status {
		case checkPass:
			fmt.Fprintf(w, "✓ %s: %s\n", ch.name, f.detail)
		default:
			nfailed++
			fmt.Fprintf(w, "✗ %s: %s\n    fix: %s\n", ch.name, f.detail, f.fix)
		}
		if err := g.Ctx.Err(); err != nil {
			return errInterrupted
		}
	}
	if nfailed > 0 {
		return fmt.Errorf("doctor: %d of %d checks failed", nfailed, len(doctorChecks))
	}
	return nil
}

// hookBinaries is every binary an installation has.
var hookBinaries = []string{"vaultctx", settings.UserPromptBinary, settings.PreToolUseBinary, settings.PostToolUseBinary}

func (d *doctor) checkPath(ctx context.Context) finding {
	var missing, dirs []string
	for _, b := range hookBinaries {
		p, err := exec.LookPath(b)
		if err != nil {
			missing = append(missing, b)
			continue
		}
		if dir := filepath.Dir(p); !contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	if len(missing) == 0 {
		return passed("%s", strings.Join(dirs, ", "))
	}
	fix := "run scripts/install.sh to build them"
	if dir, err := binDir(""); err == nil && allIn(dir, missing) {
		fix = fmt.Sprintf("add %s to PATH: export PATH=\"%s:$PATH\"", dir, dir)
	}
	return failed(fix, "not found: %s", strings.Join(missing, ", "))
}

// allIn reports whether every named binary exists in dir.
func allIn(dir string, names []string) bool {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (d *doctor) checkConfig(ctx context.Context) finding {
	d.cfg, d.cfgErr = loadDoctorConfig(d.g)
	switch {
	case d.cfgErr != nil:
		return failed("fix the file named above, or re-create it with scripts/install.sh --vault DIR", "%v", d.cfgErr)
	case d.cfg.Vault == "":
		return failed(fmt.Sprintf("set vault = \"/path/to/notes\" in %s (or run scripts/install.sh --vault DIR)", doctorConfigPath(d.g)), "no vault configured")
	}
	if fi, err := os.Stat(d.cfg.Vault); err != nil || !fi.IsDir() {
		return failed("point vault at an existing folder in the config", "vault %s is not a directory", d.cfg.Vault)
	}
	return passed("%s: vault %s, index %s", doctorConfigPath(d.g), d.cfg.Vault, d.cfg.DB)
}

// doctorConfigPath is the config file in use.
func doctorConfigPath(g *globals) string {
	if g.ConfigPath != "" {
		return g.ConfigPath
	}
	return config.DefaultPath(os.Getenv)
}

// openIndex opens the configured index read-only.
func (d *doctor) openIndex(ctx context.Context) (*store.Store, finding, bool) {
	if d.cfg == nil {
		return nil, failed("fix the config first", "no usable config"), false
	}
	st, err := store.Open(ctx, d.cfg.DB, store.Options{ReadOnly: true})
	switch {
	case errors.Is(err, store.ErrNotIndexed):
		return nil, failed("run: vaultctx index", "no index at %s", d.cfg.DB), false
	case err != nil:
		return nil, failed("rebuild it: vaultctx index --full", "%v", err), false
	}
	return st, finding{}, true
}

func (d *doctor) checkIndex(ctx context.Context) finding {
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	defer st.Close()
	if err := st.Check(ctx); err != nil {
		return failed("rebuild it: vaultctx index --full", "%s: %v", d.cfg.DB, err)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return failed("rebuild it: vaultctx index --full", "%v", err)
	}
	return passed("%s passes integrity_check and the FTS5 check (%d files, %d chunks)", d.cfg.DB, stats.Files, stats.Chunks)
}

func (d *doctor) checkVec(ctx context.Context) finding {
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	defer st.Close()
	if !st.VecLoadable(ctx) {
		return failed("rebuild with cgo enabled: scripts/install.sh", "the sqlite-vec extension did not load in this binary")
	}
	if !st.VecAvailable() {
		return passed("loaded; the index holds no vectors (BM25 only)")
	}
	return passed("loaded; %d-dimensional vectors indexed", st.VecDim())
}

func (d *doctor) checkHooks(ctx context.Context) finding {
	path, err := settings.UserPath(os.Getenv)
	if err != nil {
		return failed("set HOME or CLAUDE_CONFIG_DIR", "%v", err)
	}
	find := func(p string) ([]wiring, []settings.Entry, bool, string) {
		rep, err := settings.Status(ctx, p)
		if err != nil {
			return nil, nil, false, err.Error()
		}
		w, err := hookWiring(rep.Entries)
		if err != nil {
			return nil, nil, false, err.Error()
		}
		var problems []string
		for _, x := range w {
			if x.Problem != "" {
				problems = append(problems, x.Event+": "+x.Problem)
			}
		}
		return w, rep.Entries, rep.Disabled, strings.Join(problems, "; ")
	}
	w, entries, disabled, problem := find(path)
	if problem != "" && !disabled {
		// A project may wire them instead of the user settings.
		if wd, err := os.Getwd(); err == nil {
			pp := settings.ProjectPath(wd)
			if pw, pe, pdis, pprob := find(pp); pprob == "" {
				path, w, entries, disabled, problem = pp, pw, pe, pdis, ""
			}
		}
	}
	d.wiring, d.entries = w, entries
	switch {
	case disabled:
		return failed(`set "disableAllHooks": false in `+path, "%s turns every hook off", path)
	case problem != "":
		return failed("run: vaultctx hooks install", "%s: %s", path, problem)
	}
	return passed("%d events in %s", len(w), path)
}

// hookTimeout bounds a doctor round trip when settings gives no timeout.
const hookTimeout = 10 * time.Second

// roundTrip returns the check that runs the hook wired to event with a
// sample payload, through sh as Claude Code does, and times it.
func roundTrip(event string) func(*doctor, context.Context) finding {
	return func(d *doctor, ctx context.Context) finding {
		command, timeout := "", hookTimeout
		for _, x := range d.wiring {
			if x.Event == event && len(x.Commands) == 1 {
				command = x.Commands[0]
			}
		}
		for _, e := range d.entries {
			if e.Event == event && e.Ours && e.Timeout > 0 {
				timeout = time.Duration(e.Timeout * float64(time.Second))
			}
		}
		if command == "" {
			return failed("run: vaultctx hooks install", "no %s hook wired", event)
		}
		payload, err := samplePayload(event)
		if err != nil {
			return failed("report this as a bug", "%v", err)
		}
		ms, out, stderr, err := runHook(ctx, command, payload, timeout)
		if err != nil {
			msg := strings.TrimSpace(stderr)
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			return failed("run it by hand: "+command+" < payload.json, and see VAULTCTX_LOG", "%v (%s)", err, msg)
		}
		if len(bytes.TrimSpace(out)) == 0 {
			return passed("%d ms, exit 0, no output for the sample", ms)
		}
		var resp struct {
			HookSpecificOutput struct {
				HookEventName string `json:"hookEventName"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &resp); err != nil || resp.HookSpecificOutput.HookEventName != event {
			return failed("rebuild the hooks: scripts/install.sh", "%d ms, but stdout is not a %s hook response: %.80q", ms, event, out)
		}
		return passed("%d ms, exit 0, %d bytes of %s output", ms, len(out), event)
	}
}

// runHook runs command through sh with payload on stdin, as Claude Code
// does, and returns its wall time in ms from spawn to exit, stdout and
// stderr. A non-zero exit or the timeout is an error.
func runHook(ctx context.Context, command string, payload []byte, timeout time.Duration) (int64, []byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = io.MultiWriter(&stderr)
	start := time.Now()
	err := cmd.Run()
	ms := time.Since(start).Milliseconds()
	if ctx.Err() == context.DeadlineExceeded {
		return ms, nil, stderr.String(), fmt.Errorf("timed out after %v", timeout)
	}
	if err != nil {
		return ms, nil, stderr.String(), fmt.Errorf("%w after %d ms", err, ms)
	}
	return ms, stdout.Bytes(), stderr.String(), nil
}

// samplePayload returns a stdin payload for event shaped like Claude
// Code's (see ../shared/hook-payloads): a prompt, a Grep call, and a Bash
// result large enough to be condensed.
func samplePayload(event string) ([]byte, error) {
	wd, _ := os.Getwd()
	common := map[string]any{
		"session_id":      fmt.Sprintf("vaultctx-doctor-%d", os.Getpid()),
		"transcript_path": filepath.Join(os.TempDir(), "vaultctx-doctor-no-transcript.jsonl"),
		"cwd":             wd,
		"permission_mode": "default",
		"hook_event_name": event,
	}
	switch event {
	case "UserPromptSubmit":
		common["prompt"] = "Where did I write down how recurring tasks and due dates work?"
	case "PreToolUse":
		common["tool_name"] = "Grep"
		common["tool_input"] = map[string]any{"pattern": "recurring tasks due date", "path": wd}
		common["tool_use_id"] = "toolu_vaultctx_doctor_pre"
	case "PostToolUse":
		var b strings.Builder
		for i := range 300 {
			fmt.Fprintf(&b, "ok  \texample.com/project/pkg%03d\t0.%03ds\n", i, (i*37)%1000)
		}
		b.WriteString("FAIL\texample.com/project/store\t0.412s\n--- FAIL: TestReplace (0.01s)\n    store_test.go:88: got 3 rows, want 2\n")
		common["tool_name"] = "Bash"
		common["tool_input"] = map[string]any{"command": "go test ./...", "description": "Run the tests"}
		common["tool_response"] = map[string]any{"stdout": b.String(), "stderr": "", "interrupted": false, "isImage": false}
		common["tool_use_id"] = "toolu_vaultctx_doctor_post"
	default:
		return nil, fmt.Errorf("no sample payload for %s", event)
	}
	return json.Marshal(common)
}

// loadDoctorConfig reads the config as every command does: --config,
// else $VAULTCTX_CONFIG, else the XDG default, then the VAULTCTX_* env.
func loadDoctorConfig(g *globals) (*doctorConfig, error) {
	c, err := loadConfig(g)
	if err != nil {
		return nil, err
	}
	return &doctorConfig{Vault: c.Vault, DB: c.DB, Model: c.Model}, nil
}

func (d *doctor) checkModel(ctx context.Context) finding {
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	indexHash, err := st.Meta(ctx, "model_hash")
	var indexDir string
	if err == nil {
		indexDir, err = st.Meta(ctx, "model_dir")
	}
	st.Close()
	if err != nil {
		return failed("rebuild it: vaultctx index --full", "%v", err)
	}
	dir := d.cfg.Model
	if dir == "" {
		dir = indexDir
	}
	if dir == "" && indexHash == "" {
		return passed("none configured: BM25-only search (for hybrid search: vaultctx model pull, set model in the config, vaultctx index)")
	}
	m, err := embed.Open(dir)
	if err != nil {
		return failed("run: vaultctx model pull, and set model = \"DIR\" in the config", "no usable model at %s: %v", dir, err)
	}
	defer m.Close()
	hash, err := m.Hash()
	switch {
	case err != nil:
		return failed("re-download it: vaultctx model pull", "%s: %v", dir, err)
	case indexHash == "":
		return failed("run: vaultctx index (it embeds the notes)", "%s is configured but the index holds no vectors from it", dir)
	case hash != indexHash:
		return failed("re-embed with this model: vaultctx index --full",
			"%s (hash %.12s) is not the model the index was built with (hash %.12s)", dir, hash, indexHash)
	}
	return passed("%s (%s, %d dims), hash %.12s matches the index", dir, m.Name(), m.Dim(), hash)
}
