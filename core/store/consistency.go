package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// ErrInconsistent is returned (wrapped) by Consistency when the tables of
// the index disagree: vector blobs of the wrong length or contents,
// vectors or FTS5 rows of no chunk, chunks without them. Searches then
// give wrong results without an error; a full index (`vaultctx index
// --full`) builds every table anew.
var ErrInconsistent = errors.New("index tables disagree")

// Consistency checks that the rows of the index agree, which
// integrity_check (pages and b-trees) cannot see. It returns nil, or an
// error wrapping ErrInconsistent that names each disagreement and how
// many rows it concerns. It only reads.
//
// The cheap form (deep false; an index run calls it) compares counts and
// blob lengths, which SQLite reads from each row's header without the
// blob: as many FTS5 rows (chunks_fts_docsize) as chunks; with vectors, as
// many vectors (chunk_vecs_rowids) as chunks, every vec0 vector blob
// chunk×dim bytes, every rowids blob 8×chunk and validity blob chunk/8
// (chunk: meta vec_chunk), a vector blob for every vec0 chunk, and as many set bits
// in the validity blobs (8 bytes each, read whole) as vectors.
//
// deep (doctor) also matches the rows one by one: every chunk has an FTS5
// row and a vector and no FTS5 row or vector lacks its chunk; each live
// vec0 slot's chunk id is one whose rowid entry points back at the slot;
// and each live vector is as Quantize makes it: components in
// [-127, 127] with the largest magnitude exactly 127, or all zero (a
// random blob of the right length passes this for a single vector with
// odds of about 1 in 5, for a whole vec0 chunk of 64 practically never).
func (s *Store) Consistency(ctx context.Context, deep bool) error {
	if !s.opt.ReadOnly {
		// A writer reads through pread (mmap_size=0, see open), and the
		// check reads every page of the vector chunks, the chunk ids and
		// FTS5's sizes (about 30 MB at 163k chunks, mostly vectors):
		// through a memory map it took 4 ms instead of 16 in a fresh
		// process, most of a nothing-changed index run's difference from
		// the build before the check (issue 17). A writer has one
		// connection, so the setting holds for the check's queries.
		if _, err := s.db.ExecContext(ctx, "PRAGMA mmap_size="+strconv.Itoa(readerMmap)); err == nil {
			defer s.db.ExecContext(context.WithoutCancel(ctx), "PRAGMA mmap_size=0")
		}
	}
	var problems []string
	add := func(n int64, what string) {
		if n > 0 {
			problems = append(problems, fmt.Sprintf("%d %s", n, what))
		}
	}
	count := func(q string, args ...any) (int64, error) {
		var n int64
		if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			return 0, fmt.Errorf("consistency: %w", err)
		}
		return n, nil
	}
	chunks, err := count("SELECT count(*) FROM chunks")
	if err != nil {
		return err
	}
	fts, err := count("SELECT count(*) FROM chunks_fts_docsize")
	if err != nil {
		return err
	}
	if fts != chunks {
		problems = append(problems, fmt.Sprintf("%d FTS5 rows for %d chunks", fts, chunks))
	}
	if deep {
		for _, c := range []struct{ q, what string }{
			{"SELECT count(*) FROM chunks WHERE id NOT IN (SELECT id FROM chunks_fts_docsize)", "chunks without an FTS5 row"},
			{"SELECT count(*) FROM chunks_fts_docsize WHERE id NOT IN (SELECT id FROM chunks)", "FTS5 rows of no chunk"},
		} {
			n, err := count(c.q)
			if err != nil {
				return err
			}
			add(n, c.what)
		}
	}
	if s.vecOK {
		vp, err := s.vecConsistency(ctx, chunks, deep, count)
		if err != nil {
			return err
		}
		problems = append(problems, vp...)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrInconsistent, strings.Join(problems, "; "))
	}
	return nil
}

