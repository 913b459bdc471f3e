package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/internal/neardup"
	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// syntaxText is the SYNTAX section of Get-ChildItem in PowerShell 7.4 to
// 7.7 (byte-identical there), as the indexer stores it.
const syntaxText = "### Items (Default)\n\n```\nGet-ChildItem [[-Path] <string[]>] [[-Filter] <string>] [-Include <string[]>]\n [-Exclude <string[]>] [-Recurse] [-Depth <uint>] [-Force] [-Name]\n [<CommonParameters>]\n```\n\n### LiteralItems\n\n```\nGet-ChildItem [[-Filter] <string>] -LiteralPath <string[]> [-Include <string[]>]\n [-Exclude <string[]>] [-Recurse] [-Depth <uint>] [-Force] [-Name]\n [<CommonParameters>]\n```"

func syntaxHit(version string, id int64) Hit {
	return Hit{Path: "ps/" + version + "/Microsoft.PowerShell.Management/Get-ChildItem.md", Section: "SYNTAX", Title: "Get-ChildItem", Text: syntaxText, ChunkID: id}
}

func TestCollapseHits(t *testing.T) {
	other := Hit{Path: "ps/7.4/Microsoft.PowerShell.Management/Get-Item.md", Section: "SYNTAX", Title: "Get-Item", Text: "Get-Item [-Path] <string[]> [-Filter <string>] [-Include <string[]>] [-Exclude <string[]>] [-Force] [-Credential <pscredential>] [-Stream <string[]>]", ChunkID: 9}
	in := []Hit{syntaxHit("7.4", 1), other, syntaxHit("7.5", 2), syntaxHit("7.6", 3)}
	got := Collapse(in)
	if len(got) != 2 || got[0].ChunkID != 1 || got[1].ChunkID != 9 {
		t.Fatalf("kept %v, want hits 1 and 9", got)
	}
	if ids := []int64{got[0].Also[0].ChunkID, got[0].Also[1].ChunkID}; len(got[0].Also) != 2 || !slices.Equal(ids, []int64{2, 3}) {
		t.Errorf("hit 1 folds %v, want 2 and 3", got[0].Also)
	}
	if in[0].Also != nil {
		t.Error("Collapse modified its input")
	}
	// Collapsing a collapsed list flattens: one group, three copies.
	again := Collapse(append([]Hit{syntaxHit("7.7", 4)}, got[0]))
	if len(again) != 1 || len(again[0].Also) != 3 {
		t.Errorf("re-collapsing gives %d hits, first folding %d, want 1 and 3", len(again), len(again[0].Also))
	}
}

func TestAlsoLine(t *testing.T) {
	h := syntaxHit("7.4", 1)
	// Two copies of one section in the hit's own note are named once.
	h.Also = []Hit{syntaxHit("7.5", 2), syntaxHit("7.6", 3), syntaxHit("7.5", 5), {Path: h.Path, Section: "OUTPUTS", Text: syntaxText}, {Path: h.Path, Section: "OUTPUTS", Text: syntaxText}}
	p := func(v string) string { return "ps/" + v + "/Microsoft.PowerShell.Management/Get-ChildItem.md" }
	for _, tc := range []struct {
		limit int
		want  string
	}{
		{1000, "also in 2 notes: " + p("7.5") + ", " + p("7.6") + "; also in this note: § OUTPUTS"},
		{80, "also in 2 notes: " + p("7.5") + ", …; also in this note"},
		{10, "also in 2 notes; also in this note"},
	} {
		if got := alsoLine(h, tc.limit); got != tc.want {
			t.Errorf("alsoLine(limit %d) = %q, want %q", tc.limit, got, tc.want)
		}
	}
	if got := alsoLine(syntaxHit("7.4", 1), 1000); got != "" {
		t.Errorf("alsoLine without copies = %q", got)
	}
}

