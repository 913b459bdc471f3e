package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// ivfLists are the IVF centroids: unit float32 vectors in the centred
// space, back to back, list i's at c[i·dim:]. No centroids means one list,
// 0, holding every vector.
type ivfLists struct {
	dim int
	c   []float32
}

// len returns the number of lists (0 before training).
func (l ivfLists) len() int {
	if l.dim == 0 {
		return 0
	}
	return len(l.c) / l.dim
}

func (l ivfLists) centroid(i int) []float32 { return l.c[i*l.dim : (i+1)*l.dim] }

// kmeansSeed fixes the sample and the initial centroids, so that the same
// vectors always give the same lists.
const kmeansSeed = 0x7661756c74637478 // "vaultctx"

// kmeansIters is the number of Lloyd iterations of the list training.
const kmeansIters = 6

// kmeansSample is the number of sample vectors per list that the training
// clusters.
const kmeansSample = 32

// nearest returns the list whose centroid is nearest to q (0 without
// lists).
func (l ivfLists) nearest(q i8) int64 {
	if l.len() == 0 {
		return 0
	}
	return int64(l.nearestUnit(q.unit(), make([]float32, l.len())))
}

// nearestUnit returns the list nearest to the unit vector u; scores is
// scratch space of l.len() floats.
func (l ivfLists) nearestUnit(u, scores []float32) int {
	dotsF32(u, l.c, scores)
	best := 0
	for c, d := range scores {
		if d > scores[best] {
			best = c
		}
	}
	return best
}

// loadLists returns the centroids, reading them through db on first use.
func (s *Store) loadLists(ctx context.Context, db queryer) (ivfLists, error) {
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	if s.lists != nil {
		return *s.lists, nil
	}
	rows, err := db.QueryContext(ctx, "SELECT list, centroid FROM chunk_vec_lists ORDER BY list")
	if err != nil {
		return ivfLists{}, fmt.Errorf("vector lists: %w", err)
	}
	defer rows.Close()
	l := ivfLists{dim: s.vecDim}
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return l, fmt.Errorf("vector lists: %w", err)
		}
		if id != int64(l.len()) || len(b) != 4*s.vecDim {
			return l, fmt.Errorf("vector lists: list %d is corrupt", id)
		}
		for i := 0; i < s.vecDim; i++ {
			l.c = append(l.c, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		}
	}
	if err := rows.Err(); err != nil {
		return l, fmt.Errorf("vector lists: %w", err)
	}
	s.lists = &l
	return l, nil
}

// VectorLists returns the number of IVF lists (0 before the first
// TrainVectorLists, when a query scans every vector).
func (s *Store) VectorLists(ctx context.Context) (int, error) {
	if !s.vecOK {
		return 0, nil
	}
	l, err := s.loadLists(ctx, s.db)
	return l.len(), err
}

