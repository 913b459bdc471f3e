package ivf

import (
	"cmp"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// realOnce caches realUnits: the GloVe embeddings of paragraphs of
// ../shared/corpora/large, as the store holds them (minus their centre,
// as int8), then as unit vectors.
var (
	realOnce  sync.Once
	realVecs  [][]float32
	realError error
)

// realUnits returns n unit vectors of real text: every paragraph of at
// least 80 bytes of the large corpus's markdown, in path order, embedded
// with ../shared/models/glove-120k, centred on their mean and quantised
// as core/store quantises them (Quantize, then Unit).
func realUnits(t *testing.T, n int) [][]float32 {
	t.Helper()
	corpus, model := testkit.Shared(t, "corpora/large"), testkit.Shared(t, "models/glove-120k")
	realOnce.Do(func() {
		m, err := embed.Open(model)
		if err != nil {
			realError = err
			return
		}
		defer m.Close()
		var paras []string
		err = filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") || len(paras) >= 12000 {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, p := range strings.Split(string(b), "\n\n") {
				if len(p) >= 80 && len(paras) < 12000 {
					paras = append(paras, p)
				}
			}
			return nil
		})
		if err != nil {
			realError = err
			return
		}
		vecs := make([][]float32, len(paras))
		for i, p := range paras {
			if vecs[i], err = m.Encode(p); err != nil {
				realError = err
				return
			}
		}
		centre := make([]float32, m.Dim())
		for _, v := range vecs {
			for j, x := range v {
				centre[j] += x / float32(len(vecs))
			}
		}
		for _, v := range vecs {
			realVecs = append(realVecs, Quantize(v, centre).Unit())
		}
	})
	if realError != nil {
		t.Fatal(realError)
	}
	if len(realVecs) < n {
		t.Fatalf("%d paragraphs, want %d", len(realVecs), n)
	}
	return realVecs[:n]
}

// TestTreeMatchesExhaustive: on real GloVe vectors a Tree finds every
// vector's nearest list exactly as the exhaustive scan does, with fewer
// dot products, and training with it gives the centroids an exhaustive
// training gives, bit for bit.
func TestTreeMatchesExhaustive(t *testing.T) {
	units := realUnits(t, 10240)
	const k = 160 // 64 vectors per list; 13 groups
	p := NewPlan(len(units), k)
	sample := make([][]float32, len(p.Pos))
	for i, at := range p.Pos {
		sample[i] = units[at]
	}
	l := p.Train(sample, nil)
	ref := NewPlan(len(units), k).train(sample, nil, kmeansIters, Lists.assignAll)
	if !slices.Equal(l.C, ref.C) {
		t.Fatal("training with the Tree gives other centroids than an exhaustive training")
	}
	if l.Len() != k {
		t.Fatalf("%d lists, want %d", l.Len(), k)
	}
	tree := l.Tree()
	want := l.assignAll(units)
	got := tree.Assign(units)
	if !slices.Equal(got, want) {
		n := 0
		for i := range got {
			if got[i] != want[i] {
				n++
			}
		}
		t.Fatalf("Tree.Assign disagrees with the exhaustive scan on %d of %d vectors", n, len(units))
	}
	if !slices.Equal(l.Assign(units), want) {
		t.Fatal("Lists.Assign disagrees with the exhaustive scan")
	}
	s := tree.Scratch()
	for _, u := range units {
		tree.Nearest(u, s)
	}
	if frac := float64(s.Dots) / float64(len(units)*k); frac > 0.6 {
		t.Errorf("the Tree computed %.2f of the dot products; it should prune most", frac)
	} else {
		t.Logf("the Tree computed %.3f of the dot products", frac)
	}
}

