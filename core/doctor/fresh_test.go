package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestDoctorFreshness: a fresh index passes; a note added since the last
// index run is a warning that names it; an index of another vault than the
// configured one fails with HintOtherVault; no index fails with the index
// hint.
func TestDoctorFreshness(t *testing.T) {
	ctx := context.Background()
	env := hooktest.NewEnv(t, false)
	cfg := config.Defaults()
	cfg.Vault, cfg.DB = env.Vault, env.DB
	opt := testOptions()
	opt.Getenv = func(k string) string {
		if k == "XDG_STATE_HOME" {
			return filepath.Join(env.Dir, "state")
		}
		return ""
	}
	d := &doctor{opt: opt, cfg: &doctorConfig{Vault: cfg.Vault, DB: cfg.DB, All: cfg}}
	if f := d.checkFresh(ctx); f.Status != OK || !strings.Contains(f.Message, "no file changed since the last index (20") {
		t.Errorf("fresh index: %+v", f)
	}
	if err := os.WriteFile(filepath.Join(env.Vault, "garden.md"), []byte("# Garden\n\nTomatoes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := d.checkFresh(ctx)
	if f.Status != Warn || f.Hint != HintIndex || !strings.Contains(f.Message, "1 changed since the last index") || !strings.Contains(f.Message, "garden.md") {
		t.Errorf("after adding garden.md: %+v", f)
	}
	// A configured vault the index was not built from: no index run
	// updates it, so it fails as the run does, naming both vaults.
	other := t.TempDir()
	d2 := &doctor{opt: opt, vaultOK: true, cfg: &doctorConfig{Vault: other, DB: cfg.DB, All: cfg}}
	d2.cfg.All.Vault = other
	if f := d2.checkFresh(ctx); f.Status != Fail || f.Hint != HintOtherVault || !strings.Contains(f.Message, env.Vault) || !strings.Contains(f.Message, other) {
		t.Errorf("another vault configured: %+v", f)
	}
	d.cfg.All.DB = filepath.Join(env.Dir, "none.db")
	if f := d.checkFresh(ctx); f.Status != Fail || f.Hint != HintIndex {
		t.Errorf("no index: %+v", f)
	}
}
