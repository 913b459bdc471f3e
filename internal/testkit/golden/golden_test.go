package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	p := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(p, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, p, []byte("same\n"))
	if Updating() {
		t.Skip("-update")
	}
	// A difference is reported: run Check against a recorder.
	rec := &recorder{TB: t}
	Check(rec, p, []byte("other\n"))
	if !rec.failed {
		t.Error("a different output passed")
	}
	if b, _ := os.ReadFile(p); string(b) != "same\n" {
		t.Errorf("golden file changed without -update: %q", b)
	}
}

// recorder records Errorf instead of failing the real test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
