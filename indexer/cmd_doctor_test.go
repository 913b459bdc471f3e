package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest"

	"github.com/vaultctx/vaultctx/core/doctor"
)

func TestDoctorExitsOneOnFailure(t *testing.T) {
	hooktest.FreshClaude(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("VAULTCTX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	if code := run([]string{"doctor"}); code != 1 {
		t.Errorf("doctor on an empty machine: exit %d, want 1", code)
	}
}

// TestDoctorFixWording keeps a fix line for every hint core/doctor can
// return, with the subject in it where the hint has one.
func TestDoctorFixWording(t *testing.T) {
	for h := doctor.HintInstall; h <= doctor.HintIndexPath; h++ { // HintIndexPath is the last
		if doctorFix(doctor.Finding{Hint: h, Subject: "/x"}) == "" {
			t.Errorf("hint %d has no wording", h)
		}
	}
	tests := []struct {
		f    doctor.Finding
		want string
	}{
		{doctor.Finding{Hint: doctor.HintAddToPath, Subject: "/b"}, `add /b to PATH: export PATH="/b:$PATH"`},
		{doctor.Finding{Hint: doctor.HintRunHook, Subject: "'/b/h'"}, "run it by hand: '/b/h' < payload.json, and see VAULTCTX_LOG"},
		{doctor.Finding{Hint: doctor.HintEnableHooks, Subject: "/s.json"}, `set "disableAllHooks": false in /s.json`},
		{doctor.Finding{Hint: doctor.HintIndex}, "run: vaultctx index"},
		{doctor.Finding{Hint: doctor.HintWireOrTurnOff, Subject: "pretooluse, posttooluse"},
			"run: vaultctx hooks install to wire pretooluse, posttooluse, or set pretooluse = false, posttooluse = false under [hooks] in the config to keep it off"},
		{doctor.Finding{Hint: doctor.HintUnwire, Subject: "posttooluse"},
			"run: vaultctx hooks install to take it out of settings.json (or set posttooluse = true under [hooks] to turn it on)"},
	}
	for _, tt := range tests {
		if got := doctorFix(tt.f); got != tt.want {
			t.Errorf("doctorFix(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

// TestDoctorShowsSwitches: doctor prints a hook the config turns on but
// settings.json does not wire as a caveat (!) with its fix, and the
// passthrough list, without failing on either.
func TestDoctorShowsSwitches(t *testing.T) {
	hooktest.FreshClaude(t)
	bin := hooktest.FakeBinDir(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	t.Setenv("VAULTCTX_CONFIG", cfg)
	os.WriteFile(cfg, []byte("vault = \""+t.TempDir()+"\"\n[hooks]\noutput_passthrough = [\"git diff\"]\n"), 0o600)
	if code, out := runCaptured(t, "hooks", "install", "--bin-dir", bin, "--only", "userprompt,pretooluse"); code != 0 {
		t.Fatalf("hooks install: exit %d\n%s", code, out)
	}
	_, out := runCaptured(t, "doctor")
	for _, want := range []string{
		"! hooks wired: ",
		"PostToolUse not wired\n    fix: run: vaultctx hooks install to wire posttooluse, or set posttooluse = false under [hooks] in the config to keep it off\n",
		"✓ output passthrough: output of commands starting with \"git diff\" is never condensed (set under [hooks] in " + cfg + ": output_passthrough = [\"terraform plan\", ...])\n",
		"✓ UserPromptSubmit round trip: ",
		"! PostToolUse round trip: skipped: not wired\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "✗ hooks wired") || strings.Contains(out, "✗ PostToolUse") {
		t.Errorf("a hook left out on purpose failed a check:\n%s", out)
	}
}
