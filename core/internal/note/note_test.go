package note

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// hasProblem reports whether any problem contains sub.
func hasProblem(n Note, sub string) bool {
	for _, p := range n.Problems {
		if strings.Contains(p, sub) {
			return true
		}
	}
	return false
}

func TestParseFrontmatter(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		title   string
		typ     string
		tags    []string
		aliases []string
		problem string   // substring of a problem; "" means no problems
		body    []string // substrings the body must contain
		notBody []string // substrings the body must not contain
	}{
		{
			name:    "yaml",
			in:      "---\ntitle: Hello\ntype: project\ntags: [a, \"#b\", c/d]\naliases:\n  - Hi\n  - Hey\n---\n# Heading\ntext\n",
			title:   "Hello",
			typ:     "project",
			tags:    []string{"a", "b", "c/d"},
			aliases: []string{"Hi", "Hey"},
			body:    []string{"# Heading\ntext"},
			notBody: []string{"title:", "---"},
		},
		{
			name:  "yaml tags as a string with commas and spaces",
			in:    "---\ntags: one, two #three four/five\n---\nx\n",
			title: "note",
			tags:  []string{"one", "two"},
			body:  []string{"x"},
		},
		{
			name:  "yaml tags as a quoted string",
			in:    "---\ntags: \"#one, #two nested/tag\"\n---\nx\n",
			title: "note",
			tags:  []string{"one", "two", "nested/tag"},
		},
		{
			name:    "capitalised keys and singular forms",
			in:      "---\nTAG:\n  - value1\nALIAS:\n  - test 1\nTitle: Big\n---\nx\n",
			title:   "Big",
			tags:    []string{"value1"},
			aliases: []string{"test 1"},
		},
		{
			name:    "aliases on one line",
			in:      "---\naliases: first, second\n---\nx\n",
			title:   "note",
			aliases: []string{"first", "second"},
		},
		{
			name:  "non-string title",
			in:    "---\ntitle: 2024\n---\nx\n",
			title: "2024",
		},
		{
			name:  "empty yaml",
			in:    "---\n---\n\n# empty\n",
			title: "empty",
			body:  []string{"# empty"},
		},
		{
			name:  "toml",
			in:    "+++\ntitle = \"Overview\"\nweight = 10\n[taxonomies]\ntags = [\"zola\", \"docs\"]\n+++\n\nbody text\n",
			title: "Overview",
			tags:  []string{"zola", "docs"},
			body:  []string{"body text"},
		},
		{
			name:  "toml with ---toml fence",
			in:    "---toml\ntitle = \"T\"\n---\nbody\n",
			title: "T",
			body:  []string{"body"},
		},
		{
			name:    "invalid yaml keeps prose and salvages keys",
			in:      "---\nA description line without a key.\nauthor: Someone\ntitle: Salvaged\ntags:\n  - x\n---\n\n# H\n",
			title:   "Salvaged",
			tags:    []string{"x"},
			problem: "invalid YAML",
			body:    []string{"A description line without a key.", "author: Someone", "# H"},
			notBody: []string{"title: Salvaged", "---"},
		},
		{
			name:    "invalid toml",
			in:      "+++\ntitle = \"T\"\nthis is not toml\n+++\nbody\n",
			title:   "T",
			problem: "invalid TOML",
			body:    []string{"this is not toml", "body"},
		},
		{
			name:    "unclosed fence",
			in:      "---\ntitle: Never closed\n\n# Real heading\n\nreal content\n",
			title:   "Real heading",
			problem: "unclosed YAML frontmatter",
			body:    []string{"title: Never closed", "real content"},
		},
		{
			name:    "letterhead of prose lines",
			in:      "---\nJane Doe\n12 Main Street\nSpringfield\n---\n\nDear Sir,\n",
			title:   "note",
			problem: "letterhead",
			body:    []string{"Jane Doe\n12 Main Street\nSpringfield\n", "Dear Sir,"},
			notBody: []string{"---"},
		},
		{
			name:    "letterhead that is not even valid yaml",
			in:      "---\nJane Doe: the writer: of this\n\tjunk\n---\nbody\n",
			title:   "note",
			problem: "invalid YAML",
			body:    []string{"Jane Doe: the writer: of this", "body"},
		},
		{
			name:    "letterhead list",
			in:      "---\n- one\n- two\n---\nbody\n",
			title:   "note",
			problem: "letterhead",
			body:    []string{"- one\n- two\n", "body"},
		},
		{
			name:    "stacked blocks",
			in:      "---\ntitle: First\ntags: [a]\n---\n\n---\ntitle: Second\ntype: log\ntags: [b]\n---\nbody\n",
			title:   "First",
			typ:     "log",
			tags:    []string{"a", "b"},
			problem: "stacked frontmatter",
			body:    []string{"body"},
			notBody: []string{"Second", "---"},
		},
		{
			name:    "stacked block keeps lines that are not note keys",
			in:      "---\ntitle: T\n---\n---\nStatus: done\ntags: [x]\n---\nbody\n",
			title:   "T",
			tags:    []string{"x"},
			problem: "stacked frontmatter",
			body:    []string{"Status: done\nbody"},
			notBody: []string{"tags:", "---"},
		},
		{
			name:    "a thematic break after frontmatter is not a second block",
			in:      "---\ntitle: T\n---\n\n---\nJust a paragraph between rules.\n\n---\nmore\n",
			title:   "T",
			body:    []string{"---\nJust a paragraph between rules.", "more"},
			notBody: []string{"title: T"},
		},
		{
			name:  "horizontal rule later in the body is not frontmatter",
			in:    "# Title\n\nintro\n\n---\ntitle: no\n---\n",
			title: "Title",
			body:  []string{"---\ntitle: no\n---"},
		},
		{
			name:  "frontmatter must start on the first line",
			in:    "\n---\ntitle: no\n---\ntext\n",
			title: "note",
			body:  []string{"---\ntitle: no\n---"},
		},
		{
			name:  "closing fence with trailing spaces",
			in:    "---  \ntitle: T\n---   \nbody\n",
			title: "T",
			body:  []string{"body"},
		},
		{
			name:  "no frontmatter and no heading uses the file name",
			in:    "just text\n",
			title: "note",
			body:  []string{"just text"},
		},
		{
			name:  "setext title",
			in:    "Setext Title\n============\n\ntext\n",
			title: "Setext Title",
		},
		{
			name:  "H1 in a fence is not the title",
			in:    "```\n# not title\n```\n\n# Real\n",
			title: "Real",
		},
		{
			name:  "closing hashes are removed from the title",
			in:    "# Title ##\n",
			title: "Title",
		},
		{
			name:    "unclosed code fence is a problem",
			in:      "# T\n\n```go\nfunc main() {}\n",
			title:   "T",
			problem: "unclosed code fence opened at body line 3",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := Parse("folder/note.md", []byte(tc.in))
			if n.Title != tc.title {
				t.Errorf("Title = %q, want %q", n.Title, tc.title)
			}
			if n.Type != tc.typ {
				t.Errorf("Type = %q, want %q", n.Type, tc.typ)
			}
			if tc.tags != nil && !slices.Equal(n.Tags, tc.tags) {
				t.Errorf("Tags = %q, want %q", n.Tags, tc.tags)
			}
			if tc.aliases != nil && !slices.Equal(n.Aliases, tc.aliases) {
				t.Errorf("Aliases = %q, want %q", n.Aliases, tc.aliases)
			}
			if tc.problem == "" && len(n.Problems) > 0 {
				t.Errorf("Problems = %q, want none", n.Problems)
			}
			if tc.problem != "" && !hasProblem(n, tc.problem) {
				t.Errorf("Problems = %q, want one containing %q", n.Problems, tc.problem)
			}
			for _, s := range tc.body {
				if !strings.Contains(n.Body, s) {
					t.Errorf("Body = %q, want it to contain %q", n.Body, s)
				}
			}
			for _, s := range tc.notBody {
				if strings.Contains(n.Body, s) {
					t.Errorf("Body = %q, want it not to contain %q", n.Body, s)
				}
			}
		})
	}
}

