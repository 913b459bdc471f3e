package note

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// referenceH1 is the text of the first top-level H1 that goldmark, a
// CommonMark 0.31 parser, finds, or "".
func referenceH1(body string) string {
	src := []byte(body)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 1 {
			continue
		}
		var parts []string
		for i := 0; i < h.Lines().Len(); i++ {
			seg := h.Lines().At(i)
			parts = append(parts, strings.TrimSpace(string(seg.Value(src))))
		}
		if t := strings.Join(parts, " "); t != "" {
			return t
		}
	}
	return ""
}

// TestFirstH1MatchesCommonMark checks the title fallback (first H1 of the
// body) against goldmark on the edge corpus, the vault and a quarter of
// the large corpus.
func TestFirstH1MatchesCommonMark(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 4,400 files twice")
	}
	var files []string
	for _, ef := range edgeFiles(t) {
		files = append(files, testkit.Shared(t, "corpora/edge", ef.name))
	}
	for _, root := range []string{"corpora/obsidian", "corpora/large"} {
		i := 0
		filepath.WalkDir(testkit.Shared(t, root), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				if i%4 == 0 || root == "corpora/obsidian" {
					files = append(files, p)
				}
				i++
			}
			return nil
		})
	}
	differ := 0
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := Decode(raw)
		_, body, _ := readFrontmatter(text)
		got, want := scanBody(body).h1, referenceH1(body)
		if got != want {
			differ++
			if differ <= 5 {
				t.Errorf("%s: first H1 %q, CommonMark says %q", p, got, want)
			}
		}
	}
	if differ > 0 || len(files) < 4000 {
		t.Errorf("%d of %d files differ", differ, len(files))
	}
}
