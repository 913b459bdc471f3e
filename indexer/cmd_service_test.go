package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestServiceInstallUninstall: --dry-run prints the unit and writes
// nothing; install --no-start writes it where systemd looks; uninstall
// removes it even when no service manager answers. Nothing is started.
func TestServiceInstallUninstall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the systemd unit is tested on Linux; core/service tests the launchd agent everywhere")
	}
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "my vault")
	if err := os.MkdirAll(vault, 0o755); err != nil {
		t.Fatal(err)
	}
	unit := filepath.Join(dir, "config", "systemd", "user", "vaultctx-watch.service")

	code, out := runCaptured(t, "service", "install", "--vault", vault, "--dry-run")
	if code != 0 || !strings.Contains(out, "# "+unit+" (not written: --dry-run)") ||
		!strings.Contains(out, `"watch" "--vault" "`+vault+`"`) || !strings.Contains(out, "systemctl --user enable --now vaultctx-watch.service") {
		t.Fatalf("dry run: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Fatalf("--dry-run wrote %s", unit)
	}

	if code, out := runCaptured(t, "service", "install", "--vault", vault, "--no-start"); code != 0 || !strings.Contains(out, "wrote "+unit) {
		t.Fatalf("install --no-start: exit %d:\n%s", code, out)
	}
	b, err := os.ReadFile(unit)
	if err != nil || !strings.Contains(string(b), "ExecStart=") {
		t.Fatalf("unit: %v\n%s", err, b)
	}

	// No systemctl on PATH: the stop fails, the file goes anyway.
	t.Setenv("PATH", t.TempDir())
	if code, out := runCaptured(t, "service", "uninstall"); code != 0 || !strings.Contains(out, "removed "+unit) {
		t.Fatalf("uninstall: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Errorf("the unit is still there: %v", err)
	}
	if code, out := runCaptured(t, "service", "uninstall"); code != 0 || !strings.Contains(out, "nothing to do") {
		t.Errorf("second uninstall: exit %d:\n%s", code, out)
	}
	if code, _ := runCaptured(t, "service", "install", "--dry-run"); code != 2 {
		t.Errorf("install without a vault: exit %d, want 2 (usage)", code)
	}
}
