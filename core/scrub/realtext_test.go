package scrub

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestNoFindingsInCleanCorpora scrubs real text that holds no credentials: a
// real Obsidian vault, markdown that breaks naive parsers, and captured Bash
// outputs (go test runs, git logs, builds). Every finding there is a false
// positive, such as go test's "--- PASS: TestX/case" read as a password.
func TestNoFindingsInCleanCorpora(t *testing.T) {
	s := New()
	for _, dir := range []string{
		testkit.Shared(t, "corpora/obsidian"),
		testkit.Shared(t, "corpora/edge"),
		testkit.Shared(t, "tool-outputs"),
		testkit.Shared(t, "hook-payloads"),
	} {
		files := 0
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			for _, f := range s.Find(string(b)) {
				lo, hi := max(0, f.Start-40), min(len(b), f.End+20)
				t.Errorf("%s: %s at %d: %q", p, f.Rule, f.Start, b[lo:hi])
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if files == 0 {
			t.Fatalf("%s: no files", dir)
		}
	}
}
