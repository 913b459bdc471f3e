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
// index run is a warning that names it; no index fails with the index
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
	d.cfg.All.DB = filepath.Join(env.Dir, "none.db")
	if f := d.checkFresh(ctx); f.Status != Fail || f.Hint != HintIndex {
		t.Errorf("no index: %+v", f)
	}
}
