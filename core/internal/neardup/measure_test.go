package neardup

import (
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/chunk"
	"github.com/vaultctx/vaultctx/core/internal/note"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

var measure = flag.Bool("neardup.measure", false, "measure resemblance distributions on ../shared/corpora/large (NEARDUP.md)")

// corpusChunk is one chunk of the large corpus, as the indexer cuts it.
type corpusChunk struct {
	path, section, text string
	ordinal             int
}

// versionDir matches the versioned reference folders of PowerShell-Docs.
var versionDir = regexp.MustCompile(`^PowerShell-Docs/reference/(\d+\.\d+)/(.+)$`)

// loadCorpus parses and chunks every markdown file under dir with the
// indexer's settings (note.Parse, chunk.Split with DefaultOptions).
func loadCorpus(tb testing.TB, dir string) []corpusChunk {
	tb.Helper()
	var out []corpusChunk
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		n := note.Parse(rel, raw)
		for _, c := range chunk.Split(n.Title, n.Body, chunk.DefaultOptions()) {
			out = append(out, corpusChunk{path: rel, section: c.Section, text: c.Text, ordinal: c.Ordinal})
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

type pair struct{ a, b int }

// samples are the pair sets of the measurement.
type samples struct {
	name  string
	pairs []pair
}

// pairSets builds the four sets: the same section of the same page in two
// doc versions (mostly duplicates), the same section title in two pages of
// one version (similar structure, mostly different text), neighbouring
// chunks of one note, and random pairs.
func pairSets(cs []corpusChunk, rng *rand.Rand) []samples {
	type key struct {
		rest, section string
		occ           int
	}
	versions := map[key][]int{}
	occ := map[string]int{}
	byVerSection := map[string][]int{}
	for i, c := range cs {
		m := versionDir.FindStringSubmatch(c.path)
		if m == nil {
			continue
		}
		o := occ[c.path+"\x00"+c.section]
		occ[c.path+"\x00"+c.section]++
		k := key{m[2], c.section, o}
		versions[k] = append(versions[k], i)
		byVerSection[m[1]+"\x00"+c.section] = append(byVerSection[m[1]+"\x00"+c.section], i)
	}
	var ver []pair
	keys := make([]key, 0, len(versions))
	for k := range versions {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y key) int {
		return strings.Compare(fmt.Sprint(x), fmt.Sprint(y))
	})
	for _, k := range keys {
		ids := versions[k]
		for i := range ids {
			for j := i + 1; j < len(ids); j++ {
				ver = append(ver, pair{ids[i], ids[j]})
			}
		}
	}
	var pool []int // chunks whose version and section title another page shares
	groups := map[int][]int{}
	for _, ids := range byVerSection {
		if len(ids) < 2 {
			continue
		}
		for _, i := range ids {
			pool = append(pool, i)
			groups[i] = ids
		}
	}
	slices.Sort(pool)
	var title []pair
	for len(title) < 50000 {
		a := pool[rng.IntN(len(pool))]
		g := groups[a]
		b := g[rng.IntN(len(g))]
		if cs[a].path != cs[b].path {
			title = append(title, pair{a, b})
		}
	}
	var next []pair
	for i := 1; i < len(cs); i++ {
		if cs[i].path == cs[i-1].path {
			next = append(next, pair{i - 1, i})
		}
	}
	var random []pair
	for len(random) < 200000 {
		a, b := rng.IntN(len(cs)), rng.IntN(len(cs))
		if cs[a].path != cs[b].path {
			random = append(random, pair{a, b})
		}
	}
	return []samples{
		{"same page and section, two versions", ver},
		{"same section title, two pages of one version", title},
		{"neighbouring chunks of one note", next},
		{"random pairs of two notes", random},
	}
}

func quantiles(v []float64, qs ...float64) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	out := make([]float64, len(qs))
	for i, q := range qs {
		out[i] = s[min(int(q*float64(len(s))), len(s)-1)]
	}
	return out
}

// shareAtLeast returns the share of v that is >= t.
func shareAtLeast(v []float64, t float64) float64 {
	n := 0
	for _, x := range v {
		if x >= t {
			n++
		}
	}
	return float64(n) / float64(len(v))
}

// TestMeasureCorpus prints, as markdown, the resemblance distributions
// NEARDUP.md reports (about a minute):
//
//	go test ./core/internal/neardup -run TestMeasureCorpus -neardup.measure -v
func TestMeasureCorpus(t *testing.T) {
	if !*measure {
		t.Skip("set -neardup.measure to measure on ../shared/corpora/large")
	}
	cs := loadCorpus(t, testkit.Shared(t, "corpora/large"))
	sets := pairSets(cs, rand.New(rand.NewPCG(1, 2)))
	var b strings.Builder
	fmt.Fprintf(&b, "%d chunks\n", len(cs))
	resemblances := func(w int) [][]float64 {
		sigs := make(map[int]Sig)
		sig := func(i int) Sig {
			s, ok := sigs[i]
			if !ok {
				s = of(cs[i].text, w)
				sigs[i] = s
			}
			return s
		}
		out := make([][]float64, len(sets))
		for k, s := range sets {
			out[k] = make([]float64, len(s.pairs))
			for i, p := range s.pairs {
				out[k][i] = Resemblance(sig(p.a), sig(p.b))
			}
		}
		return out
	}
	r := resemblances(Width)
	qs := []float64{0.01, 0.05, 0.10, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999}
	fmt.Fprintf(&b, "\nQuantiles of the resemblance, w = %d:\n\n| pairs | n |", Width)
	for _, q := range qs {
		fmt.Fprintf(&b, " p%g |", 100*q)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(qs)) + "\n")
	for k, s := range sets {
		fmt.Fprintf(&b, "| %s | %d |", s.name, len(s.pairs))
		for _, x := range quantiles(r[k], qs...) {
			fmt.Fprintf(&b, " %.2f |", x)
		}
		b.WriteString("\n")
	}
	ts := []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1}
	fmt.Fprintf(&b, "\nShare of pairs with resemblance >= t, w = %d:\n\n| pairs |", Width)
	for _, t := range ts {
		fmt.Fprintf(&b, " %.2f |", t)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(ts)) + "\n")
	for k, s := range sets {
		fmt.Fprintf(&b, "| %s |", s.name)
		for _, t := range ts {
			fmt.Fprintf(&b, " %.2f%% |", 100*shareAtLeast(r[k], t))
		}
		b.WriteString("\n")
	}
	// The density ratio of version pairs to same-note neighbours per bin:
	// how much more likely a pair in the bin is a copy than two parts of
	// one note.
	b.WriteString("\nPer bin: share of version pairs / share of neighbour pairs in the bin (density ratio):\n\n| bin | versions | neighbours | ratio |\n|---|---|---|---|\n")
	for lo := 0.3; lo < 0.95; lo += 0.1 {
		in := func(v []float64) float64 { return shareAtLeast(v, lo) - shareAtLeast(v, lo+0.1) }
		if lo > 0.85 {
			in = func(v []float64) float64 { return shareAtLeast(v, lo) - shareAtLeast(v, 1) }
		}
		v, n := in(r[0]), in(r[2])
		fmt.Fprintf(&b, "| [%.1f, %.1f) | %.2f%% | %.2f%% | %.1f |\n", lo, min(lo+0.1, 1), 100*v, 100*n, v/n)
	}
	b.WriteString("\nOther shingle widths, share of pairs >= 0.8 (versions / neighbours / random):\n\n| w | versions | neighbours | random |\n|---|---|---|---|\n")
	for _, w := range []int{1, 2, 3, 4, 5, 6, 8} {
		rw := resemblances(w)
		fmt.Fprintf(&b, "| %d | %.2f%% | %.2f%% | %.3f%% |\n", w, 100*shareAtLeast(rw[0], 0.8), 100*shareAtLeast(rw[2], 0.8), 100*shareAtLeast(rw[3], 0.8))
	}
	t.Log("\n" + b.String())
}
