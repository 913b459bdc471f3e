package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// loadLists returns the centroids, reading them through db on first use.
func (s *Store) loadLists(ctx context.Context, db queryer) (ivf.Lists, error) {
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	if s.lists != nil {
		return *s.lists, nil
	}
	rows, err := db.QueryContext(ctx, "SELECT list, centroid FROM chunk_vec_lists ORDER BY list")
	if err != nil {
		return ivf.Lists{}, fmt.Errorf("vector lists: %w", err)
	}
	defer rows.Close()
	l := ivf.Lists{Dim: s.vecDim, Dots: dotsF32}
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return l, fmt.Errorf("vector lists: %w", err)
		}
		if id != int64(l.Len()) || len(b) != 4*s.vecDim {
			return l, fmt.Errorf("vector lists: list %d is corrupt", id)
		}
		for i := 0; i < s.vecDim; i++ {
			l.C = append(l.C, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
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
	return l.Len(), err
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
	var vecs []ivf.Vec
	err = s.eachChunk(ctx, tx.tx, nil, func(c *vecChunk) {
		for i := 0; i < c.size; i++ {
			if !c.live(i) {
				continue
			}
			q := make(ivf.Vec, c.dim)
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
		units[i] = v.Unit()
	}
	cent := ivf.Lists{Dim: s.vecDim, Dots: dotsF32}
	if len(vecs) >= MinTrain {
		cent = ivf.KMeans(units, len(vecs)/ListSize, dotsF32)
	}
	assign := cent.Assign(units)
	stmts := append([]string{"DROP TABLE chunk_vecs", "DELETE FROM chunk_vec_lists"}, createVecSQL(s.vecDim)...)
	for _, q := range stmts {
		if _, err := tx.tx.ExecContext(ctx, q); err != nil {
			return 0, fmt.Errorf("train vector lists: %w", err)
		}
	}
	for c := 0; c < cent.Len(); c++ {
		b := make([]byte, 4*cent.Dim)
		for i, x := range cent.Centroid(c) {
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
		if _, err := ins.ExecContext(ctx, ids[i], assign[i], vecs[i].Bytes()); err != nil {
			return 0, fmt.Errorf("train vector lists: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("train vector lists: %w", err)
	}
	s.vecMu.Lock()
	s.lists = &cent
	s.vecMu.Unlock()
	return cent.Len(), nil
}
