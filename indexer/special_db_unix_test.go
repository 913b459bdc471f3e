//go:build unix

package main

import (
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
