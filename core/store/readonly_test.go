package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func sha(tb testing.TB, p string) [32]byte {
	tb.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestCheckLeavesHotJournal is the fault campaign's case (issue 17):
// doctor's FTS5 check opened the file read-write, so SQLite rolled back a
// hot journal and the file changed. A read-only store's Check and
// Consistency run read statements only, and a read-only Open of a file
// with a hot journal fails with ErrHotJournal instead of reading the
// half-made write as an immutable file.
func TestCheckLeavesHotJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	s, err := Open(ctx, db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		put(t, s, fmt.Sprint(i, ".md"), strings.Repeat(fmt.Sprint("word", i, " "), 500))
	}
	s.Close()

	// A write interrupted halfway: rollback-journal mode, a page cache of
	// two pages so the change spills into the file, and a copy of the
	// file and its journal taken before the rollback.
	raw, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA journal_mode=DELETE", "PRAGMA cache_size=2"} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE chunks SET chunk_text = chunk_text || 'x'"); err != nil {
		t.Fatal(err)
	}
	hot := filepath.Join(dir, "hot")
	os.Mkdir(hot, 0o755)
	h := filepath.Join(hot, "index.db")
	copyFile(t, db, h)
	copyFile(t, db+"-journal", h+"-journal")
	tx.Rollback()
	raw.Close()

	before := sha(t, h)
	_, err = Open(ctx, h, Options{ReadOnly: true})
	if !errors.Is(err, ErrHotJournal) {
		t.Errorf("read-only open with a hot journal: %v, want ErrHotJournal", err)
	}
	if sha(t, h) != before {
		t.Fatal("a read-only open changed the file")
	}

	// An intact WAL-mode file with a WAL pending (copied while its writer
	// was open): Check and Consistency read it and leave it unchanged.
	w, err := Open(ctx, db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, w, "late.md", "written after the last checkpoint")
	pending := filepath.Join(dir, "pending")
	os.Mkdir(pending, 0o755)
	p := filepath.Join(pending, "index.db")
	copyFile(t, db, p)
	copyFile(t, db+"-wal", p+"-wal")
	w.Close()
	before = sha(t, p)
	r, err := Open(ctx, p, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(ctx); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := r.Consistency(ctx, true); err != nil {
		t.Errorf("Consistency: %v", err)
	}
	if hits, err := r.KeywordHits(ctx, "checkpoint", 5, DefaultColumnWeights); err != nil || len(hits) != 1 {
		t.Errorf("the WAL's chunk: %v %v", hits, err)
	}
	r.Close()
	if sha(t, p) != before {
		t.Error("Check of a read-only store changed the file")
	}
}

// TestNoMmap: every connection of a NoMmap read-only store reads through
// the page cache (mmap_size 0), every connection of a OneQuery store
// through a page cache of OneQueryCachePages, while a default read-only
// store maps the file, and all answer the same search.
func TestNoMmap(t *testing.T) {
	ctx := context.Background()
	w := mustOpen(t)
	put(t, w, "a.md", "the memory map of a read-only store", "another chunk about page caches")
	for _, tc := range []struct {
		name      string
		opt       Options
		want      int64
		wantCache int64
	}{
		{"mapped", Options{ReadOnly: true}, 2147418112, -32000},
		{"page cache", Options{ReadOnly: true, NoMmap: true}, 0, -32000},
		{"one query", Options{ReadOnly: true, OneQuery: true, NoMmap: true}, 0, OneQueryCachePages},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Open(ctx, w.Path(), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			// Two connections at once: the store's pool holds two.
			var conns []*sql.Conn
			for range 2 {
				c, err := r.db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
			}
			for i, c := range conns {
				var got int64
				if err := c.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("connection %d: mmap_size %d, want %d", i, got, tc.want)
				}
				if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != tc.wantCache {
					t.Errorf("connection %d: cache_size %d, want %d", i, got, tc.wantCache)
				}
				c.Close()
			}
			hits, err := r.KeywordHits(ctx, "memory map", 5, DefaultColumnWeights)
			if err != nil || len(hits) != 1 {
				t.Fatalf("KeywordHits = %v, %v; want the one chunk", hits, err)
			}
		})
	}
}

// TestOpenNotAnIndex: a read-only Open tells a missing or empty file (no
// index yet) from another program's SQLite database and from a folder,
// which no index run replaces.
func TestOpenNotAnIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite3", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE notes(x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, c := range []struct {
		path string
		want error
	}{
		{filepath.Join(dir, "none.db"), ErrNotIndexed},
		{empty, ErrNotIndexed},
		{foreign, ErrNotAnIndex},
		{dir, ErrIsDir},
	} {
		for _, ro := range []bool{true, false} {
			if !ro && c.want != ErrIsDir {
				continue // a writer creates the index
			}
			st, err := Open(ctx, c.path, Options{ReadOnly: ro})
			if err == nil {
				st.Close()
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("Open(%s, ReadOnly %v) = %v, want %v naming the file", c.path, ro, err, c.want)
			}
		}
	}
	if b, _ := os.ReadFile(foreign); len(b) == 0 {
		t.Error("the other database was emptied")
	}
}

// TestParallelOpensSecondConnection: a read-only store opened for a hybrid
// search (Options.Parallel) holds its second connection ready without a
// query asking for it; one opened for other reads does not.
func TestParallelOpensSecondConnection(t *testing.T) {
	ctx := context.Background()
	w := mustOpen(t)
	put(t, w, "a.md", "some text")
	path := w.Path()
	w.Close()
	for _, parallel := range []bool{false, true} {
		s, err := Open(ctx, path, Options{ReadOnly: true, Parallel: parallel})
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if parallel {
			want = 2
		}
		got := 0
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if got = s.db.Stats().OpenConnections; got == want && s.db.Stats().InUse == 0 {
				break
			}
		}
		time.Sleep(20 * time.Millisecond) // a third would show by now
		if got = s.db.Stats().OpenConnections; got != want {
			t.Errorf("Parallel %v: %d open connections, want %d", parallel, got, want)
		}
		s.Close()
	}
}