func TestParseInlineTags(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"simple", "a #one and #two\n", []string{"one", "two"}},
		{"start of line", "#tag at start\n", []string{"tag"}},
		{"nested", "#area/sub/leaf\n", []string{"area/sub/leaf"}},
		{"trailing punctuation", "see #tag, and #other.\n", []string{"tag", "other"}},
		{"unicode", "#café #日本語 #über_x\n", []string{"café", "日本語", "über_x"}},
		{"dedupe case-insensitively, first spelling wins", "#Tag #tag #TAG #other\n", []string{"Tag", "other"}},
		{"numbers are not tags", "issue #460 and #12-3 but #v2 is\n", []string{"v2"}},
		{"heading markers are not tags", "# Heading\n## Sub #real\n", []string{"real"}},
		{"url fragments are not tags", "https://example.com/page#section and [x](#anchor) [[Note#Head]]\n", nil},
		{"inline code is skipped", "`#notag` and ``code #no ` tick`` then #yes\n", []string{"yes"}},
		{"unclosed backtick is literal", "a ` b #yes\n", []string{"yes"}},
		{"fenced code is skipped", "```\n#notag\n```\n~~~~\n#no\n~~~\n#still\n~~~~\n#after\n", []string{"after"}},
		{"obsidian comments are skipped", "%% #hidden %%\n#shown\n%%\n#hidden2\n%%\n", []string{"shown"}},
		{"task lines", "- [ ] #task do it 📅 2024-01-01\n", []string{"task"}},
		{"escaped hash", `\#notag` + "\n", nil},
		{"link reference definitions", "[06]: #example-5---derived\n[x]:  #anchor \"t\"\n#real\n", []string{"real"}},
		{"footnote text keeps tags", "[^1]: see #note\n", []string{"note"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := Parse("n.md", []byte(tc.in))
			if !slices.Equal(n.Tags, tc.want) {
				t.Errorf("Tags = %q, want %q", n.Tags, tc.want)
			}
		})
	}
}

