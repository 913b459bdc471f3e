//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFileAsIndex: a FIFO given as the index (a fresh user's
// report) made search and status wait for a writer forever and doctor
// hang past SIGTERM, while index refused it at once. Every command now
// refuses it at once, naming what it is, and so does a device, which
// SQLite would otherwise read as an empty database ("no index yet").
func TestSpecialFileAsIndex(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	doctorSetup(t, fifo)
	for _, tc := range []struct {
		db   string
		args []string
		code int
		want string
	}{
		{fifo, []string{"search", "--db", fifo, "foo"}, 1, "is a named pipe (FIFO), not a file"},
		{fifo, []string{"status", "--db", fifo}, 1, "is a named pipe (FIFO), not a file"},
		{fifo, []string{"index", "--db", fifo}, 1, "is a named pipe (FIFO), not a file"},
		{fifo, []string{"doctor"}, 1, "is a named pipe (FIFO), not a file"},
		{"/dev/null", []string{"search", "--db", "/dev/null", "foo"}, 1, "is a character device, not a file"},
	} {
		type result struct {
			code      int
			out, errs string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := runStderr(t, tc.args...)
			done <- result{code, out, errs}
		}()
		select {
		case r := <-done:
			if r.code != tc.code || !strings.Contains(r.out+r.errs, tc.want) {
				t.Errorf("vaultctx %s: exit %d, want %d and %q in\n%s%s", strings.Join(tc.args, " "), r.code, tc.code, tc.want, r.out, r.errs)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("vaultctx %s still running after 30 s", strings.Join(tc.args, " "))
		}
	}
}

// TestSpecialSideFiles: a FIFO in place of the index's lock file or the
// background refresh's lock or request file made status and doctor wait
// for a writer (doctor past SIGTERM). They read those files without
// waiting: a FIFO there reads as no holder, and index refuses to lock it.
func TestSpecialSideFiles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	doctorSetup(t, db)
	if code, out := runCaptured(t, "index", "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	for _, side := range []string{".lock", ".refresh.lock", ".refresh"} {
		fifo := db + side
		os.Remove(fifo)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("mkfifo:", err)
		}
		for _, args := range [][]string{{"status"}, {"doctor"}, {"search", "tasks"}, {"index"}} {
			done := make(chan int, 1)
			go func() {
				code, _, _ := runStderr(t, args...)
				done <- code
			}()
			select {
			case code := <-done:
				if args[0] == "search" && code != 0 {
					t.Errorf("%s a FIFO: search exit %d, want 0", side, code)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s a FIFO: vaultctx %s still running after 30 s", side, strings.Join(args, " "))
			}
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO is gone or replaced (%v)", side, err)
		}
		os.Remove(fifo)
	}
}
