package recall

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
)

// setPrompt is one line of testdata/prompts/{unrelated,answerable}.jsonl.
type setPrompt struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	Half     string   `json:"half"`
	Prompt   string   `json:"prompt"`
	Relevant []string `json:"relevant"`
}

func loadSet(tb testing.TB, name string) []setPrompt {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "prompts", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []setPrompt
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var p setPrompt
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out = append(out, p)
	}
	return out
}

// TestPromptSetFullCorpus measures the hook's decisions on the realistic
// prompt set (testdata/prompts) against an index of the large corpus
// (-floor.db): false injections on unrelated prompts, and on answerable
// ones whether a block is shown and whether it names an acceptable note.
func TestPromptSetFullCorpus(t *testing.T) {
	if *floorDB == "" {
		t.Skip("needs -floor.db")
	}
	cfg := config.Defaults()
	e, err := engine.Open(context.Background(), *floorDB, engine.Options{ReadOnly: true, ModelDir: floorModel()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	type tally struct{ n, injected, right, blocksRelevant, ceiling int }
	res := map[string]*tally{}
	get := func(k string) *tally {
		if res[k] == nil {
			res[k] = &tally{}
		}
		return res[k]
	}
	for _, set := range []string{"unrelated.jsonl", "answerable.jsonl"} {
		for _, p := range loadSet(t, set) {
			shown := decideShown(t, e, cfg, p.Prompt)
			tl := get(set + "/" + p.Half)
			tl.n++
			if set == "answerable.jsonl" && namesOne(decideFloor(t, e, cfg, p.Prompt, false), p.Relevant) {
				tl.ceiling++
			}
			if len(shown) == 0 {
				if set == "answerable.jsonl" {
					t.Logf("MISS %s %q", p.ID, trunc(p.Prompt))
				}
				continue
			}
			tl.injected++
			right := false
			for _, h := range shown {
				for _, r := range p.Relevant {
					if h.Path == r {
						right = true
					}
				}
			}
			if right {
				tl.right++
				tl.blocksRelevant++
			}
			if set == "unrelated.jsonl" {
				t.Logf("FALSE %s %q -> %s", p.ID, trunc(p.Prompt), shown[0].Path)
			} else if !right {
				t.Logf("WRONG %s %q -> %s", p.ID, trunc(p.Prompt), shown[0].Path)
			}
		}
	}
	for _, half := range []string{"tune", "check"} {
		u, a := get("unrelated.jsonl/"+half), get("answerable.jsonl/"+half)
		blocks := u.injected + a.injected
		t.Logf("%s: false injections %d/%d (%.1f%%), right note %d/%d (%.1f%%), blocks with a relevant note %d/%d; with no floor, blocks would name an acceptable note for %d/%d",
			half, u.injected, u.n, 100*float64(u.injected)/float64(u.n), a.right, a.n, 100*float64(a.right)/float64(a.n), a.blocksRelevant, blocks, a.ceiling, a.n)
	}
}

// namesOne reports whether shown names one of the paths in relevant.
func namesOne(shown []Hit, relevant []string) bool {
	for _, h := range shown {
		if slices.Contains(relevant, h.Path) {
			return true
		}
	}
	return false
}

var (
	floorRecalibrate = flag.Bool("floor.recalibrate", false, "calibrate the floor in process instead of reading the index's calibration (to measure a change of Measure)")
	recalCache       = map[*engine.Engine]Floor{}
)

// recalibrated is the floor Calibrate gives e now, computed once per engine.
func recalibrated(t *testing.T, e *engine.Engine, cfg config.Config) Floor {
	if f, ok := recalCache[e]; ok {
		return f
	}
	c, err := Calibrate(context.Background(), e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recalibrated: %+v", c)
	recalCache[e] = Floor{Clauses: c.Clauses}
	return recalCache[e]
}

func trunc(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 70 {
		return s[:70] + "…"
	}
	return s
}

// decideShown is what the prompt hook would show for prompt.
func decideShown(t *testing.T, e *engine.Engine, cfg config.Config, prompt string) []Hit {
	return decideFloor(t, e, cfg, prompt, true)
}

// decideFloor is decideShown with the floor on or off: off, it returns
// what a block would name if every prompt cleared the floor, the ceiling
// of the right-note rate for the retrieval as it is.
func decideFloor(t *testing.T, e *engine.Engine, cfg config.Config, prompt string, floor bool) []Hit {
	if PromptSkip(prompt) != "" {
		return nil
	}
	hits, sig, err := Search(context.Background(), e, cfg, capQuery(prompt))
	if err != nil {
		t.Fatal(err)
	}
	f := FloorFor(context.Background(), e, cfg)
	if *floorRecalibrate {
		f = recalibrated(t, e, cfg)
	}
	f.Prompt = true
	if len(hits) == 0 || (floor && !f.Pass(sig)) {
		return nil
	}
	var show []Hit
	for _, h := range hits {
		show = append(show, Hit{Path: h.Path, Section: h.Section, Title: h.Title, Text: h.Text})
	}
	show = Collapse(show)
	_, shown := FormatContext(show, cfg.Hooks.PromptBudgetTokens)
	return shown
}
