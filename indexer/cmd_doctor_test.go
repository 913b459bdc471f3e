package main

import (
	"path/filepath"
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
	for h := doctor.HintInstall; h <= doctor.HintHybridSetup; h++ {
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
	}
	for _, tt := range tests {
		if got := doctorFix(tt.f); got != tt.want {
			t.Errorf("doctorFix(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}
