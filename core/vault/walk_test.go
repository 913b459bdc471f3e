package vault

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/vaultctx/vaultctx/core/internal/filestat"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// Real corpora from ../shared (see its README).
func edgeCorpus(tb testing.TB) string     { return testkit.Shared(tb, "corpora/edge") }
func obsidianCorpus(tb testing.TB) string { return testkit.Shared(tb, "corpora/obsidian") }

// mkTree creates files (path -> content) under a new temp folder and returns
// it. Paths use forward slashes; parent folders are created.
func mkTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

func mkdir(tb testing.TB, p string) {
	tb.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		tb.Fatal(err)
	}
}

func symlink(tb testing.TB, target, link string) {
	tb.Helper()
	if err := os.Symlink(target, link); err != nil {
		tb.Fatal(err)
	}
}

// walkAll runs Walk and returns the files and skips.
func walkAll(tb testing.TB, root string, r Rules) ([]File, []Skip) {
	tb.Helper()
	var files []File
	skips, err := Walk(context.Background(), root, r, func(f File) error {
		files = append(files, f)
		return nil
	})
	if err != nil {
		tb.Fatalf("Walk(%s): %v", root, err)
	}
	return files, skips
}

func paths(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// reference lists the notes under root the slow, obvious way: every regular
// file filepath.WalkDir finds (it does not follow symlinks), by NFC relative
// path, filtered by Rules.Match, sorted with sort.Strings.
func reference(tb testing.TB, root string, r Rules) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = norm.NFC.String(filepath.ToSlash(rel))
		if r.Match(rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestWalkMatchesReference checks that Walk's pruning finds exactly what the
// slow reference finds, in sort.Strings order, for a range of rules, on a
// synthetic tree with awkward names and on the real corpora.
func TestWalkMatchesReference(t *testing.T) {
	synthetic := mkTree(t, map[string]string{
		"a.md": "x", "a-c.md": "x", "a/b.md": "x", "a0/x.md": "x", "ä.md": "x", "Z.md": "x",
		"Archive/a.md": "x", "Archive/2020/b.md": "x", "ArchiveOld/c.md": "x",
		"Projects/p.md": "x", "Projects/Old/o.md": "x", "Projects/Older/o.md": "x",
		"x/_templates/t.md": "x", "_templates/t.md": "x", "2019/y.md": "x", "x/2019/y.md": "x",
		".obsidian/workspace.md": "x", ".trash/t.md": "x", ".hidden.md": "x", "n/.git/HEAD.md": "x",
		".notes/n.md": "x", ".notes/.deeper/d.md": "x",
		"upper.MD": "x", "other.markdown": "x", "plain.txt": "x", "empty.md": "",
		norm.NFD.String("Café/Crème.md"): "x",
	})
	rules := []struct {
		name string
		r    Rules
	}{
		{"defaults", Rules{}},
		{"exclude Archive", Rules{Exclude: []string{"Archive/**"}}},
		{"nested exclude", Rules{Exclude: []string{"Projects/Old"}}},
		{"include with exclude", Rules{Include: []string{"Projects", "a"}, Exclude: []string{"Projects/Old"}}},
		{"double star", Rules{Exclude: []string{"**/_templates"}}},
		{"include double star", Rules{Include: []string{"**/_templates"}}},
		{"pattern", Rules{Exclude: []string{"20*"}}},
		{"unhide", Rules{Include: []string{".notes", "Café"}}},
		{"extensions", Rules{Extensions: []string{"markdown", "txt"}}},
	}
	trees := []struct{ name, root string }{
		{"synthetic", synthetic},
		{"edge", edgeCorpus(t)},
		{"obsidian", obsidianCorpus(t)},
	}
	if !testing.Short() {
		trees = append(trees, struct{ name, root string }{"large", largeCorpus(t)})
	}
	for _, tree := range trees {
		if _, err := os.Stat(tree.root); err != nil {
			t.Fatalf("corpus %s: %v", tree.name, err)
		}
		for _, rr := range rules {
			t.Run(tree.name+"/"+rr.name, func(t *testing.T) {
				files, skips := walkAll(t, tree.root, rr.r)
				got := paths(files)
				want := reference(t, tree.root, rr.r)
				if !slices.Equal(got, want) {
					t.Errorf("Walk found %d files, reference %d\nonly Walk: %q\nonly reference: %q",
						len(got), len(want), minus(got, want), minus(want, got))
				}
				if !sort.StringsAreSorted(got) {
					t.Errorf("Walk order is not sort.Strings order: %q", got)
				}
				if len(skips) != 0 {
					t.Errorf("unexpected skips: %v", skips)
				}
			})
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) && len(out) < 10 {
			out = append(out, s)
		}
	}
	return out
}

func TestWalkFileFields(t *testing.T) {
	root := mkTree(t, map[string]string{"dir/note.md": "hello world\n"})
	files, _ := walkAll(t, root, Rules{})
	if len(files) != 1 {
		t.Fatalf("got %d files, want 1", len(files))
	}
	f := files[0]
	st, err := os.Stat(filepath.Join(root, "dir", "note.md"))
	if err != nil {
		t.Fatal(err)
	}
	stamp := filestat.Of(st)
	want := File{Path: "dir/note.md", Abs: filepath.Join(root, "dir", "note.md"), MtimeNS: st.ModTime().UnixNano(), Size: st.Size(),
		CtimeNS: stamp.CtimeNS, Inode: stamp.Inode}
	if runtime.GOOS != "windows" && (want.CtimeNS == 0 || want.Inode == 0) {
		t.Fatalf("no ctime or inode from filestat: %+v", stamp)
	}
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
}

// TestWalkEdgeCorpus walks ../shared/corpora/edge: every note comes back,
// including the empty one, and each reads without error.
func TestWalkEdgeCorpus(t *testing.T) {
	files, skips := walkAll(t, edgeCorpus(t), Rules{})
	if len(skips) != 0 {
		t.Errorf("skips: %v", skips)
	}
	ents, err := os.ReadDir(edgeCorpus(t))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".md") {
			want = append(want, e.Name())
		}
	}
	if got := paths(files); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, f := range files {
		b, err := Read(f, 0)
		if err != nil {
			t.Errorf("Read(%s): %v", f.Path, err)
		}
		if int64(len(b)) != f.Size {
			t.Errorf("Read(%s) = %d bytes, walk said %d", f.Path, len(b), f.Size)
		}
	}
}

