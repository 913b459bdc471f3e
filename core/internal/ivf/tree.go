package ivf

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// Tree finds a unit vector's nearest list, the one Lists.NearestUnit
// finds, without a dot product with every centroid. It is exact: a list
// is skipped only when a bound proves that its cosine with the vector is
// below the best one found, so the answer (ties included) is that of the
// exhaustive scan, and the lists trained and assigned with it are the
// ones an exhaustive scan gives.
//
// Two bounds, both the triangle inequality for angles on the unit sphere
// (angle(a, c) <= angle(a, b) + angle(b, c)):
//
//   - Groups (the cap bound). The centroids are clustered into
//     ceil(sqrt(k)) groups by spherical k-means, each with a unit group
//     centroid g. For unit x and a list c of g's group,
//     angle(x, c) >= angle(x, g) - angle(c, g), so
//     x·c <= cos(max(0, θ_xg - θ_cg)) = (x·g)(c·g) + sqrt(1-(x·g)²)·sqrt(1-(c·g)²)
//     when x·g < c·g, and 1 otherwise: the spherical form of the
//     Cauchy-Schwarz bound x·c <= x·g + ||c-g||, and tighter. Grouping
//     centroids to bound many at once is the idea of Yinyang k-means (Ding
//     et al., "Yinyang K-Means: A Drop-In Replacement of the Classic
//     K-Means with Consistent Speedup", ICML 2015).
//   - Neighbours (the exponion bound). If list b has cosine x·b with x,
//     the nearest list c* has angle(x, c*) <= angle(x, b), so
//     angle(b, c*) <= 2·angle(x, b): only the lists within twice that
//     angle of b can beat it (Elkan, "Using the triangle inequality to
//     accelerate k-means", ICML 2003; the ball around the current centroid
//     is Newling and Fleuret's Exponion, "Fast k-means with accurate
//     bounds", ICML 2016). Each list keeps its treeNeighbours nearest
//     lists, nearest first.
//
// A search ranks the groups (ceil(sqrt(k)) dot products), scans the
// nearest group whole, and then, from its best list b, the lists near b
// that the cap bound does not rule out; when twice b's angle reaches past
// b's kept neighbours, it scans the other groups instead, each from the
// first list the cap bound does not rule out. On the GloVe vectors of the large
// corpus this computes about a fifth of the dot products at 508 lists
// and an eighth at 2,034 (BenchmarkTrainLists in core/store).
//
// A Tree is read-only after Lists.Tree and safe for concurrent use; each
// goroutine needs its own TreeScratch.
type Tree struct {
	lists  Lists
	groups Lists     // unit group centroids
	start  []int     // group j's lists are at positions start[j] to start[j+1]-1
	list   []int     // the list at each position
	c      []float32 // the centroids in position order (Dim floats each)
	// cosG and sinG are c·g of each position's centroid with its group's
	// centroid, decreasing within a group, and sqrt(1 - cosG²).
	cosG, sinG []float64
	pos        []int // each list's position
	gof        []int // the group of each position
	// nb[i·m:(i+1)·m] are list i's m nearest other lists, nearest first,
	// and nbCos their cosines with i.
	nb    []int32
	nbCos []float32
	m     int
}

// treeMinLists is the number of lists below which Tree searches every
// centroid: with few lists the groups are too coarse to prune.
const treeMinLists = 64

// treeNeighbours is the number of nearest lists each list keeps for the
// exponion bound: 8 bytes each, 4 MB at 2,034 lists.
const treeNeighbours = 256

// treeMargin is how far (in cosine) a bound must fall below the best
// cosine so far for Tree to skip a list: float32 dot products of unit
// vectors of a few hundred components are accurate to about 1e-6, so a
// skipped list's computed cosine is strictly below the best, and the
// search returns what an exhaustive one returns, ties included.
const treeMargin = 1e-4

// treeGroupIters is the number of Lloyd iterations that cluster the
// centroids into groups.
const treeGroupIters = 10

// Tree returns the Tree of l: ceil(sqrt(Len())) groups found by
// spherical k-means of the centroids, and each list's treeNeighbours
// nearest lists (Len()² dot products, on GOMAXPROCS goroutines). It is
// deterministic: the same lists give the same Tree. Below treeMinLists
// lists the Tree searches every centroid.
func (l Lists) Tree() Tree {
	k := l.Len()
	if k < treeMinLists {
		return Tree{lists: l}
	}
	return l.tree(int(math.Ceil(math.Sqrt(float64(k)))), treeNeighbours)
}

