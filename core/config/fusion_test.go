package config

import (
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/retrieve"
)

// A vector_weight the file sets wins over the index's fusion calibration,
// even when it equals the default; an absent one is calibrated, and is
// the default on an index without a calibration. min_cosine is never
// calibrated.
func TestWithFusion(t *testing.T) {
	cal := retrieve.Fusion{VectorWeight: 0.41, BackgroundCosine: 0.83, Queries: 300}
	for _, c := range []struct {
		file        string
		ok          bool
		weight, cos float64
		weightFrom  string
		cosSet      bool
	}{
		{"", true, 0.41, DefaultMinCosine, FromCalibrated, false},
		{"", false, DefaultVectorWeight, DefaultMinCosine, FromDefault, false},
		{"[search]\nvector_weight = 0.2\n", true, 0.2, DefaultMinCosine, FromConfig, false},
		{"[search]\nmin_cosine = 0\n", true, 0.41, 0, FromCalibrated, true},
		{"[search]\nvector_weight = 0.5\nmin_cosine = 0.7\n", false, 0.5, 0.7, FromConfig, true},
	} {
		cfg, err := Parse(strings.NewReader(c.file))
		if err != nil {
			t.Fatal(err)
		}
		s, wf := cfg.Search.WithFusion(cal, c.ok)
		if s.VectorWeight != c.weight || s.MinCosine != c.cos || wf != c.weightFrom || s.MinCosineSet != c.cosSet {
			t.Errorf("%q (calibrated %t): vector_weight %g from %s, min_cosine %g (set %t); want %g from %s, %g (set %t)",
				c.file, c.ok, s.VectorWeight, wf, s.MinCosine, s.MinCosineSet, c.weight, c.weightFrom, c.cos, c.cosSet)
		}
	}
}
