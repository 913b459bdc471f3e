package recall

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

func input(tb testing.TB, payload string) hookio.Input {
	tb.Helper()
	in, err := hookio.ReadInput(strings.NewReader(payload), 0)
	if err != nil {
		tb.Fatalf("ReadInput(%s): %v", payload, err)
	}
	return in
}

func TestIntent(t *testing.T) {
	for _, tc := range []struct {
		name, payload, want string
	}{
		{"grep regex", `{"tool_name":"Grep","tool_input":{"pattern":"Get-ChildItem.*-Recurse","path":"/src"}}`, "Get-ChildItem -Recurse"},
		{"grep escapes and groups", `{"tool_name":"Grep","tool_input":{"pattern":"\\bstrcpy\\s*\\(|os\\.path\\.join"}}`, "strcpy os path join"},
		{"grep character class", `{"tool_name":"Grep","tool_input":{"pattern":"^func (Test|Bench)[A-Z]\\w+"}}`, "func Test Bench A-Z"},
		{"glob extension only", `{"tool_name":"Glob","tool_input":{"pattern":"**/*.md"}}`, ""},
		{"glob with words", `{"tool_name":"Glob","tool_input":{"pattern":"docs/remoting/**/ssh-*.{md,txt}"}}`, "docs remoting ssh-"},
		{"websearch", `{"tool_name":"WebSearch","tool_input":{"query":" powershell remoting over ssh configuration "}}`, "powershell remoting over ssh configuration"},
		{"webfetch reads the prompt, not the url", `{"tool_name":"WebFetch","tool_input":{"url":"https://example.com/x","prompt":"Summarise the /permissive- switch"}}`, "Summarise the /permissive- switch"},
		{"task", `{"tool_name":"Task","tool_input":{"description":"Find secure string APIs","prompt":"Survey strcpy uses","subagent_type":"general-purpose"}}`, "Find secure string APIs\nSurvey strcpy uses"},
		{"agent without description", `{"tool_name":"Agent","tool_input":{"prompt":"List the linker errors"}}`, "List the linker errors"},
		{"bash", `{"tool_name":"Bash","tool_input":{"command":"grep -r strcpy ."}}`, ""},
		{"read", `{"tool_name":"Read","tool_input":{"file_path":"/src/main.cpp"}}`, ""},
		{"unknown tool", `{"tool_name":"mcp__search__query","tool_input":{"query":"linker errors"}}`, ""},
		{"missing tool input", `{"tool_name":"Grep"}`, ""},
		{"pattern of another type", `{"tool_name":"Grep","tool_input":{"pattern":{"a":1}}}`, ""},
		{"query of another type", `{"tool_name":"WebSearch","tool_input":{"query":["linker","errors"]}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Intent(input(t, tc.payload)); got != tc.want {
				t.Errorf("Intent = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPreToolNeedsIntent checks that tools without a search intent, and
// intents with fewer than MinTerms searchable terms, never reach the index:
// the config points at a database that does not exist, so any search would
// fail.
func TestPreToolNeedsIntent(t *testing.T) {
	cfg := config.Defaults()
	cfg.DB = t.TempDir() + "/missing.db"
	for _, payload := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"npm test"}}`,
		`{"tool_name":"Glob","tool_input":{"pattern":"**/*.md"}}`,
		`{"tool_name":"Grep","tool_input":{"pattern":"TODO"}}`,
		`{"tool_name":"WebSearch","tool_input":{"query":"ok thanks"}}`,
	} {
		out, err := PreTool(context.Background(), cfg, input(t, payload), Options{})
		if out != nil || err != nil {
			t.Errorf("%s: got %q, %v; want nothing", payload, out, err)
		}
	}
	// The same config with a real intent does search, and fails.
	if _, err := PreTool(context.Background(), cfg, input(t, `{"tool_name":"WebSearch","tool_input":{"query":"linker errors unresolved symbol"}}`), Options{}); err == nil {
		t.Error("a search on a missing database did not fail")
	}
}

// TestHookOff checks that a hook the config turns off answers nothing
// without opening the index, and that the other context hook's switch does
// not silence it; the prompts are ones a real index answers (TestOffHooks
// in hooks/* runs the binaries on one).
func TestHookOff(t *testing.T) {
	off := false
	prompt := input(t, `{"session_id":"s","prompt":"how do I convert a wide string to multibyte safely"}`)
	grep := input(t, `{"tool_name":"WebSearch","tool_input":{"query":"linker errors unresolved symbol"}}`)
	for _, tc := range []struct {
		name              string
		userOn, preToolOn bool
	}{
		{"userprompt off", false, true},
		{"pretooluse off", true, false},
		{"both off", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Defaults()
			cfg.DB = t.TempDir() + "/missing.db" // any search fails
			if !tc.userOn {
				cfg.Hooks.UserPrompt = &off
			}
			if !tc.preToolOn {
				cfg.Hooks.PreToolUse = &off
			}
			out, err := Prompt(context.Background(), cfg, prompt, Options{})
			if tc.userOn != (err != nil) || out != nil {
				t.Errorf("Prompt = %q, %v; want a failed search when on, nothing when off", out, err)
			}
			out, err = PreTool(context.Background(), cfg, grep, Options{})
			if tc.preToolOn != (err != nil) || out != nil {
				t.Errorf("PreTool = %q, %v; want a failed search when on, nothing when off", out, err)
			}
		})
	}
}