// TestTreeDeterministic: the same lists give the same Tree, and the same
// vectors the same lists.
func TestTreeDeterministic(t *testing.T) {
	units := realUnits(t, 8000)
	a, b := KMeans(units, 100, nil), KMeans(units, 100, DotsGo)
	if !slices.Equal(a.C, b.C) {
		t.Fatal("KMeans is not deterministic")
	}
	ta, tb := a.Tree(), b.Tree()
	if !slices.Equal(ta.list, tb.list) || !slices.Equal(ta.groups.C, tb.groups.C) || !slices.Equal(ta.nb, tb.nb) {
		t.Fatal("two Trees of the same lists differ")
	}
	if !slices.Equal(ta.Assign(units), tb.Assign(units)) {
		t.Fatal("two Trees of the same lists assign differently")
	}
}

// TestTreeEdgeCases: ties go to the smaller list as in NearestUnit (a
// centroid given twice), a zero or non-unit vector is searched
// exhaustively, and every synthetic vector gets its exhaustive list.
func TestTreeEdgeCases(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	units, _ := clusters(r, 6000, 32, 24)
	l := KMeans(units, 120, nil)
	// List 119 becomes a copy of list 5: a vector nearest to it must get 5.
	copy(l.Centroid(119), l.Centroid(5))
	tree := l.Tree()
	if tree.groups.Len() == 0 {
		t.Fatal("no groups at 120 lists")
	}
	s := tree.Scratch()
	scores := make([]float32, l.Len())
	probe := append(units, make([]float32, 32), l.Centroid(5))
	half := slices.Clone(units[0])
	for i := range half {
		half[i] /= 2
	}
	probe = append(probe, half)
	for i, u := range probe {
		if got, want := tree.Nearest(u, s), l.NearestUnit(u, scores); got != want {
			t.Fatalf("vector %d: Tree says %d, exhaustive %d", i, got, want)
		}
	}
	if got := tree.Nearest(l.Centroid(5), s); got != 5 {
		t.Fatalf("a centroid given twice: list %d, want the smaller, 5", got)
	}
	few := KMeans(units, 10, nil)
	if ft := few.Tree(); ft.groups.Len() != 0 || !slices.Equal(ft.Assign(units), few.assignAll(units)) {
		t.Fatal("below treeMinLists the Tree must scan every centroid")
	}
}

func BenchmarkTreeAssign(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	units, _ := clusters(r, 20000, 100, 200)
	l := KMeans(units, 250, nil)
	tree := l.Tree()
	b.ResetTimer()
	for b.Loop() {
		tree.Assign(units)
	}
}

// TestTreeNeighboursByScore: each list keeps the lists byScore puts
// first (highest cosine, ties by the smaller list, -0 equal to 0), in
// that order: the integer keys of tree sort as the comparison does.
func TestTreeNeighboursByScore(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	units, _ := clusters(r, 4000, 16, 30)
	l := KMeans(units, 90, nil)
	// Ties: list 80 a copy of list 3, so every list scores both alike.
	copy(l.Centroid(80), l.Centroid(3))
	tree := l.tree(10, 40)
	row := make([]float32, l.Len())
	for i := 0; i < l.Len(); i++ {
		l.dots(l.Centroid(i), l.C, row)
		var order []int32
		for j := 0; j < l.Len(); j++ {
			if j != i {
				order = append(order, int32(j))
			}
		}
		slices.SortFunc(order, byScore[int32](row))
		if got := tree.nb[i*tree.m : (i+1)*tree.m]; !slices.Equal(got, order[:tree.m]) {
			t.Fatalf("list %d: neighbours %v, byScore %v", i, got, order[:tree.m])
		}
	}
	scores := []float32{0.5, -0.5, 0, float32(math.Copysign(0, -1)), 1, -1, 0.25, 0.5, -0.25, 1e-30, -1e-30}
	for a := range scores {
		for b := range scores {
			ka, kb := descKey(scores[a])<<32|uint64(a), descKey(scores[b])<<32|uint64(b)
			want := cmp.Compare(byScore[int32](scores)(int32(a), int32(b)), 0)
			if got := cmp.Compare(ka, kb); got != want {
				t.Errorf("scores %v (%d) and %v (%d): keys compare %d, byScore %d", scores[a], a, scores[b], b, got, want)
			}
		}
	}
}
