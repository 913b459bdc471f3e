package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"

	"github.com/vaultctx/vaultctx/core/doctor"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

func TestHooksInstallStatusUninstall(t *testing.T) {
	path := hooktest.FreshClaude(t)
	orig, err := os.ReadFile("../core/settings/testdata/competitors.json")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := hooktest.FakeBinDir(t)

	for i := 0; i < 2; i++ {
		if code := run([]string{"hooks", "install", "--bin-dir", bin}); code != 0 {
			t.Fatalf("install #%d exit %d", i+1, code)
		}
	}
	src, _ := os.ReadFile(path)
	entries, err := settings.Inspect(src)
	if err != nil {
		t.Fatal(err)
	}
	wired, err := doctor.HookWiring(install.SettingsTemplate, entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wired {
		if w.Problem != "" || len(w.Commands) != 1 || !strings.HasPrefix(w.Commands[0], "'"+bin+"/") {
			t.Errorf("%s: %+v, want one quoted command in %s", w.Event, w, bin)
		}
	}
	if code := run([]string{"hooks", "status"}); code != 0 {
		t.Errorf("status exit %d", code)
	}
	if code := run([]string{"hooks", "uninstall"}); code != 0 {
		t.Fatalf("uninstall exit %d", code)
	}
	if got, _ := os.ReadFile(path); string(got) != string(orig) {
		t.Errorf("uninstall did not restore the file")
	}
	if b, _ := filepath.Glob(path + ".bak-*"); len(b) == 0 {
		t.Errorf("no backup beside %s", path)
	}
}

func TestHooksProjectAndErrors(t *testing.T) {
	userPath := hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	proj := t.TempDir()
	t.Chdir(proj)

	if code := run([]string{"hooks", "install", "--project", "--bin-dir", bin}); code != 0 {
		t.Fatalf("install --project exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); err != nil {
		t.Errorf("--project did not write ./.claude/settings.json: %v", err)
	}
	if _, err := os.Stat(userPath); err == nil {
		t.Errorf("--project also wrote the user settings")
	}

	invalid := filepath.Join(proj, "bad.json")
	os.WriteFile(invalid, []byte(`{"hooks": {,}}`), 0o600)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"both targets", []string{"hooks", "install", "--project", "--settings", "x.json", "--bin-dir", bin}, 2},
		{"missing binaries", []string{"hooks", "install", "--settings", "y.json", "--bin-dir", proj}, 2},
		{"invalid json", []string{"hooks", "install", "--settings", invalid, "--bin-dir", bin}, 1},
		{"invalid json uninstall", []string{"hooks", "uninstall", "--settings", invalid}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code := run(tt.args); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
		})
	}
	if got, _ := os.ReadFile(invalid); string(got) != `{"hooks": {,}}` {
		t.Errorf("invalid file changed to %q", got)
	}
	for _, f := range []string{"x.json", "y.json"} {
		if _, err := os.Stat(filepath.Join(proj, f)); err == nil {
			t.Errorf("%s written despite the error", f)
		}
	}
}
