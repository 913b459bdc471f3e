package recall

import (
	"context"
	"slices"
	"testing"

	"github.com/vaultctx/vaultctx/core/engine"
)

// TestCalibration: calibrating a real index stores thresholds that let at
// most BackgroundPassRate of the background prompts through per clause,
// never below the lower bounds, and the hooks read them back.
func TestCalibration(t *testing.T) {
	cfg := promptIndex(t) // calibrated, as `vaultctx index` does
	ctx := context.Background()
	e, err := engine.Open(ctx, cfg.DB, engine.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c, ok := LoadCalibration(ctx, e)
	if !ok {
		t.Fatal("no calibration stored")
	}
	t.Logf("%+v", c)
	if c.Prompts < 300 || len(c.Clauses) != len(CoverageLevels) {
		t.Fatalf("calibration %+v: want 300+ prompts and one clause per level", c)
	}
	for i, cl := range c.Clauses {
		if cl.Coverage != CoverageLevels[i] || cl.Evidence < MinCalibratedEvidence[i] {
			t.Errorf("clause %d = %+v: want coverage %v and evidence of at least %v", i, cl, CoverageLevels[i], MinCalibratedEvidence[i])
		}
	}
	if limit := int(float64(len(CoverageLevels)) * BackgroundPassRate * float64(c.Prompts)); c.Passed > limit {
		t.Errorf("%d of %d background prompts pass the calibrated floor, want at most %d", c.Passed, c.Prompts, limit)
	}
	if f := FloorFor(ctx, e, cfg); !slices.Equal(f.Clauses, c.Clauses) {
		t.Errorf("FloorFor = %+v, want the calibration %+v", f, c)
	}
	cfg.Hooks.MinEvidence = 9
	if f := FloorFor(ctx, e, cfg); !slices.Equal(f.Clauses, []Clause{{Coverage: DefaultMinCoverage, Evidence: 9}}) {
		t.Errorf("hooks.min_evidence = 9 gave %+v: the config must override the calibration", f.Clauses)
	}
	if above([]float64{1, 2, 3}, 0) != 3.01 || above([]float64{1, 2, 3}, 1) != 2.01 || above([]float64{1}, 1) != 0 {
		t.Error("above: wrong threshold")
	}
}
