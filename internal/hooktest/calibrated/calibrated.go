// Package calibrated makes every test index of internal/hooktest calibrated
// as `vaultctx index` leaves it: the hooks' tests call Install from their
// TestMain. It is its own package because core/recall's tests import
// hooktest, which therefore cannot import core/recall.
package calibrated

import (
	"context"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/recall"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// Install sets hooktest.AfterIndex to calibrate the relevance floor of each
// test index (recall.CalibrateIndex with the default config), as `vaultctx
// index` does after every run.
func Install() {
	hooktest.AfterIndex = func(db, modelDir string) error {
		cfg := config.Defaults()
		cfg.DB, cfg.Model = db, modelDir
		_, err := recall.CalibrateIndex(context.Background(), cfg)
		return err
	}
}