func TestWalkSymlinks(t *testing.T) {
	t.Run("symlinked folder after its target is not walked twice", func(t *testing.T) {
		root := mkTree(t, map[string]string{"a-real/x.md": "x", "a-real/sub/y.md": "y"})
		symlink(t, "a-real", filepath.Join(root, "z-link"))
		files, skips := walkAll(t, root, Rules{})
		assertPaths(t, files, "a-real/sub/y.md", "a-real/x.md")
		assertSkips(t, skips)
	})
	t.Run("symlinked folder before its target takes the lexically first path", func(t *testing.T) {
		root := mkTree(t, map[string]string{"a-real/x.md": "x", "a-real/sub/y.md": "y"})
		symlink(t, "a-real", filepath.Join(root, "0-link"))
		files, _ := walkAll(t, root, Rules{})
		assertPaths(t, files, "0-link/sub/y.md", "0-link/x.md")
		if want := filepath.Join(root, "0-link", "x.md"); files[1].Abs != want {
			t.Errorf("Abs = %q, want %q", files[1].Abs, want)
		}
	})
	t.Run("folder outside the vault", func(t *testing.T) {
		outside := mkTree(t, map[string]string{"ext.md": "x", "deep/e.md": "x"})
		root := mkTree(t, map[string]string{"n.md": "x"})
		symlink(t, outside, filepath.Join(root, "External"))
		files, _ := walkAll(t, root, Rules{})
		assertPaths(t, files, "External/deep/e.md", "External/ext.md", "n.md")
	})
	t.Run("same file through a symlink and a hard link", func(t *testing.T) {
		root := mkTree(t, map[string]string{"b/real.md": "x"})
		symlink(t, "b/real.md", filepath.Join(root, "c-link.md"))
		symlink(t, "b/real.md", filepath.Join(root, "a-link.md"))
		if err := os.Link(filepath.Join(root, "b", "real.md"), filepath.Join(root, "d-hard.md")); err != nil {
			t.Fatal(err)
		}
		files, skips := walkAll(t, root, Rules{})
		assertPaths(t, files, "a-link.md")
		assertSkips(t, skips)
	})
	t.Run("symlink loop to an ancestor", func(t *testing.T) {
		root := mkTree(t, map[string]string{"n/sub/a.md": "x", "top.md": "x"})
		symlink(t, "../..", filepath.Join(root, "n", "sub", "up"))
		symlink(t, ".", filepath.Join(root, "self"))
		files, skips := walkAll(t, root, Rules{})
		assertPaths(t, files, "n/sub/a.md", "top.md")
		assertSkips(t, skips, Skip{"n/sub/up", "symlink loop", false}, Skip{"self", "symlink loop", false})
	})
	t.Run("two folders linking to each other", func(t *testing.T) {
		root := mkTree(t, map[string]string{"a/1.md": "x", "b/2.md": "x"})
		symlink(t, "../b", filepath.Join(root, "a", "to-b"))
		symlink(t, "../a", filepath.Join(root, "b", "to-a"))
		files, skips := walkAll(t, root, Rules{})
		// a/to-b is b reached first through a; then b is done.
		assertPaths(t, files, "a/1.md", "a/to-b/2.md")
		assertSkips(t, skips, Skip{"a/to-b/to-a", "symlink loop", false})
	})
	t.Run("symlink chain loop and broken links", func(t *testing.T) {
		root := mkTree(t, map[string]string{"ok.md": "x"})
		symlink(t, "loop2.md", filepath.Join(root, "loop1.md"))
		symlink(t, "loop1.md", filepath.Join(root, "loop2.md"))
		symlink(t, "missing.md", filepath.Join(root, "dead.md"))
		symlink(t, "missing", filepath.Join(root, "dead-not-a-note"))
		files, skips := walkAll(t, root, Rules{})
		assertPaths(t, files, "ok.md")
		assertSkips(t, skips,
			Skip{"dead.md", "broken symlink", false},
			Skip{"loop1.md", "symlink loop", false},
			Skip{"loop2.md", "symlink loop", false})
	})
	t.Run("partial include walks the folder again through its link", func(t *testing.T) {
		root := mkTree(t, map[string]string{"A/x/1.md": "x", "A/y/2.md": "x"})
		symlink(t, "A", filepath.Join(root, "B"))
		files, _ := walkAll(t, root, Rules{Include: []string{"A/x", "B"}})
		assertPaths(t, files, "A/x/1.md", "B/y/2.md")
	})
	t.Run("exclude rules apply to the linked path", func(t *testing.T) {
		root := mkTree(t, map[string]string{"Archive/old.md": "x"})
		symlink(t, "Archive", filepath.Join(root, "Notes"))
		files, _ := walkAll(t, root, Rules{Exclude: []string{"Archive"}})
		assertPaths(t, files, "Notes/old.md")
	})
	t.Run("a maze of cross-links ends", func(t *testing.T) {
		// Twelve folders, each holding a link to every other and a
		// hidden folder that makes no walk complete: the number of
		// paths is factorial, the walk is not.
		const n = 12
		root := t.TempDir()
		name := func(i int) string { return string(rune('a' + i)) }
		for i := range n {
			mkdir(t, filepath.Join(root, name(i), ".h"))
			if err := os.WriteFile(filepath.Join(root, name(i), name(i)+".md"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			for j := range n {
				if i != j {
					symlink(t, "../"+name(j), filepath.Join(root, name(i), "l"+name(j)))
				}
			}
		}
		files, skips := walkAll(t, root, Rules{})
		if len(files) != n {
			t.Errorf("got %d files, want %d: %q", len(files), n, paths(files))
		}
		if len(skips) == 0 {
			t.Errorf("want loop skips, got none")
		}
	})
}

func assertPaths(tb testing.TB, files []File, want ...string) {
	tb.Helper()
	if got := paths(files); !slices.Equal(got, want) {
		tb.Errorf("paths = %q, want %q", got, want)
	}
}

func assertSkips(tb testing.TB, got []Skip, want ...Skip) {
	tb.Helper()
	if !slices.Equal(got, want) {
		tb.Errorf("skips = %v, want %v", got, want)
	}
}

func TestWalkSizeCap(t *testing.T) {
	const max = 1000
	root := mkTree(t, map[string]string{
		"at-cap.md":   strings.Repeat("a", max),
		"over-cap.md": strings.Repeat("a", max+1),
		"big.txt":     strings.Repeat("a", 2*max), // not a note: no skip
	})
	files, skips := walkAll(t, root, Rules{MaxFileBytes: max})
	assertPaths(t, files, "at-cap.md")
	assertSkips(t, skips, Skip{"over-cap.md", "larger than 1000 bytes", false})

	files, skips = walkAll(t, root, Rules{})
	assertPaths(t, files, "at-cap.md", "over-cap.md")
	assertSkips(t, skips)
}

func TestWalkUnicodeNames(t *testing.T) {
	nfcName, nfdName := "Café.md", norm.NFD.String("Café.md")
	if nfcName == nfdName {
		t.Fatal("test needs distinct NFC and NFD forms")
	}
	t.Run("NFD name gives NFC path", func(t *testing.T) {
		root := mkTree(t, map[string]string{norm.NFD.String("Bücher/") + nfdName: "x"})
		files, _ := walkAll(t, root, Rules{Include: []string{"Bücher"}})
		assertPaths(t, files, "Bücher/Café.md")
		if !strings.HasSuffix(files[0].Abs, nfdName) {
			t.Errorf("Abs = %q, want the on-disk NFD name", files[0].Abs)
		}
		if _, err := Read(files[0], 0); err != nil {
			t.Errorf("Read: %v", err)
		}
		if !(Rules{}).Match(files[0].Path) {
			t.Errorf("Match(%q) = false", files[0].Path)
		}
	})
	t.Run("NFC and NFD twins in one folder", func(t *testing.T) {
		root := mkTree(t, map[string]string{nfcName: "nfc", nfdName: "nfd"})
		files, skips := walkAll(t, root, Rules{})
		assertPaths(t, files, nfcName)
		// Twins are ordered by on-disk name; the first is kept.
		if want := filepath.Join(root, min(nfcName, nfdName)); files[0].Abs != want {
			t.Errorf("Abs = %q, want %q", files[0].Abs, want)
		}
		assertSkips(t, skips, Skip{nfcName, "same name as another entry after Unicode NFC normalisation", false})
	})
}

func TestWalkInvalidUTF8Name(t *testing.T) {
	root := mkTree(t, map[string]string{"bad\xff\xfename.md": "x", "ok.md": "y"})
	files, skips := walkAll(t, root, Rules{})
	assertPaths(t, files, "bad\uFFFDname.md", "ok.md")
	assertSkips(t, skips)
	b, err := Read(files[0], 0)
	if err != nil || string(b) != "x" {
		t.Errorf("Read(%q) = %q, %v; want the file through its raw name", files[0].Abs, b, err)
	}
}

func TestWalkErrors(t *testing.T) {
	root := mkTree(t, map[string]string{"a.md": "x", "b.md": "x", "c/d.md": "x"})
	ctx := context.Background()
	noop := func(File) error { return nil }

	t.Run("missing root", func(t *testing.T) {
		_, err := Walk(ctx, filepath.Join(root, "nope"), Rules{}, noop)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want ErrNotExist", err)
		}
	})
	t.Run("root is a file", func(t *testing.T) {
		_, err := Walk(ctx, filepath.Join(root, "a.md"), Rules{}, noop)
		if err == nil || !strings.Contains(err.Error(), "not a folder") {
			t.Errorf("err = %v, want not a folder", err)
		}
	})
	t.Run("root through a symlink", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "vault")
		symlink(t, root, link)
		files, _ := walkAll(t, link, Rules{})
		assertPaths(t, files, "a.md", "b.md", "c/d.md")
	})
	t.Run("bad rule", func(t *testing.T) {
		_, err := Walk(ctx, root, Rules{Exclude: []string{"../x"}}, noop)
		if !errors.Is(err, ErrBadRule) {
			t.Errorf("err = %v, want ErrBadRule", err)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := Walk(cctx, root, Rules{}, noop)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("cancelled during", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var n int
		_, err := Walk(cctx, root, Rules{}, func(File) error { n++; cancel(); return nil })
		if !errors.Is(err, context.Canceled) || n != 1 {
			t.Errorf("err = %v after %d files, want context.Canceled after 1", err, n)
		}
	})
	t.Run("callback error stops the walk", func(t *testing.T) {
		stop := errors.New("stop")
		var n int
		_, err := Walk(ctx, root, Rules{}, func(File) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("err = %v after %d files, want stop after 1", err, n)
		}
	})
}

func TestRead(t *testing.T) {
	root := mkTree(t, map[string]string{"a.md": "0123456789", "empty.md": ""})
	f := func(name string) File { return File{Path: name, Abs: filepath.Join(root, name)} }
	tests := []struct {
		name    string
		file    File
		max     int64
		want    string
		wantErr error
	}{
		{"under cap", f("a.md"), 100, "0123456789", nil},
		{"at cap", f("a.md"), 10, "0123456789", nil},
		{"over cap", f("a.md"), 9, "", ErrTooLarge},
		{"default cap", f("a.md"), 0, "0123456789", nil},
		{"empty", f("empty.md"), 10, "", nil},
		{"missing", f("gone.md"), 10, "", fs.ErrNotExist},
		{"folder", File{Path: ".", Abs: root}, 10, "", ErrNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Read(tt.file, tt.max)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if string(b) != tt.want {
				t.Errorf("got %q, want %q", b, tt.want)
			}
		})
	}
}
