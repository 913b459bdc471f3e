package note

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, always returns valid UTF-8
// without CR or BOM, is deterministic, and never returns a body larger
// than the decoded file. Seeds: testdata/fuzz/FuzzParse (real edge-corpus
// files and every broken-frontmatter shape) plus the cases below.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"---",
		"---\n",
		"---\n---",
		"+++\ntitle = 'x'\n+++\nbody",
		"---\ntitle: [unclosed\n---\nbody",
		"---\nletterhead line\n---\n---\ntitle: x\n---\n",
		"\xEF\xBB\xBF---\r\ntitle: bom\r\n---\r\n# H\r\n",
		"caf\xE9 #t\xE9g `#x` ```\n#no\n",
		"\xFF\xFE#\x00t\x00",
		"# T\n\n%% #x\n#y\n",
	} {
		f.Add("a/b.md", []byte(s))
	}
	f.Fuzz(func(t *testing.T, rel string, raw []byte) {
		n := Parse(rel, raw)
		checkNote(t, n)
		if m := Parse(rel, raw); !reflect.DeepEqual(n, m) {
			t.Fatalf("Parse is not deterministic: %+v vs %+v", n, m)
		}
		text, _ := Decode(raw)
		if len(n.Body) > len(text) {
			t.Fatalf("Body (%d bytes) is longer than the text (%d bytes)", len(n.Body), len(text))
		}
		// Clean input: the body is the text minus a leading block.
		if len(n.Problems) == 0 && !strings.HasSuffix(text, n.Body) {
			t.Fatalf("Body is not a suffix of the text without any problem")
		}
	})
}
