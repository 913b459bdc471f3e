package chunk

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/vaultctx/vaultctx/core/internal/note"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/internal/testkit/golden"
)

func edgeFiles(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(testkit.Shared(t, "corpora/edge/SOURCES.tsv"))
	if err != nil {
		t.Fatalf("edge corpus: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, _, _ := strings.Cut(sc.Text(), "\t")
		if name != "file" && name != "" {
			out = append(out, "corpora/edge/"+name)
		}
	}
	if len(out) == 0 {
		t.Fatal("edge corpus: SOURCES.tsv lists no files")
	}
	return out
}

// corpusFiles walks a shared corpus and returns every step-th markdown file.
func corpusFiles(t testing.TB, root string, step int) []string {
	t.Helper()
	var out []string
	i := 0
	err := filepath.WalkDir(testkit.Shared(t, root), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		if i%step == 0 {
			rel, _ := filepath.Rel(testkit.Shared(t), p)
			out = append(out, filepath.ToSlash(rel))
		}
		i++
		return nil
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("%s: %d files, %v", root, len(out), err)
	}
	return out
}

func readRaw(t testing.TB, rel string) []byte {
	t.Helper()
	raw, err := os.ReadFile(testkit.Shared(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func parse(t testing.TB, rel string) note.Note {
	t.Helper()
	return note.Parse(filepath.Base(rel), readRaw(t, rel))
}

// goldenFiles: the whole edge corpus, some vault notes and some large docs.
func goldenFiles(t testing.TB) []string {
	return append(edgeFiles(t),
		"corpora/obsidian/tasks-demo-vault/Test Data/multiple_headings.md",
		"corpora/obsidian/tasks-demo-vault/Test Data/callout.md",
		"corpora/obsidian/tasks-demo-vault/Test Data/comments_markdown_style.md",
		"corpora/obsidian/tasks-demo-vault/Styling/Sample Tasks for Styling Documentation.md",
		"corpora/obsidian/tasks-demo-vault/Manual Testing/Dependencies Samples.md",
		"corpora/large/PowerShell-Docs/reference/7.4/Microsoft.PowerShell.Core/ForEach-Object.md",
		"corpora/large/cpp-docs/docs/standard-library/range-adaptors.md",
		"corpora/large/cpp-docs/docs/build/reference/compiler-options-listed-by-category.md",
		"corpora/large/windows-powershell-docs/docset/winserver2025-ps/DnsServer/Set-DnsServerEncryptionProtocol.md",
	)
}

type goldenChunk struct {
	Ordinal int    `json:"ordinal"`
	Section string `json:"section"`
	Runes   int    `json:"runes"`
	Text    string `json:"text"`
}

// TestGolden compares note.Parse + Split with DefaultOptions on real files
// with testdata/golden. Refresh: go test ./core/chunk -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, rel := range goldenFiles(t) {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			n := parse(t, rel)
			gs := []goldenChunk{}
			for _, c := range Split(n.Title, n.Body, DefaultOptions()) {
				gs = append(gs, goldenChunk{c.Ordinal, c.Section, utf8.RuneCountInString(c.Text), c.Text})
			}
			got, err := json.MarshalIndent(gs, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			r := strings.NewReplacer("/", "__", " ", "_", ",", "")
			path := filepath.Join("testdata", "golden", r.Replace(strings.TrimPrefix(rel, "corpora/"))+".json")
			golden.Check(t, path, got)
		})
	}
}

// checkChunks asserts the invariants of rules 3-5 and 7 and returns the
// byte ranges of the chunk texts in body (every Text is a slice of the
// body, in order, not overlapping).
func checkChunks(t testing.TB, name, title, body string, opt Options, cs []Chunk) [][2]int {
	t.Helper()
	var spans [][2]int
	pos := 0
	// Rule 8: chunks under MinChars come only from the fallback, taken
	// when rules 1-6 keep nothing; and a body with any non-space text
	// outside skipped sections always gives a chunk.
	fallback := len(cs) > 0 && len(split(title, body, opt, false)) == 0
	if len(cs) == 0 && len(opt.SkipSections) == 0 && strings.TrimSpace(body) != "" {
		t.Errorf("%s: no chunk for a body with text: %q", name, body[:min(len(body), 200)])
	}
	for i, c := range cs {
		n := utf8.RuneCountInString(c.Text)
		if opt.MaxChars > 0 && n > opt.MaxChars {
			t.Errorf("%s: chunk %d has %d runes > MaxChars %d", name, i, n, opt.MaxChars)
		}
		if trimmed := strings.TrimSpace(c.Text); trimmed == "" || (!fallback && weightOf(trimmed) < opt.MinChars) {
			t.Errorf("%s: chunk %d is shorter than MinChars %d: %q", name, i, opt.MinChars, c.Text)
		}
		if c.Ordinal != i {
			t.Errorf("%s: chunk %d has Ordinal %d", name, i, c.Ordinal)
		}
		if utf8.ValidString(body) && utf8.ValidString(title) && (!utf8.ValidString(c.Text) || !utf8.ValidString(c.Section)) {
			t.Errorf("%s: chunk %d is not valid UTF-8", name, i)
		}
		if c.Text != strings.TrimRight(c.Text, " \t\r\n") || strings.HasPrefix(c.Text, "\n") {
			t.Errorf("%s: chunk %d is not trimmed: %q", name, i, c.Text)
		}
		// Texts are slices of the body (the package promises no copies), so
		// their exact offsets follow from the pointers.
		off := int(uintptr(unsafe.Pointer(unsafe.StringData(c.Text))) - uintptr(unsafe.Pointer(unsafe.StringData(body))))
		if off < pos || off+len(c.Text) > len(body) || body[off:off+len(c.Text)] != c.Text {
			t.Fatalf("%s: chunk %d is not a slice of the body after the previous chunk: %q", name, i, c.Text)
		}
		spans = append(spans, [2]int{off, off + len(c.Text)})
		pos = off + len(c.Text)
	}
	return spans
}

// weightOf is the slow reference of weighed: the summed Weight of every
// rune.
func weightOf(s string) int {
	n := 0
	for _, r := range s {
		n += Weight(r)
	}
	return n
}

// headingish marks the lines a chunker may leave out of the texts: lines
// that could be headings or their underlines. It is deliberately crude (a
// superset), so the coverage check below does not re-implement the rules.
func headingish(body string) []bool {
	lines := strings.Split(body, "\n")
	mark := make([]bool, len(lines))
	underline := func(s string) bool {
		s = strings.TrimSpace(s)
		return s != "" && (strings.Trim(s, "=") == "" || strings.Trim(s, "-") == "")
	}
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "#") || underline(l) {
			mark[i] = true
		}
		if underline(l) {
			for k := i - 1; k >= 0 && strings.TrimSpace(lines[k]) != ""; k-- {
				mark[k] = true
			}
		}
	}
	return mark
}

