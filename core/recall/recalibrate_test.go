package recall

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestRecalibratePolicy: IfMissing measures an index without a
// calibration once and then leaves it alone whatever the runs changed;
// IfChanged measures after a run that changed files or a full run, and
// not after one that changed nothing. A failed run measures nothing.
func TestRecalibratePolicy(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), root)
	opt := index.Options{Vault: root, DB: filepath.Join(t.TempDir(), "index.db"), NoModel: true, Rules: vault.Rules{MaxFileBytes: 5 << 20}}
	sum, err := index.Run(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	if r := Recalibrate(ctx, cfg, opt, sum, context.Canceled, IfChanged); r.Floor != nil || r.Fusion != nil {
		t.Fatal("measured after a failed run")
	}
	if HasCalibration(ctx, opt.DB) {
		t.Fatal("a new index has a calibration")
	}
	// The calibrations are written into the index, under its lock: while
	// another indexer holds it, nothing is measured or written.
	release, err := index.Lock(opt.DB)
	if err != nil {
		t.Fatal(err)
	}
	if r := Recalibrate(ctx, cfg, opt, sum, nil, IfMissing); r.Floor != nil || r.FloorErr != nil || HasCalibration(ctx, opt.DB) {
		t.Errorf("calibrated while another indexer held the lock: %+v", r)
	}
	release()
	r := Recalibrate(ctx, cfg, opt, sum, nil, IfMissing)
	if r.Floor == nil || r.FloorErr != nil || !HasCalibration(ctx, opt.DB) {
		t.Fatalf("IfMissing on an index without a calibration: floor %v, %v", r.Floor, r.FloorErr)
	}
	if r.Fusion != nil {
		t.Error("fusion calibrated for an index without vectors")
	}
	for _, tc := range []struct {
		name    string
		sum     index.Summary
		full    bool
		p       Policy
		measure bool
	}{
		{"IfMissing, files changed", index.Summary{FilesIndexed: 3}, false, IfMissing, false},
		{"IfMissing, full run", index.Summary{FilesIndexed: 50}, true, IfMissing, false},
		{"IfChanged, nothing changed", index.Summary{FilesUnchanged: 50}, false, IfChanged, false},
		{"IfChanged, a file deleted", index.Summary{FilesDeleted: 1}, false, IfChanged, true},
		{"IfChanged, full run", index.Summary{}, true, IfChanged, true},
	} {
		o := opt
		o.Full = tc.full
		r := Recalibrate(ctx, cfg, o, tc.sum, nil, tc.p)
		if got := r.Floor != nil; got != tc.measure || r.FloorErr != nil {
			t.Errorf("%s: floor measured %v (%v), want %v", tc.name, got, r.FloorErr, tc.measure)
		}
	}
}

// TestRecalibrateCancelled: a cancelled context (the watcher stopping
// right after a run) measures nothing and reports no error, even on an
// index without a calibration.
func TestRecalibrateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	cfg := config.Config{DB: filepath.Join(dir, "missing.db")}
	r := Recalibrate(ctx, cfg, index.Options{DB: cfg.DB, NoModel: true}, index.Summary{FilesIndexed: 1}, nil, IfMissing)
	if r != (Recalibration{}) {
		t.Errorf("Recalibrate with a cancelled context = %+v, want nothing measured and no error", r)
	}
}
