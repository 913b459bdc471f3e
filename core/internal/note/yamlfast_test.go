package note

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// checkFastYAML asserts that when the fast path accepts a block, the full
// decoder reads it as key/value data with the same meta.
func checkFastYAML(t testing.TB, name, inner string) bool {
	t.Helper()
	fast, ok := fastYAML(inner)
	if !ok {
		return false
	}
	b := block{kind: fmYAML, raw: "---\n" + inner + "---\n", inner: inner, closed: true}
	full, res, err := b.decodeFull()
	if res != decodedMapping || !reflect.DeepEqual(fast, full) {
		t.Errorf("%s: fast path %+v, full decoder %+v (result %d, err %v) for\n%s", name, fast, full, res, err, inner)
	}
	return true
}

func TestFastYAMLCases(t *testing.T) {
	tests := []struct {
		name   string
		inner  string
		accept bool
	}{
		{"flat", "title: Hello World\ntype: note\nms.date: 02/10/2026\nonline version: https://x.y/z?a=b&c\n", true},
		{"quoted", "title: \"Quoted: yes\"\ntype: 'it''s'\n", true},
		{"flow list", "tags: [a, b/c, \"d e\"]\naliases: []\n", true},
		{"block list", "tags:\n  - one\n  - two\naliases:\n- x\n-\n", true},
		{"comments and blank lines", "# c\n\ntitle: T\ntags: # none\n", true},
		{"unicode", "title: Café über 日本\n", true},
		{"numeric title falls back", "title: 2024\n", false},
		{"boolean title falls back", "title: yes\n", false},
		{"null tags fall back", "tags: null\n", false},
		{"date type falls back", "type: 2024-01-01\n", false},
		{"number in another key is fine", "weight: 10\ntitle: T\n", true},
		{"nested map falls back", "parent:\n  child: 1\n", false},
		{"list of maps falls back", "parent:\n  - child: 1\n", false},
		{"block scalar falls back", "title: |\n  multi\n", false},
		{"escapes fall back", "title: \"a\\tb\"\n", false},
		{"comment after value falls back", "title: T # c\n", false},
		{"mapping value in plain falls back", "title: a: b\n", false},
		{"prose line falls back", "Just a sentence.\ntitle: T\n", false},
		{"duplicate key falls back", "title: a\ntitle: b\n", false},
		{"tab falls back", "title:\tT\n", false},
		{"anchor falls back", "title: &a T\n", false},
		{"uneven list falls back", "tags:\n  - a\n    - b\n", false},
		{"list after a value falls back", "tags: a\n- b\n", false},
		{"boolean key falls back", "yes: 1\n", false},
		{"flow list with nesting falls back", "tags: [a, [b]]\n", false},
		{"flow list with quoted commas", "k: [\"a, b\", 'c [d]', 'it''s']\ntags: [\"x, y\"]\n", true},
		{"flow list with trailing comma falls back", "tags: [a,]\n", false},
		{"unterminated quote falls back", "title: \"abc\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkFastYAML(t, tc.name, tc.inner); got != tc.accept {
				t.Errorf("fast path accepted = %v, want %v", got, tc.accept)
			}
		})
	}
}

// TestFastYAMLEquivalence runs the fast path against the full decoder on
// every YAML block of the edge corpus and the vault and on a third of the
// large corpus (5,500 blocks), and
// checks that it handles the large corpus almost entirely (it is there for
// speed).
func TestFastYAMLEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 16,000 files")
	}
	for _, root := range []string{"corpora/edge", "corpora/obsidian", "corpora/large"} {
		var blocks, fast, seen int
		err := filepath.WalkDir(testkit.Shared(t, root), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			if seen++; root == "corpora/large" && seen%3 != 0 {
				return nil // a third of the large corpus keeps -race runs short
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			text, _ := Decode(raw)
			b, ok := findBlock(text)
			if !ok || !b.closed || b.kind != fmYAML || strings.TrimSpace(b.inner) == "" {
				return nil
			}
			blocks++
			if checkFastYAML(t, p, b.inner) {
				fast++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d of %d YAML blocks on the fast path", root, fast, blocks)
		if root == "corpora/large" && fast*100 < blocks*95 {
			t.Errorf("%s: only %d of %d YAML blocks on the fast path", root, fast, blocks)
		}
	}
}

// FuzzFastYAML checks fast path against full decoder on arbitrary blocks.
func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{
		"title: T\ntags: [a, b]\n",
		"tags:\n  - a\n  - b\naliases: x, y\n",
		"title: 'q''s'\ntype: \"d\"\n",
		"TAG:\n- v\nTags: w\n",
		"title: on\n",
		"a.b: 1\nc d: e\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, inner string) {
		if strings.Contains(inner, "---") || strings.Contains(inner, "\r") {
			return // a closing fence or CR cannot occur inside a decoded block
		}
		if inner != "" && !strings.HasSuffix(inner, "\n") {
			inner += "\n"
		}
		checkFastYAML(t, "fuzz", inner)
	})
}
