package recall

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

func sampleHits() []Hit {
	long := strings.Repeat("The wcstombs_s function converts a wide character string safely. ", 40)
	return []Hit{
		{Path: "cpp/c-runtime-library/reference/wcstombs-s.md", Section: "Remarks", Title: "wcstombs_s, _wcstombs_s_l", Text: long, ChunkID: 1},
		{Path: "cpp/text/how-to-convert.md", Section: "Example", Title: "How to: Convert Between Various String Types", Text: "Use WideCharToMultiByte\nwith CP_UTF8.", ChunkID: 2},
		{Path: "notes/empty.md", Section: "Empty", Title: "Nothing", Text: "   ", ChunkID: 3},
	}
}

func TestFormatContextBudget(t *testing.T) {
	hits := sampleHits()
	for _, budget := range []int{0, 5, 20, 40, 100, 300, 500, 5000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			got, shown := FormatContext(hits, budget)
			if n := utf8.RuneCountInString(got); n > textan.CharBudget(budget) {
				t.Fatalf("%d chars over budget %d", n, textan.CharBudget(budget))
			}
			if got == "" {
				if shown != nil {
					t.Fatalf("empty block, but %d hits shown", len(shown))
				}
				return
			}
			if !strings.HasPrefix(got, ContextHeading+"\n\n### ") {
				t.Fatalf("bad start: %q", got[:min(len(got), 60)])
			}
			if again, _ := FormatContext(hits, budget); got != again {
				t.Fatal("not deterministic")
			}
			if strings.Contains(got, "notes/empty.md") {
				t.Fatal("a hit without text was shown")
			}
		})
	}
}

func TestFormatContextTrim(t *testing.T) {
	got, _ := FormatContext(sampleHits(), 100)
	if !strings.Contains(got, "### Remarks (wcstombs_s, _wcstombs_s_l)\ncpp/c-runtime-library/reference/wcstombs-s.md\n") {
		t.Fatalf("heading/path missing:\n%s", got)
	}
	i := strings.Index(got, "The wcstombs_s")
	line := got[i:]
	line = line[:strings.IndexByte(line, '\n')]
	if !strings.HasSuffix(line, "…") {
		t.Fatalf("trimmed text not marked: %q", line)
	}
	// Cut at a word boundary: the word before "…" is a whole word of the source.
	words := strings.Fields(strings.TrimSuffix(line, "…"))
	last := words[len(words)-1]
	if !strings.Contains(" "+sampleHits()[0].Text, " "+last+" ") {
		t.Fatalf("cut inside a word: %q", last)
	}
	if got, shown := FormatContext(nil, 500); got != "" || shown != nil {
		t.Fatal("no hits must give empty output")
	}
}

func ExampleFormatContext() {
	block, shown := FormatContext([]Hit{{
		Path: "cpp/text/how-to-convert.md", Section: "Example", Title: "Convert strings",
		Text: "Use WideCharToMultiByte with CP_UTF8 to convert a wide string to UTF-8.",
	}}, 32)
	fmt.Print(block)
	fmt.Println(len(shown), "hit shown")
	// Output:
	// ## Relevant Memory Context
	//
	// ### Example (Convert strings)
	// cpp/text/how-to-convert.md
	// Use WideCharToMultiByte with CP_UTF8 to…
	// 1 hit shown
}

