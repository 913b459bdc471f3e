package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// Vector index layout: an inverted file (IVF) of int8 vectors.
//
// sqlite-vec's brute-force KNN costs tens of ms per query at ~160,000
// chunks, and even reading every stored vector (or a 256-bit code of each)
// out of SQLite costs more than the whole query budget of a few ms (the
// driver copies every blob), so a query reads only the part of the index
// near it (the IVF of Sivic and Zisserman, "Video Google", ICCV 2003; Jégou,
// Douze and Schmid, "Product quantization for nearest neighbor search",
// TPAMI 2011):
//
//   - chunk_vecs is a vec0 table keyed by chunk id:
//     vec0(list integer partition key, embedding int8[dim]
//     distance_metric=cosine, chunk_size=listChunk(dim)). embedding is the
//     chunk's embedding minus the corpus centre, scaled by 127/max|x| and
//     rounded (the scale is dropped: cosine does not depend on it). list
//     is the IVF list, the nearest centroid; vec0 keeps the vectors of one
//     list together in chunks of that many slots, and the index
//     chunk_vecs_chunks_list on its shadow table finds them (vec0 itself
//     would scan the shadow table on every insert without it).
//   - chunk_vec_lists holds the centroids (list id, unit float32 vector as
//     little-endian bytes). With no rows, every vector is in list 0 and a
//     query scans them all.
//   - A query subtracts the centre, quantises itself the same way, ranks
//     the centroids by cosine, reads the Probes(lists) nearest lists from
//     vec0's shadow tables with one statement, and scores each vector there
//     by exact int8 cosine (dot products in a C loop the compiler
//     vectorises, dot.h), keeping the best k. Both steps run inside SQLite,
//     in SQL functions of our own (vecscan.c), so no vector is copied out.
//     The score is the one vec0's own MATCH gives; TestScanMatchesVec0
//     checks that. On the large corpus (508 lists, 51 probed) a query reads
//     about 18,000 of 162,728 vectors; at four times it (2,034 lists, 101
//     probed) about 32,000 of 651,120.
//
// A process caches the centroids on first use; a reader that outlives a
// TrainVectorLists of another process probes with stale centroids (poor
// recall, no error) until it reopens the file. Hooks and the CLI live for
// one query.
//
// TrainVectorLists (called at the end of each index run) picks the lists
// by spherical k-means on a sample and rewrites chunk_vecs in list order;
// vectors added later go to their nearest centroid. The centre is the mean
// embedding of the first batch indexed, stored in meta('vec_center');
// subtracting it spreads static embeddings, which all share a common
// direction (the "common component removal" of Arora, Liang and Ma, "A
// simple but tough-to-beat baseline for sentence embeddings", ICLR 2017),
// and the cosine of the centred vectors is the similarity VectorHits ranks
// by.

// vecLayout names the layout above in meta('vec_layout'). A file with
// vectors in another layout is treated as having none, so the next index
// run rebuilds them and search falls back to BM25 until then.
const vecLayout = "ivf-int8-1"

// ListChunk is the most vector slots one vec0 chunk of chunk_vecs (one
// shadow-table row) holds: its chunk_size wherever that many vectors fit
// in one page (listChunk). Each list wastes at most one partly filled
// chunk, so it is a few times smaller than ListSize. Files written before
// meta vec_chunk existed have chunks of ListChunk at any dimension.
const ListChunk = 64

// listChunk is vec0's chunk_size for vectors of dim int8 components on
// pages of pageSize bytes: ListChunk when a blob of ListChunk vectors fits
// in one cell of a table leaf page (usable size less 35 bytes, SQLite's
// maxLocal, less 16 for the cell's and the record's headers), else the
// largest multiple of 8 slots that does (vec0 keeps a chunk's validity as
// whole bytes of a bitmap), at least 8. A larger blob spills into an
// overflow page of its own: at 256 dimensions (potion-base-8M, the default
// model) 64 vectors are 16,384 bytes, 51 over a 16 KiB page's limit, so
// every chunk took two pages, most of the second one empty, and a vector
// scan mapped twice the pages it read.
func listChunk(dim, pageSize int) int {
	if dim <= 0 {
		return ListChunk
	}
	fit := (pageSize - 35 - 16) / dim
	if fit >= ListChunk {
		return ListChunk
	}
	return max(8, fit/8*8)
}

// ListSize is the mean number of vectors per IVF list that
// TrainVectorLists aims for. In a float32 simulation on the large corpus
// (162,728 chunks, GloVe 100-d, 273 queries), 512 lists probed 32 at a time
// gave recall@10 0.977 scanning 12,400 vectors per query, 1,024 lists
// probed 64 at a time the same 0.977 scanning 12,600, and 256 lists probed
// 16 at a time 0.955 scanning 12,600: recall follows the vectors scanned,
// while the k-means cost grows with the square of the number of lists.
const ListSize = 320

