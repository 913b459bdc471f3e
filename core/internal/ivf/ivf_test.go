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

func TestSampler(t *testing.T) {
	tests := []struct {
		name string
		n, k int
		want int
	}{
		{"fewer items than wanted", 50, 4, 50},
		{"32 per list", 10000, 20, 640},
		{"no lists", 100, 0, 0},
		{"no items", 0, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SampleSize(tc.n, tc.k); got != tc.want {
				t.Fatalf("SampleSize(%d, %d) = %d, want %d", tc.n, tc.k, got, tc.want)
			}
			a, b := NewSampler(tc.n, tc.k), NewSampler(tc.n, tc.k)
			var picks []int
			for i := 0; i < tc.n+5; i++ {
				x, y := a.Take(), b.Take()
				if x != y {
					t.Fatalf("item %d: two samplers of the same n and k differ", i)
				}
				if x {
					if i >= tc.n {
						t.Fatalf("took item %d past n = %d", i, tc.n)
					}
					picks = append(picks, i)
				}
			}
			if len(picks) != tc.want || a.Taken() != tc.want {
				t.Fatalf("took %d (Taken %d), want %d", len(picks), a.Taken(), tc.want)
			}
		})
	}
}

// TestSamplerUniform checks that each item is taken with probability m/n:
// over 400 samplers of 64 of 256 items (one seed per n, so n varies), each
// half of the stream holds about half the picks, and no item is taken far
// more often than the m/n·400 = 100 times expected.
func TestSamplerUniform(t *testing.T) {
	const k, runs = 2, 400 // 64 picks
	hits := make([]int, 256)
	for r := 0; r < runs; r++ {
		n := 256 + r // a different stream each run; count the first 256 items
		s := NewSampler(n, k)
		for i := 0; i < n; i++ {
			if s.Take() && i < len(hits) {
				hits[i]++
			}
		}
	}
	first, second := 0, 0
	for i, h := range hits {
		if i < len(hits)/2 {
			first += h
		} else {
			second += h
		}
		// Expected 400·64/(256+r) ≈ 64..100 per item; 4 standard deviations above.
		if h > 140 {
			t.Fatalf("item %d taken %d times of %d", i, h, runs)
		}
	}
	if d := first - second; d > first/10 || -d > first/10 {
		t.Fatalf("first half taken %d times, second half %d", first, second)
	}
}
