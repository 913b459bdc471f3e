package compress

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fidelityCase is one real capture of testdata/fidelity (see its README):
// a PostToolUse payload, what its extract must keep, and its kind.
type fidelityCase struct {
	Name string
	Req  Request
	Meta struct {
		Kind          string   `json:"kind"`
		PairOf        *string  `json:"pair_of"`
		PairKind      string   `json:"pair_kind"`
		MustKeep      []string `json:"must_keep"`
		MustKeepLines []string `json:"must_keep_lines"`
		Anomalies     []string `json:"anomalies"`
		PersistedFile string   `json:"persisted_file"`
		// ExitStatus is the command's exit status; a case captured from
		// a PostToolUse payload of the real client records none (0).
		ExitStatus int `json:"exit_status"`
	}
}

// loadFidelity reads every case of testdata/fidelity. A case with a
// persisted_file is given as Claude Code gives it to the hook once the
// hook has read the complete file: that file as stdout, its path as
// FullOutputPath.
func loadFidelity(t testing.TB) []fidelityCase {
	t.Helper()
	metas, _ := filepath.Glob(filepath.Join("testdata", "fidelity", "*", "meta.json"))
	var out []fidelityCase
	for _, m := range metas {
		dir := filepath.Dir(m)
		c := fidelityCase{Name: filepath.Base(dir)}
		raw, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &c.Meta); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		payload, err := os.ReadFile(filepath.Join(dir, "posttooluse.json"))
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			ToolInput struct {
				Command     string `json:"command"`
				Description string `json:"description"`
			} `json:"tool_input"`
			ToolResponse struct {
				Stdout      string `json:"stdout"`
				Stderr      string `json:"stderr"`
				Interrupted bool   `json:"interrupted"`
			} `json:"tool_response"`
		}
		if err := json.Unmarshal(payload, &p); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		c.Req = Request{Command: p.ToolInput.Command, Description: p.ToolInput.Description,
			Stdout: p.ToolResponse.Stdout, Stderr: p.ToolResponse.Stderr, Interrupted: p.ToolResponse.Interrupted}
		if f := c.Meta.PersistedFile; f != "" {
			full, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			c.Req.Stdout, c.Req.Stderr = string(full), ""
			c.Req.FullOutputPath = filepath.Join("/home/dev/.claude/tool-results", c.Name+".txt")
		}
		out = append(out, c)
	}
	return out
}

// allOutputs is every real output the fidelity checks run on: the shared
// cases, testdata/captured and testdata/fidelity, with a kind ("" when the
// case records none).
func allOutputs(t *testing.T) (names, kinds []string, reqs []Request) {
	for _, c := range loadCases(t) {
		names, kinds, reqs = append(names, c.Name), append(kinds, ""), append(reqs, c.Req)
	}
	for _, c := range loadFidelity(t) {
		names, kinds, reqs = append(names, c.Name), append(kinds, c.Meta.Kind), append(reqs, c.Req)
	}
	return names, kinds, reqs
}

// TestVerbatim: every line of every extract is a line of the output, as
// a terminal showed it (secrets redacted), or one of the extract's own
// markers. It runs each case at the default options, forced (every case
// condensed) and under a tight budget.
func TestVerbatim(t *testing.T) {
	names, _, reqs := allOutputs(t)
	for i, req := range reqs {
		for _, opts := range []Options{{}, forced, {ThresholdBytes: 1, BudgetTokens: 300}} {
			if !ShouldCondense(req, opts) {
				continue
			}
			ex := Condense(context.Background(), req, opts, testSavedPath)
			body, ok := strings.CutPrefix(ex.Stdout, strings.SplitN(ex.Stdout, "\n", 2)[0]+"\n")
			if !ok || !IsMarkerLine(strings.SplitN(ex.Stdout, "\n", 2)[0]) {
				t.Fatalf("%s: no header line: %.200q", names[i], ex.Stdout)
			}
			if bad := notVerbatim(body, req.Stdout, defaultScrub); len(bad) > 0 {
				t.Errorf("%s (budget %d): %d stdout lines are not lines of the output, first %q", names[i], opts.BudgetTokens, len(bad), bad[0])
			}
			if bad := notVerbatim(ex.Stderr, req.Stderr, defaultScrub); len(bad) > 0 {
				t.Errorf("%s (budget %d): %d stderr lines are not lines of the output, first %q", names[i], opts.BudgetTokens, len(bad), bad[0])
			}
		}
	}
}

// TestFidelityKeeps: each case's must_keep substrings, must_keep_lines
// (whole lines) and injected anomalies survive in its extract, at the
// default options.
func TestFidelityKeeps(t *testing.T) {
	cases := loadFidelity(t)
	if len(cases) == 0 {
		t.Skip("no testdata/fidelity cases")
	}
	anomalies := 0
	for _, c := range cases {
		if !ShouldCondense(c.Req, Options{}) {
			continue // passes through whole: everything survives
		}
		anomalies += len(c.Meta.Anomalies)
		t.Run(c.Name, func(t *testing.T) { checkKeeps(t, c) })
	}
	t.Logf("%d cases, %d injected anomalies", len(cases), anomalies)
}

