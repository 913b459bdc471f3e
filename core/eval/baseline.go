package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
)

// DefaultTolerance is how far nDCG@10 may fall below its baseline before
// CheckBaseline reports a regression (absolute, on the 0..1 scale).
const DefaultTolerance = 0.02

// ErrNoBaseline is returned by CheckBaseline when the baseline has no value
// for a set or for a mode the report measured.
var ErrNoBaseline = errors.New("no baseline")

// Baseline is the committed file of reference scores CI compares against:
// nDCG@K per set name and mode. Raising or lowering it is an explicit,
// reviewed change to that file (see Baseline.Record).
//
//	{"comment": "...", "ndcg": {"scifact/train@1000": {"bm25": 0.71, ...}}}
type Baseline struct {
	Comment string                        `json:"comment,omitempty"`
	NDCG    map[string]map[string]float64 `json:"ndcg"`
}

// Regression is one mode whose nDCG fell more than the tolerance below its
// baseline.
type Regression struct {
	Set, Mode     string
	Baseline, Got float64
	Tolerance     float64
}

// String describes the regression in one line.
func (r Regression) String() string {
	return fmt.Sprintf("%s %s: nDCG %.4f < baseline %.4f - %.2f", r.Set, r.Mode, r.Got, r.Baseline, r.Tolerance)
}

// ReadBaseline reads a Baseline from a JSON file. A missing file is an
// error wrapping fs.ErrNotExist.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", path, err)
	}
	return &b, nil
}

// WriteFile writes b to path as indented JSON (keys sorted, so diffs stay
// small).
func (b *Baseline) WriteFile(path string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// Check compares every mode of r with the baseline of r.Set and returns the
// modes whose nDCG is more than tol below it (tol <= 0 means
// DefaultTolerance), in report order. A set or mode missing from the
// baseline is an error wrapping ErrNoBaseline.
func (b *Baseline) Check(r *Report, tol float64) ([]Regression, error) {
	if tol <= 0 {
		tol = DefaultTolerance
	}
	set, ok := b.NDCG[r.Set]
	if !ok {
		return nil, fmt.Errorf("check baseline: set %q: %w", r.Set, ErrNoBaseline)
	}
	var out []Regression
	for _, m := range r.Modes {
		want, ok := set[m.Mode]
		if !ok {
			return nil, fmt.Errorf("check baseline: set %q mode %q: %w", r.Set, m.Mode, ErrNoBaseline)
		}
		// Round to the 4 decimals the file and the table show, so a value
		// exactly at the threshold is not failed by float noise.
		if round4(m.NDCG) < round4(want-tol) {
			out = append(out, Regression{Set: r.Set, Mode: m.Mode, Baseline: want, Got: m.NDCG, Tolerance: tol})
		}
	}
	return out, nil
}

// Record sets the baseline of r.Set to r's nDCG per mode, rounded to 4
// decimals, keeping other sets and modes.
func (b *Baseline) Record(r *Report) {
	if b.NDCG == nil {
		b.NDCG = map[string]map[string]float64{}
	}
	set := b.NDCG[r.Set]
	if set == nil {
		set = map[string]float64{}
		b.NDCG[r.Set] = set
	}
	for _, m := range r.Modes {
		set[m.Mode] = round4(m.NDCG)
	}
}

// Sets returns the set names of b, sorted.
func (b *Baseline) Sets() []string {
	var out []string
	for s := range b.NDCG {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func round4(x float64) float64 {
	return math.Round(x*1e4) / 1e4
}

// CheckFile reads the Baseline at path and returns the regressions of r
// against it, as Baseline.Check does with tol. A missing file is an error
// wrapping fs.ErrNotExist; a set or mode missing from it, one wrapping
// ErrNoBaseline.
func CheckFile(path string, r *Report, tol float64) ([]Regression, error) {
	b, err := ReadBaseline(path)
	if err != nil {
		return nil, err
	}
	return b.Check(r, tol)
}

// RecordFile records r into the Baseline at path (Baseline.Record) and
// writes it back, creating the file when it does not exist.
func RecordFile(path string, r *Report) error {
	b, err := ReadBaseline(path)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = &Baseline{}, nil
	}
	if err != nil {
		return err
	}
	b.Record(r)
	return b.WriteFile(path)
}
