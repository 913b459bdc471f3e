package neardup

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// termDiff returns the terms of a that b lacks, those of b that a lacks
// (as sets), and the two term counts.
func termDiff(a, b string) (string, string, int, int) {
	ta, tb := textan.Terms(a), textan.Terms(b)
	ia, ib := map[string]bool{}, map[string]bool{}
	for _, x := range ta {
		ia[x] = true
	}
	for _, x := range tb {
		ib[x] = true
	}
	var oa, ob []string
	for _, x := range ta {
		if !ib[x] {
			oa = append(oa, x)
		}
	}
	for _, x := range tb {
		if !ia[x] {
			ob = append(ob, x)
		}
	}
	return strings.Join(oa, " "), strings.Join(ob, " "), len(ta), len(tb)
}

// TestSampleBands prints eight random pairs per resemblance band of the
// version and neighbour sets with their term differences, which
// NEARDUP.md's "What the bands hold" reads:
//
//	go test ./core/internal/neardup -run TestSampleBands -neardup.measure -v
func TestSampleBands(t *testing.T) {
	if !*measure {
		t.Skip("set -neardup.measure to sample ../shared/corpora/large")
	}
	cs := loadCorpus(t, testkit.Shared(t, "corpora/large"))
	sets := pairSets(cs, rand.New(rand.NewPCG(1, 2)))
	rng := rand.New(rand.NewPCG(5, 6))
	for _, si := range []int{0, 2} {
		s := sets[si]
		for _, band := range [][2]float64{{0.7, 0.8}, {0.8, 0.9}, {0.9, 1.0}, {1.0, 1.1}} {
			var in []pair
			for _, p := range s.pairs {
				r := Resemblance(Of(cs[p.a].text), Of(cs[p.b].text))
				if r >= band[0] && r < band[1] {
					in = append(in, p)
				}
			}
			t.Logf("### %s [%.1f,%.1f): %d", s.name, band[0], band[1], len(in))
			for k := 0; k < 8 && len(in) > 0; k++ {
				p := in[rng.IntN(len(in))]
				da, db, na, nb := termDiff(cs[p.a].text, cs[p.b].text)
				t.Logf("  r=%.3f %s § %s | %s § %s\n     terms %d/%d  -[%.150s]  +[%.150s]", Resemblance(Of(cs[p.a].text), Of(cs[p.b].text)), cs[p.a].path, cs[p.a].section, cs[p.b].path, cs[p.b].section, na, nb, da, db)
			}
		}
	}
}
