package main

import (
	"context"
	"os"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/recall"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestMain calibrates every test index's relevance floor, as `vaultctx
// index` does after every run.
func TestMain(m *testing.M) {
	hooktest.AfterIndex = func(db, modelDir string) error {
		cfg := config.Defaults()
		cfg.DB, cfg.Model = db, modelDir
		_, err := recall.CalibrateIndex(context.Background(), cfg)
		return err
	}
	os.Exit(m.Run())
}
