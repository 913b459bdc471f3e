package ivf

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Lists are the IVF centroids: unit float32 vectors in the centred space,
// back to back, list i's at C[i·Dim:]. No centroids means one list, 0,
// holding every vector.
type Lists struct {
	Dim int
	C   []float32
	// Dots computes the dot products that rank the centroids; nil means
	// DotsGo. The store passes its vectorised C kernel, so that its lists
	// rank exactly as its SQL function vaultctx_nearest does.
	Dots Dots
}

// Dots sets out[j] to the dot product of u with the j-th of len(out)
// float32 vectors of len(u) components stored back to back in v, which
// holds len(out)·len(u) floats.
type Dots func(u, v, out []float32)

// DotsGo is Dots in Go: per vector, eight partial sums over the
// components in steps of eight, added pairwise, then the remaining
// components in order (the order of the store's C kernel).
func DotsGo(u, v, out []float32) {
	dim := len(u)
	for j := range out {
		x := v[j*dim : (j+1)*dim]
		var p [8]float32
		i := 0
		for ; i+8 <= dim; i += 8 {
			for k := 0; k < 8; k++ {
				p[k] += u[i+k] * x[i+k]
			}
		}
		s := ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]))
		for ; i < dim; i++ {
			s += u[i] * x[i]
		}
		out[j] = s
	}
}

func (l Lists) dots(u, v, out []float32) {
	if len(u) == 0 || len(out) == 0 {
		return
	}
	if l.Dots != nil {
		l.Dots(u, v, out)
		return
	}
	DotsGo(u, v, out)
}

// Len returns the number of lists (0 before training).
func (l Lists) Len() int {
	if l.Dim == 0 {
		return 0
	}
	return len(l.C) / l.Dim
}

// Centroid returns list i's centroid (Dim floats, aliasing C).
func (l Lists) Centroid(i int) []float32 { return l.C[i*l.Dim : (i+1)*l.Dim] }

// kmeansSeed fixes the sample and the initial centroids, so that the same
// vectors always give the same lists.
const kmeansSeed = 0x7661756c74637478 // "vaultctx"

// kmeansIters is the number of Lloyd iterations of the list training.
const kmeansIters = 6

// kmeansSample is the number of sample vectors per list that the training
// clusters.
const kmeansSample = 32

// Nearest returns the list whose centroid is nearest to q by cosine (0
// without lists; ties by the smaller list).
func (l Lists) Nearest(q Vec) int64 {
	if l.Len() == 0 {
		return 0
	}
	return int64(l.NearestUnit(q.Unit(), make([]float32, l.Len())))
}

// NearestUnit returns the list nearest to the unit vector u (ties by the
// smaller list); scores is scratch space of Len() floats.
func (l Lists) NearestUnit(u, scores []float32) int {
	l.dots(u, l.C, scores)
	best := 0
	for c, d := range scores {
		if d > scores[best] {
			best = c
		}
	}
	return best
}

// Assign returns the nearest list of each unit vector (all 0 without
// lists), the list NearestUnit returns, computed on GOMAXPROCS
// goroutines. It searches a Tree of l (exact, with a fraction of the
// dot products) when there are at least treeMinLists lists.
func (l Lists) Assign(units [][]float32) []int {
	if l.Len() < treeMinLists {
		return l.assignAll(units)
	}
	return l.Tree().Assign(units)
}

// Assign returns the nearest list of each unit vector, as Lists.Assign,
// searching t on GOMAXPROCS goroutines.
func (t Tree) Assign(units [][]float32) []int {
	out := make([]int, len(units))
	parallelWith(len(units), t.Scratch, func(i int, s *TreeScratch) { out[i] = t.Nearest(units[i], s) })
	return out
}

// assignAll is Assign by an exhaustive scan of the centroids.
func (l Lists) assignAll(units [][]float32) []int {
	out := make([]int, len(units))
	if l.Len() == 0 {
		return out
	}
	parallel(len(units), func(i int, scores []float32) { out[i] = l.NearestUnit(units[i], scores) }, l.Len())
	return out
}

// NearestN returns the n lists whose centroids are nearest to q, nearest
// first (ties by the smaller list).
func (l Lists) NearestN(q Vec, n int) []int64 {
	scores := make([]float32, l.Len())
	l.dots(q.Unit(), l.C, scores)
	order := make([]int64, len(scores))
	for i := range order {
		order[i] = int64(i)
	}
	slices.SortFunc(order, byScore[int64](scores))
	return order[:min(n, len(order))]
}