func TestFrontmatterTagsComeFirst(t *testing.T) {
	n := Parse("n.md", []byte("---\ntags: [b]\n---\n#a #B #c\n"))
	if want := []string{"b", "a", "c"}; !slices.Equal(n.Tags, want) {
		t.Errorf("Tags = %q, want %q", n.Tags, want)
	}
}

func TestHeadingContext(t *testing.T) {
	tests := []struct {
		name string
		n    Note
		want string
	}{
		{"all parts", Note{Title: "T", Type: "project", Tags: []string{"a", "b/c"}}, "T | project | a, b/c"},
		{"no type", Note{Title: "T", Tags: []string{"a"}}, "T | a"},
		{"no tags", Note{Title: "T", Type: "x"}, "T | x"},
		{"title only", Note{Title: "T"}, "T"},
		{"type only", Note{Type: "x"}, "x"},
		{"empty", Note{}, ""},
		{"blank parts", Note{Title: " ", Type: " "}, ""},
		{"aliases", Note{Title: "Kubernetes", Aliases: []string{"k8s", " kube ", "kubernetes", ""}, Type: "tool"}, "Kubernetes (k8s, kube) | tool"},
		{"aliases without title", Note{Aliases: []string{"k8s"}}, "(k8s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.n.HeadingContext(); got != tc.want {
				t.Errorf("HeadingContext() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a/b/My Note.md", "My Note"},
		{"My.Note.md", "My.Note"},
		{".hidden.md", ".hidden"},
		{"noext", "noext"},
		{"dir\\win.md", "win"},
		{"Cafe\u0301.md", "Café"},
		{"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := stem(tc.in); got != tc.want {
				t.Errorf("stem(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// checkNote asserts the invariants every parsed note has, whatever the input.
func checkNote(t testing.TB, n Note) {
	t.Helper()
	for field, s := range map[string]string{"Title": n.Title, "Type": n.Type, "Body": n.Body, "HeadingContext": n.HeadingContext()} {
		if !utf8.ValidString(s) {
			t.Errorf("%s is not valid UTF-8: %q", field, s)
		}
	}
	if strings.ContainsRune(n.Body, '\r') {
		t.Errorf("Body contains CR")
	}
	if strings.HasPrefix(n.Body, "\uFEFF") {
		t.Errorf("Body starts with a BOM")
	}
	for _, tag := range n.Tags {
		if tag == "" || strings.HasPrefix(tag, "#") || !utf8.ValidString(tag) {
			t.Errorf("bad tag %q", tag)
		}
	}
	seen := map[string]bool{}
	for _, tag := range n.Tags {
		k := strings.ToLower(tag)
		if seen[k] {
			t.Errorf("duplicate tag %q in %q", tag, n.Tags)
		}
		seen[k] = true
	}
}

func TestHeadingContextIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Many tags\n\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "#tag%d ", i)
	}
	n := Parse("many.md", []byte(b.String()))
	hc := n.HeadingContext()
	if r := []rune(hc); len(r) > MaxContextRunes {
		t.Errorf("heading context is %d runes, want at most %d", len(r), MaxContextRunes)
	}
	if !strings.HasPrefix(hc, "Many tags | tag0, tag1") {
		t.Errorf("heading context = %.60q", hc)
	}
}
