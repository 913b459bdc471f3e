package posttool

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
)

// TestVaultNote: which written files are notes of the vault, including
// through a symlinked vault root and from a relative path.
func TestVaultNote(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real vault")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.Vault = link
	cfg.Exclude = []string{"Archive"}
	tests := []struct {
		file, cwd, want string
		ok              bool
	}{
		{filepath.Join(link, "a.md"), "", "a.md", true},
		{filepath.Join(real, "sub", "b.md"), "", "sub/b.md", true}, // the real path of a symlinked vault
		{"sub/c.md", link, "sub/c.md", true},
		{"sub/c.md", "", "", false}, // relative without a cwd
		{filepath.Join(link, "a.txt"), "", "", false},
		{filepath.Join(link, ".obsidian", "w.md"), "", "", false},
		{filepath.Join(link, "Archive", "old.md"), "", "", false},
		{filepath.Join(dir, "elsewhere.md"), "", "", false},
		{filepath.Join(link, "..", "x.md"), "", "", false},
		{link, "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		got, ok := vaultNote(cfg, tt.file, tt.cwd)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("vaultNote(%q, cwd %q) = %q, %v; want %q, %v", tt.file, tt.cwd, got, ok, tt.want, tt.ok)
		}
	}
}
