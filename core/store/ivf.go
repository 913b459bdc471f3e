package store

import (
	"context"
	"database/sql"
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
// list's last chunk only, so deletes leave holes); and always in a Bulk
// store, whose vectors wait in vec_pending for it. It clusters a sample of
// 32 vectors per list (ivf.Plan) into one list per ListSize vectors by
// spherical k-means (ivf.Plan.Train), then rewrites chunk_vecs with every
// vector in its nearest list, in list order, in one transaction. Readers
// see the old or the new index, never a mix. The cost is a few seconds at
// 160,000 vectors.
//
// Its memory does not grow with the index beyond the sample (dim float32
// per sampled vector, a tenth of the vectors) and the centroids: the
// vectors stream past twice, once to take the sample and once in
// batches of trainBatch that are assigned their list and written, with
// their chunk id, to a staging table whose key is (list, chunk id); the
// new chunk_vecs is then filled from it in key order.
func (s *Store) TrainVectorLists(ctx context.Context) (int, error) {
	if !s.vecOK {
		return 0, nil
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	wrap := func(err error) error { return fmt.Errorf("train vector lists: %w", err) }
	var n, chunks, lists, pending int
	if err := tx.tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM chunk_vecs_rowids),
		(SELECT count(*) FROM chunk_vecs_chunks), (SELECT count(*) FROM chunk_vec_lists)`).Scan(&n, &chunks, &lists); err != nil {
		return 0, wrap(err)
	}
	if s.pending {
		if err := tx.tx.QueryRowContext(ctx, "SELECT count(*) FROM vec_pending").Scan(&pending); err != nil {
			return 0, wrap(err)
		}
		n += pending
	}
	grown := (lists == 0 && n >= MinTrain) || (lists > 0 && n > 2*ListSize*lists)
	holey := chunks*s.vecSlots > 2*n+(lists+1)*s.vecSlots
	if !grown && !holey && !s.pending {
		return lists, nil
	}
	cent := ivf.Lists{Dim: s.vecDim, Dots: dotsF32}
	if n >= MinTrain {
		// The sample KMeans would draw from all n vectors in scan order,
		// taken as they stream past: by position, each into its slot.
		p := ivf.NewPlan(n, n/ListSize)
		slots := make([]int, len(p.Pos))
		for i := range slots {
			slots[i] = i
		}
		slices.SortFunc(slots, func(a, b int) int { return p.Pos[a] - p.Pos[b] })
		backing := make([]float32, len(p.Pos)*s.vecDim)
		sample := make([][]float32, len(p.Pos))
		at, next := 0, 0
		err := s.eachVector(ctx, tx.tx, func(_ int64, v []byte) {
			if next < len(slots) && p.Pos[slots[next]] == at {
				slot := slots[next]
				sample[slot] = appendUnit(backing[slot*s.vecDim:slot*s.vecDim], v)
				next++
			}
			at++
		})
		if err != nil {
			return 0, wrap(err)
		}
		if next == len(slots) && next > 0 {
			cent = p.Train(sample, dotsF32)
		}
	}
	for _, q := range []string{"DROP TABLE IF EXISTS vec_stage", stageVecSQL} {
		if _, err := tx.tx.ExecContext(ctx, q); err != nil {
			return 0, wrap(err)
		}
	}
	if err := s.stageVectors(ctx, tx.tx, cent); err != nil {
		return 0, wrap(err)
	}
	stmts := append([]string{"DROP TABLE chunk_vecs", "DELETE FROM chunk_vec_lists"}, createVecSQL(s.vecDim, s.vecSlots)...)
	for _, q := range stmts {
		if _, err := tx.tx.ExecContext(ctx, q); err != nil {
			return 0, wrap(err)
		}
	}
	for c := 0; c < cent.Len(); c++ {
		b := make([]byte, 4*cent.Dim)
		for i, x := range cent.Centroid(c) {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		if _, err := tx.tx.ExecContext(ctx, "INSERT INTO chunk_vec_lists(list, centroid) VALUES(?, ?)", c, b); err != nil {
			return 0, wrap(err)
		}
	}
	for _, q := range []string{
		"INSERT INTO chunk_vecs(rowid, list, embedding) SELECT id, list, vec_int8(v) FROM vec_stage ORDER BY list, id",
		"DROP TABLE vec_stage",
		"DROP TABLE IF EXISTS vec_pending",
	} {
		if _, err := tx.tx.ExecContext(ctx, q); err != nil {
			return 0, wrap(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, wrap(err)
	}
	s.vecMu.Lock()
	s.lists = &cent
	s.vecMu.Unlock()
	s.pending = false
	return cent.Len(), nil
}

// stageVecSQL creates the staging table of TrainVectorLists: every vector
// with its new list, kept in (list, chunk id) order by its key. It lives
// in the index file, not in memory (temp_store is MEMORY), and only
// inside TrainVectorLists's transaction.
const stageVecSQL = "CREATE TABLE vec_stage (list INTEGER NOT NULL, id INTEGER NOT NULL, v BLOB NOT NULL, PRIMARY KEY (list, id)) WITHOUT ROWID"

// trainBatch is how many vectors TrainVectorLists assigns to their lists
// at a time (on every core) before it writes them to the staging table:
// about 1.3 MB of vectors and unit vectors at 100 dimensions.
const trainBatch = 2048

// stageVectors streams every live vector of chunk_vecs, in batches of
// trainBatch, to vec_stage with its nearest list of cent.
func (s *Store) stageVectors(ctx context.Context, tx *sql.Tx, cent ivf.Lists) error {
	ins, err := tx.PrepareContext(ctx, "INSERT INTO vec_stage(list, id, v) VALUES(?, ?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	dim := s.vecDim
	ids := make([]int64, 0, trainBatch)
	raw := make([]byte, 0, trainBatch*dim)
	backing := make([]float32, 0, trainBatch*dim)
	units := make([][]float32, 0, trainBatch)
	var werr error
	tree := cent.Tree() // once: its neighbour lists cost Len()² dot products
	flush := func() {
		if werr != nil || len(ids) == 0 {
			return
		}
		assign := tree.Assign(units)
		for i, id := range ids {
			if _, err := ins.ExecContext(ctx, assign[i], id, raw[i*dim:(i+1)*dim]); err != nil {
				werr = err
				return
			}
		}
		ids, raw, backing, units = ids[:0], raw[:0], backing[:0], units[:0]
	}
	err = s.eachVector(ctx, tx, func(id int64, v []byte) {
		ids, raw = append(ids, id), append(raw, v...)
		at := len(backing)
		backing = appendUnit(backing, v)
		units = append(units, backing[at:len(backing):len(backing)])
		if len(ids) == trainBatch {
			flush()
		}
	})
	flush()
	if err != nil {
		return err
	}
	return werr
}

// eachVector calls fn with the chunk id and int8 bytes of every live
// vector of chunk_vecs, in the order of vec0's chunks, and then of every
// vector of vec_pending (a Bulk store's), by chunk id; v is valid only
// during the call.
func (s *Store) eachVector(ctx context.Context, db queryer, fn func(id int64, v []byte)) error {
	err := s.eachChunk(ctx, db, nil, func(c *vecChunk) {
		for i := 0; i < c.size; i++ {
			if c.live(i) {
				fn(c.id(i), c.vec(i))
			}
		}
	})
	if err != nil || !s.pending {
		return err
	}
	rows, err := db.QueryContext(ctx, "SELECT id, v FROM vec_pending ORDER BY id")
	if err != nil {
		return fmt.Errorf("vector scan: %w", err)
	}
	defer rows.Close()
	var id int64
	var v sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&id, &v); err != nil {
			return fmt.Errorf("vector scan: %w", err)
		}
		if len(v) != s.vecDim {
			return fmt.Errorf("vector scan: pending vector of chunk %d has %d bytes, not %d", id, len(v), s.vecDim)
		}
		fn(id, v)
	}
	return rows.Err()
}

// appendUnit appends the int8 vector v (as bytes) as a unit float32
// vector, as ivf.Vec.Unit makes it, to dst.
func appendUnit(dst []float32, v []byte) []float32 {
	var n int32
	for _, b := range v {
		x := int32(int8(b))
		n += x * x
	}
	if n == 0 {
		return append(dst, make([]float32, len(v))...)
	}
	norm := math.Sqrt(float64(n))
	for _, b := range v {
		dst = append(dst, float32(float64(int8(b))/norm))
	}
	return dst
}
