package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// clustered returns n vectors of dim components around centres random
// centres, the shape of real embeddings (topics) that IVF lists exploit.
func clustered(r *rand.Rand, n, dim, centres int) [][]float32 {
	cs := make([][]float32, centres)
	for i := range cs {
		cs[i] = randVec(r, dim)
	}
	out := make([][]float32, n)
	for i := range out {
		c := cs[r.Intn(centres)]
		v := make([]float32, dim)
		for j := range v {
			v[j] = c[j] + 0.4*float32(r.NormFloat64())
		}
		out[i] = v
	}
	return out
}

// fillVectors stores vecs as files of per chunks each ("f0.md", "f1.md",
// ...) and returns the chunk ids in order.
func fillVectors(tb testing.TB, s *Store, vecs [][]float32, per int) []int64 {
	tb.Helper()
	ctx := context.Background()
	if !s.VecAvailable() {
		if err := s.EnsureVec(ctx, len(vecs[0]), false); err != nil {
			tb.Fatal(err)
		}
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.SetCenter(ctx, vecs[:min(len(vecs), 500)]); err != nil {
		tb.Fatal(err)
	}
	var ids []int64
	for f := 0; f*per < len(vecs); f++ {
		part := vecs[f*per : min(len(vecs), (f+1)*per)]
		cs := make([]Chunk, len(part))
		for i := range cs {
			cs[i] = Chunk{Ordinal: i, Text: fmt.Sprint("chunk ", f, " ", i)}
		}
		if err := tx.ReplaceFile(ctx, File{Path: fmt.Sprintf("f%d.md", f)}, cs, part); err != nil {
			tb.Fatal(err)
		}
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return ids
}

// storedVectors returns every vector the scan sees, by chunk id.
func storedVectors(tb testing.TB, s *Store) map[int64]string {
	tb.Helper()
	out := map[int64]string{}
	err := s.eachChunk(context.Background(), s.db, nil, func(c *vecChunk) {
		for i := 0; i < c.size; i++ {
			if c.live(i) {
				out[c.id(i)] = string(c.vec(i))
			}
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func listOf(tb testing.TB, s *Store, id int64) int64 {
	tb.Helper()
	var l int64
	if err := s.db.QueryRow("SELECT list FROM chunk_vecs WHERE rowid = ?", id).Scan(&l); err != nil {
		tb.Fatalf("list of %d: %v", id, err)
	}
	return l
}

func asI8(v string) ivf.Vec {
	q := make(ivf.Vec, len(v))
	for i := range q {
		q[i] = int8(v[i])
	}
	return q
}

func TestDotKernelsMatchGo(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, dim := range []int{1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 256, 300, 384} {
		const n = 37
		q := make(ivf.Vec, dim)
		for i := range q {
			q[i] = int8(r.Intn(256) - 128)
		}
		v := make([]byte, n*dim)
		for i := range v {
			v[i] = byte(int8(r.Intn(256) - 128))
		}
		// The extremes: every product at its largest, in both signs.
		if dim >= 2 {
			for i := range dim {
				v[i] = 0x80 // -128
				q[i] = -128
			}
			for i := dim; i < 2*dim; i++ {
				v[i] = 0x7f
			}
		}
		for name, kernel := range map[string]func(q []int8, v []byte, dot, nn []int32){"dotsI8": dotsI8, "dotsI8Portable": dotsI8Portable} {
			dot, nn := make([]int32, n), make([]int32, n)
			kernel(q, v, dot, nn)
			for j := 0; j < n; j++ {
				wd, wn := dotI8(q, v[j*dim:(j+1)*dim])
				if dot[j] != wd || nn[j] != wn {
					t.Fatalf("%s, dim %d vector %d: C (%d, %d), Go (%d, %d)", name, dim, j, dot[j], nn[j], wd, wn)
				}
			}
		}
		u, fv := make([]float32, dim), make([]float32, n*dim)
		for i := range u {
			u[i] = float32(r.NormFloat64())
		}
		for i := range fv {
			fv[i] = float32(r.NormFloat64())
		}
		out := make([]float32, n)
		dotsF32(u, fv, out)
		for j := 0; j < n; j++ {
			var want, mag float64
			for i := range u {
				p := float64(u[i]) * float64(fv[j*dim+i])
				want += p
				mag += math.Abs(p)
			}
			if math.Abs(float64(out[j])-want) > 1e-5*mag+1e-6 {
				t.Fatalf("dim %d vector %d: dotsF32 %v, want %v", dim, j, out[j], want)
			}
		}
	}
}

func TestTrainVectorLists(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	r := rand.New(rand.NewSource(3))
	const dim = 48
	vecs := clustered(r, MinTrain+700, dim, 40)
	ids := fillVectors(t, s, vecs, 100)
	if n, err := s.VectorLists(ctx); err != nil || n != 0 {
		t.Fatalf("before training: %d lists, %v", n, err)
	}
	before := storedVectors(t, s)
	if len(before) != len(vecs) {
		t.Fatalf("%d vectors stored, want %d", len(before), len(vecs))
	}
	n, err := s.TrainVectorLists(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(vecs) / ListSize; n != want {
		t.Fatalf("%d lists, want %d", n, want)
	}
	after := storedVectors(t, s)
	if len(after) != len(before) {
		t.Fatalf("training kept %d of %d vectors", len(after), len(before))
	}
	for id, v := range before {
		if after[id] != v {
			t.Fatalf("vector %d changed in training", id)
		}
	}
	lists, err := s.loadLists(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	used := map[int64]bool{}
	for _, id := range ids[:500] {
		l := listOf(t, s, id)
		used[l] = true
		if want := lists.Nearest(asI8(after[id])); l != want {
			t.Fatalf("vector %d in list %d, nearest is %d", id, l, want)
		}
	}
	if len(used) < 2 {
		t.Fatalf("500 vectors all in %d list(s)", len(used))
	}
	// Nothing changed: training again is a no-op.
	var chunks int
	s.db.QueryRow("SELECT count(*) FROM chunk_vecs_chunks").Scan(&chunks)
	if again, err := s.TrainVectorLists(ctx); err != nil || again != n {
		t.Fatalf("second training: %d lists, %v", again, err)
	}
	var chunks2 int
	s.db.QueryRow("SELECT count(*) FROM chunk_vecs_chunks").Scan(&chunks2)
	if chunks2 != chunks {
		t.Fatalf("second training rewrote the table: %d chunks, then %d", chunks, chunks2)
	}
	// Vectors added after training go to their nearest list, and deletes
	// stay in step with chunks.
	more := fillVectorsAs(t, s, "g", clustered(r, 50, dim, 5))
	for _, id := range more {
		v := storedVectors(t, s)[id]
		if l, want := listOf(t, s, id), lists.Nearest(asI8(v)); l != want {
			t.Fatalf("new vector %d in list %d, nearest is %d", id, l, want)
		}
	}
	del(t, s, "f3.md")
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Vectors != st.Chunks || st.Chunks != len(vecs)+50-100 {
		t.Fatalf("after delete: %d vectors, %d chunks, want %d", st.Vectors, st.Chunks, len(vecs)+50-100)
	}
	if missing, err := s.ChunkIDsWithoutVectors(ctx); err != nil || len(missing) != 0 {
		t.Fatalf("chunks without vectors: %v, %v", missing, err)
	}
}

// fillVectorsAs stores vecs as one file named name.md after the store's
// centre is set, and returns the chunk ids.
func fillVectorsAs(tb testing.TB, s *Store, name string, vecs [][]float32) []int64 {
	tb.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	cs := make([]Chunk, len(vecs))
	for i := range cs {
		cs[i] = Chunk{Ordinal: i, Text: fmt.Sprint(name, i)}
	}
	if err := tx.ReplaceFile(ctx, File{Path: name + ".md"}, cs, vecs); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

// The scan over vec0's shadow tables (vaultctx_knn, and its Go twin) must
// score exactly as vec0's own cosine KNN does (the slow reference), list
// by list and over all lists, and vaultctx_nearest must rank the lists as
// the Go centroids do.
func TestScanMatchesVec0(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	r := rand.New(rand.NewSource(4))
	const dim = 100
	fillVectors(t, s, clustered(r, MinTrain+300, dim, 30), 64)
	if _, err := s.TrainVectorLists(ctx); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 40; f += 3 {
		del(t, s, fmt.Sprintf("f%d.md", f)) // holes in the validity bitmaps
	}
	center, err := s.loadCenter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lists, err := s.loadLists(ctx, s.db)
	if err != nil {
		t.Fatal(err)
	}
	for qi := 0; qi < 5; qi++ {
		q := ivf.Quantize(clustered(r, 1, dim, 1)[0], center)
		order, err := s.nearestLists(ctx, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := lists.NearestN(q, lists.Len()); !slices.Equal(order, want) {
			t.Fatalf("query %d: vaultctx_nearest ranks lists %v, Go %v", qi, order, want)
		}
		// The n nearest alone, kept while the rows stream past, are the
		// prefix of the full ranking.
		for _, n := range []int{1, 3, lists.Len() - 1, lists.Len() + 5} {
			some, err := s.nearestLists(ctx, q, n)
			if err != nil {
				t.Fatal(err)
			}
			if want := order[:min(n, len(order))]; !slices.Equal(some, want) {
				t.Fatalf("query %d: the %d nearest lists are %v, want %v", qi, n, some, want)
			}
		}
		for _, k := range []int{1, 10, 100} {
			for _, l := range append(lists.NearestN(q, 3), -1) {
				var probe []int64
				if l >= 0 {
					probe = []int64{l}
				}
				fast, err := s.scanLists(ctx, q, probe, k)
				if err != nil {
					t.Fatal(err)
				}
				slow, err := s.vec0Hits(ctx, q, l, k)
				if err != nil {
					t.Fatal(err)
				}
				sameHits(t, fmt.Sprintf("query %d list %d k=%d", qi, l, k), fast, slow)
				// The SQL function and the Go scan do the same arithmetic:
				// the same hits with the same scores, bit for bit.
				inGo, err := s.scanListsGo(ctx, q, probe, k)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(fast, inGo) {
					t.Fatalf("query %d list %d k=%d: vaultctx_knn %v, Go %v", qi, l, k, fast, inGo)
				}
			}
		}
	}
}

// sameHits compares two rankings whose scores were computed in different
// float orders: scores must agree to 1e-6 rank by rank, and ids wherever
// the score is not tied within that tolerance with a neighbour.
func sameHits(t *testing.T, what string, fast, slow []Hit) {
	t.Helper()
	if len(fast) != len(slow) {
		t.Fatalf("%s: scan found %d, vec0 %d", what, len(fast), len(slow))
	}
	const eps = 1e-6
	for i := range fast {
		if math.Abs(fast[i].Score-slow[i].Score) > eps {
			t.Fatalf("%s rank %d: scan %v, vec0 %v", what, i, fast[i], slow[i])
		}
		tied := (i > 0 && slow[i-1].Score-slow[i].Score < eps) || (i+1 < len(slow) && slow[i].Score-slow[i+1].Score < eps)
		if !tied && fast[i].ChunkID != slow[i].ChunkID {
			t.Fatalf("%s rank %d: scan id %d, vec0 id %d", what, i, fast[i].ChunkID, slow[i].ChunkID)
		}
	}
}

// Deletes leave holes that vec0 never fills (it appends to a list's last
// chunk only); training compacts them once they outnumber live vectors.
func TestTrainCompactsHoles(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	r := rand.New(rand.NewSource(5))
	fillVectors(t, s, clustered(r, 3000, 32, 10), 100)
	for f := 0; f < 25; f++ {
		del(t, s, fmt.Sprintf("f%d.md", f))
	}
	before := storedVectors(t, s)
	var chunks int
	s.db.QueryRow("SELECT count(*) FROM chunk_vecs_chunks").Scan(&chunks)
	n, err := s.TrainVectorLists(ctx)
	if err != nil || n != 0 {
		t.Fatalf("%d lists, %v; want 0 below MinTrain", n, err)
	}
	var after int
	s.db.QueryRow("SELECT count(*) FROM chunk_vecs_chunks").Scan(&after)
	if want := (len(before) + s.vecSlots - 1) / s.vecSlots; after != want {
		t.Fatalf("%d vec0 chunks after compaction (%d before), want %d", after, chunks, want)
	}
	if got := storedVectors(t, s); !mapsEqual(got, before) {
		t.Fatalf("compaction changed the vectors")
	}
}

func mapsEqual(a, b map[int64]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A file whose vectors are in an older layout searches BM25 only until the
// next index run, which rebuilds them.
func TestOlderVectorLayoutIsRebuilt(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	r := rand.New(rand.NewSource(6))
	fillVectors(t, s, clustered(r, 20, 16, 2), 10)
	if err := s.SetMeta(ctx, "vec_layout", "simhash-1"); err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	s.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.VecAvailable() {
		t.Fatal("vectors of an older layout reported available")
	}
	if hits, err := s.VectorHits(ctx, make([]float32, 16), 5); err != nil || hits != nil {
		t.Fatalf("VectorHits on an older layout: %v, %v", hits, err)
	}
	if err := s.EnsureVec(ctx, 16, false); err != nil {
		t.Fatal(err)
	}
	missing, err := s.ChunkIDsWithoutVectors(ctx)
	if err != nil || len(missing) != 20 {
		t.Fatalf("after EnsureVec: %d chunks without vectors (%v), want 20", len(missing), err)
	}
}

func TestProbes(t *testing.T) {
	for _, tc := range []struct{ lists, want int }{
		{0, 0}, {1, 1}, {16, 16}, {20, 16}, {160, 16}, {161, 17}, {500, 50}, {508, 51}, {2034, 101}, {8136, 202},
	} {
		if got := Probes(tc.lists); got != tc.want {
			t.Errorf("Probes(%d) = %d, want %d", tc.lists, got, tc.want)
		}
	}
	prev := 0
	for l := 1; l < 100000; l++ {
		p := Probes(l)
		if p < 1 || p > l || (l >= 16 && p < 16) || p < prev {
			t.Fatalf("Probes(%d) = %d (Probes(%d) = %d)", l, p, l-1, prev)
		}
		tenth := min(l, max((l+9)/10, 16))
		if l <= 500 && p != tenth {
			t.Fatalf("Probes(%d) = %d, want the tenth %d", l, p, tenth)
		}
		if l > 500 && p > 16 && ((p-1)*(p-1) >= 5*l || p*p < 5*l) {
			t.Fatalf("Probes(%d) = %d, want ceil(sqrt(5·%d))", l, p, l)
		}
		prev = p
	}
}

// TestVectorHitsHugeK: a k past what the scan can keep (vecscan.c's bound)
// returns every vector the probed lists hold, as a k that merely exceeds
// the vectors does, instead of leaking the SQL function's error.
func TestVectorHitsHugeK(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	r := rand.New(rand.NewSource(5))
	const dim = 16
	fillVectors(t, s, clustered(r, 200, dim, 4), 16)
	q := clustered(r, 1, dim, 1)[0]
	want, err := s.VectorHits(ctx, q, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{maxKNN, maxKNN + 1, 2 * maxKNN, math.MaxInt32} {
		got, err := s.VectorHits(ctx, q, k)
		if err != nil || len(got) != len(want) {
			t.Fatalf("k=%d: %d hits, %v; want the %d of k=1000", k, len(got), err, len(want))
		}
	}
}

func TestListChunk(t *testing.T) {
	for _, c := range []struct{ dim, page, want int }{
		{100, 16384, 64}, // GloVe 100-d: 6,400 bytes, two chunks a page
		{255, 16384, 64}, // 16,320 bytes: still one cell
		{256, 16384, 56}, // potion-base-8M: 64 slots were 16,384 bytes
		{300, 16384, 48},
		{384, 16384, 40},
		{1024, 16384, 8},
		{4096, 16384, 8}, // past a page even at 8 slots: the least vec0 takes
		{100, 4096, 40},
		{0, 16384, ListChunk},
	} {
		if got := listChunk(c.dim, c.page); got != c.want {
			t.Errorf("listChunk(%d, %d) = %d, want %d", c.dim, c.page, got, c.want)
		}
		if got := listChunk(c.dim, c.page); c.dim > 0 && got*c.dim > c.page-35-16 && got > 8 {
			t.Errorf("listChunk(%d, %d) = %d: %d bytes do not fit in a cell", c.dim, c.page, got, got*c.dim)
		}
	}
}

// TestVectorChunksFitPages: at 256 dimensions a vector chunk is one page,
// not a page and an overflow page; the slots and the consistency check
// follow meta vec_chunk, and a file written before it (no vec_chunk, 64
// slots) is still read as 64.
func TestVectorChunksFitPages(t *testing.T) {
	ctx := context.Background()
	// A full index run's file (Bulk: 16 KiB pages, set before any table).
	s, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"), Options{Bulk: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r := rand.New(rand.NewSource(9))
	// Pages in use: the staging tables TrainVectorLists drops leave
	// theirs free.
	used := func() int {
		var pages, free int
		s.db.QueryRow("PRAGMA page_count").Scan(&pages)
		s.db.QueryRow("PRAGMA freelist_count").Scan(&free)
		return pages - free
	}
	before := used()
	fillVectors(t, s, clustered(r, 2240, 256, 8), 100)
	// As a full run does: a Bulk store's vectors wait for it.
	if _, err := s.TrainVectorLists(ctx); err != nil {
		t.Fatal(err)
	}
	if s.vecSlots != 56 {
		t.Errorf("%d slots a chunk at 256 dimensions, want 56", s.vecSlots)
	}
	var chunks int
	s.db.QueryRow("SELECT count(*) FROM chunk_vecs_vector_chunks00").Scan(&chunks)
	pages := used()
	// 2,240 vectors fill 40 chunks of 56; with an overflow page each they
	// took 80 pages more. The rest of the growth: chunk rows, rowids, FTS5.
	if chunks < 40 || pages-before > chunks+chunks/2+30 {
		t.Errorf("%d vector chunks grew the file by %d pages: chunks spill into overflow pages", chunks, pages-before)
	}
	if err := s.Consistency(ctx, true); err != nil {
		t.Errorf("consistency with 56-slot chunks: %v", err)
	}
	if _, err := s.db.Exec("DELETE FROM meta WHERE key = 'vec_chunk'"); err != nil {
		t.Fatal(err)
	}
	if err := s.initVec(ctx); err != nil || s.vecSlots != ListChunk {
		t.Errorf("a file without vec_chunk: %d slots, %v; want %d", s.vecSlots, err, ListChunk)
	}
}

// TestBulkVectorsPending: a Bulk store keeps its vectors in vec_pending
// (counted as vectors, and deleted with their chunks) until
// TrainVectorLists, or Seal for a run that stopped before it, puts them
// in chunk_vecs; the vector index is then the one a store that wrote
// chunk_vecs directly trains, table for table.
func TestBulkVectorsPending(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(5))
	// Enough vectors for lists, so that training runs on both.
	vecs := clustered(r, MinTrain+700, 32, 40)
	direct := mustOpen(t)
	fillVectors(t, direct, vecs, 100)
	if _, err := direct.TrainVectorLists(ctx); err != nil {
		t.Fatal(err)
	}
	for _, train := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "bulk.db")
		s, err := Open(ctx, path, Options{Bulk: true})
		if err != nil {
			t.Fatal(err)
		}
		fillVectors(t, s, vecs, 100)
		var pending int
		s.db.QueryRow("SELECT count(*) FROM vec_pending").Scan(&pending)
		if pending != len(vecs) {
			t.Fatalf("%d vectors pending, want %d", pending, len(vecs))
		}
		if ids, err := s.ChunkIDsWithoutVectors(ctx); err != nil || len(ids) != 0 {
			t.Fatalf("chunks without vectors while pending: %d, %v", len(ids), err)
		}
		if train {
			if _, err := s.TrainVectorLists(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Seal(ctx); err != nil {
			t.Fatal(err)
		}
		sealed, err := Open(ctx, path, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sealed.Consistency(ctx, true); err != nil {
			t.Errorf("train=%v: %v", train, err)
		}
		var left int
		if err := sealed.db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'vec_pending'").Scan(&left); err != nil || left != 0 {
			t.Errorf("train=%v: vec_pending left in the sealed file (%d, %v)", train, left, err)
		}
		for _, table := range []string{"chunk_vec_lists", "chunk_vecs_rowids", "chunk_vecs_chunks", "chunk_vecs_vector_chunks00"} {
			q := "SELECT * FROM " + table + " ORDER BY 1"
			if a, b := dumpRows(t, direct.db, q), dumpRows(t, sealed.db, q); a != b {
				t.Errorf("train=%v: %s differs from the directly written store's", train, table)
			}
		}
		sealed.Close()
	}
	// A replaced file's pending vectors go with its chunks.
	s, err := Open(ctx, filepath.Join(t.TempDir(), "bulk.db"), Options{Bulk: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fillVectors(t, s, vecs[:300], 100)
	fillVectorsAs(t, s, "f0", vecs[300:310]) // replaces f0.md's 100
	var pending int
	s.db.QueryRow("SELECT count(*) FROM vec_pending").Scan(&pending)
	if pending != 210 {
		t.Errorf("%d vectors pending after a replace, want 210", pending)
	}
}

// dumpRows returns the rows of q, formatted, as one string.
func dumpRows(tb testing.TB, db *sql.DB, q string) string {
	tb.Helper()
	rows, err := db.Query(q)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintln(&b, vals...)
	}
	return b.String()
}