// byScore returns the slices.SortFunc order of list numbers by their
// score in scores, highest first, ties by the smaller list.
func byScore[T int32 | int64](scores []float32) func(a, b T) int {
	return func(a, b T) int {
		if scores[a] != scores[b] {
			if scores[a] > scores[b] {
				return -1
			}
			return 1
		}
		return int(a - b)
	}
}

// parallel runs fn(0..n-1) on GOMAXPROCS goroutines, each with its own
// scratch slice of scratch floats.
func parallel(n int, fn func(i int, scratch []float32), scratch int) {
	parallelWith(n, func() []float32 { return make([]float32, scratch) }, fn)
}

// parallelWith runs fn(0..n-1) on GOMAXPROCS goroutines, each with its
// own scratch space from newScratch.
func parallelWith[S any](n int, newScratch func() S, fn func(i int, scratch S)) {
	procs := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < procs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := newScratch()
			for i := w; i < n; i += procs {
				fn(i, buf)
			}
		}()
	}
	wg.Wait()
}

// KMeans clusters unit vectors (at least one) into at most k unit
// centroids: NewPlan(len(units), k) picks the sample and Plan.Train
// clusters it. The same vectors always give the same lists. dots ranks
// the centroids (nil means DotsGo) and is kept in the result. It holds
// every vector; the store streams its vectors past a Plan instead.
func KMeans(units [][]float32, k int, dots Dots) Lists {
	p := NewPlan(len(units), k)
	sample := make([][]float32, len(p.Pos))
	for i, at := range p.Pos {
		sample[i] = units[at]
	}
	return p.Train(sample, dots)
}

// Plan is the training sample of k lists over n vectors: Pos holds the
// positions (in 0..n-1) of min(n, kmeansSample·k) vectors, 32 per list,
// the first of a seeded permutation of all n, in the order the training
// uses them. FAISS trains an IVF of k lists on 30·k to 256·k vectors
// ("Guidelines to choose an index", FAISS wiki); the sample, not the
// vault, bounds the memory of a training, apart from the permutation of
// n ints NewPlan draws and drops (5 MB at 651,000 vectors).
type Plan struct {
	Pos []int
	k   int
	r   *rand.Rand
}

// NewPlan returns the Plan of k lists over n vectors; it depends on n and
// k only (a fixed seed).
func NewPlan(n, k int) Plan {
	r := rand.New(rand.NewPCG(kmeansSeed, uint64(n)))
	perm := r.Perm(n)
	return Plan{Pos: append([]int(nil), perm[:min(n, kmeansSample*max(k, 0))]...), k: k, r: r}
}

// Train clusters sample (at least one unit vector; sample[i] is the
// vector at Pos[i]) into at most k unit centroids by spherical k-means
// (Lloyd iterations on unit vectors, ranking by cosine: Dhillon and
// Modha, "Concept decompositions for large sparse text data using
// clustering", Machine Learning 2001): kmeansIters iterations, starting
// from the first k sample vectors; a list left empty restarts from a
// random sample vector. Each iteration assigns the sample by Lists.Assign,
// which searches a Tree: exact, so the centroids are those of an
// exhaustive assignment, bit for bit, at a fraction of its k dot products
// per sample vector. dots ranks the centroids (nil means DotsGo) and is
// kept in the result. A Plan trains once.
func (p Plan) Train(sample [][]float32, dots Dots) Lists {
	return p.train(sample, dots, kmeansIters, Lists.Assign)
}

// train is Train with iters Lloyd iterations, each assigning the sample
// to the nearest centroids by assign.
func (p Plan) train(sample [][]float32, dots Dots, iters int, assign func(Lists, [][]float32) []int) Lists {
	r, k := p.r, p.k
	k = min(k, len(sample))
	dim := len(sample[0])
	cent := Lists{Dim: dim, C: make([]float32, 0, k*dim), Dots: dots}
	for c := 0; c < k; c++ {
		cent.C = append(cent.C, sample[c]...)
	}
	for it := 0; it < iters; it++ {
		of := assign(cent, sample)
		sums := make([]float64, k*dim)
		count := make([]int, k)
		for i, c := range of {
			count[c]++
			for j, x := range sample[i] {
				sums[c*dim+j] += float64(x)
			}
		}
		for c := 0; c < k; c++ {
			if count[c] == 0 {
				copy(cent.Centroid(c), sample[r.IntN(len(sample))])
				continue
			}
			var n float64
			for _, x := range sums[c*dim : (c+1)*dim] {
				n += x * x
			}
			n = math.Sqrt(n)
			if n == 0 {
				copy(cent.Centroid(c), sample[r.IntN(len(sample))])
				continue
			}
			for j, x := range sums[c*dim : (c+1)*dim] {
				cent.C[c*dim+j] = float32(x / n)
			}
		}
	}
	return cent
}