// checkCoverage asserts that, with no skipped sections and MinChars 0,
// every letter or digit of the body is in some chunk unless it sits on a
// heading-like line: splitting loses only headings (kept in Section) and
// white space.
func checkCoverage(t testing.TB, name, body string, spans [][2]int) {
	t.Helper()
	covered := make([]bool, len(body))
	for _, s := range spans {
		for k := s[0]; k < s[1]; k++ {
			covered[k] = true
		}
	}
	heads := headingish(body)
	line := 0
	for i, r := range body {
		if r == '\n' {
			line++
			continue
		}
		if !covered[i] && (unicode.IsLetter(r) || unicode.IsDigit(r)) && !heads[line] {
			lo := max(0, i-40)
			t.Errorf("%s: content lost at byte %d (line %d): %q", name, i, line+1, body[lo:min(len(body), i+40)])
			return
		}
	}
}

// TestSplitProperties checks the invariants on real files (all of the edge
// corpus and the vault, a sample of the large corpus) with the default
// options and with small limits that force every kind of cut.
func TestSplitProperties(t *testing.T) {
	files := append(edgeFiles(t), corpusFiles(t, "corpora/obsidian", 1)...)
	files = append(files, corpusFiles(t, "corpora/large", 97)...)
	optsets := map[string]Options{
		"default":  DefaultOptions(),
		"small":    {MaxChars: 120, MinChars: 10, SkipSections: []string{"See Also"}},
		"tiny":     {MaxChars: 7, MinChars: 1},
		"coverage": {MaxChars: 300},
	}
	for _, rel := range files {
		n := parse(t, rel)
		for oname, opt := range optsets {
			name := rel + " [" + oname + "]"
			cs := Split(n.Title, n.Body, opt)
			spans := checkChunks(t, name, n.Title, n.Body, opt, cs)
			if oname == "coverage" || oname == "tiny" {
				checkCoverage(t, name, n.Body, spans)
			}
			if again := Split(n.Title, n.Body, opt); !reflect.DeepEqual(cs, again) {
				t.Errorf("%s: Split is not deterministic", name)
			}
		}
	}
}