// checkKeeps checks one case's extract against its must_keep,
// must_keep_lines and anomalies.
func checkKeeps(t *testing.T, c fidelityCase) {
	{
		ex := Condense(context.Background(), c.Req, Options{}, testSavedPath)
		text := ex.Stdout + ex.Stderr
		lines := map[string]bool{}
		for l := range strings.SplitSeq(text, "\n") {
			lines[l] = true
		}
		for _, mk := range c.Meta.MustKeep {
			if !strings.Contains(text, mk) {
				t.Errorf("%s: must_keep %q lost", c.Name, mk)
			}
		}
		for _, l := range slices.Concat(c.Meta.MustKeepLines, c.Meta.Anomalies) {
			if !lines[defaultScrub(l)] {
				t.Errorf("%s: line %q lost", c.Name, l)
			}
		}
		if t.Failed() {
			t.Logf("%s extract:\n%s\n--- stderr\n%s", c.Name, ex.Stdout, ex.Stderr)
		}
	}
}

// TestContentWhole: a content output (the lines of a file, a diff) up to
// ContentPassBytes passes through; a larger one is cut only between
// segments, so each hunk body or file region is shown whole or not at all,
// and a diff whose headers fit keeps every file and hunk header.
func TestContentWhole(t *testing.T) {
	names, kinds, reqs := allOutputs(t)
	n := 0
	for i, req := range reqs {
		src := contentOf(req)
		if kinds[i] == "content" && src.kind == contentNone {
			t.Errorf("%s: a content case not recognised as content (command %q)", names[i], req.Command)
		}
		if src.kind == contentNone {
			continue
		}
		n++
		if len(req.Stdout)+len(req.Stderr) <= ContentPassBytes && req.FullOutputPath == "" {
			if ShouldCondense(req, Options{}) {
				t.Errorf("%s: content of %d bytes is condensed", names[i], len(req.Stdout)+len(req.Stderr))
			}
			req.FullOutputPath = "/claude/copy.txt" // exercise the cut on it too
		}
		ex := Condense(context.Background(), req, Options{}, testSavedPath)
		checkWholeSegments(t, names[i], req, src, ex)
	}
	t.Logf("%d content cases", n)
}

// checkWholeSegments checks an extract of a content output against the
// segments of its stdout (see cutContent).
func checkWholeSegments(t *testing.T, name string, req Request, src contentSource, ex Extract) {
	t.Helper()
	raw := strings.Split(strings.TrimSuffix(req.Stdout, "\n"), "\n")
	shown := contentLines(raw, contentHint(req, src, testSavedPath))
	// Match the extract's lines, in order, to output lines.
	got := strings.Split(strings.TrimSuffix(ex.Stdout, "\n"), "\n")[1:]
	at := make([]bool, len(raw))
	next := 0
	for _, g := range got {
		if IsMarkerLine(g) && !strings.HasPrefix(g, "[… line ") {
			continue
		}
		k := next
		for k < len(shown) && defaultScrub(shown[k]) != g {
			k++
		}
		if k == len(shown) {
			t.Errorf("%s: extract line %q is not an output line after line %d", name, g, next)
			return
		}
		at[k], next = true, k+1
	}
	var segs []segment
	switch src.kind {
	case contentDiff:
		segs = diffSegments(shown)
	case contentClassicDiff:
		segs = classicDiffSegments(shown)
	default:
		return
	}
	headersFit := true
	whole := 0 // bodies shown whole
	for _, s := range segs {
		if s.kind == segBody && !slices.Contains(at[s.first:s.last+1], false) {
			whole++
		}
	}
	for _, s := range segs {
		count, prefix := 0, true
		for i := s.first; i <= s.last; i++ {
			if at[i] {
				count++
				prefix = prefix && (i == s.first || at[i-1])
			}
		}
		switch {
		case s.kind == segBody && count != 0 && count != s.last-s.first+1 && (whole > 0 || !prefix):
			// Only when no body fits whole may one be shown in part, as
			// its head (splitFirstBody).
			t.Errorf("%s: hunk body %d–%d shown in part (%d lines)", name, s.first+1, s.last+1, count)
		case s.kind == segMeta && count == 0:
			headersFit = false
		}
	}
	if !headersFit && !strings.Contains(ex.Stdout, " whose headers follow …]") && !strings.Contains(ex.Stdout, " named below …]") {
		t.Errorf("%s: diff headers left out without a file index", name)
	}
}

