package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
)

// Vector index layout.
//
// sqlite-vec's brute-force KNN costs tens of ms per query at ~120,000
// chunks (its float32 and int8 distances are scalar C, and its top-k
// selection is O(n·k)), so a query runs in two stages:
//
//  1. chunk_vecs, a vec0 table keyed by chunk id, holds a B-bit SimHash
//     code of each embedding: the sign bits of a seeded fast random
//     rotation (random ±1 diagonal, then a Walsh–Hadamard transform) of the
//     embedding minus the corpus centre, with B = 2·P bits for P the
//     embedding dimension rounded up to a power of two (Charikar, "Similarity
//     estimation techniques from rounding algorithms", STOC 2002: the
//     Hamming distance of such codes estimates the angle). The scan reads
//     vec0's own chunk blobs (1,024 codes each) and ranks every code by
//     Hamming distance in Go, which takes well under a millisecond;
//     hammingVec0 cross-checks it against vec0's own MATCH in the tests.
//  2. chunk_vec_i8 holds each embedding as int8 (scale max|v|/127); the
//     best Candidates(k) codes are re-scored by exact cosine on those.
//
// The centre is the mean embedding of the first batch indexed, stored in
// meta('vec_center'); subtracting it spreads the bits of static embeddings,
// which all share a common direction.

// Oversample is the number of Hamming candidates re-scored per requested
// neighbour. Measured on the large corpus with GloVe vectors, re-scoring
// 200 candidates gave recall@10 0.975 on 20 queries but 0.933 on the 73
// queries of eval/large-queries.jsonl, and 300 give 0.985 and recall@30
// 0.948; each re-scored candidate costs a point lookup of about 10-20 µs,
// so depth is the price of recall.
const Oversample = 10

// MinCandidates is the least number of Hamming candidates re-scored.
const MinCandidates = 300

// Candidates returns how many Hamming candidates a k-NN query re-scores.
func Candidates(k int) int { return max(k*Oversample, MinCandidates) }

func (s *Store) initVec(ctx context.Context) error {
	var v string
	if err := s.db.QueryRowContext(ctx, "SELECT vec_version()").Scan(&v); err != nil {
		s.vecOK = false
		return nil // sqlite-vec not loadable: BM25 only
	}
	d, err := s.Meta(ctx, "vec_dim")
	if err != nil {
		return err
	}
	if d == "" {
		return nil
	}
	dim, err := strconv.Atoi(d)
	if err != nil || dim <= 0 {
		return fmt.Errorf("meta vec_dim %q is not a dimension", d)
	}
	s.vecDim = dim
	s.vecOK = true
	return nil
}

// VecLoadable reports whether the sqlite-vec extension answered in this
// process.
func (s *Store) VecLoadable(ctx context.Context) bool {
	var v string
	return s.db.QueryRowContext(ctx, "SELECT vec_version()").Scan(&v) == nil
}

// VecAvailable reports whether the file holds a vector index that this
// process can query: sqlite-vec loaded and a model's vectors present.
func (s *Store) VecAvailable() bool { return s.vecOK }

// VecDim returns the stored vector dimension, or 0 without vectors.
func (s *Store) VecDim() int { return s.vecDim }

// EnsureVec prepares the vector tables for embeddings of dim dimensions.
// When the stored dimension differs, or reset is true (the model changed),
// the vector tables are dropped and recreated empty. It returns an error
// when sqlite-vec cannot be loaded.
func (s *Store) EnsureVec(ctx context.Context, dim int, reset bool) error {
	if !s.VecLoadable(ctx) {
		return fmt.Errorf("sqlite-vec is not available")
	}
	if dim <= 0 {
		return fmt.Errorf("vector dimension %d", dim)
	}
	if s.vecOK && s.vecDim == dim && !reset {
		return nil
	}
	bits := CodeBits(dim)
	stmts := []string{
		"DROP TABLE IF EXISTS chunk_vecs",
		"DROP TABLE IF EXISTS chunk_vec_i8",
		fmt.Sprintf("CREATE VIRTUAL TABLE chunk_vecs USING vec0(embedding bit[%d])", bits),
		"CREATE TABLE chunk_vec_i8 (id INTEGER PRIMARY KEY, v BLOB NOT NULL)",
		"DELETE FROM meta WHERE key = 'vec_center'",
	}
	for _, q := range stmts {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create vector tables: %w", err)
		}
	}
	if err := s.SetMeta(ctx, "vec_dim", strconv.Itoa(dim)); err != nil {
		return err
	}
	s.vecDim, s.vecOK = dim, true
	return nil
}

