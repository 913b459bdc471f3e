package store

// Slow or plain references that tests compare the fast paths against.

import (
	"context"
	"math"

	"github.com/vaultctx/vaultctx/core/internal/ivf"
	"github.com/vaultctx/vaultctx/core/internal/topk"
)

// scanListsGo scores every vector in the given lists (all lists when probe
// is nil) by cosine with q and returns the k best: scanLists in Go, over
// blobs copied out of SQLite, kept as its reference.
func (s *Store) scanListsGo(ctx context.Context, q ivf.Vec, probe []int64, k int) ([]Hit, error) {
	top := topk.New(k)
	qn := q.Norm()
	dot, nn := make([]int32, ListChunk), make([]int32, ListChunk)
	err := s.eachChunk(ctx, s.db, probe, func(c *vecChunk) {
		if len(dot) < c.size {
			dot, nn = make([]int32, c.size), make([]int32, c.size)
		}
		dotsI8(q, c.vectors, dot[:c.size], nn[:c.size])
		for i := 0; i < c.size; i++ {
			if !c.live(i) {
				continue
			}
			score := 0.0
			if qn != 0 && nn[i] != 0 {
				score = float64(dot[i]) / (qn * math.Sqrt(float64(nn[i])))
			}
			top.Offer(c.id(i), score)
		}
	})
	if err != nil {
		return nil, err
	}
	return topHits(top), nil
}

// vec0Hits is the slow reference for scanLists: vec0's own KNN over the
// same int8 vectors (cosine distance), in one list or all (list < 0).
func (s *Store) vec0Hits(ctx context.Context, q ivf.Vec, list int64, k int) ([]Hit, error) {
	query := "SELECT rowid, distance FROM chunk_vecs WHERE embedding MATCH vec_int8(?) AND k = ?"
	args := []any{q.Bytes(), k}
	if list >= 0 {
		query += " AND list = ?"
		args = append(args, list)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var id int64
		var d float64
		if err := rows.Scan(&id, &d); err != nil {
			return nil, err
		}
		out = append(out, Hit{ChunkID: id, Score: 1 - d})
	}
	return out, rows.Err()
}