// TestCompressionRatio measures the compression of the noisy outputs (test
// runs, builds, installs, progress and logs: the fidelity cases' kind, and
// sharedKinds for ../shared/tool-outputs) that reach the condenser, those of
// the hook's threshold or more (smaller ones pass through by design). Bytes
// in over bytes out, 1 for an output the extract would not replace. It
// requires a median of at least 8x over the ones PostToolUse receives:
// Claude Code fires it only for a command that exits 0 (a failing one fires
// PostToolUseFailure, which cannot replace the output), so the extracts of
// failing runs reach the agent only through a pipe such as "| tail". Their
// median is logged beside: a 5 KB failing build is mostly diagnostics the
// agent needs, kept nearly whole by design. It also requires 8x over the
// outputs of 16 KiB or more, whatever their exit status.
func TestCompressionRatio(t *testing.T) {
	const bigOutput = 16 << 10
	type sample struct {
		name  string
		ok    bool // exit status 0: the output reaches PostToolUse
		in    int
		ratio float64
	}
	var samples []sample
	add := func(name string, exit int, req Request) {
		in := len(req.Stdout) + len(req.Stderr)
		if !ShouldCondense(req, Options{}) {
			return
		}
		r := 1.0
		ex := Condense(context.Background(), req, Options{}, testSavedPath)
		if out := len(ex.Stdout) + len(ex.Stderr); WorthReplacing(req, ex) {
			r = float64(in) / float64(out)
		}
		samples = append(samples, sample{name, exit == 0, in, r})
		t.Logf("%-36s exit %-3d %8d bytes  %6.1fx", name, exit, in, r)
	}
	for _, c := range loadFidelity(t) {
		switch c.Meta.Kind {
		case "test", "build", "install", "progress", "log":
			add(c.Name, c.Meta.ExitStatus, c.Req)
		}
	}
	for _, c := range loadCases(t) {
		if _, ok := sharedKinds[strings.TrimSuffix(strings.TrimSuffix(c.Name, "_a"), "_b")]; ok {
			add(c.Name, c.Meta.ExitStatus, c.Req)
		}
	}
	med := func(keep func(sample) bool) (float64, int) {
		var rs []float64
		for _, s := range samples {
			if keep(s) {
				rs = append(rs, s.ratio)
			}
		}
		if len(rs) == 0 {
			return 0, 0
		}
		return median(rs), len(rs)
	}
	okMed, okN := med(func(s sample) bool { return s.ok })
	failMed, failN := med(func(s sample) bool { return !s.ok })
	allMed, allN := med(func(sample) bool { return true })
	bigMed, bigN := med(func(s sample) bool { return s.in >= bigOutput })
	t.Logf("median compression: %.1fx over the %d that exit 0 (PostToolUse), %.1fx over the %d failing runs, %.1fx over all %d, %.1fx over the %d of %d KiB or more",
		okMed, okN, failMed, failN, allMed, allN, bigMed, bigN, bigOutput>>10)
	if okN < 20 || bigN < 10 {
		t.Fatalf("too few noisy cases: %d exit 0, %d large", okN, bigN)
	}
	if okMed < 8 {
		t.Errorf("median compression of the noisy outputs PostToolUse receives %.1fx, want at least 8x", okMed)
	}
	if bigMed < 8 {
		t.Errorf("median compression of the large noisy outputs %.1fx, want at least 8x", bigMed)
	}
}

// sharedKinds gives the noisy cases of ../shared/tool-outputs (which record
// no kind) theirs, by name without the _a/_b of a pair.
var sharedKinds = map[string]string{
	"apt_get_install_sim": "install", "apt_get_update": "install", "npm_install_http": "install",
	"curl_progress":      "progress",
	"go_test_fail_panic": "test", "go_test_v_multi": "test", "go_test_v_strings": "test", "npm_run_test_fail": "test",
	"gcc_warnings_errors": "build", "go_build_errors": "build", "go_vet_errors": "build",
	"python_logging_traceback": "log",
}

// TestFidelityPairs: the two runs of each timing pair (whose outputs are
// equal once volatile tokens are normalised) give the same extract once
// volatile tokens are normalised (see pairDiff).
func TestFidelityPairs(t *testing.T) {
	cases := loadFidelity(t)
	pairs, same := 0, 0
	byName := map[string]fidelityCase{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	for _, c := range cases {
		if c.Meta.PairOf == nil || c.Name > *c.Meta.PairOf {
			continue
		}
		o, ok := byName[*c.Meta.PairOf]
		if !ok {
			t.Errorf("%s: pair %s missing", c.Name, *c.Meta.PairOf)
			continue
		}
		if c.Meta.PairKind != "timing" || normalizeText(c.Req.Stdout+c.Req.Stderr) != normalizeText(o.Req.Stdout+o.Req.Stderr) {
			t.Logf("%s vs %s: not a timing-only pair (kind %q, or the outputs differ beyond volatile tokens)", c.Name, o.Name, c.Meta.PairKind)
			continue
		}
		for k, opts := range []Options{{}, forced} {
			if !ShouldCondense(c.Req, opts) && !ShouldCondense(o.Req, opts) {
				continue
			}
			a, b := Condense(context.Background(), c.Req, opts, testSavedPath), Condense(context.Background(), o.Req, opts, testSavedPath)
			if d := pairDiff(a, b); d != "" {
				t.Errorf("%s vs %s: %s", c.Name, o.Name, d)
			}
			if k == 0 {
				pairs++
				if a == b {
					same++
				} else {
					t.Logf("%s vs %s: equal but for volatile values inside shown lines", c.Name, o.Name)
				}
			}
		}
	}
	t.Logf("%d of %d timing pairs give byte-identical extracts at the default options", same, pairs)
}