// genDoc builds a random markdown document from pieces that exercise every
// rule: headings of all kinds, fences, lists, quotes, breaks, long
// paragraphs, long lines without spaces, multi-byte text.
func genDoc(r *rand.Rand) string {
	words := []string{"alpha", "beta", "gamma", "δέλτα", "日本語", "🙂", "code_id", "x", "a-b", "C++"}
	word := func() string { return words[r.IntN(len(words))] }
	sentence := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ")
	}
	var b strings.Builder
	for k := r.IntN(40); k >= 0; k-- {
		switch r.IntN(14) {
		case 0:
			b.WriteString("## " + sentence(1+r.IntN(4)) + "\n")
		case 1:
			b.WriteString("# " + sentence(1+r.IntN(3)) + "\n")
		case 2:
			b.WriteString("### " + sentence(1+r.IntN(3)) + "\n")
		case 3:
			c := []string{"-", "="}[r.IntN(2)]
			b.WriteString(sentence(2) + "\n" + strings.Repeat(c, 1+r.IntN(5)) + "\n")
		case 4:
			fence := []string{"```", "~~~", "````"}[r.IntN(3)]
			b.WriteString(fence + "\n## in fence\n" + sentence(5+r.IntN(50)) + "\n\n" + sentence(r.IntN(40)) + "\n" + fence + "\n")
		case 5:
			b.WriteString("- " + sentence(3+r.IntN(10)) + "\n  " + sentence(3) + "\n")
		case 6:
			b.WriteString("> " + sentence(3+r.IntN(10)) + "\n")
		case 7:
			b.WriteString("\n---\n\n")
		case 8:
			b.WriteString(strings.Repeat("w", r.IntN(600)) + "\n")
		case 9:
			b.WriteString("## See Also\n" + sentence(10) + "\n")
		case 10:
			b.WriteString("## " + strings.Repeat("long ", 80+r.IntN(60)) + "\n")
		default:
			b.WriteString(sentence(5+r.IntN(200)) + "\n")
		}
		if r.IntN(2) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func TestSplitPropertiesGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 600; i++ {
		body := genDoc(r)
		opt := Options{MaxChars: 20 + r.IntN(600), MinChars: r.IntN(40)}
		if i%3 == 0 {
			opt.SkipSections = DefaultOptions().SkipSections
		}
		name := "generated"
		cs := Split("Title", body, opt)
		checkChunks(t, name, "Title", body, opt, cs)
		cov := Options{MaxChars: opt.MaxChars}
		checkCoverage(t, name, body, checkChunks(t, name, "Title", body, cov, Split("Title", body, cov)))
		if t.Failed() {
			t.Logf("document %d:\n%s", i, body)
			return
		}
	}
}
