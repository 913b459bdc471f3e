package config

import (
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/retrieve"
)

// A key the file sets wins over the index's fusion calibration, even when
// it equals the default; an absent key is calibrated, and is the default
// on an index without a calibration.
func TestWithFusion(t *testing.T) {
	cal := retrieve.Fusion{VectorWeight: 0.41, MinCosine: 0.66, Queries: 300}
	for _, c := range []struct {
		file                string
		ok                  bool
		weight, cos         float64
		weightFrom, cosFrom string
	}{
		{"", true, 0.41, 0.66, FromCalibrated, FromCalibrated},
		{"", false, DefaultVectorWeight, DefaultMinCosine, FromDefault, FromDefault},
		{"[search]\nvector_weight = 0.2\n", true, 0.2, 0.66, FromConfig, FromCalibrated},
		{"[search]\nmin_cosine = 0\n", true, 0.41, 0, FromCalibrated, FromConfig},
		{"[search]\nvector_weight = 0.5\nmin_cosine = 0.7\n", false, 0.5, 0.7, FromConfig, FromConfig},
	} {
		cfg, err := Parse(strings.NewReader(c.file))
		if err != nil {
			t.Fatal(err)
		}
		s, wf, cf := cfg.Search.WithFusion(cal, c.ok)
		if s.VectorWeight != c.weight || s.MinCosine != c.cos || wf != c.weightFrom || cf != c.cosFrom {
			t.Errorf("%q (calibrated %t): vector_weight %g from %s, min_cosine %g from %s; want %g from %s, %g from %s",
				c.file, c.ok, s.VectorWeight, wf, s.MinCosine, cf, c.weight, c.weightFrom, c.cos, c.cosFrom)
		}
	}
}
