package store

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// sealed builds a full-run index at path with n notes holding word.
func sealed(t *testing.T, path string, n int, word string) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path, Options{Bulk: true})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		text := fmt.Sprintf("%s note %d with some filler text to fill the pages", word, i)
		if err := tx.ReplaceFile(ctx, File{Path: fmt.Sprint(word, i, ".md")}, []Chunk{{Text: text}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(ctx); err != nil {
		t.Fatal(err)
	}
}

// openFDs counts this process's file descriptors open on path (Linux).
func openFDs(t *testing.T, path string) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("needs /proc/self/fd")
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == path {
			n++
		}
	}
	return n
}

// A reader that opens the index while a full run's Replace switches the old
// file out of WAL mode must end up reading the new file. Left on the old
// file, SQLite replays the new file's WAL (found by name) onto the old
// file's pages: "database disk image is malformed" or wrong rows, which
// 4 search loops against full runs hit about once in 3,000 searches.
func TestReaderOpeningDuringReplace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dst := filepath.Join(dir, "index.db")
	sealed(t, dst, 1500, "oldword")
	src := filepath.Join(dir, "new.db")
	sealed(t, src, 2000, "newword")

	type opened struct {
		s   *Store
		err error
	}
	done := make(chan opened, 1)
	testHookSwitched = func() {
		before := openFDs(t, dst)
		go func() {
			s, err := Open(ctx, dst, Options{ReadOnly: true})
			done <- opened{s, err}
		}()
		// Hold the switch until the reader has the old file open, then
		// give it time to read the file if it could (it must not).
		for deadline := time.Now().Add(5 * time.Second); openFDs(t, dst) == before; {
			if time.Now().After(deadline) {
				t.Error("the reader never opened the old file")
				return
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		if len(done) != 0 {
			t.Error("the reader read the old file before the rename; it must wait for Replace's exclusive lock")
		}
	}
	defer func() { testHookSwitched = nil }()
	if err := Replace(ctx, dst, src); err != nil {
		t.Fatal(err)
	}
	testHookSwitched = nil

	// A writer in another process (as an incremental run would be) puts
	// frames in the new file's WAL and keeps it open. In this process it
	// would not do: POSIX locks do not exclude each other within one
	// process, so SQLite's shared-memory locks would not either.
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	writer := exec.Command(bin, "-test.run", "^TestWriterProcess$")
	writer.Env = append(os.Environ(), "VAULTCTX_TEST_WRITER="+dst)
	stdin, err := writer.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := writer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	writer.Stderr = os.Stderr
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	defer writer.Wait()
	defer stdin.Close()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("writer process: %q %v", line, err)
	}

	r := <-done
	if r.err != nil {
		t.Fatalf("reader: %v", r.err)
	}
	defer r.s.Close()
	hits, err := r.s.KeywordHits(ctx, "newword", 5000, DefaultColumnWeights)
	if err != nil {
		t.Fatalf("reader's search after the replace: %v", err)
	}
	if len(hits) != 2001 {
		t.Errorf("reader found %d chunks of the new index, want 2001", len(hits))
	}
	if old, err := r.s.KeywordHits(ctx, "oldword", 10, DefaultColumnWeights); err != nil || len(old) != 0 {
		t.Errorf("reader found %d chunks of the old index (%v), want none", len(old), err)
	}
}

// TestWriterProcess is TestReaderOpeningDuringReplace's writer: with
// VAULTCTX_TEST_WRITER set to an index, it adds a note, prints "ready",
// and keeps the index open until its stdin closes.
func TestWriterProcess(t *testing.T) {
	db := os.Getenv("VAULTCTX_TEST_WRITER")
	if db == "" {
		t.Skip("the writer process of TestReaderOpeningDuringReplace")
	}
	w, err := Open(context.Background(), db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	put(t, w, "later.md", "newword later")
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
}

// Writers opening one index at once (the calibration after a run and
// the next run) each run schema.sql, which drops and creates a trigger:
// interleaved, one failed with "trigger impact_ad already exists".
func TestConcurrentWriterOpens(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	put(t, s, "a.md", "alpha")
	s.Close()
	db := s.path
	for range 300 {
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				w, err := Open(ctx, db, Options{})
				if err == nil {
					err = w.Close()
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatalf("writer open beside another: %v", err)
			}
		}
	}
}
