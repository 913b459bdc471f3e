package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSubsetVault(t *testing.T) {
	src := t.TempDir()
	var names []string
	for i := range 20 {
		names = append(names, filepath.ToSlash(filepath.Join(string(rune('a'+i%3)), string(rune('a'+i))+".md")))
	}
	names = append(names, ".obsidian/x.md", "z/not-markdown.txt")
	for _, n := range names {
		p := filepath.Join(src, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# "+n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	qs := []VaultQuery{{ID: "q", Query: "x", Relevant: []string{"b/t.md", "c/f.md#S"}}}

	list := func(dir string) []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		slices.Sort(out)
		return out
	}

	dst := t.TempDir()
	n, err := SubsetVault(context.Background(), src, dst, qs, 6)
	if err != nil {
		t.Fatal(err)
	}
	got := list(dst)
	// Candidates sorted: a/a a/d a/g a/j a/m a/p a/s b/b b/e b/h b/k b/n b/q
	// b/t c/c c/f c/i c/l c/o c/r. Judged b/t and c/f; the 18 others give 4
	// distractors at indices 0, 4, 9, 13 (floor(i*18/4)) of that list
	// without the judged: a/a, a/m, b/h, c/c.
	want := []string{"a/a.md", "a/m.md", "b/h.md", "b/t.md", "c/c.md", "c/f.md"}
	if n != 6 || !slices.Equal(got, want) {
		t.Errorf("copied %d: %v, want %v", n, got, want)
	}
	data, err := os.ReadFile(filepath.Join(dst, "b", "t.md"))
	if err != nil || !strings.HasPrefix(string(data), "# b/t.md") {
		t.Errorf("content not copied: %q %v", data, err)
	}

	all := t.TempDir()
	if n, err := SubsetVault(context.Background(), src, all, qs, 0); err != nil || n != 20 || len(list(all)) != 20 {
		t.Errorf("n=0 copied %d (%v), want all 20 markdown files outside dot folders", n, err)
	}
	if _, err := SubsetVault(context.Background(), src, t.TempDir(), []VaultQuery{{ID: "m", Query: "x", Relevant: []string{"nope.md"}}}, 5); err == nil {
		t.Error("a judged note missing from the vault must be an error")
	}
}
