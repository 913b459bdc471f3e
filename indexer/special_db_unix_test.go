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
		args []string
		code int
		want string
	}{
		{[]string{"search", "--db", fifo, "foo"}, 1, "is a named pipe (FIFO), not a file"},
		{[]string{"status", "--db", fifo}, 1, "is a named pipe (FIFO), not a file"},
		{[]string{"index", "--db", fifo}, 1, "is a named pipe (FIFO), not a file"},
		{[]string{"doctor"}, 1, "is a named pipe (FIFO), not a file"},
		{[]string{"search", "--db", "/dev/null", "foo"}, 1, "is a character device, not a file"},
	} {
		code, out := runWithin(t, 30*time.Second, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("vaultctx %s: exit %d, want %d and %q in\n%s", strings.Join(tc.args, " "), code, tc.code, tc.want, out)
		}
	}
}

// runWithin runs the CLI with args as runStderr does and returns its exit
// code and stdout followed by stderr; it fails the test when the command
// is still running after d (its goroutine is left blocked).
func runWithin(t *testing.T, d time.Duration, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := runStderr(t, args...)
		done <- result{code, out + errs}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(d):
		t.Fatalf("vaultctx %s still running after %v", strings.Join(args, " "), d)
		return 0, ""
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
			if code, _ := runWithin(t, 30*time.Second, args...); args[0] == "search" && code != 0 {
				t.Errorf("%s a FIFO: search exit %d, want 0", side, code)
			}
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO is gone or replaced (%v)", side, err)
		}
		os.Remove(fifo)
	}
}
