package posttool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/compress"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestMirrorsNamedFile: an output that reproduces a real source file the
// command names is recognised whatever printed it; an output that merely
// names the file, or that tee wrote into it, is not.
func TestMirrorsNamedFile(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(testkit.Root(t), "core", "compress", "rank.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rank.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	noBlank := strings.Join(nonBlankLines(string(src)), "\n") + "\n"
	testOut := strings.Repeat("=== RUN   TestX\n--- PASS: TestX (0.00s)\n", 40)
	if err := os.WriteFile(filepath.Join(dir, "test.log"), []byte(testOut), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd, out string
		want     bool
	}{
		{`python3 -c "print(open('rank.go').read())"`, string(src) + "\n", true},
		{`grep -v '^$' rank.go`, noBlank, true},
		{`node -e "process.stdout.write(require('fs').readFileSync('./rank.go', 'utf8'))"`, string(src), true},
		{`go vet rank.go`, strings.Repeat("rank.go:12:2: something is off\n", 30), false},
		{`go test -v ./... | tee test.log`, testOut, false},
		{`python3 -c "print(open('missing.go').read())"`, string(src), false},
	} {
		if got := MirrorsNamedFile(dir, c.cmd, c.out); got != c.want {
			t.Errorf("MirrorsNamedFile(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
	// The hook then passes such an output through as content.
	req := compress.Request{Command: `python3 -c "print(open('rank.go').read())"`, Stdout: string(src), MirrorsFile: true}
	if compress.ShouldCondense(req, compress.Options{}) {
		t.Error("a mirrored file under 30,000 bytes is condensed")
	}
}