func FuzzPatternWords(f *testing.F) {
	for _, s := range []string{"Get-ChildItem.*-Recurse", `\bfoo\(`, "**/*.md", "[a-z]+|x{2,3}", `\`, "ü*漢字"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, got := range []string{patternWords(p), patternWords(stripExts(p))} {
			if strings.ContainsAny(got, `.*+?()[]{}|^$/,!\`) {
				t.Errorf("patternWords(%q) = %q keeps a metacharacter", p, got)
			}
			if got != strings.Join(strings.Fields(got), " ") {
				t.Errorf("patternWords(%q) = %q is not single-spaced", p, got)
			}
		}
	})
}

func TestShown(t *testing.T) {
	long := strings.Repeat("word ", 400)
	a := Hit{Path: "notes/a.md", Section: "One", Text: "First chunk of note a, about linker errors.", ChunkID: 1}
	b := Hit{Path: "notes/a.md", Section: "Two", Text: "Second chunk of note a. " + long, ChunkID: 2}
	c := Hit{Path: "notes/c.md", Section: "Three", Text: "Third " + long, ChunkID: 3}
	d := Hit{Path: "notes/a.md", Section: "Four", Text: "Fourth chunk of note a, short.", ChunkID: 4}
	for _, tc := range []struct {
		name   string
		hits   []Hit
		budget int
		want   []bool
	}{
		{"all fit", []Hit{a, d}, 500, []bool{true, true}},
		{"same note, second cut to fit", []Hit{a, b}, 100, []bool{true, true}},
		{"same note, one left out", []Hit{c, a, d}, 520, []bool{true, false, false}},
		{"same note, later chunk left out", []Hit{b, d}, 100, []bool{true, false}},
		{"nothing fits", []Hit{b}, 5, []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			block, shown := FormatContext(tc.hits, tc.budget)
			for i, h := range tc.hits {
				// The reference: the hit's own section heading is in the block.
				ref := strings.Contains(block, "### "+h.Section+"\n")
				got := slices.ContainsFunc(shown, func(s Hit) bool { return s.ChunkID == h.ChunkID && !s.Listed })
				if got != tc.want[i] || got != ref {
					t.Errorf("hit %d shown = %v, want %v (heading present: %v)\n%s", h.ChunkID, got, tc.want[i], ref, block)
				}
			}
		})
	}
}

// A row id reused for a different chunk (after a delete, or a full
// rebuild) must not count as already shown.
func TestSeenKeyIsContentNotRowID(t *testing.T) {
	zebra := retrieve.Hit{ChunkID: 2, Path: "z.md", Section: "Zebra", Text: "zebras are striped"}
	narwhal := retrieve.Hit{ChunkID: 2, Path: "n.md", Section: "Narwhal", Text: "narwhals have a tusk"}
	if SeenKey(zebra) == SeenKey(narwhal) {
		t.Error("two chunks with the same row id share a de-duplication key")
	}
	moved := zebra
	moved.ChunkID = 99
	if SeenKey(zebra) != SeenKey(moved) {
		t.Error("the same chunk under a new row id gets a new key")
	}
}

func TestCapQuery(t *testing.T) {
	short := "how do I rotate the ssh keys"
	if got := capQuery(short); got != short {
		t.Fatalf("capQuery(short) = %q", got)
	}
	long := strings.Repeat("päste ", 3000) // 2-byte runes, spaces every 7 bytes
	got := capQuery(long)
	if len(got) > MaxQueryBytes || len(got) < MaxQueryBytes-200 {
		t.Fatalf("capQuery kept %d bytes, want just under %d", len(got), MaxQueryBytes)
	}
	if !utf8.ValidString(got) || !strings.HasPrefix(long, got) || strings.HasSuffix(got, "p") {
		t.Fatalf("capQuery cut badly: ...%q", got[len(got)-20:])
	}
	noSpace := strings.Repeat("é", 5000)
	if got := capQuery(noSpace); !utf8.ValidString(got) || len(got) > MaxQueryBytes {
		t.Fatalf("capQuery without spaces: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}
