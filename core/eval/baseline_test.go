package eval

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

func TestBaselineCheck(t *testing.T) {
	b := &Baseline{NDCG: map[string]map[string]float64{
		"s": {"bm25": 0.70, "vector": 0.50, "hybrid": 0.72},
	}}
	rep := func(bm25, vector, hybrid float64) *Report {
		return &Report{Set: "s", Modes: []ModeResult{
			{Mode: "bm25", NDCG: bm25}, {Mode: "vector", NDCG: vector}, {Mode: "hybrid", NDCG: hybrid},
		}}
	}
	tests := []struct {
		name  string
		r     *Report
		modes []string
	}{
		{"equal", rep(0.70, 0.50, 0.72), nil},
		{"better", rep(0.80, 0.60, 0.90), nil},
		{"exactly at the tolerance", rep(0.70-0.02, 0.50-0.02, 0.72-0.02), nil},
		{"just past the tolerance", rep(0.70-0.0201, 0.50, 0.72-0.03), []string{"bm25", "hybrid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			regs, err := b.Check(tt.r, 0.02)
			if err != nil {
				t.Fatal(err)
			}
			var modes []string
			for _, r := range regs {
				modes = append(modes, r.Mode)
			}
			if !slices.Equal(modes, tt.modes) {
				t.Errorf("regressions %v, want %v", regs, tt.modes)
			}
		})
	}
	if _, err := b.Check(&Report{Set: "other"}, 0); !errors.Is(err, ErrNoBaseline) {
		t.Errorf("unknown set: err = %v", err)
	}
	if _, err := b.Check(&Report{Set: "s", Modes: []ModeResult{{Mode: "splade"}}}, 0); !errors.Is(err, ErrNoBaseline) {
		t.Errorf("unknown mode: err = %v", err)
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	var b Baseline
	b.Comment = "c"
	b.Record(&Report{Set: "s", Modes: []ModeResult{{Mode: "bm25", NDCG: 0.123456}}})
	b.Record(&Report{Set: "t", Modes: []ModeResult{{Mode: "hybrid", NDCG: 0.5}}})
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := b.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Comment != "c" || got.NDCG["s"]["bm25"] != 0.1235 || got.NDCG["t"]["hybrid"] != 0.5 {
		t.Errorf("round trip = %+v", got)
	}
	if s := got.Sets(); len(s) != 2 || s[0] != "s" || s[1] != "t" {
		t.Errorf("Sets = %v", s)
	}
}

// TestBaselineFile records a report into a new file, passes against it,
// and regresses against a raised one.
func TestBaselineFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	r := &Report{Set: "s", Modes: []ModeResult{{Mode: "bm25", NDCG: 0.5}}}
	if _, err := CheckFile(path, r, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	if err := RecordFile(path, r); err != nil {
		t.Fatal(err)
	}
	if regs, err := CheckFile(path, r, 0.02); err != nil || len(regs) != 0 {
		t.Fatalf("against its own record: %v, %v", regs, err)
	}
	r.Modes[0].NDCG = 0.4
	if regs, err := CheckFile(path, r, 0.02); err != nil || len(regs) != 1 {
		t.Errorf("0.1 below the record: %v, %v, want one regression", regs, err)
	}
}
