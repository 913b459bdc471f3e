package engine

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/vault"
)

var shared = testkit.SharedDir()

// Two Model2Vec fixtures of the same dimension (64) whose weights are
// stored as float32 and float16: their hashes differ, so an index built
// with one must not be searched by vector with the other.
var (
	modelA = filepath.Join(shared, "models/m2v-fixtures/float32")
	modelB = filepath.Join(shared, "models/m2v-fixtures/float16")
)

// indexWith indexes the edge corpus with the model in dir and returns the
// index file.
func indexWith(t *testing.T, dir string) string {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // model digests
	db := filepath.Join(t.TempDir(), "index.db")
	_, err := index.Run(context.Background(), index.Options{
		Vault: filepath.Join(shared, "corpora/edge"), DB: db, Full: true, ModelDir: dir, NoModel: dir == "", Rules: vault.Rules{MaxFileBytes: 5 << 20},
	})
	if err != nil {
		t.Fatalf("index with %s: %v", dir, err)
	}
	return db
}

func mustOpen(t *testing.T, db, model string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), db, Options{ReadOnly: true, ModelDir: model})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

var queries = []string{"Get-ChildItem recurse", "range adaptors", "hello world", "encryption protocol DNS server"}

func TestModelMismatchAnswersBM25(t *testing.T) {
	ctx := context.Background()
	db := indexWith(t, modelA)

	same := mustOpen(t, db, modelA)
	if err := same.VectorProblem(); err != nil {
		t.Fatalf("index's own model: VectorProblem = %v, want nil", err)
	}
	if !same.VecAvailable() {
		t.Fatal("index's own model: vector search unavailable")
	}

	e := mustOpen(t, db, modelB)
	if err := e.VectorProblem(); !errors.Is(err, ErrModelMismatch) {
		t.Fatalf("other model: VectorProblem = %v, want ErrModelMismatch", err)
	}
	if _, err := e.Model(); !errors.Is(err, ErrModelMismatch) {
		t.Fatalf("other model: Model error = %v, want ErrModelMismatch", err)
	}
	if e.VecAvailable() {
		t.Fatal("other model: vector search available")
	}
	if _, err := e.Search(ctx, queries[0], retrieve.Options{Mode: retrieve.ModeVector}); !errors.Is(err, ErrModelMismatch) {
		t.Fatalf("vector mode with the other model: %v, want ErrModelMismatch", err)
	}
	served := 0
	for _, q := range queries {
		hybrid, err := e.Search(ctx, q, retrieve.Options{Mode: retrieve.ModeHybrid})
		if err != nil {
			t.Fatalf("hybrid %q: %v", q, err)
		}
		bm25, err := e.Search(ctx, q, retrieve.Options{Mode: retrieve.ModeBM25})
		if err != nil {
			t.Fatalf("bm25 %q: %v", q, err)
		}
		// Hybrid scores are RRF sums, BM25's are -bm25: the answers agree
		// in chunks, order and each hit's BM25 leg.
		if got, want := legs(hybrid), legs(bm25); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: hybrid with the other model %v, want the BM25 answer %v", q, got, want)
		}
		if len(bm25) > 0 {
			served++
		}
	}
	if served == 0 {
		t.Fatal("no query found anything: the test checks nothing")
	}
}

func TestBM25OnlyIndexHasNoProblem(t *testing.T) {
	db := indexWith(t, "")
	e := mustOpen(t, db, "")
	if err := e.VectorProblem(); err != nil {
		t.Fatalf("BM25-only index: VectorProblem = %v, want nil", err)
	}
	if _, err := e.Model(); !errors.Is(err, retrieve.ErrNoVectors) {
		t.Fatalf("BM25-only index: Model error = %v, want retrieve.ErrNoVectors", err)
	}
}

// leg is what a hit owes to the BM25 and vector legs.
type leg struct {
	ChunkID           int64
	BM25Rank, VecRank int
	BM25Score         float64
}

func legs(hits []retrieve.Hit) []leg {
	out := make([]leg, len(hits))
	for i, h := range hits {
		out[i] = leg{h.ChunkID, h.BM25Rank, h.VecRank, h.BM25Score}
	}
	return out
}