// MinTrain is the number of vectors from which TrainVectorLists builds
// lists; below it a query scans every vector, which reads no more than a
// query of the large corpus does.
const MinTrain = 32 * ListSize

// Probes returns how many of lists IVF lists a query reads: a tenth up to
// 500 lists (about 160,000 vectors), then sqrt(5·lists), which equals the
// tenth at 500 lists and grows as its square root; at least 16 (all of
// them when there are fewer).
//
// The tenth: on the large corpus (508 lists), recall@10 over the 73
// queries of eval/large-queries.jsonl and 200 chunk prefixes (the 73 alone
// in brackets) was 0.976 (0.953) probing a twelfth, 0.980 (0.958) a tenth,
// and 0.989 (0.974) an eighth, the scan growing with the lists read (p50
// 2.6, 3.1 and about 4 ms). The floor of 16 matters for small indexes: on
// the 1,000-note subset of the same queries (about 30 lists), 8 probes
// cost 0.04 of the vector leg's nDCG@10 and 16 lost nothing against an
// exhaustive scan.
//
// The square root: lists grow with the vectors (one per ListSize), so a
// fixed fraction scans a fixed fraction of the index, and a query's cost
// grows linearly with it. Probing c·sqrt(lists) lists scans
// c·sqrt(n·ListSize) of n vectors, the growth of the layout FAISS
// recommends (about sqrt(n) lists, a fixed number probed: "Guidelines to
// choose an index", FAISS wiki; the cost model of the IVF in Jégou, Douze
// and Schmid, TPAMI 2011, Sec. IV). Measured with BenchmarkProbeSchedule
// on scripts/scale-vault.sh vaults (large corpus with GloVe, same
// queries): at 1x (508 lists, 51 probes either way) recall@10 0.981
// (0.975); at 4x (2,034 lists) 101 probes gave 0.980 (0.986) against 0.995
// (0.997) for the tenth's 204, with half the vectors scanned.
func Probes(lists int) int {
	return min(lists, max(min((lists+9)/10, ceilSqrt(5*lists)), 16))
}

// ceilSqrt is the smallest r ≥ 0 with r·r ≥ n, in integers (a float
// square root can round an exact square up).
func ceilSqrt(n int) int {
	r := int(math.Sqrt(float64(n)))
	for r*r > n {
		r--
	}
	for r*r < n {
		r++
	}
	return r
}

// sqrtProbes is c·sqrt(lists) rounded up, at least 16 and at most lists.
func sqrtProbes(lists int, c float64) int {
	return min(lists, max(int(math.Ceil(c*math.Sqrt(float64(lists)))), 16))
}

func (s *Store) initVec(ctx context.Context) error {
	var v string
	if err := s.db.QueryRowContext(ctx, "SELECT vec_version()").Scan(&v); err != nil {
		s.vecOK = false
		return nil // sqlite-vec not loadable: BM25 only
	}
	d, err := s.Meta(ctx, metaVecDim)
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
	layout, err := s.Meta(ctx, metaVecLayout)
	if err != nil {
		return err
	}
	if layout != vecLayout {
		return nil // vectors of an older layout: rebuilt by the next index run
	}
	chunk := ListChunk
	if c, err := s.Meta(ctx, metaVecChunk); err != nil {
		return err
	} else if c != "" {
		if chunk, err = strconv.Atoi(c); err != nil || chunk <= 0 || chunk%8 != 0 {
			return fmt.Errorf("meta vec_chunk %q is not a chunk size", c)
		}
	}
	s.vecDim, s.vecSlots = dim, chunk
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

func createVecSQL(dim, chunk int) []string {
	return []string{
		fmt.Sprintf("CREATE VIRTUAL TABLE chunk_vecs USING vec0(list integer partition key, embedding int8[%d] distance_metric=cosine, chunk_size=%d)", dim, chunk),
		"CREATE INDEX chunk_vecs_chunks_list ON chunk_vecs_chunks(partition00)",
	}
}

// EnsureVec prepares the vector tables for embeddings of dim dimensions.
// When the stored dimension or layout differs, or reset is true (the model
// changed), the vector tables are dropped and recreated empty. It returns
// an error when sqlite-vec cannot be loaded.
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
	stmts := []string{
		"DROP TABLE IF EXISTS chunk_vecs",
		"DROP TABLE IF EXISTS chunk_vec_i8", // layout before ivf-int8-1
		"DROP TABLE IF EXISTS chunk_vec_lists",
		"CREATE TABLE chunk_vec_lists (list INTEGER PRIMARY KEY, centroid BLOB NOT NULL)",
		"DELETE FROM meta WHERE key = 'vec_center'",
	}
	var pageSize int
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		return fmt.Errorf("create vector tables: %w", err)
	}
	chunk := listChunk(dim, pageSize)
	stmts = append(stmts, createVecSQL(dim, chunk)...)
	for _, q := range stmts {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create vector tables: %w", err)
		}
	}
	if err := s.SetMeta(ctx, metaVecDim, strconv.Itoa(dim)); err != nil {
		return err
	}
	if err := s.SetMeta(ctx, metaVecChunk, strconv.Itoa(chunk)); err != nil {
		return err
	}
	if err := s.SetMeta(ctx, metaVecLayout, vecLayout); err != nil {
		return err
	}
	s.vecDim, s.vecSlots, s.vecOK = dim, chunk, true
	s.center, s.lists = nil, nil
	if s.opt.Bulk {
		for _, q := range []string{"DROP TABLE IF EXISTS vec_pending", pendingVecSQL} {
			if _, err := s.db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("create vector tables: %w", err)
			}
		}
		s.pending = true
	}
	return nil
}

