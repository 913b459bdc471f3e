package ivf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDotsGo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{1, 7, 8, 9, 100, 256} {
		const n = 13
		u, v := make([]float32, dim), make([]float32, n*dim)
		for i := range u {
			u[i] = float32(r.NormFloat64())
		}
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		out := make([]float32, n)
		DotsGo(u, v, out)
		for j := 0; j < n; j++ {
			var want, mag float64
			for i := range u {
				p := float64(u[i]) * float64(v[j*dim+i])
				want += p
				mag += math.Abs(p)
			}
			if math.Abs(float64(out[j])-want) > 1e-5*mag+1e-6 {
				t.Fatalf("dim %d vector %d: %v, want %v", dim, j, out[j], want)
			}
		}
	}
}

func TestQuantize(t *testing.T) {
	for _, tc := range []struct {
		name      string
		v, center []float32
		want      Vec
	}{
		{"scaled to 127", []float32{1, -2, 0.5}, []float32{0, 0, 0}, Vec{64, -127, 32}},
		{"centred", []float32{3, 1}, []float32{1, 1}, Vec{127, 0}},
		{"zero stays zero", []float32{2, 2}, []float32{2, 2}, Vec{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Quantize(tc.v, tc.center)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Quantize = %v, want %v", got, tc.want)
			}
			u := got.Unit()
			var n float64
			for _, x := range u {
				n += float64(x) * float64(x)
			}
			if got.Norm() != 0 && math.Abs(n-1) > 1e-6 {
				t.Errorf("Unit has squared norm %v", n)
			}
			if b := got.Bytes(); len(b) != len(got) || (len(b) > 0 && int8(b[0]) != got[0]) {
				t.Errorf("Bytes = %v", b)
			}
		})
	}
}

// clusters returns n unit vectors around c well-separated directions.
func clusters(r *rand.Rand, n, dim, c int) (units [][]float32, label []int) {
	centres := make([][]float64, c)
	for i := range centres {
		centres[i] = make([]float64, dim)
		centres[i][i%dim] = 10 // orthogonal axes
	}
	for i := 0; i < n; i++ {
		l := i % c
		v := make([]float32, dim)
		var s float64
		for j := range v {
			x := centres[l][j] + r.NormFloat64()*0.3
			v[j] = float32(x)
			s += x * x
		}
		for j := range v {
			v[j] = float32(float64(v[j]) / math.Sqrt(s))
		}
		units, label = append(units, v), append(label, l)
	}
	return units, label
}

func TestKMeansSeparatesClusters(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	units, label := clusters(r, 2000, 16, 4)
	l := KMeans(units, 4, nil)
	if l.Len() != 4 || l.Dim != 16 {
		t.Fatalf("KMeans: %d lists of dim %d", l.Len(), l.Dim)
	}
	again := KMeans(units, 4, DotsGo)
	if !slices.Equal(l.C, again.C) {
		t.Fatal("KMeans is not deterministic")
	}
	assign := l.Assign(units)
	// Every cluster maps onto one list, and different clusters onto
	// different lists.
	listOf := map[int]int{}
	for i, a := range assign {
		if prev, ok := listOf[label[i]]; ok && prev != a {
			t.Fatalf("cluster %d split over lists %d and %d", label[i], prev, a)
		}
		listOf[label[i]] = a
	}
	seen := map[int]bool{}
	for _, a := range listOf {
		seen[a] = true
	}
	if len(seen) != 4 {
		t.Fatalf("4 clusters in %d lists", len(seen))
	}
	for i := 0; i < 50; i++ {
		q := Quantize(units[i], make([]float32, 16))
		order := l.NearestN(q, l.Len())
		if order[0] != l.Nearest(q) {
			t.Fatalf("vector %d: NearestN starts with %d, Nearest is %d", i, order[0], l.Nearest(q))
		}
		if len(order) != 4 {
			t.Fatalf("NearestN returned %d lists", len(order))
		}
	}
}

func TestNoLists(t *testing.T) {
	l := Lists{Dim: 3}
	if l.Nearest(Vec{1, 2, 3}) != 0 || !slices.Equal(l.Assign([][]float32{{1, 0, 0}}), []int{0}) {
		t.Fatal("without lists, every vector is in list 0")
	}
}

func BenchmarkAssign(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	units, _ := clusters(r, 5000, 100, 50)
	l := KMeans(units, 50, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Assign(units)
	}
}

// TestPlan: a Plan picks 32 distinct positions per list (all of them when
// there are fewer vectors), the same ones for the same n and k.
func TestPlan(t *testing.T) {
	tests := []struct {
		name    string
		n, k    int
		wantLen int
	}{
		{"fewer vectors than wanted", 50, 4, 50},
		{"32 per list", 10000, 20, 640},
		{"no lists", 100, 0, 0},
		{"no vectors", 0, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPlan(tc.n, tc.k)
			if len(p.Pos) != tc.wantLen {
				t.Fatalf("%d positions, want %d", len(p.Pos), tc.wantLen)
			}
			if !slices.Equal(p.Pos, NewPlan(tc.n, tc.k).Pos) {
				t.Fatal("two plans of the same n and k differ")
			}
			seen := map[int]bool{}
			for _, at := range p.Pos {
				if at < 0 || at >= tc.n || seen[at] {
					t.Fatalf("position %d repeated or out of 0..%d", at, tc.n-1)
				}
				seen[at] = true
			}
		})
	}
}
