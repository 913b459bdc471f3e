package chunk

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// sections returns "section: first words" per chunk, for compact asserts.
func sections(cs []Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Section
	}
	return out
}

func texts(cs []Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text
	}
	return out
}

// filler is a sentence long enough to survive MinChars on its own.
const filler = "This paragraph has enough words to be kept as a chunk."

func TestSplitHeadings(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // sections in order
	}{
		{"atx h2", "intro " + filler + "\n\n## A\n" + filler + "\n## B\n" + filler, []string{"T", "A", "B"}},
		{"setext h2", "A\n---\n" + filler + "\n\nB\n-\n" + filler, []string{"A", "B"}},
		{"setext h1", "Top\n===\n" + filler + "\n\n## Sub\n" + filler, []string{"Top", "Sub"}},
		{"multi-line setext text", "first line\nsecond line\n---\n" + filler, []string{"first line second line"}},
		{"thematic break after blank line", "## A\n" + filler + "\n\n---\n\n" + filler, []string{"A"}},
		{"thematic break after list item", "## A\n- item " + filler + "\n---\n" + filler, []string{"A"}},
		{"thematic break after list continuation", "## A\n- item\n  continued " + filler + "\n---\n" + filler, []string{"A"}},
		{"thematic break after quote", "## A\n> quote " + filler + "\nlazy\n---\n" + filler, []string{"A"}},
		{"thematic break after html", "## A\n<!-- comment -->\n---\n" + filler, []string{"A"}},
		{"spaced dashes are a break", "## A\npara " + filler + "\n- - -\n" + filler, []string{"A"}},
		{"setext after a list and a blank line", "- item " + filler + "\n\nHeading\n---\n" + filler, []string{"T", "Heading"}},
		{"heading in backtick fence", "## A\n```md\n## not\n```\n" + filler, []string{"A"}},
		{"heading in tilde fence", "## A\n~~~\n## not\n~~~\n" + filler, []string{"A"}},
		{"shorter run does not close", "## A\n````\n```\n## not\n```\n````\n" + filler, []string{"A"}},
		{"other char does not close", "## A\n```\n~~~\n## not\n```\n" + filler + "\n## B\n" + filler, []string{"A", "B"}},
		{"backtick in info string is not a fence", "## A\n``` a`b\n## B\n" + filler, []string{"B"}},
		{"setext underline in fence", "## A\n```\ntext\n---\n```\n" + filler, []string{"A"}},
		{"unclosed fence runs to the end", "## A\n" + filler + "\n```\n## B\ntext", []string{"A"}},
		{"fence in a list item", "## A\n- item\n    ```\n    ## not\n    ```\n" + filler, []string{"A"}},
		{"tag is not a heading", "## A\n#tag " + filler + "\n##nospace " + filler, []string{"A"}},
		{"indented code is not a heading", "## A\n" + filler + "\n\n    ## code\n", []string{"A"}},
		{"up to three spaces of indent", "   ## A\n" + filler, []string{"A"}},
		{"closing hashes removed", "## A ##\n" + filler, []string{"A"}},
		{"h3 does not split a short section", "## A\n" + filler + "\n### sub\n" + filler, []string{"A"}},
		{"later h1 starts a section", "# One\n" + filler + "\n# Two\n" + filler, []string{"One", "Two"}},
		{"empty h2 text", "##\n" + filler, []string{""}},
		{"crlf input", "## A\r\n" + filler + "\r\n## B\r\n" + filler, []string{"A", "B"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sections(Split("T", tc.body, DefaultOptions()))
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("sections = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSplitText(t *testing.T) {
	cs := Split("Title", "# Note\n\n"+filler+"\n\n## Part one\n\n"+filler+"\n\n\n", DefaultOptions())
	if len(cs) != 2 {
		t.Fatalf("got %d chunks, want 2: %+v", len(cs), cs)
	}
	if cs[0].Section != "Note" || cs[0].Text != filler {
		t.Errorf("preamble = %+v, want section Note and the paragraph only", cs[0])
	}
	if cs[1].Section != "Part one" || cs[1].Text != filler {
		t.Errorf("section = %+v, want the heading line left out and the text trimmed", cs[1])
	}
	for i, c := range cs {
		if c.Ordinal != i {
			t.Errorf("chunk %d has Ordinal %d", i, c.Ordinal)
		}
	}
}

func TestSplitKeepsIndentation(t *testing.T) {
	body := "## A\n\n    indented code line that is long enough to keep\n"
	cs := Split("T", body, DefaultOptions())
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Text, "    indented") {
		t.Fatalf("got %+v", cs)
	}
}

func TestSplitMinChars(t *testing.T) {
	opt := DefaultOptions()
	short := strings.Repeat("x", opt.MinChars-1)
	exact := strings.Repeat("y", opt.MinChars)
	cs := Split("T", "## A\n"+short+"\n## B\n"+exact+"\n## C\n   \n## D\n  "+short+"  \n", opt)
	if got := sections(cs); len(got) != 1 || got[0] != "B" {
		t.Errorf("sections = %q, want only B (%d runes is the minimum)", got, opt.MinChars)
	}
	if cs[0].Ordinal != 0 {
		t.Errorf("Ordinal = %d after dropping, want 0", cs[0].Ordinal)
	}
	// Leading indentation does not count.
	if cs := Split("T", strings.Repeat(" ", 200)+"x\n## B\n"+filler, opt); len(cs) != 1 || cs[0].Section != "B" {
		t.Errorf("indented 1-rune text kept: %+v", cs)
	}
	// Weights, not bytes: 7 Han characters (3 bytes, weight 4) weigh 28,
	// under the minimum, 8 weigh 32; 15 Hangul syllables (weight 2) weigh
	// 30. The notes hold a long section too, so rule 8 stays out of it.
	long := "## Long\n" + filler + "\n"
	for _, tc := range []struct {
		text string
		keep bool
	}{
		{strings.Repeat("日", 7), false},
		{strings.Repeat("日", 8), true},
		{strings.Repeat("かな", 4), true},
		{strings.Repeat("한", 14), false},
		{strings.Repeat("한", 15), true},
		{strings.Repeat("é", opt.MinChars-1), false},
	} {
		cs := Split("T", "## Short\n"+tc.text+"\n"+long, opt)
		if got := len(cs) == 2; got != tc.keep {
			t.Errorf("%q (%d runes): kept %v, want %v", tc.text, utf8.RuneCountInString(tc.text), got, tc.keep)
		}
	}
}

func TestWeight(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want int
	}{
		{'a', 1}, {'é', 1}, {'δ', 1}, {'🙂', 1}, {'日', weightHan}, {'か', weightHan}, {'カ', weightHan}, {'한', weightHangul}, {'，', 1},
	} {
		if got := Weight(tc.r); got != tc.want {
			t.Errorf("Weight(%q) = %d, want %d", tc.r, got, tc.want)
		}
	}
}

func TestSplitSkipSections(t *testing.T) {
	tests := []struct {
		heading string
		skip    bool
	}{
		{"Related", true},
		{"related", true},
		{"See Also", true},
		{"See also:", true},
		{"SEE  ALSO :", true},
		{"Links", true},
		{"References", true},
		{"RELATED LINKS", true},
		{"🔗 Related", true},
		{"**References**", true},
		{"[[Links]]", true},
		{"1. References", true},
		{"_See also_:", true},
		{"Related notes", false},
		{"Relatedness", false},
		{"Useful links for setup", false},
		{"Linksys routers", false},
	}
	for _, tc := range tests {
		t.Run(tc.heading, func(t *testing.T) {
			body := "## Keep\n" + filler + "\n## " + tc.heading + "\n" + filler + " [[a]] [[b]]\n### Sub of skipped\n" + filler + "\n## After\n" + filler
			got := strings.Join(sections(Split("T", body, DefaultOptions())), "|")
			want := "Keep|" + tc.heading + "|After"
			if tc.skip {
				want = "Keep|After"
			}
			if got != want {
				t.Errorf("sections = %q, want %q", got, want)
			}
		})
	}
}

func TestSplitSkipH1(t *testing.T) {
	body := "# References\n" + filler + "\n## Intro\n" + filler + "\n# Links\n" + filler
	got := strings.Join(sections(Split("T", body, DefaultOptions())), "|")
	if got != "References|Intro" {
		t.Errorf("sections = %q: the first H1 is the note's own title and is kept, a later H1 Links is skipped", got)
	}
	opt := DefaultOptions()
	opt.SkipSections = nil
	if got := len(Split("T", body, opt)); got != 3 {
		t.Errorf("without SkipSections got %d chunks, want 3", got)
	}
}

// para returns a paragraph of n runes made of words.
func para(word string, n int) string {
	var b strings.Builder
	for utf8.RuneCountInString(b.String())+utf8.RuneCountInString(word)+1 <= n {
		b.WriteString(word)
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

func TestSplitLongSectionAtH3(t *testing.T) {
	opt := Options{MaxChars: 200, MinChars: 1}
	body := "## Big\n" + para("intro", 100) + "\n\n### First\n" + para("one", 150) + "\n\n### Second\n" + para("two", 150) + "\n"
	cs := Split("T", body, opt)
	want := []string{"Big", "Big > First", "Big > Second"}
	if got := sections(cs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sections = %q, want %q", got, want)
	}
	if strings.Contains(cs[1].Text, "### First") {
		t.Errorf("H3 line repeated in text: %q", cs[1].Text)
	}
}

func TestSplitEmptyH3(t *testing.T) {
	opt := Options{MaxChars: 200, MinChars: 1}
	cs := Split("T", "## Big\n"+para("intro", 150)+"\n\n###\n"+para("one", 150)+"\n", opt)
	if got := strings.Join(sections(cs), "|"); got != "Big|Big" {
		t.Errorf("sections = %q, want an empty H3 to add nothing", got)
	}
}

func TestSplitLongTitle(t *testing.T) {
	title := strings.Repeat("title ", 100)
	cs := Split(title, filler, DefaultOptions())
	if len(cs) != 1 || utf8.RuneCountInString(cs[0].Section) > MaxHeadingRunes {
		t.Errorf("got %+v, want the title shortened to %d runes", cs, MaxHeadingRunes)
	}
}

func TestSplitParagraphs(t *testing.T) {
	opt := Options{MaxChars: 250, MinChars: 1}
	p1, p2, p3 := para("alpha", 100), para("beta", 100), para("gamma", 100)
	cs := Split("T", "## S\n"+p1+"\n\n"+p2+"\n\n"+p3+"\n", opt)
	if len(cs) != 2 || cs[0].Text != p1+"\n\n"+p2 || cs[1].Text != p3 {
		t.Fatalf("want two chunks packed greedily at blank lines, got %+v", cs)
	}
	for _, c := range cs {
		if c.Section != "S" {
			t.Errorf("section %q, want S", c.Section)
		}
	}
}

func TestSplitAvoidsCuttingFences(t *testing.T) {
	opt := Options{MaxChars: 300, MinChars: 1}
	code := "```\n" + para("codeA", 100) + "\n\n" + para("codeB", 100) + "\n```"
	body := "## S\n" + para("before", 150) + "\n\n" + code + "\n\n" + para("after", 150) + "\n"
	cs := Split("T", body, opt)
	found := false
	for _, c := range cs {
		if c.Text == code {
			found = true
		}
	}
	if !found {
		t.Errorf("the fence (%d runes) fits a chunk and must not be cut: %+v", utf8.RuneCountInString(code), cs)
	}

	// A fence longer than MaxChars is cut at its blank line, not mid-line.
	big := "```\n" + para("codeA", 200) + "\n\n" + para("codeB", 200) + "\n```"
	cs = Split("T", "## S\n"+big+"\n", opt)
	if len(cs) != 2 || !strings.HasSuffix(cs[0].Text, para("codeA", 200)) || !strings.HasPrefix(cs[1].Text, para("codeB", 200)) {
		t.Errorf("want the oversized fence cut at its blank line, got %+v", cs)
	}
}

func TestSplitLinesBeforeHard(t *testing.T) {
	opt := Options{MaxChars: 100, MinChars: 1}
	var lines []string
	for i := 0; i < 10; i++ {
		lines = append(lines, fmt.Sprintf("line %d %s", i, para("w", 30)))
	}
	cs := Split("T", strings.Join(lines, "\n"), opt)
	for _, c := range cs {
		for _, l := range strings.Split(c.Text, "\n") {
			if !strings.HasPrefix(l, "line ") {
				t.Errorf("a line was cut although line cuts were possible: %q", l)
			}
		}
	}
}

func TestSplitHard(t *testing.T) {
	tests := []struct {
		name string
		body string
		max  int
	}{
		{"words", para("word", 1000), 98},
		{"no white space", strings.Repeat("x", 1000), 100},
		{"multi-byte runes", strings.Repeat("日本語", 300), 100},
		{"emoji", strings.Repeat("🙂", 333), 50},
		{"max 1", "abc def", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{MaxChars: tc.max}
			cs := Split("T", tc.body, opt)
			var joined strings.Builder
			for _, c := range cs {
				if n := utf8.RuneCountInString(c.Text); n > tc.max {
					t.Errorf("chunk of %d runes > %d", n, tc.max)
				}
				if !utf8.ValidString(c.Text) {
					t.Errorf("invalid UTF-8: %q", c.Text)
				}
				if tc.name == "words" && (!strings.HasSuffix(c.Text, "word") || !strings.HasPrefix(c.Text, "word")) {
					t.Errorf("cut inside a word although white space was available: %q", c.Text)
				}
				joined.WriteString(c.Text)
			}
			if strings.ReplaceAll(joined.String(), " ", "") != strings.ReplaceAll(tc.body, " ", "") {
				t.Errorf("hard split lost or reordered content")
			}
		})
	}
}

func TestSplitLongHeadings(t *testing.T) {
	long := strings.Repeat("very long heading words ", 30) // 720 runes
	cs := Split("T", "## "+long+"\n"+filler+"\n", DefaultOptions())
	if len(cs) != 1 {
		t.Fatalf("got %+v", cs)
	}
	if n := utf8.RuneCountInString(cs[0].Section); n > MaxHeadingRunes || !strings.HasSuffix(cs[0].Section, "…") {
		t.Errorf("section of %d runes %q, want at most %d ending in …", n, cs[0].Section, MaxHeadingRunes)
	}
	if !strings.Contains(cs[0].Text, strings.TrimSpace(long)) {
		t.Errorf("the full heading must stay in the text when shortened")
	}
	// A heading of exactly MaxHeadingRunes is kept whole.
	exact := strings.Repeat("h", MaxHeadingRunes)
	cs = Split("T", "## "+exact+"\n"+filler, DefaultOptions())
	if cs[0].Section != exact || cs[0].Text != filler {
		t.Errorf("got %+v", cs[0])
	}
}

func TestSplitEmpty(t *testing.T) {
	for _, body := range []string{"", "\n\n", " \t\n ", "## See Also\n- [[x]]\n"} {
		if cs := Split("T", body, DefaultOptions()); len(cs) != 0 {
			t.Errorf("Split(%q) = %+v, want none", body, cs)
		}
	}
}

// TestSplitShortNote checks rule 8: a note made only of short sections
// keeps one chunk with all of its text, headings included, under its
// title; skipped sections stay out of it.
func TestSplitShortNote(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"contact card", "# Bob Smith\n## Phone\n+1 555 0100\n", "# Bob Smith\n## Phone\n+1 555 0100"},
		{"title only", "# Only a title\n", "# Only a title"},
		{"empty headings", "## A\n## B\n", "## A\n## B"},
		{"text before a heading", "call back\n## Phone\n555\n", "call back\n## Phone\n555"},
		{"one CJK line", "東京の天気\n", "東京の天気"},
		{"skipped section left out", "# Bob\n## Phone\n555\n## See Also\n- [[Alice]]\n", "# Bob\n## Phone\n555"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := Split("Bob Smith", tc.body, DefaultOptions())
			if len(cs) != 1 || cs[0].Text != tc.want || cs[0].Section != "Bob Smith" || cs[0].Ordinal != 0 {
				t.Fatalf("got %+v, want one chunk %q in section %q", cs, tc.want, "Bob Smith")
			}
		})
	}
	// Two kept stretches around a skipped section give two chunks, in
	// order; a short note over MaxChars is still cut (rule 4).
	cs := Split("T", "a\n## See Also\nx\n## B\nb\n", DefaultOptions())
	if got := texts(cs); strings.Join(got, "|") != "a|## B\nb" {
		t.Errorf("around a skipped section: %q", got)
	}
	opt := Options{MaxChars: 20, MinChars: 30}
	long := "## A\nshort one\n\n## B\nshort two\n\n## C\nthree\n"
	cs = Split("T", long, opt)
	if len(cs) < 2 {
		t.Fatalf("want the fallback cut at MaxChars 20, got %+v", cs)
	}
	for _, c := range cs {
		if utf8.RuneCountInString(c.Text) > opt.MaxChars {
			t.Errorf("fallback chunk over MaxChars: %q", c.Text)
		}
	}
}

func TestSplitZeroOptions(t *testing.T) {
	body := para("x", 5000)
	cs := Split("T", body, Options{})
	if len(cs) != 1 || cs[0].Text != body {
		t.Errorf("zero Options must not split or drop: got %d chunks", len(cs))
	}
}

func TestNormHeading(t *testing.T) {
	tests := []struct{ in, want string }{
		{"See Also:", "see also"},
		{"  🔗  Related  ", "related"},
		{"**References**", "references"},
		{"2.3 Links", "links"},
		{"Über  Uns", "über uns"},
		{"C++ 20", "c++ 20"},
		{"", ""},
		{"🙂", ""},
	}
	for _, tc := range tests {
		if got := normHeading(tc.in); got != tc.want {
			t.Errorf("normHeading(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