// TrainVectorLists rebuilds the IVF lists when the index has outgrown
// them, and returns the number of lists after it. A rebuild happens when
// there are no lists yet and at least MinTrain vectors; when the vectors
// have grown past twice ListSize per list; or when vec0 holds more than
// twice as many slots as live vectors (vec0 reuses the free slots of a
// list's last chunk only, so deletes leave holes). It clusters a sample of
// kmeansSample vectors per list into one list per ListSize vectors by
// spherical k-means (Lloyd iterations on unit vectors, ranking by cosine:
// Dhillon and Modha, "Concept decompositions for large sparse text data
// using clustering", Machine Learning 2001), then rewrites chunk_vecs with
// every vector in its nearest list, in list order, in one transaction.
// Readers see the old or the new index, never a mix. The cost is a few
// seconds at 160,000 vectors.
func (s *Store) TrainVectorLists(ctx context.Context) (int, error) {
	if !s.vecOK {
		return 0, nil
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var n, chunks, lists int
	if err := tx.tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM chunk_vecs_rowids),
		(SELECT count(*) FROM chunk_vecs_chunks), (SELECT count(*) FROM chunk_vec_lists)`).Scan(&n, &chunks, &lists); err != nil {
		return 0, fmt.Errorf("train vector lists: %w", err)
	}
	grown := (lists == 0 && n >= MinTrain) || (lists > 0 && n > 2*ListSize*lists)
	holey := chunks*ListChunk > 2*n+(lists+1)*ListChunk
	if !grown && !holey {
		return lists, nil
	}
	var ids []int64
	var vecs []i8
	err = s.eachChunk(ctx, tx.tx, nil, func(c *vecChunk) {
		for i := 0; i < c.size; i++ {
			if !c.live(i) {
				continue
			}
			q := make(i8, c.dim)
			for j, b := range c.vec(i) {
				q[j] = int8(b)
			}
			ids, vecs = append(ids, c.id(i)), append(vecs, q)
		}
	})
	if err != nil {
		return 0, fmt.Errorf("train vector lists: %w", err)
	}
	units := make([][]float32, len(vecs))
	for i, v := range vecs {
		units[i] = v.unit()
	}
	cent := ivfLists{dim: s.vecDim}
	if len(vecs) >= MinTrain {
		cent = kmeans(units, len(vecs)/ListSize)
	}
	assign := cent.assign(units)
	stmts := append([]string{"DROP TABLE chunk_vecs", "DELETE FROM chunk_vec_lists"}, createVecSQL(s.vecDim)...)
	for _, q := range stmts {
		if _, err := tx.tx.ExecContext(ctx, q); err != nil {
			return 0, fmt.Errorf("train vector lists: %w", err)
		}
	}
	for c := 0; c < cent.len(); c++ {
		b := make([]byte, 4*cent.dim)
		for i, x := range cent.centroid(c) {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		if _, err := tx.tx.ExecContext(ctx, "INSERT INTO chunk_vec_lists(list, centroid) VALUES(?, ?)", c, b); err != nil {
			return 0, fmt.Errorf("train vector lists: %w", err)
		}
	}
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if assign[a] != assign[b] {
			return assign[a] - assign[b]
		}
		return int(ids[a] - ids[b])
	})
	ins, err := tx.tx.PrepareContext(ctx, insertVecSQL)
	if err != nil {
		return 0, fmt.Errorf("train vector lists: %w", err)
	}
	defer ins.Close()
	for _, i := range order {
		if _, err := ins.ExecContext(ctx, ids[i], assign[i], vecs[i].bytes()); err != nil {
			return 0, fmt.Errorf("train vector lists: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("train vector lists: %w", err)
	}
	s.vecMu.Lock()
	s.lists = &cent
	s.vecMu.Unlock()
	return cent.len(), nil
}

// assign returns the nearest list of each unit vector, on every core.
func (l ivfLists) assign(units [][]float32) []int {
	out := make([]int, len(units))
	if l.len() == 0 {
		return out
	}
	parallel(len(units), func(i int, scores []float32) { out[i] = l.nearestUnit(units[i], scores) }, l.len())
	return out
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

// kmeans clusters unit vectors into k unit centroids by spherical k-means:
// kmeansIters Lloyd iterations on a seeded sample of kmeansSample·k
// vectors, starting from k distinct sample vectors; a list left empty
// restarts from a random sample vector.
func kmeans(units [][]float32, k int) ivfLists {
	r := rand.New(rand.NewPCG(kmeansSeed, uint64(len(units))))
	perm := r.Perm(len(units))
	sample := make([][]float32, 0, min(len(units), kmeansSample*k))
	for _, i := range perm[:cap(sample)] {
		sample = append(sample, units[i])
	}
	k = min(k, len(sample))
	dim := len(units[0])
	cent := ivfLists{dim: dim, c: make([]float32, 0, k*dim)}
	for c := 0; c < k; c++ {
		cent.c = append(cent.c, sample[c]...)
	}
	for it := 0; it < kmeansIters; it++ {
		assign := cent.assign(sample)
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
				copy(cent.centroid(c), sample[r.IntN(len(sample))])
				continue
			}
			var n float64
			for _, x := range sums[c*dim : (c+1)*dim] {
				n += x * x
			}
			n = math.Sqrt(n)
			if n == 0 {
				copy(cent.centroid(c), sample[r.IntN(len(sample))])
				continue
			}
			for j, x := range sums[c*dim : (c+1)*dim] {
				cent.c[c*dim+j] = float32(x / n)
			}
		}
	}
	return cent
}