// liveSlots sums the set bits of every vec0 validity map: the vectors
// the vector index holds.
func (s *Store) liveSlots(ctx context.Context) (int64, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT validity FROM chunk_vecs_chunks")
	if err != nil {
		return 0, fmt.Errorf("consistency: %w", err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		var v []byte
		if err := rows.Scan(&v); err != nil {
			return 0, fmt.Errorf("consistency: %w", err)
		}
		for _, b := range v {
			n += int64(bits.OnesCount8(b))
		}
	}
	return n, rows.Err()
}

func (s *Store) vecConsistency(ctx context.Context, chunks int64, deep bool, count func(string, ...any) (int64, error)) ([]string, error) {
	var problems []string
	add := func(n int64, what string) {
		if n > 0 {
			problems = append(problems, fmt.Sprintf("%d %s", n, what))
		}
	}
	vecs, err := count("SELECT count(*) FROM chunk_vecs_rowids")
	if err != nil {
		return nil, err
	}
	if vecs != chunks {
		problems = append(problems, fmt.Sprintf("%d vectors for %d chunks", vecs, chunks))
	}
	for _, c := range []struct {
		q    string
		args []any
		what string
	}{
		{"SELECT count(*) FROM chunk_vecs_vector_chunks00 WHERE length(vectors) != ?", []any{s.vecSlots * s.vecDim}, fmt.Sprintf("vector blobs not of %d bytes", s.vecSlots*s.vecDim)},
		{"SELECT count(*) FROM chunk_vecs_chunks WHERE length(rowids) != ? OR length(validity) != ?", []any{8 * s.vecSlots, s.vecSlots / 8}, "vector slot maps of the wrong length"},
		{"SELECT count(*) FROM chunk_vecs_chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vecs_vector_chunks00 v WHERE v._rowid_ = c.chunk_id)", nil, "vector chunks without their vectors"},
	} {
		n, err := count(c.q, c.args...)
		if err != nil {
			return nil, err
		}
		add(n, c.what)
	}
	// As many live slots as vectors: the validity maps are 8 bytes per
	// vec0 chunk, so summing their bits is cheap. A zeroed map drops its
	// chunk's vectors from search without an error, and sqlite-vec
	// refuses to delete from it.
	slots, err := s.liveSlots(ctx)
	if err != nil {
		return nil, err
	}
	if slots != vecs {
		problems = append(problems, fmt.Sprintf("%d live vector slots for %d vectors", slots, vecs))
	}
	if !deep || len(problems) > 0 {
		return problems, nil
	}
	for _, c := range []struct{ q, what string }{
		{"SELECT count(*) FROM chunks WHERE id NOT IN (SELECT rowid FROM chunk_vecs_rowids)", "chunks without a vector"},
		{"SELECT count(*) FROM chunk_vecs_rowids WHERE rowid NOT IN (SELECT id FROM chunks)", "vectors of no chunk"},
	} {
		n, err := count(c.q)
		if err != nil {
			return nil, err
		}
		add(n, c.what)
	}
	// Each live slot against the rowid map, and its vector's shape.
	type slot struct{ chunk, offset int64 }
	live := map[int64]slot{}
	var badVec, twice int64
	rows, err := s.db.QueryContext(ctx, `SELECT c.chunk_id, c.validity, c.rowids, v.vectors
		FROM chunk_vecs_chunks c JOIN chunk_vecs_vector_chunks00 v ON v._rowid_ = c.chunk_id`)
	if err != nil {
		return nil, fmt.Errorf("consistency: %w", err)
	}
	for rows.Next() {
		var chunk int64
		var validity, rowids, vectors []byte
		if err := rows.Scan(&chunk, &validity, &rowids, &vectors); err != nil {
			rows.Close()
			return nil, fmt.Errorf("consistency: %w", err)
		}
		c := vecChunk{dim: s.vecDim, validity: validity, rowids: rowids, vectors: vectors}
		c.size = min(len(vectors)/c.dim, len(rowids)/8, len(validity)*8)
		for i := range c.size {
			if !c.live(i) {
				continue
			}
			id := int64(binary.LittleEndian.Uint64(rowids[8*i:]))
			if _, dup := live[id]; dup {
				twice++
			}
			live[id] = slot{chunk, int64(i)}
			if !quantized(c.vec(i)) {
				badVec++
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("consistency: %w", err)
	}
	add(badVec, "vectors not as quantised (random contents)")
	add(twice, "chunk ids in two vector slots")
	if int64(len(live)) != vecs {
		problems = append(problems, fmt.Sprintf("%d live vector slots for %d vectors", len(live), vecs))
	}
	rows, err = s.db.QueryContext(ctx, "SELECT rowid, chunk_id, chunk_offset FROM chunk_vecs_rowids")
	if err != nil {
		return nil, fmt.Errorf("consistency: %w", err)
	}
	defer rows.Close()
	var stray int64
	for rows.Next() {
		var id int64
		var sl slot
		if err := rows.Scan(&id, &sl.chunk, &sl.offset); err != nil {
			return nil, fmt.Errorf("consistency: %w", err)
		}
		if got, ok := live[id]; !ok || got != sl {
			stray++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("consistency: %w", err)
	}
	add(stray, "vectors whose slot holds another chunk id or none")
	return problems, nil
}

// quantized reports whether the int8 vector v is as ivf.Quantize makes
// it: all zero, or components in [-127, 127] whose largest magnitude is
// 127.
func quantized(v []byte) bool {
	top := 0
	for _, b := range v {
		x := int(int8(b))
		if x == -128 {
			return false
		}
		top = max(top, x, -x)
	}
	return top == 127 || top == 0
}