// DropVec removes the vector tables (for a model that was unconfigured).
func (s *Store) DropVec(ctx context.Context) error {
	for _, q := range []string{"DROP TABLE IF EXISTS chunk_vecs", "DROP TABLE IF EXISTS chunk_vec_i8", "DELETE FROM meta WHERE key IN ('vec_dim', 'vec_center')"} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("drop vector tables: %w", err)
		}
	}
	s.vecOK, s.vecDim = false, 0
	return nil
}

// ChunkIDsWithoutVectors returns the ids of chunks that have no vector yet
// (after a model change or an interrupted run), in id order.
func (s *Store) ChunkIDsWithoutVectors(ctx context.Context) ([]int64, error) {
	if !s.vecOK {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM chunks WHERE id NOT IN (SELECT id FROM chunk_vec_i8) ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("chunks without vectors: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func (t *Tx) prepareVec(ctx context.Context) error {
	var err error
	t.insVec, err = t.tx.PrepareContext(ctx, "INSERT INTO chunk_vecs(rowid, embedding) VALUES(?, vec_bit(?))")
	if err != nil {
		return fmt.Errorf("prepare vectors: %w", err)
	}
	t.insVecI8, err = t.tx.PrepareContext(ctx, "INSERT OR REPLACE INTO chunk_vec_i8(id, v) VALUES(?, ?)")
	if err != nil {
		return fmt.Errorf("prepare vectors: %w", err)
	}
	return nil
}

// PutVectors stores embeddings for existing chunks (used to re-embed after a
// model change). ids and vecs are parallel.
func (t *Tx) PutVectors(ctx context.Context, ids []int64, vecs [][]float32) error {
	if !t.s.vecOK {
		return fmt.Errorf("put vectors: no vector tables")
	}
	for i, id := range ids {
		if _, err := t.tx.ExecContext(ctx, "DELETE FROM chunk_vecs WHERE rowid = ?", id); err != nil {
			return fmt.Errorf("put vectors: %w", err)
		}
		if err := t.putVec(ctx, id, vecs[i]); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tx) putVec(ctx context.Context, id int64, v []float32) error {
	if len(v) != t.s.vecDim {
		return fmt.Errorf("vector of %d dimensions, index has %d", len(v), t.s.vecDim)
	}
	center, err := t.center(ctx, v)
	if err != nil {
		return err
	}
	if _, err := t.insVec.ExecContext(ctx, id, simhash(v, center)); err != nil {
		return fmt.Errorf("insert vector: %w", err)
	}
	if _, err := t.insVecI8.ExecContext(ctx, id, quantizeI8(v)); err != nil {
		return fmt.Errorf("insert vector: %w", err)
	}
	return nil
}

// center returns the stored centre, creating it from v when there is none.
func (t *Tx) center(ctx context.Context, v []float32) ([]float32, error) {
	if t.s.center != nil {
		return t.s.center, nil
	}
	var raw string
	err := t.tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'vec_center'").Scan(&raw)
	if err == nil {
		c, err := decodeCenter(raw, t.s.vecDim)
		if err != nil {
			return nil, err
		}
		t.s.center = c
		return c, nil
	}
	return nil, fmt.Errorf("no vector centre: call SetCenter before the first vectors")
}

// SetCenter records the centre used for binary quantisation, normally the
// mean of a sample of embeddings. It must be called before the first
// vectors are stored in a new vector index and is ignored afterwards.
func (t *Tx) SetCenter(ctx context.Context, sample [][]float32) error {
	if t.s.center != nil {
		return nil
	}
	var raw string
	if err := t.tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'vec_center'").Scan(&raw); err == nil {
		c, err := decodeCenter(raw, t.s.vecDim)
		if err != nil {
			return err
		}
		t.s.center = c
		return nil
	}
	c := make([]float32, t.s.vecDim)
	n := 0
	for _, v := range sample {
		if len(v) != len(c) {
			continue
		}
		n++
		for i, x := range v {
			c[i] += x
		}
	}
	if n > 0 {
		for i := range c {
			c[i] /= float32(n)
		}
	}
	b, _ := json.Marshal(c)
	if err := t.SetMeta(ctx, "vec_center", string(b)); err != nil {
		return err
	}
	t.s.center = c
	return nil
}

func decodeCenter(raw string, dim int) ([]float32, error) {
	var c []float32
	if err := json.Unmarshal([]byte(raw), &c); err != nil || len(c) != dim {
		return nil, fmt.Errorf("meta vec_center is corrupt")
	}
	return c, nil
}

// quantizeI8 stores v as a little-endian float32 scale followed by
// round(v[i]/scale) as int8, with scale = max|v| / 127.
func quantizeI8(v []float32) []byte {
	var m float32
	for _, x := range v {
		if a := float32(math.Abs(float64(x))); a > m {
			m = a
		}
	}
	scale := m / 127
	out := make([]byte, 4+len(v))
	binary.LittleEndian.PutUint32(out, math.Float32bits(scale))
	if scale == 0 {
		return out
	}
	for i, x := range v {
		out[4+i] = byte(int8(math.Round(float64(x / scale))))
	}
	return out
}

// VectorHits returns up to k chunk ids nearest to q by cosine similarity
// (Score in [-1, 1], best first; ties by smaller id), using the two-stage
// search described above. q must have VecDim dimensions; it need not be
// normalised. It returns nil when the file has no vector index.
func (s *Store) VectorHits(ctx context.Context, q []float32, k int) ([]Scored, error) {
	if !s.vecOK || k <= 0 {
		return nil, nil
	}
	if len(q) != s.vecDim {
		return nil, fmt.Errorf("query vector has %d dimensions, index has %d", len(q), s.vecDim)
	}
	center, err := s.loadCenter(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := s.hammingScan(ctx, simhash(q, center), Candidates(k))
	if err != nil {
		return nil, err
	}
	return s.rescore(ctx, q, ids, k)
}

// hammingScan ranks every code in chunk_vecs by Hamming distance to code
// and returns the ids of the n nearest (ties by smaller id). It reads
// vec0's shadow tables directly: <table>_chunks (validity bitmap, rowids
// as int64) and <table>_vector_chunks00 (the codes, back to back).
func (s *Store) hammingScan(ctx context.Context, code []byte, n int) ([]int64, error) {
	// Count first: a second query while rows is open would wait forever
	// for the writer's single connection.
	var chunks int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunk_vecs_chunks").Scan(&chunks); err != nil {
		return nil, fmt.Errorf("vector scan: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.size, c.validity, c.rowids, v.vectors
		FROM chunk_vecs_chunks c JOIN chunk_vecs_vector_chunks00 v ON v.rowid = c.chunk_id`)
	if err != nil {
		return nil, fmt.Errorf("vector scan: %w", err)
	}
	defer rows.Close()
	words := len(code) / 8
	qw := make([]uint64, words)
	for i := range qw {
		qw[i] = binary.LittleEndian.Uint64(code[8*i:])
	}
	// Distances are small integers, so selection is a histogram. Room for
	// every code is reserved up front: vec0 chunks hold 1,024 codes each.
	ids := make([]int64, 0, chunks*1024)
	dist := make([]uint16, 0, chunks*1024)
	var validity, rowids, vectors sql.RawBytes
	for rows.Next() {
		var size int
		if err := rows.Scan(&size, &validity, &rowids, &vectors); err != nil {
			return nil, fmt.Errorf("vector scan: %w", err)
		}
		stride := len(code)
		size = min(size, len(vectors)/stride, len(rowids)/8, len(validity)*8)
		for i := 0; i < size; i++ {
			if validity[i>>3]>>(i&7)&1 == 0 {
				continue
			}
			v := vectors[i*stride : (i+1)*stride]
			var d int
			if words == 4 { // 256-bit codes (100- to 128-dimensional models)
				d = bits.OnesCount64(qw[0]^binary.LittleEndian.Uint64(v[0:])) +
					bits.OnesCount64(qw[1]^binary.LittleEndian.Uint64(v[8:])) +
					bits.OnesCount64(qw[2]^binary.LittleEndian.Uint64(v[16:])) +
					bits.OnesCount64(qw[3]^binary.LittleEndian.Uint64(v[24:]))
			} else {
				for w := 0; w < words; w++ {
					d += bits.OnesCount64(qw[w] ^ binary.LittleEndian.Uint64(v[8*w:]))
				}
			}
			ids = append(ids, int64(binary.LittleEndian.Uint64(rowids[8*i:])))
			dist = append(dist, uint16(d))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vector scan: %w", err)
	}
	return nearest(ids, dist, len(code)*8, n), nil
}

// nearest returns the ids of the n smallest distances (ties by smaller id).
func nearest(ids []int64, dist []uint16, maxDist, n int) []int64 {
	if n >= len(ids) {
		n = len(ids)
	}
	hist := make([]int, maxDist+2)
	for _, d := range dist {
		hist[d]++
	}
	cut, acc := 0, 0
	for cut = 0; cut <= maxDist; cut++ {
		acc += hist[cut]
		if acc >= n {
			break
		}
	}
	type cand struct {
		id int64
		d  uint16
	}
	out := make([]cand, 0, acc)
	for i, d := range dist {
		if int(d) <= cut {
			out = append(out, cand{ids[i], d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].id < out[j].id
	})
	res := make([]int64, 0, n)
	for _, c := range out[:n] {
		res = append(res, c.id)
	}
	return res
}

// hammingVec0 is the slow reference for hammingScan: vec0's own KNN, with
// ties at equal distance ordered by id.
func (s *Store) hammingVec0(ctx context.Context, code []byte, n int) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT rowid, distance FROM chunk_vecs WHERE embedding MATCH vec_bit(?) AND k = ?", code, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	var dist []uint16
	for rows.Next() {
		var id int64
		var d float64
		if err := rows.Scan(&id, &d); err != nil {
			return nil, err
		}
		ids, dist = append(ids, id), append(dist, uint16(d))
	}
	return nearest(ids, dist, len(code)*8, n), rows.Err()
}

func (s *Store) rescore(ctx context.Context, q []float32, ids []int64, k int) ([]Scored, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	center, err := s.loadCenter(ctx)
	if err != nil {
		return nil, err
	}
	cs := newCentred(q, center)
	// Point lookups by primary key beat an IN (json_each) join here.
	stmt, err := s.db.PrepareContext(ctx, "SELECT v FROM chunk_vec_i8 WHERE id = ?")
	if err != nil {
		return nil, fmt.Errorf("vector rescore: %w", err)
	}
	defer stmt.Close()
	out := make([]Scored, 0, len(ids))
	var b []byte
	for _, id := range ids {
		if err := stmt.QueryRowContext(ctx, id).Scan(&b); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				continue // deleted since the scan
			}
			return nil, fmt.Errorf("vector rescore: %w", err)
		}
		out = append(out, Scored{ID: id, Score: cs.cosine(b)})
	}
	sortScored(out)
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// centred computes the cosine similarity of q - c and v - c for int8
// vectors v: the same centred geometry the SimHash stage ranks by.
// Removing the common direction of averaged word embeddings is the
// "common component removal" of Arora, Liang and Ma, "A simple but
// tough-to-beat baseline for sentence embeddings", ICLR 2017.
type centred struct {
	qc, c []float32
	qcn   float64 // |q - c|
}

func newCentred(q, c []float32) centred {
	qc := make([]float32, len(q))
	var n float64
	for i := range q {
		qc[i] = q[i] - c[i]
		n += float64(qc[i]) * float64(qc[i])
	}
	return centred{qc: qc, c: c, qcn: math.Sqrt(n)}
}

func (cs centred) cosine(b []byte) float64 {
	if len(b) != 4+len(cs.qc) || cs.qcn == 0 {
		return 0
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
	var dot, nn float32
	for i, x := range cs.qc {
		v := float32(int8(b[4+i]))*scale - cs.c[i]
		dot += x * v
		nn += v * v
	}
	if nn == 0 {
		return 0
	}
	return float64(dot) / (cs.qcn * math.Sqrt(float64(nn)))
}

// ExactVectorHits is the exhaustive reference for VectorHits: it scores
// every stored vector (int8) against q. It exists to measure the recall of
// the binary first stage.
func (s *Store) ExactVectorHits(ctx context.Context, q []float32, k int) ([]Scored, error) {
	if !s.vecOK {
		return nil, nil
	}
	center, err := s.loadCenter(ctx)
	if err != nil {
		return nil, err
	}
	cs := newCentred(q, center)
	rows, err := s.db.QueryContext(ctx, "SELECT id, v FROM chunk_vec_i8")
	if err != nil {
		return nil, fmt.Errorf("exact vector search: %w", err)
	}
	defer rows.Close()
	var out []Scored
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		out = append(out, Scored{ID: id, Score: cs.cosine(b)})
	}
	sortScored(out)
	if len(out) > k {
		out = out[:k]
	}
	return out, rows.Err()
}

func (s *Store) loadCenter(ctx context.Context) ([]float32, error) {
	if s.center != nil {
		return s.center, nil
	}
	raw, err := s.Meta(ctx, "vec_center")
	if err != nil {
		return nil, err
	}
	if raw == "" {
		return make([]float32, s.vecDim), nil
	}
	c, err := decodeCenter(raw, s.vecDim)
	if err != nil {
		return nil, err
	}
	s.center = c
	return c, nil
}

func sortScored(s []Scored) {
	sort.Slice(s, func(i, j int) bool {
		if s[i].Score != s[j].Score {
			return s[i].Score > s[j].Score
		}
		return s[i].ID < s[j].ID
	})
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
