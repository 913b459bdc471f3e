package vault

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestLocateNFD writes notes whose folder and file names are stored in
// NFD, walks the vault, and checks that Locate turns every File.Path (the
// NFC key) back into the name on disk, which exists, while the NFC key
// joined to the root does not.
func TestLocateNFD(t *testing.T) {
	root := t.TempDir()
	nfdDir := norm.NFD.String("Café")
	nfdFile := norm.NFD.String("résumé.md")
	if nfdDir == "Café" || nfdFile == "résumé.md" {
		t.Fatal("NFD forms equal the NFC ones")
	}
	for _, p := range []string{filepath.Join(root, nfdDir, nfdFile), filepath.Join(root, "plain", "note.md"), filepath.Join(root, "mixed", nfdFile)} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var files []File
	if _, err := Walk(context.Background(), root, Rules{}, func(f File) error { files = append(files, f); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("walk found %d notes, want 3: %+v", len(files), files)
	}
	for _, f := range files {
		got, err := Locate(root, f.Path)
		if err != nil {
			t.Errorf("Locate(%q): %v", f.Path, err)
			continue
		}
		if got != f.Abs {
			t.Errorf("Locate(%q) = %q, want the walk's %q", f.Path, got, f.Abs)
		}
		if _, err := os.Stat(got); err != nil {
			t.Errorf("Locate(%q) = %q, which does not exist: %v", f.Path, got, err)
		}
		if !norm.NFC.IsNormalString(f.Path) {
			t.Errorf("File.Path %q is not NFC", f.Path)
		}
	}
	for _, rel := range []string{"Café/missing.md", "gone/note.md", "plain/../plain/note.md", "", "plain//note.md"} {
		if _, err := Locate(root, rel); !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Locate(%q) = %v, want ErrNotFound", rel, err)
		}
	}
	// On Linux the NFC key itself names nothing: that is what Locate is for.
	if _, err := os.Stat(filepath.Join(root, "Café", "résumé.md")); err == nil {
		t.Log("this file system folds normalisation: the NFC path exists too")
	}
}
