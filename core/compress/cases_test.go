package compress

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit/golden"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// toolCase is one captured Bash run from ../shared/tool-outputs.
type toolCase struct {
	Name     string
	Meta     caseMeta
	Payload  []byte
	Req      Request
	ToolUse  string
	HasFail  bool
	FailData []byte
}

type caseMeta = testkit.ToolOutputMeta

func loadCases(t testing.TB) []toolCase {
	t.Helper()
	var out []toolCase
	for _, o := range testkit.ToolOutputs(t) {
		out = append(out, toolCase{Name: o.Name, Meta: o.Meta, Payload: o.Payload, ToolUse: o.ToolUseID,
			Req: Request{Command: o.Command, Description: o.Description, Stdout: o.Stdout, Stderr: o.Stderr,
				Interrupted: o.Interrupted, IsImage: o.IsImage},
			HasFail: o.Failure != nil, FailData: o.Failure})
	}
	return append(out, loadCaptured(t)...)
}

// loadCaptured reads testdata/captured: real outputs of kinds the shared
// cases lack (cargo, unittest, node --test, make), stored as files.
func loadCaptured(t testing.TB) []toolCase {
	t.Helper()
	metas, _ := filepath.Glob(filepath.Join("testdata", "captured", "*", "meta.json"))
	if len(metas) == 0 {
		t.Fatal("no captured cases")
	}
	var out []toolCase
	for _, m := range metas {
		dir := filepath.Dir(m)
		var c toolCase
		c.Name = filepath.Base(dir)
		read := func(name string) string {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		if err := json.Unmarshal([]byte(read("meta.json")), &c.Meta); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		c.ToolUse = "toolu_" + c.Name
		c.Req = Request{Command: read("command"), Stdout: read("stdout"), Stderr: read("stderr")}
		out = append(out, c)
	}
	return out
}

// normalizeText applies the extract's own cleaning and normalisation to a
// multi-line string, line by line, as done to the output.
func normalizeText(s string) string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = Normalize(cleanLine(p))
	}
	return strings.Join(parts, "\n")
}

const testSavedPath = "/home/dev/.cache/vaultctx/outputs/toolu_TEST.txt"

// forced condenses every case, however small, to exercise the extract on
// all of them.
var forced = Options{ThresholdBytes: 1}

func condenseCase(c toolCase, opts Options) Extract {
	return Condense(context.Background(), c.Req, opts, testSavedPath)
}

func TestMustKeep(t *testing.T) {
	for _, c := range loadCases(t) {
		for _, mode := range []struct {
			name string
			opts Options
		}{{"default", Options{}}, {"forced", forced}} {
			t.Run(c.Name+"/"+mode.name, func(t *testing.T) {
				if !ShouldCondense(c.Req, mode.opts) {
					if mode.name == "default" && len(c.Req.Stdout)+len(c.Req.Stderr) >= DefaultThresholdBytes {
						t.Fatalf("large output (%d bytes) passes through", len(c.Req.Stdout)+len(c.Req.Stderr))
					}
					return // passes through untouched: everything survives
				}
				ex := condenseCase(c, mode.opts)
				text := ex.Stdout + "\n" + ex.Stderr
				for _, mk := range c.Meta.MustKeep {
					if want := mk; !strings.Contains(text, want) {
						t.Errorf("must_keep %q lost", want)
					}
				}
				budget := DefaultBudgetTokens * CharsPerToken
				if contentOf(c.Req).kind != contentNone {
					budget = DefaultContentBudgetTokens * CharsPerToken // a content output is cut, not condensed
				}
				if n := len(ex.Stdout) + len(ex.Stderr); n > budget {
					t.Errorf("extract is %d bytes, budget %d", n, budget)
				}
				if t.Failed() {
					t.Logf("extract:\n%s\n--- stderr ---\n%s", ex.Stdout, ex.Stderr)
				}
			})
		}
	}
}

// TestPairsIdentical condenses both runs of each determinism pair: the
// extracts pick the same lines and markers, so they are equal once the
// volatile tokens inside the shown lines are normalised, and every line in
// which they differ is a verbatim line that holds such a token.
func TestPairsIdentical(t *testing.T) {
	cases := loadCases(t)
	byName := map[string]toolCase{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	pairs := 0
	for _, c := range cases {
		if c.Meta.PairOf == nil || c.Name > *c.Meta.PairOf {
			continue
		}
		other, ok := byName[*c.Meta.PairOf]
		if !ok {
			t.Fatalf("%s: pair %s missing", c.Name, *c.Meta.PairOf)
		}
		pairs++
		for _, opts := range []Options{{}, forced} {
			a, b := condenseCase(c, opts), condenseCase(other, opts)
			if d := pairDiff(a, b); d != "" {
				t.Errorf("%s vs %s (threshold %d): %s\n--- a\n%s%s\n--- b\n%s%s", c.Name, other.Name, opts.ThresholdBytes, d, a.Stdout, a.Stderr, b.Stdout, b.Stderr)
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no pairs found")
	}
}

// pairDiff compares the extracts of two runs of one command: "" when they
// have the same lines once normalised and differ only in lines that hold
// volatile tokens, else what differs.
func pairDiff(a, b Extract) string {
	if a.Lines != b.Lines || a.Kept != b.Kept {
		return "line counts differ"
	}
	for _, s := range [][2]string{{a.Stdout, b.Stdout}, {a.Stderr, b.Stderr}} {
		la, lb := strings.Split(s[0], "\n"), strings.Split(s[1], "\n")
		if len(la) != len(lb) {
			return "the extracts have different line counts"
		}
		for i := range la {
			if la[i] == lb[i] {
				continue
			}
			if Normalize(la[i]) != Normalize(lb[i]) {
				return "line " + itoa(i+1) + " differs beyond volatile tokens: " + la[i] + " | " + lb[i]
			}
		}
	}
	return ""
}

func TestDeterministic(t *testing.T) {
	for _, c := range loadCases(t) {
		a, b := condenseCase(c, forced), condenseCase(c, forced)
		if a != b {
			t.Errorf("%s: two runs differ", c.Name)
		}
	}
}

func TestSmallOutputsPassThrough(t *testing.T) {
	for _, c := range loadCases(t) {
		small := len(c.Req.Stdout)+len(c.Req.Stderr) < DefaultThresholdBytes
		if got := ShouldCondense(c.Req, Options{}); got == small {
			t.Errorf("%s: ShouldCondense = %v for %d bytes", c.Name, got, len(c.Req.Stdout)+len(c.Req.Stderr))
		}
	}
}

// TestGolden pins the extract of every case (forced, so small cases are
// covered too). Refresh with go test ./core/compress -run TestGolden -update.
func TestGolden(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			ex := condenseCase(c, forced)
			got := ex.Stdout + "----- stderr -----\n" + ex.Stderr
			path := filepath.Join("testdata", "golden", c.Name+".txt")
			golden.Check(t, path, []byte(got))
		})
	}
}
