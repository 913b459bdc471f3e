package eval

import (
	"math"
	"testing"
)

// disc is the log2 rank discount of nDCG for a 1-based rank.
func disc(rank int) float64 { return math.Log2(float64(rank + 1)) }

func TestMetrics(t *testing.T) {
	twelve := Grades{}
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		twelve[id] = 1
	}
	tests := []struct {
		name           string
		ranked         []string
		grades         Grades
		k              int
		recall, ndcg   float64
		reciprocalRank float64
	}{
		{
			name:           "binary, two of three relevant found",
			ranked:         []string{"a", "x", "b"},
			grades:         Grades{"a": 1, "b": 1, "c": 1},
			k:              10,
			recall:         2.0 / 3,
			ndcg:           (1/disc(1) + 1/disc(3)) / (1/disc(1) + 1/disc(2) + 1/disc(3)),
			reciprocalRank: 1,
		},
		{
			name:           "graded gains are linear and the ideal order sorts by grade",
			ranked:         []string{"b", "a"},
			grades:         Grades{"a": 2, "b": 1},
			k:              10,
			recall:         1,
			ndcg:           (1/disc(1) + 2/disc(2)) / (2/disc(1) + 1/disc(2)),
			reciprocalRank: 1,
		},
		{
			name:           "ideal DCG counts relevant units never retrieved",
			ranked:         []string{"x", "y", "c"},
			grades:         Grades{"a": 3, "b": 2, "c": 1},
			k:              10,
			recall:         1.0 / 3,
			ndcg:           (1 / disc(3)) / (3/disc(1) + 2/disc(2) + 1/disc(3)),
			reciprocalRank: 1.0 / 3,
		},
		{
			name:           "a relevant hit below the cut-off counts nothing",
			ranked:         []string{"x1", "x2", "x3", "a"},
			grades:         Grades{"a": 1},
			k:              3,
			recall:         0,
			ndcg:           0,
			reciprocalRank: 0,
		},
		{
			name:   "ideal DCG is cut at k",
			ranked: []string{"a", "b"},
			grades: twelve,
			k:      10,
			recall: 2.0 / 12,
			ndcg: (1/disc(1) + 1/disc(2)) /
				(1/disc(1) + 1/disc(2) + 1/disc(3) + 1/disc(4) + 1/disc(5) +
					1/disc(6) + 1/disc(7) + 1/disc(8) + 1/disc(9) + 1/disc(10)),
			reciprocalRank: 1,
		},
		{
			name:           "repeats count once, at their first rank",
			ranked:         []string{"x", "x", "x", "a", "a"},
			grades:         Grades{"a": 1, "b": 1},
			k:              2,
			recall:         1.0 / 2,
			ndcg:           (1 / disc(2)) / (1/disc(1) + 1/disc(2)),
			reciprocalRank: 1.0 / 2,
		},
		{
			name:           "grade zero and negative grades are judged not relevant",
			ranked:         []string{"z", "n", "a"},
			grades:         Grades{"z": 0, "n": -1, "a": 1},
			k:              10,
			recall:         1,
			ndcg:           (1 / disc(3)) / (1 / disc(1)),
			reciprocalRank: 1.0 / 3,
		},
		{
			name:           "MRR counts only the first relevant hit",
			ranked:         []string{"x", "a", "b", "c"},
			grades:         Grades{"a": 1, "b": 1, "c": 1},
			k:              10,
			recall:         1,
			ndcg:           (1/disc(2) + 1/disc(3) + 1/disc(4)) / (1/disc(1) + 1/disc(2) + 1/disc(3)),
			reciprocalRank: 1.0 / 2,
		},
		{
			name:           "no relevant unit gives zero, not NaN",
			ranked:         []string{"a"},
			grades:         Grades{"a": 0},
			k:              10,
			recall:         0,
			ndcg:           0,
			reciprocalRank: 0,
		},
		{
			name:           "empty ranking",
			ranked:         nil,
			grades:         Grades{"a": 1},
			k:              10,
			recall:         0,
			ndcg:           0,
			reciprocalRank: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(metric string, got, want float64) {
				t.Helper()
				if math.IsNaN(got) || math.Abs(got-want) > 1e-12 {
					t.Errorf("%s = %.15f, want %.15f", metric, got, want)
				}
			}
			check("Recall", Recall(tt.ranked, tt.grades, tt.k), tt.recall)
			check("NDCG", NDCG(tt.ranked, tt.grades, tt.k), tt.ndcg)
			check("ReciprocalRank", ReciprocalRank(tt.ranked, tt.grades, tt.k), tt.reciprocalRank)
		})
	}
}

// TestNDCGBounds checks properties that hold for every ranking: nDCG lies in
// [0, 1], equals 1 for the ideal ranking, and moving the only relevant
// document down never raises it.
func TestNDCGBounds(t *testing.T) {
	g := Grades{"a": 3, "b": 2, "c": 1, "d": 0}
	if got := NDCG([]string{"a", "b", "c", "d"}, g, 10); math.Abs(got-1) > 1e-12 {
		t.Errorf("ideal ranking: NDCG = %v, want 1", got)
	}
	one := Grades{"r": 1}
	prev := 2.0
	for pos := 0; pos < 12; pos++ {
		ranked := make([]string, 12)
		for i := range ranked {
			ranked[i] = string(rune('A' + i))
		}
		ranked[pos] = "r"
		got := NDCG(ranked, one, 10)
		if got < 0 || got > 1 || got > prev {
			t.Errorf("relevant at rank %d: NDCG = %v (previous rank gave %v)", pos+1, got, prev)
		}
		if pos < 10 && got != 1/disc(pos+1) {
			t.Errorf("relevant at rank %d: NDCG = %v, want 1/log2(%d)", pos+1, got, pos+2)
		}
		prev = got
	}
}