// A block with an "also in" line stays within every budget, and shown
// lists the folded copies after the hit that names them.
func TestFormatContextAlsoIn(t *testing.T) {
	hits := Collapse([]Hit{syntaxHit("7.4", 1), syntaxHit("7.5", 2), syntaxHit("7.6", 3), syntaxHit("7.7", 4)})
	hits = append(hits, sampleHits()...)
	for _, budget := range []int{20, 40, 100, 200, 300, 500, 5000} {
		block, shown := FormatContext(hits, budget)
		if n := utf8.RuneCountInString(block); n > textan.CharBudget(budget) {
			t.Errorf("budget %d: %d chars, over %d", budget, n, textan.CharBudget(budget))
		}
		if strings.Count(block, "### SYNTAX (Get-ChildItem)") > 1 {
			t.Errorf("budget %d: the SYNTAX section is shown twice", budget)
		}
		if !strings.Contains(block, "### SYNTAX") {
			continue
		}
		if !strings.Contains(block, "\nalso in 3 notes") {
			t.Errorf("budget %d: no \"also in 3 notes\" line:\n%s", budget, block)
		}
		var ids []int64
		for _, h := range shown[:min(4, len(shown))] {
			ids = append(ids, h.ChunkID)
		}
		if !slices.Equal(ids, []int64{1, 2, 3, 4}) {
			t.Errorf("budget %d: shown starts %v, want the hit and its copies 1-4", budget, ids)
		}
	}
	block, _ := FormatContext(hits, 300)
	want := "### SYNTAX (Get-ChildItem)\nps/7.4/Microsoft.PowerShell.Management/Get-ChildItem.md\nalso in 3 notes: ps/7.5/Microsoft.PowerShell.Management/Get-ChildItem.md, ps/7.6/Microsoft.PowerShell.Management/Get-ChildItem.md, ps/7.7/Microsoft.PowerShell.Management/Get-ChildItem.md\n### Items (Default)"
	if !strings.Contains(block, want) {
		t.Errorf("block at 300 tokens lacks\n%s\n---\n%s", want, block)
	}
}

// additionalContext returns the context block of a hook answer.
func additionalContext(t *testing.T, out []byte) string {
	t.Helper()
	if out == nil {
		return ""
	}
	var o struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("hook output %s: %v", out, err)
	}
	return o.HookSpecificOutput.AdditionalContext
}

// psEnv indexes five versions of the PowerShell Management docs with the
// GloVe model and returns a config for it.
func psEnv(t *testing.T) config.Config {
	t.Helper()
	env := hooktest.NewEnvWith(t, true, hooktest.PowerShellVersions...)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cfg := config.Defaults()
	cfg.DB, cfg.Model = env.DB, testkit.Shared(t, "models/glove-120k")
	if _, err := CalibrateIndex(context.Background(), cfg); err != nil { // as `vaultctx index` does
		t.Fatal(err)
	}
	return cfg
}

