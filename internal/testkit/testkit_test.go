package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRootAndShared(t *testing.T) {
	r := Root(t)
	if _, err := os.Stat(filepath.Join(r, "go.mod")); err != nil || !filepath.IsAbs(r) {
		t.Fatalf("Root = %s: %v", r, err)
	}
	s := Shared(t, "models/glove-120k")
	if !filepath.IsAbs(s) || filepath.Dir(filepath.Dir(s)) != filepath.Join(filepath.Dir(r), "shared") {
		t.Errorf("Shared = %s", s)
	}
	// From another working folder the answer is the same.
	t.Chdir(t.TempDir())
	if got := Shared(t, "models/glove-120k"); got != s {
		t.Errorf("after chdir Shared = %s, want %s", got, s)
	}
}

func TestCopyTree(t *testing.T) {
	src := t.TempDir()
	for _, f := range []string{"a.md", "sub/b.md", "sub/deeper/c.md"} {
		p := filepath.Join(src, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.md", filepath.Join(src, "link.md")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "out")
	CopyTree(t, src, dst)
	for _, f := range []string{"a.md", "sub/b.md", "sub/deeper/c.md"} {
		if b, err := os.ReadFile(filepath.Join(dst, f)); err != nil || string(b) != f {
			t.Errorf("%s: %q, %v", f, b, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dst, "link.md")); err == nil {
		t.Error("symlink copied")
	}
	one := filepath.Join(t.TempDir(), "one.md")
	CopyTree(t, filepath.Join(src, "a.md"), one)
	if b, err := os.ReadFile(one); err != nil || string(b) != "a.md" {
		t.Errorf("single file: %q, %v", b, err)
	}
}

func TestJSONLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(p, []byte("{\"id\":\"a\",\"n\":1}\n{\"id\":\"b\",\"n\":2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID string `json:"id"`
		N  int    `json:"n"`
	}
	rows := JSONLines[row](t, p)
	if len(rows) != 2 || rows[0] != (row{"a", 1}) || rows[1] != (row{"b", 2}) {
		t.Errorf("rows = %+v", rows)
	}
}