// pendingVecSQL creates the table that holds a Bulk store's vectors, by
// chunk id, until TrainVectorLists puts them in chunk_vecs (Seal calls it
// when the run did not): a full run rewrites chunk_vecs there anyway, and
// a vec0 insert cost about 10 µs a vector on the goroutine that writes
// the chunks, 1.5 s of a full run of the large corpus, where a row of
// this table costs a few. Chunk ids grow in the order the vectors arrive,
// so the table read by id gives them in the order chunk_vecs would
// have.
const pendingVecSQL = "CREATE TABLE vec_pending (id INTEGER PRIMARY KEY, v BLOB NOT NULL)"

// DropVec removes the vector tables (for a model that was unconfigured).
func (s *Store) DropVec(ctx context.Context) error {
	for _, q := range []string{
		"DROP TABLE IF EXISTS chunk_vecs",
		"DROP TABLE IF EXISTS chunk_vec_i8",
		"DROP TABLE IF EXISTS chunk_vec_lists",
		"DROP TABLE IF EXISTS vec_pending",
		"DELETE FROM meta WHERE key IN ('vec_dim', 'vec_center', 'vec_layout', 'vec_chunk')",
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("drop vector tables: %w", err)
		}
	}
	s.vecOK, s.vecDim, s.vecSlots = false, 0, 0
	s.center, s.lists = nil, nil
	return nil
}

// ChunkIDsWithoutVectors returns the ids of chunks that have no vector yet
// (after a model change or an interrupted run), in id order.
func (s *Store) ChunkIDsWithoutVectors(ctx context.Context) ([]int64, error) {
	if !s.vecOK {
		return nil, nil
	}
	// Without ORDER BY, SQLite reads the ids from the chunks_file index
	// (a few hundred KB) instead of every page of the chunks table and
	// their texts: 0.1 s of every index run at 163k chunks, even when
	// nothing changed. The few ids found are sorted here.
	q := "SELECT id FROM chunks WHERE id NOT IN (SELECT rowid FROM chunk_vecs_rowids)"
	if s.pending {
		q += " AND id NOT IN (SELECT id FROM vec_pending)"
	}
	rows, err := s.db.QueryContext(ctx, q)
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
	slices.Sort(ids)
	return ids, rows.Err()
}

const insertVecSQL = "INSERT INTO chunk_vecs(rowid, list, embedding) VALUES(?, ?, vec_int8(?))"

