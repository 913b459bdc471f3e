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
// lists), computed on GOMAXPROCS goroutines.
func (l Lists) Assign(units [][]float32) []int {
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
	slices.SortFunc(order, func(a, b int64) int {
		if scores[a] != scores[b] {
			if scores[a] > scores[b] {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	return order[:min(n, len(order))]
}

// parallel runs fn(0..n-1) on GOMAXPROCS goroutines, each with its own
// scratch slice of scratch floats.
func parallel(n int, fn func(i int, scratch []float32), scratch int) {
	procs := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < procs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]float32, scratch)
			for i := w; i < n; i += procs {
				fn(i, buf)
			}
		}()
	}
	wg.Wait()
}

// KMeans clusters unit vectors (at least one) into at most k unit
// centroids: it draws the sample a Sampler of len(units) and k picks and
// trains on it with Train. The same vectors always give the same lists.
// dots ranks the centroids (nil means DotsGo) and is kept in the result.
// It holds every vector; the store streams its vectors through a Sampler
// instead and calls Train.
func KMeans(units [][]float32, k int, dots Dots) Lists {
	sp := NewSampler(len(units), k)
	var sample [][]float32
	for _, u := range units {
		if sp.Take() {
			sample = append(sample, u)
		}
	}
	return Train(sample, k, dots)
}

// SampleSize returns how many of n vectors a Sampler for k lists picks:
// min(n, kmeansSample·k), 32 per list. FAISS trains an IVF of k lists on
// 30·k to 256·k vectors and warns below 39·k ("Guidelines to choose an
// index", FAISS wiki); on the large corpus 32 per list gave the recall in
// ListSize's doc of core/store, and the sample, not the vault, bounds the
// memory of a training.
func SampleSize(n, k int) int { return max(0, min(n, kmeansSample*k)) }

// Sampler picks SampleSize(n, k) of n items that stream past once, each
// with the same chance and without holding them, by selection sampling
// (Knuth, TAOCP vol. 2, 3.4.2, Algorithm S; Fan, Muller and Rezucha 1962):
// item i of n is taken with probability (wanted - taken)/(n - i). The
// picks come in stream order and depend only on n and k (a fixed seed).
type Sampler struct {
	r           *rand.Rand
	n, i        int
	want, taken int
}

// NewSampler returns a Sampler of SampleSize(n, k) picks from n items.
func NewSampler(n, k int) *Sampler {
	return &Sampler{r: rand.New(rand.NewPCG(kmeansSeed, uint64(n))), n: n, want: SampleSize(n, k)}
}

// Take reports whether the next item is in the sample. Called n times, it
// returns true exactly SampleSize(n, k) times; past n it returns false.
func (s *Sampler) Take() bool {
	if s.i >= s.n || s.taken >= s.want {
		s.i++
		return false
	}
	ok := s.r.IntN(s.n-s.i) < s.want-s.taken
	s.i++
	if ok {
		s.taken++
	}
	return ok
}

// Taken returns the number of items taken so far.
func (s *Sampler) Taken() int { return s.taken }

// Train clusters a sample of unit vectors (at least one, in any order)
// into at most k unit centroids by spherical k-means (Lloyd iterations on
// unit vectors, ranking by cosine: Dhillon and Modha, "Concept
// decompositions for large sparse text data using clustering", Machine
// Learning 2001): kmeansIters iterations, starting from k distinct sample
// vectors chosen by a seeded shuffle; a list left empty restarts from a
// random sample vector. The same sample always gives the same lists. dots
// ranks the centroids (nil means DotsGo) and is kept in the result. It
// reorders sample.
func Train(sample [][]float32, k int, dots Dots) Lists {
	r := rand.New(rand.NewPCG(kmeansSeed, uint64(len(sample))))
	r.Shuffle(len(sample), func(i, j int) { sample[i], sample[j] = sample[j], sample[i] })
	k = min(k, len(sample))
	dim := len(sample[0])
	cent := Lists{Dim: dim, C: make([]float32, 0, k*dim), Dots: dots}
	for c := 0; c < k; c++ {
		cent.C = append(cent.C, sample[c]...)
	}
	for it := 0; it < kmeansIters; it++ {
		assign := cent.Assign(sample)
		sums := make([]float64, k*dim)
		count := make([]int, k)
		for i, c := range assign {
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
