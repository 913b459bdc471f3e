package posttool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOutputPath(t *testing.T) {
	dir := "/c/outputs"
	if got := OutputPath(dir, "toolu_01abc", "x", ""); got != "/c/outputs/toolu_01abc.txt" {
		t.Errorf("got %q", got)
	}
	for _, id := range []string{"../../etc/passwd", "a/b", ".hidden"} {
		p := OutputPath(dir, id, "x", "")
		if filepath.Dir(p) != dir || strings.HasPrefix(filepath.Base(p), ".") {
			t.Errorf("OutputPath(%q) = %q escapes or hides", id, p)
		}
	}
	a, b := OutputPath(dir, "", "out", "err"), OutputPath(dir, "", "out", "err")
	if a != b || a == OutputPath(dir, "", "out2", "err") {
		t.Errorf("content-addressed path not a function of the output: %q %q", a, b)
	}
}

func TestSaveOutputAndPrune(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outputs")
	ctx := context.Background()
	const keep = 5
	base := time.Now().Add(-time.Hour)
	for i := range 8 {
		p := OutputPath(dir, fmt.Sprintf("toolu_%02d", i), "", "")
		if err := SaveOutput(ctx, p, fmt.Sprintf("stdout %d\n", i), "", keep); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, mt, mt)
	}
	p := OutputPath(dir, "toolu_last", "", "")
	if err := SaveOutput(ctx, p, "out\n", "err\n", keep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "out\n"+stderrSeparator+"err\n" {
		t.Errorf("saved %q", data)
	}
	info, _ := os.Stat(p)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != keep {
		t.Fatalf("kept %d files, want %d: %v", len(names), keep, names)
	}
	for _, gone := range []string{"toolu_00.txt", "toolu_01.txt", "toolu_02.txt", "toolu_03.txt"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s should have been pruned (oldest)", gone)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := SaveOutput(cancelled, p, "x", "", keep); err == nil {
		t.Error("cancelled context must fail")
	}
}

func TestSaveOutputScrubsSecrets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	token := "ghp_" + "R2a8XkQ9zT4mB7wL1pV6sN3cY0dF5hJ8gK2e"
	if err := SaveOutput(context.Background(), path, "export GITHUB_TOKEN="+token+"\n", "", 0); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) || !strings.Contains(string(b), "[REDACTED:") {
		t.Errorf("saved output keeps the secret: %q", b)
	}
}