func (t *Tx) prepareVec(ctx context.Context) error {
	var err error
	t.insVec, err = t.tx.PrepareContext(ctx, insertVecSQL)
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
		if err := t.deleteVec(ctx, id); err != nil {
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
	center, err := t.center(ctx)
	if err != nil {
		return err
	}
	q := ivf.Quantize(v, center)
	if t.s.pending {
		if _, err := t.exec(ctx, "INSERT INTO vec_pending(id, v) VALUES(?, ?)", id, q.Bytes()); err != nil {
			return fmt.Errorf("insert vector: %w", err)
		}
		return nil
	}
	lists, err := t.s.loadLists(ctx, t.tx)
	if err != nil {
		return err
	}
	if _, err := t.insVec.ExecContext(ctx, id, lists.Nearest(q), q.Bytes()); err != nil {
		return fmt.Errorf("insert vector: %w", err)
	}
	return nil
}

// deleteVec deletes the vector of chunk id, if it has one.
func (t *Tx) deleteVec(ctx context.Context, id int64) error {
	if t.s.pending {
		if _, err := t.exec(ctx, "DELETE FROM vec_pending WHERE id = ?", id); err != nil {
			return err
		}
	}
	_, err := t.exec(ctx, "DELETE FROM chunk_vecs WHERE rowid = ?", id)
	return err
}

// center returns the stored centre; SetCenter must have made one.
func (t *Tx) center(ctx context.Context) ([]float32, error) {
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

// SetCenter records the centre subtracted before quantisation, normally
// the mean of a sample of embeddings. It must be called before the first
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
	if err := t.SetMeta(ctx, metaVecCenter, string(b)); err != nil {
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

func (s *Store) loadCenter(ctx context.Context) ([]float32, error) {
	if s.center != nil {
		return s.center, nil
	}
	raw, err := s.Meta(ctx, metaVecCenter)
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

// VectorHits returns up to k chunk ids nearest to q by centred cosine
// similarity (Score in [-1, 1], best first; ties by smaller id), reading
// only the Probes nearest IVF lists (see the layout above). q must have
// VecDim dimensions; it need not be normalised. It returns nil when the
// file has no vector index.
func (s *Store) VectorHits(ctx context.Context, q []float32, k int) ([]Hit, error) {
	return s.vectorHits(ctx, q, k, Probes)
}

// ExactVectorHits is the exhaustive reference for VectorHits: it scores
// every stored vector, in every list, the same way. It exists to measure
// the recall of the list probing.
func (s *Store) ExactVectorHits(ctx context.Context, q []float32, k int) ([]Hit, error) {
	return s.vectorHits(ctx, q, k, nil)
}

// vectorHits reads the probes(lists) nearest lists, or every list when
// probes is nil.
func (s *Store) vectorHits(ctx context.Context, q []float32, k int, probes func(lists int) int) ([]Hit, error) {
	if !s.vecOK || k <= 0 {
		return nil, nil
	}
	k = min(k, maxKNN)
	if len(q) != s.vecDim {
		return nil, fmt.Errorf("query vector has %d dimensions, index has %d", len(q), s.vecDim)
	}
	center, err := s.loadCenter(ctx)
	if err != nil {
		return nil, err
	}
	qq := ivf.Quantize(q, center)
	var probe []int64
	if probes != nil {
		var lists int
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunk_vec_lists").Scan(&lists); err != nil {
			return nil, fmt.Errorf("vector lists: %w", err)
		}
		if lists > 0 {
			if probe, err = s.nearestLists(ctx, qq, probes(lists)); err != nil {
				return nil, err
			}
		}
	}
	return s.scanLists(ctx, qq, probe, k)
}

// maxKNN is the most hits a vector query returns (vaultctx_knn's bound on
// k, vecscan.c): a larger k, which no index this size can fill with
// useful hits, is cut to it instead of failing.
const maxKNN = 1000000

// queryer is what both *sql.DB and *sql.Tx offer.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// vecChunk is one row of vec0's shadow tables: the chunk size's slots of one
// list. Its slices are valid only during the eachChunk callback.
type vecChunk struct {
	size     int    // slots
	dim      int    // vector components
	validity []byte // bit i%8 of byte i/8: slot i holds a vector
	rowids   []byte // int64 chunk id per slot
	vectors  []byte // dim int8 per slot
}

func (c *vecChunk) live(i int) bool  { return c.validity[i>>3]>>(i&7)&1 == 1 }
func (c *vecChunk) id(i int) int64   { return int64(binary.LittleEndian.Uint64(c.rowids[8*i:])) }
func (c *vecChunk) vec(i int) []byte { return c.vectors[i*c.dim : (i+1)*c.dim] }

// eachChunk calls fn for every chunk of the given lists (all lists when
// probe is nil). It reads vec0's shadow tables directly, with one
// statement: <table>_chunks (list, validity bitmap, rowids) and
// <table>_vector_chunks00 (the vectors, back to back).
func (s *Store) eachChunk(ctx context.Context, db queryer, probe []int64, fn func(c *vecChunk)) error {
	// _rowid_, not rowid: vec0 declares a column named rowid without a type
	// in these tables, which the planner cannot join on by index; the true
	// rowid is the key vec0's blob I/O uses.
	query := `SELECT c.validity, c.rowids, v.vectors
		FROM chunk_vecs_chunks c JOIN chunk_vecs_vector_chunks00 v ON v._rowid_ = c.chunk_id`
	args := make([]any, len(probe))
	if len(probe) > 0 {
		query += " WHERE c.partition00 IN (?" + strings.Repeat(",?", len(probe)-1) + ")"
		for i, l := range probe {
			args[i] = l
		}
	}
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("vector scan: %w", err)
	}
	defer rows.Close()
	c := vecChunk{dim: s.vecDim}
	var validity, rowids, vectors sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&validity, &rowids, &vectors); err != nil {
			return fmt.Errorf("vector scan: %w", err)
		}
		c.validity, c.rowids, c.vectors = validity, rowids, vectors
		c.size = min(len(vectors)/c.dim, len(rowids)/8, len(validity)*8)
		fn(&c)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("vector scan: %w", err)
	}
	return nil
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