// TestFormatContextList: after the hits it shows with text, a block names
// the next notes by path, one line each, even when the first hit's text
// could fill the budget; a note already in the block is not named again,
// and the returned hits mark the named ones Listed.
func TestFormatContextList(t *testing.T) {
	long := strings.Repeat("Converting wide strings needs care. ", 200)
	hits := []Hit{
		{Path: "/v/wcstombs-s.md", Section: "Remarks", Title: "wcstombs_s", Text: long, ChunkID: 1},
		{Path: "/v/wcstombs-s.md", Section: "Example", Title: "wcstombs_s", Text: "Example text.", ChunkID: 2},
		{Path: "/v/how-to-convert.md", Section: "Example", Title: "How to: Convert Between Various String Types", Text: long, ChunkID: 3},
		{Path: "/v/wcstombs.md", Title: "wcstombs", Text: long, ChunkID: 4},
		{Path: "/v/empty.md", Title: "Empty", Text: " ", ChunkID: 5},
		{Path: "/v/widechartomultibyte.md", Section: "Syntax", Text: long, ChunkID: 6},
		{Path: "/v/fifth.md", Section: "Fifth", Text: long, ChunkID: 7},
	}
	block, shown := FormatContext(hits, 500)
	if n := utf8.RuneCountInString(block); n > textan.CharBudget(500) {
		t.Fatalf("%d chars over budget", n)
	}
	list := block[strings.Index(block, "\n"+ListHeading+"\n")+1:]
	if !strings.HasPrefix(list, ListHeading) {
		t.Fatalf("no list:\n%s", block)
	}
	want := ListHeading + "\n" +
		"- /v/how-to-convert.md § Example (How to: Convert Between Various String Types)\n" +
		"- /v/wcstombs.md § wcstombs\n" +
		"- /v/widechartomultibyte.md § Syntax\n"
	if !strings.HasSuffix(block, want) {
		t.Errorf("list:\n%s\nwant:\n%s", list, want)
	}
	var listed []int64
	for _, h := range shown {
		if h.Listed {
			listed = append(listed, h.ChunkID)
		}
	}
	if fmt.Sprint(listed) != "[3 4 6]" {
		t.Errorf("listed chunk ids %v, want [3 4 6]", listed)
	}
	// A budget with room for one hit's text only shows no list.
	if block, _ := FormatContext(hits, 20); strings.Contains(block, ListHeading) {
		t.Errorf("list in a 20-token block:\n%s", block)
	}
}

// A path is shown as it is named on disk, spaces and all, and a hit whose
// name cannot be written on one line as it is (a newline, a tab, a byte
// that is not UTF-8, or the U+FFFD the vault walk stored for one) is left out, with its text, rather than shown under a
// name that does not exist; such a copy leaves the "also in" line too.
func TestFormatContextPathsVerbatim(t *testing.T) {
	text := func(w string) string { return "Descale the espresso machine " + w + " with citric acid every month." }
	hits := []Hit{
		{Path: "/v/Kitchen/two  spaces .md", Section: "Descaling", Text: text("one"), ChunkID: 1,
			Also: []Hit{{Path: "/v/copy\nof it.md", Section: "Descaling", Text: text("one"), ChunkID: 5}, {Path: "/v/Copy  two.md", Section: "Descaling", Text: text("one"), ChunkID: 6}}},
		{Path: "/v/line\nbreak.md", Section: "Newline", Text: text("second"), ChunkID: 2},
		{Path: "/v/tab\there.md", Section: "Tab", Text: text("third"), ChunkID: 3},
		{Path: "/v/latin1-\xe9t\xe9.md", Section: "Bad UTF-8", Text: text("fourth"), ChunkID: 4},
		{Path: "/v/para\u2029graph.md", Section: "Separator", Text: text("fifth"), ChunkID: 7},
		// As the vault walk stores a name with a byte that is not UTF-8.
		{Path: "/v/walked-\ufffdt\ufffd.md", Section: "Walked", Text: text("sixth"), ChunkID: 10},
		// A group whose first note cannot be named is shown under its copy.
		{Path: "/v/first\nof two.md", Section: "Grinding", Text: "Grind the beans just before brewing.", ChunkID: 8,
			Also: []Hit{{Path: "/v/Second of two.md", Section: "Grinding", Text: "Grind the beans just before brewing.", ChunkID: 9}}},
	}
	block, shown := FormatContext(hits, 500)
	for _, want := range []string{"\n/v/Kitchen/two  spaces .md\n", "also in 1 note: /v/Copy  two.md", "\n/v/Second of two.md\nGrind the beans"} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	for _, bad := range []string{"second", "third", "fourth", "fifth", "copy", "break", "tab", "latin1", "\ufffd", "sixth", "para", "first"} {
		if strings.Contains(block, bad) {
			t.Errorf("block shows %q of a hit whose name cannot be shown:\n%s", bad, block)
		}
	}
	for _, h := range shown {
		if !retrieve.ShowablePath(h.Path) {
			t.Errorf("shown includes %q", h.Path)
		}
	}
	if len(hits[0].Also) != 2 {
		t.Error("FormatContext modified its input")
	}
}