// tree returns the Tree of l with g groups and m neighbours per list.
func (l Lists) tree(g, m int) Tree {
	k := l.Len()
	dim := l.Dim
	t := Tree{lists: l}
	units := make([][]float32, k)
	for i := range units {
		units[i] = l.Centroid(i)
	}
	// Every centroid, in a seeded order whose first g start the groups.
	p := Plan{k: g, r: rand.New(rand.NewPCG(kmeansSeed, uint64(k)))}
	sample := make([][]float32, k)
	for i, at := range p.r.Perm(k) {
		sample[i] = units[at]
	}
	t.groups = p.train(sample, l.Dots, treeGroupIters, Lists.assignAll)
	of := make([]int, k)
	cos := make([]float64, k)
	scores := make([]float32, t.groups.Len())
	for i, u := range units {
		of[i] = t.groups.NearestUnit(u, scores)
		cos[i] = float64(scores[of[i]])
	}
	t.list = make([]int, k)
	for i := range t.list {
		t.list[i] = i
	}
	slices.SortFunc(t.list, func(a, b int) int {
		if of[a] != of[b] {
			return of[a] - of[b]
		}
		if cos[a] != cos[b] {
			if cos[a] > cos[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	t.start = make([]int, t.groups.Len()+1)
	t.c = make([]float32, 0, k*dim)
	t.cosG, t.sinG, t.pos, t.gof = make([]float64, k), make([]float64, k), make([]int, k), make([]int, k)
	for pos, i := range t.list {
		t.gof[pos] = of[i]
		t.start[of[i]+1]++
		t.c = append(t.c, l.Centroid(i)...)
		c := min(1, max(-1, cos[i]))
		t.cosG[pos], t.sinG[pos] = c, math.Sqrt(1-c*c)
		t.pos[i] = pos
	}
	for j := 1; j < len(t.start); j++ {
		t.start[j] += t.start[j-1]
	}
	t.m = min(m, k-1)
	t.nb, t.nbCos = make([]int32, k*t.m), make([]float32, k*t.m)
	parallel(k, func(i int, row []float32) {
		l.dots(l.Centroid(i), l.C, row)
		// The other lists in byScore order (highest first, ties by the
		// smaller list) as one integer key each: the m smallest keys
		// selected, then sorted without a comparison function. Sorting
		// all lists by byScore took 2.7 s of CPU at 2,034 lists (4x the
		// large corpus; 81 µs a list, this 10).
		keys := make([]uint64, 0, k-1)
		for j := 0; j < k; j++ {
			if j != i {
				keys = append(keys, descKey(row[j])<<32|uint64(j))
			}
		}
		if t.m < len(keys) {
			topk.SelectKeys(keys, t.m)
		}
		slices.Sort(keys[:t.m])
		for n, key := range keys[:t.m] {
			j := int32(uint32(key))
			t.nb[i*t.m+n], t.nbCos[i*t.m+n] = j, row[j]
		}
	}, k)
	return t
}

// descKey maps a score to 32 bits that sort in the opposite order of the
// scores, -0 and 0 alike (as byScore compares them): the float's bits with
// the sign bit set for a non-negative score and all bits flipped for a
// negative one order as the scores do, and their complement reverses it.
func descKey(x float32) uint64 {
	b := math.Float32bits(x + 0) // -0 + 0 is +0
	if b>>31 != 0 {
		b = ^b
	} else {
		b |= 1 << 31
	}
	return uint64(^b)
}

// TreeScratch is one goroutine's scratch space for Tree.Nearest.
type TreeScratch struct {
	all    []float32 // Len() scores (the exhaustive fallback)
	groups []float32 // group scores
	gsin   []float64 // sqrt(1 - group score²)
	dots   []float32 // scores of a run of lists
	gather []float32 // gathered centroids
	ids    []int
	// Dots counts the centroid and group dot products computed, for
	// measuring how much the bounds prune.
	Dots int64
}

// Scratch returns a TreeScratch sized for t.
func (t Tree) Scratch() *TreeScratch {
	k := t.lists.Len()
	s := &TreeScratch{all: make([]float32, k)}
	if g := t.groups.Len(); g > 0 {
		s.groups, s.gsin = make([]float32, g), make([]float64, g)
		s.dots = make([]float32, max(k, t.m))
		s.gather = make([]float32, t.m*t.lists.Dim)
		s.ids = make([]int, t.m)
	}
	return s
}

// capBound bounds x·c for unit x and c, given s = x·g, sinS =
// sqrt(1-s²), cosC = c·g and sinC = sqrt(1-cosC²):
// cos(max(0, θ_xg - θ_cg)).
func capBound(s, sinS, cosC, sinC float64) float64 {
	if s >= cosC {
		return 1
	}
	return s*cosC + sinS*sinC
}

// Nearest returns the list nearest to the unit vector u, the one
// Lists.NearestUnit returns (ties by the smaller list), pruning with the
// bounds of the Tree doc. u must have length 1 (within 1e-3 in its
// squared norm); another vector, such as the zero vector, is searched
// exhaustively.
func (t Tree) Nearest(u []float32, s *TreeScratch) int {
	l := t.lists
	g := t.groups.Len()
	var nn float64
	for _, x := range u {
		nn += float64(x) * float64(x)
	}
	if g == 0 || math.Abs(nn-1) > 1e-3 {
		s.Dots += int64(l.Len())
		return l.NearestUnit(u, s.all)
	}
	t.groups.dots(u, t.groups.C, s.groups)
	s.Dots += int64(g)
	first := 0
	for j := 0; j < g; j++ {
		x := min(1, max(-1, float64(s.groups[j])))
		s.gsin[j] = math.Sqrt(1 - x*x)
		if s.groups[j] > s.groups[first] {
			first = j
		}
	}
	dim := l.Dim
	best, bestScore := -1, float32(0)
	scan := func(out []float32, list func(i int) int) {
		for i, d := range out {
			c := list(i)
			if best < 0 || d > bestScore || (d == bestScore && c < best) {
				best, bestScore = c, d
			}
		}
	}
	// The nearest group whole, for a good first best.
	from, to := t.start[first], t.start[first+1]
	out := s.dots[:to-from]
	l.dots(u, t.c[from*dim:to*dim], out)
	s.Dots += int64(to - from)
	scan(out, func(i int) int { return t.list[from+i] })

	// The lists within twice the best's angle of it, if it keeps them all.
	theta := math.Acos(min(1, max(-1, float64(bestScore))))
	reach := math.Cos(min(math.Pi, 2*theta+1e-3)) - treeMargin
	b := best
	if nb := t.nbCos[b*t.m : (b+1)*t.m]; t.m == l.Len()-1 || float64(nb[t.m-1]) < reach {
		lim := float64(bestScore) - treeMargin
		n := 0
		for i, c32 := range t.nb[b*t.m : (b+1)*t.m] {
			if float64(nb[i]) < reach {
				break
			}
			c := int(c32)
			pos := t.pos[c]
			if pos >= t.start[first] && pos < t.start[first+1] {
				continue
			}
			j := t.gof[pos]
			if capBound(float64(s.groups[j]), s.gsin[j], t.cosG[pos], t.sinG[pos]) < lim {
				continue
			}
			copy(s.gather[n*dim:(n+1)*dim], t.c[pos*dim:(pos+1)*dim])
			s.ids[n] = c
			n++
		}
		if n > 0 {
			out := s.dots[:n]
			l.dots(u, s.gather[:n*dim], out)
			s.Dots += int64(n)
			scan(out, func(i int) int { return s.ids[i] })
		}
		return best
	}

	// Otherwise every other group whose cap bound (its last list's, the
	// one of largest angle from g) reaches the best, each from the first
	// list whose own bound does, in group order: after the nearest group
	// the best rarely improves, so ordering the groups by bound saves
	// fewer dot products than the sort costs.
	for j := 0; j < g; j++ {
		if j == first {
			continue
		}
		lim := float64(bestScore) - treeMargin
		from, to := t.start[j], t.start[j+1]
		x, sx := float64(s.groups[j]), s.gsin[j]
		if from == to || capBound(x, sx, t.cosG[to-1], t.sinG[to-1]) < lim {
			continue
		}
		for from < to && capBound(x, sx, t.cosG[from], t.sinG[from]) < lim {
			from++
		}
		out := s.dots[:to-from]
		l.dots(u, t.c[from*dim:to*dim], out)
		s.Dots += int64(to - from)
		scan(out, func(i int) int { return t.list[from+i] })
	}
	return best
}
