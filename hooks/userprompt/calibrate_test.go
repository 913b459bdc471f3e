package main

import (
	"os"
	"testing"

	"github.com/vaultctx/vaultctx/internal/hooktest/calibrated"
)

// TestMain calibrates every test index's relevance floor, as `vaultctx
// index` does after every run.
func TestMain(m *testing.M) {
	calibrated.Install()
	os.Exit(m.Run())
}