// The Get-ChildItem case of issue 14: a Grep for Get-ChildItem -Recurse
// on five doc versions used to fill the PreToolUse block with three
// identical SYNTAX sections. Now one is shown, the block says where the
// others are, and the next search of the session does not bring the same
// text back from another version.
func TestPreToolGetChildItemShownOnce(t *testing.T) {
	cfg := psEnv(t)
	// Not a test of the relevance floor: on this small vault the
	// calibrated floor keeps silent on the prompt (FLOOR.md, "What the
	// floor cannot do"), so a lenient one lets the block be printed.
	cfg.Hooks.MinEvidence = 0.5
	grep := input(t, `{"session_id":"gci","tool_name":"Grep","tool_input":{"pattern":"Get-ChildItem.*-Recurse"}}`)
	out, err := PreTool(context.Background(), cfg, grep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const page = "/Microsoft.PowerShell.Management/Get-ChildItem.md"
	// syntax7 returns the lines of the SYNTAX headings of a 7.x page.
	syntax7 := func(lines []string) []int {
		var at []int
		for i, l := range lines[:max(len(lines)-1, 0)] {
			if l == "### SYNTAX (Get-ChildItem)" && strings.HasSuffix(lines[i+1], page) && !strings.HasSuffix(lines[i+1], "/5.1"+page) {
				at = append(at, i)
			}
		}
		return at
	}
	block := additionalContext(t, out)
	lines := strings.Split(block, "\n")
	syntax := syntax7(lines)
	if len(syntax) != 1 {
		t.Fatalf("%d SYNTAX sections of Get-ChildItem 7.x, want 1:\n%s", len(syntax), block)
	}
	path, also := lines[syntax[0]+1], lines[syntax[0]+2]
	if !strings.HasSuffix(path, "/7.4"+page) || !strings.HasPrefix(also, "also in 3 notes: ") {
		t.Fatalf("the SYNTAX hit reads\n%s\n%s\nwant the 7.4 path, then \"also in 3 notes: ...\"", path, also)
	}
	// Notes are named by absolute paths; under this test's long temp root
	// the line may have room for the first copies only and end with "…"
	// (with a vault at ~/Notes all three fit).
	for i, v := range []string{"7.5", "7.6", "7.7"} {
		if !strings.Contains(also, "/"+v+page) && (i == 0 || !strings.HasSuffix(also, ", …")) {
			t.Errorf("the also-in line %q neither names %s nor ends with \", …\"", also, v)
		}
	}
	// The same search again in the session: the copies were shown (named),
	// so no other version's identical SYNTAX comes back.
	out, err = PreTool(context.Background(), cfg, grep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again := additionalContext(t, out); len(syntax7(strings.Split(again, "\n"))) > 0 {
		t.Errorf("the identical SYNTAX came back from another version:\n%s", again)
	}
}

// No context block holds two chunks whose texts are near-duplicates: each
// shown chunk is looked up by path and section among the search's hits
// and the full texts are compared pairwise.
func TestContextBlocksHoldNoNearDuplicates(t *testing.T) {
	cfg := psEnv(t)
	// Not a test of the relevance floor: on this small vault the
	// calibrated floor keeps silent on the prompt (FLOOR.md, "What the
	// floor cannot do"), so a lenient one lets the block be printed.
	cfg.Hooks.MinEvidence = 0.5
	// Every prompt gets a block (a cosine floor of 0.01 lets any vector hit
	// through): this test is about what a block holds, not whether the
	// relevance floor lets it be printed.
	cfg.Hooks.MinScore = 0.01
	e, err := engine.Open(context.Background(), cfg.DB, engine.Options{ReadOnly: true, ModelDir: cfg.Model})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	blocks, folded, multi := 0, 0, 0 // blocks, also-in lines, blocks of two chunks or more
	for i, prompt := range []string{
		"how do I list files recursively with Get-ChildItem and limit the depth",
		"copy a file to another folder with Copy-Item and overwrite it",
		"read the last lines of a log file and keep waiting for new lines with Get-Content",
		"set a registry value with Set-ItemProperty",
		"stop a Windows service on a remote computer",
		"test whether a path exists before deleting it",
		"change the current working location and go back with Pop-Location",
		"create a new directory with New-Item and force it",
	} {
		for _, budget := range []int{300, 500, 2000} {
			cfg.Hooks.PromptBudgetTokens = budget
			in := input(t, fmt.Sprintf(`{"session_id":"s%d-%d","prompt":%q}`, i, budget, prompt))
			out, err := Prompt(context.Background(), cfg, in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			block := additionalContext(t, out)
			if block == "" {
				continue
			}
			blocks++
			folded += strings.Count(block, "\nalso in ")
			hits, _, err := Search(context.Background(), e, cfg, prompt)
			if err != nil {
				t.Fatal(err)
			}
			// A shown chunk starts with its heading and then its path.
			var texts []string
			lines := strings.Split(block, "\n")
			for k := 1; k < len(lines); k++ {
				if !strings.HasPrefix(lines[k-1], "### ") {
					continue
				}
				j := slices.IndexFunc(hits, func(h retrieve.Hit) bool {
					return strings.HasSuffix(lines[k], h.Path) && strings.HasPrefix(lines[k-1], "### "+h.Section)
				})
				if j >= 0 {
					texts = append(texts, hits[j].Text)
				}
			}
			if want := strings.Count(block, ".md\n"); len(texts) == 0 || len(texts) > want {
				t.Fatalf("%q: %d shown chunks found in the block:\n%s", prompt, len(texts), block)
			}
			if len(texts) > 1 {
				multi++
			}
			for a := range texts {
				for b := a + 1; b < len(texts); b++ {
					if neardup.Near(neardup.Of(texts[a]), neardup.Of(texts[b])) {
						t.Errorf("%q, budget %d: chunks %d and %d are near-duplicates:\n%s", prompt, budget, a+1, b+1, block)
					}
				}
			}
		}
	}
	if blocks < 12 || folded == 0 || multi < 6 {
		t.Errorf("%d blocks, %d also-in lines, %d blocks of several chunks: the prompts test too little", blocks, folded, multi)
	}
}
