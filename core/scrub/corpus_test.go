package scrub

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// secretsDir is the labelled corpus in the shared test data.
func secretsDir(tb testing.TB) string { return testkit.Shared(tb, "secrets") }

type corpusRow struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Secret   string `json:"secret"`
	Expected string `json:"expected"`
	Note     string `json:"note"`
}

func readRows(t *testing.T, name string) []corpusRow {
	t.Helper()
	f, err := os.Open(filepath.Join(secretsDir(t), name))
	if err != nil {
		t.Fatalf("open corpus: %v", err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r corpusRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

// covered reports whether every byte of [start, end) lies inside a finding.
func covered(fs []Finding, start, end int) bool {
	for p := start; p < end; p++ {
		in := false
		for _, f := range fs {
			if f.Start <= p && p < f.End {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	return true
}

func TestCorpusPositives(t *testing.T) {
	s := New()
	matches, _ := filepath.Glob(filepath.Join(secretsDir(t), "positives_*.jsonl"))
	if len(matches) == 0 {
		t.Fatal("no positives_*.jsonl in the shared corpus")
	}
	for _, m := range matches {
		for _, r := range readRows(t, filepath.Base(m)) {
			t.Run(r.ID+"_"+r.Expected, func(t *testing.T) {
				at := strings.Index(r.Text, r.Secret)
				if at < 0 {
					t.Fatalf("row's secret is not in its text")
				}
				fs := s.Find(r.Text)
				for i := at; i >= 0; {
					if !covered(fs, i, i+len(r.Secret)) {
						t.Errorf("secret at %d not fully redacted; findings %+v", i, fs)
					}
					j := strings.Index(r.Text[i+1:], r.Secret)
					if j < 0 {
						break
					}
					i += 1 + j
				}
				out, _ := s.Scrub(r.Text)
				if strings.Contains(out, r.Secret) {
					t.Errorf("scrubbed text still holds the secret: %q", out)
				}
			})
		}
	}
}

func TestCorpusNegatives(t *testing.T) {
	s := New()
	for _, r := range readRows(t, "negatives.jsonl") {
		t.Run(r.ID, func(t *testing.T) {
			out, fs := s.Scrub(r.Text)
			if out != r.Text {
				t.Errorf("%s (%s): changed to %q; findings %+v", r.ID, r.Note, out, fs)
			}
		})
	}
}

func TestCorpusMixedNote(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(secretsDir(t), "notes_mixed.md"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(secretsDir(t), "notes_mixed.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spans []struct {
		ID         string `json:"id"`
		Start, End int
		Expected   string `json:"expected"`
	}
	if err := json.Unmarshal(raw, &spans); err != nil {
		t.Fatal(err)
	}
	if len(spans) == 0 {
		t.Fatal("no expected spans")
	}
	fs := New().Find(string(text))
	for _, sp := range spans {
		if !covered(fs, sp.Start, sp.End) {
			t.Errorf("%s (%s) at [%d,%d) %q not covered", sp.ID, sp.Expected, sp.Start, sp.End, text[sp.Start:sp.End])
		}
	}
	// Everything redacted beyond the expected spans must be one of the
	// note's look-alike lines surviving: report any finding outside them.
	for _, f := range fs {
		inside := false
		for _, sp := range spans {
			if f.Start < sp.End && sp.Start < f.End {
				inside = true
			}
		}
		if !inside {
			t.Errorf("finding %s %q is not an expected secret", f.Rule, text[f.Start:f.End])
		}
	}
}
