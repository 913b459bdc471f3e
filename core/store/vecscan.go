package store

/*
#include <sqlite3.h>

int vaultctx_vecscan_init(sqlite3 *db, char **err, const void *api);

static void vaultctx_vecscan_auto(void) {
	sqlite3_auto_extension((void (*)(void))vaultctx_vecscan_init);
}
*/
import "C"

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// The query side of the vector index runs in SQL functions of our own
// (vecscan.c), registered on every connection like sqlite-vec itself. The
// driver copies every blob a query returns into Go memory, and in a
// process that lives for one query each fresh page of memory costs a page
// fault: reading the ~18,000 probed vectors into Go cost more than scoring
// them. Inside SQLite the functions read each value where it lies (a
// memory-mapped page) and return only the k hits.

// registerVecScan makes every new connection of this process define
// vaultctx_knn and vaultctx_nearest.
func registerVecScan() { C.vaultctx_vecscan_auto() }

// nearestLists returns the n IVF list ids nearest to q (all of them when
// n <= 0), nearest first (ties by smaller id), ranked inside SQLite; nil
// when there are no lists.
func (s *Store) nearestLists(ctx context.Context, q ivf.Vec, n int) ([]int64, error) {
	u := q.Unit()
	b := make([]byte, 4*len(u))
	for i, x := range u {
		binary.NativeEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	var raw []byte
	err := s.db.QueryRowContext(ctx, "SELECT vaultctx_nearest(?, ?, list, centroid) FROM chunk_vec_lists", b, n).Scan(&raw)
	if err != nil {
		return nil, fmt.Errorf("vector lists: %w", err)
	}
	ids := make([]int64, len(raw)/8)
	for i := range ids {
		ids[i] = int64(binary.NativeEndian.Uint64(raw[8*i:]))
	}
	return ids, nil
}

// scanLists scores every vector in the given lists (all lists when probe
// is nil) by cosine with q and returns the k best, best first (ties by
// smaller id). The scoring runs in vaultctx_knn; scanListsGo is the same
// scan in Go.
func (s *Store) scanLists(ctx context.Context, q ivf.Vec, probe []int64, k int) ([]Hit, error) {
	query := `SELECT vaultctx_knn(?, ?, c.validity, c.rowids, v.vectors)
		FROM chunk_vecs_chunks c JOIN chunk_vecs_vector_chunks00 v ON v._rowid_ = c.chunk_id`
	args := []any{q.Bytes(), k}
	if len(probe) > 0 {
		query += " WHERE c.partition00 IN (?" + strings.Repeat(",?", len(probe)-1) + ")"
		for _, l := range probe {
			args = append(args, l)
		}
	}
	var raw []byte
	if err := s.db.QueryRowContext(ctx, query, args...).Scan(&raw); err != nil {
		return nil, fmt.Errorf("vector scan: %w", err)
	}
	out := make([]Hit, len(raw)/16)
	for i := range out {
		out[i] = Hit{
			ChunkID: int64(binary.NativeEndian.Uint64(raw[16*i:])),
			Score:   math.Float64frombits(binary.NativeEndian.Uint64(raw[16*i+8:])),
		}
	}
	return out, nil
}
