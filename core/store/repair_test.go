package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestFullRunRepairsInconsistency: on a real index (notes of the tasks
// vault, GloVe vectors), damage that the cheap check sees fails the next
// incremental run with ErrInconsistent; damage only the deep check sees
// passes it; `index --full` repairs both (issue 17).
func TestFullRunRepairsInconsistency(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	v := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), v)
	db := filepath.Join(dir, "index.db")
	o := index.Options{Vault: v, DB: db, ModelDir: testkit.Shared(t, "models/glove-120k"), Rules: vault.Rules{MaxFileBytes: 5 << 20}}
	if _, err := index.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		sql   string
		cheap bool
		edit  bool // a note changes too, so the run writes before it checks
	}{
		{"short vector blob", "UPDATE chunk_vecs_vector_chunks00 SET vectors = substr(vectors, 1, 10) WHERE _rowid_ = (SELECT min(_rowid_) FROM chunk_vecs_vector_chunks00)", true, false},
		{"short vector blob, a note edited", "UPDATE chunk_vecs_vector_chunks00 SET vectors = substr(vectors, 1, 10) WHERE _rowid_ = (SELECT max(_rowid_) FROM chunk_vecs_vector_chunks00)", true, true},
		{"zeroed validity map", "UPDATE chunk_vecs_chunks SET validity = zeroblob(length(validity)) WHERE rowid = (SELECT min(rowid) FROM chunk_vecs_chunks)", true, false},
		{"zeroed validity map, a note edited", "UPDATE chunk_vecs_chunks SET validity = zeroblob(length(validity)) WHERE rowid = (SELECT max(rowid) FROM chunk_vecs_chunks)", true, true},
		{"random vector blob", "UPDATE chunk_vecs_vector_chunks00 SET vectors = randomblob(length(vectors)) WHERE _rowid_ = (SELECT min(_rowid_) FROM chunk_vecs_vector_chunks00)", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw, err := sql.Open("sqlite3", "file:"+db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.ExecContext(ctx, c.sql); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			if c.edit {
				f, err := os.OpenFile(filepath.Join(v, "ACME.md"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintln(f, "\nAn edited line, so that the run writes.")
				f.Close()
			}
			_, err = index.Run(ctx, o)
			if c.cheap != errors.Is(err, store.ErrInconsistent) {
				t.Errorf("incremental run on the damaged index: %v; want ErrInconsistent: %v", err, c.cheap)
			}
			if err := deepCheck(t, db); !errors.Is(err, store.ErrInconsistent) {
				t.Errorf("deep check of the damaged index: %v, want ErrInconsistent", err)
			}
			full := o
			full.Full = true
			if _, err := index.Run(ctx, full); err != nil {
				t.Fatalf("full run: %v", err)
			}
			if err := deepCheck(t, db); err != nil {
				t.Errorf("after the full run: %v", err)
			}
		})
	}
}

func deepCheck(t *testing.T, db string) error {
	t.Helper()
	st, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if !st.VecAvailable() {
		t.Fatal("the index has no vectors")
	}
	return st.Consistency(context.Background(), true)
}
