package doctor

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestDoctorSemanticDamage is the fault campaign's semantic corruption
// (issue 17) as doctor sees it: vector blobs cut short or overwritten
// with random bytes, and a vector whose rowid names no chunk, left
// integrity_check passing, search answering wrongly with exit 0, and
// doctor passing. On a real index (the demo vault, GloVe vectors), each
// damage must fail the index check, name the damage, and advise the
// rebuild. core/store's TestConsistency covers each damage the check
// knows; these are the three the campaign made.
func TestDoctorSemanticDamage(t *testing.T) {
	ctx := context.Background()
	env := hooktest.NewEnvWith(t, true, hooktest.Source{From: "corpora/obsidian/tasks-demo-vault", To: "tasks"})
	d := &doctor{opt: testOptions(), cfg: &doctorConfig{DB: env.DB}}
	if f := d.checkIndex(ctx); f.Status != OK {
		t.Fatalf("checkIndex of the intact index = %+v, want OK", f)
	}
	if f := d.checkVec(ctx); f.Status != OK || !strings.Contains(f.Message, "dimensional vectors indexed") {
		t.Fatalf("test premise: the index holds no vectors: %+v", f)
	}
	for _, c := range []struct {
		name string
		sql  string
		want string // in the finding's message
	}{
		{"short vector blob", "UPDATE chunk_vecs_vector_chunks00 SET vectors = substr(vectors, 1, 10) WHERE _rowid_ = (SELECT min(_rowid_) FROM chunk_vecs_vector_chunks00)", "vector blobs not of"},
		{"random vector blob", "UPDATE chunk_vecs_vector_chunks00 SET vectors = randomblob(length(vectors)) WHERE _rowid_ = (SELECT min(_rowid_) FROM chunk_vecs_vector_chunks00)", "not as quantised"},
		{"stray vector rowid", "UPDATE chunk_vecs_rowids SET rowid = rowid + 100000 WHERE rowid = (SELECT min(rowid) FROM chunk_vecs_rowids)", "vectors of no chunk"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "index.db")
			copyTo(t, env.DB, db)
			if _, err := os.Stat(env.DB + "-wal"); err == nil {
				copyTo(t, env.DB+"-wal", db+"-wal")
			}
			damage(t, db, c.sql)
			d := &doctor{opt: testOptions(), cfg: &doctorConfig{DB: db}}
			f := d.checkIndex(ctx)
			if f.Status != Fail || f.Hint != HintRebuildIndex || !strings.Contains(f.Message, store.ErrInconsistent.Error()) || !strings.Contains(f.Message, c.want) {
				t.Errorf("checkIndex = %+v, want a failure naming %q (%v) with the rebuild hint", f, c.want, store.ErrInconsistent)
			}
		})
	}
}

// damage runs one statement that changes exactly one row on the index at
// path, through a plain SQLite connection (not the store, which would
// refuse or repair).
func damage(tb testing.TB, path, stmt string) {
	tb.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(stmt)
	if err != nil {
		tb.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		tb.Fatalf("%s: %d rows changed (%v), want 1", stmt, n, err)
	}
}
