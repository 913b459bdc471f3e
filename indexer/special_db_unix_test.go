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

// TestSymlinkLoopAsIndex: a symbolic link that leads back to itself given
// as the index. doctor called it damaged and advised `vaultctx index
// --full --db LOOP (it replaces a damaged file)`, which fails on the same
// loop ("too many levels of symbolic links"). Every command says what it
// is and advises removing or fixing the link, or another --db; no advice
// runs an index on it. Done as advised (the link removed), the index run
// works.
func TestSymlinkLoopAsIndex(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop.db")
	if err := os.Symlink("loop.db", loop); err != nil {
		t.Fatal(err)
	}
	vault := doctorSetup(t, loop)
	const says = "a loop of symbolic links"
	for _, args := range [][]string{
		{"search", "--db", loop, "tasks"},
		{"status", "--db", loop},
		{"index", "--db", loop, "--no-model"},
		{"index", "--full", "--db", loop, "--no-model"},
	} {
		code, _, stderr := runStderr(t, args...)
		hint := hintLine(stderr)
		if code != 1 || !strings.Contains(stderr, says) || !strings.Contains(hint, "remove or fix the link") || strings.Contains(hint, "vaultctx index") {
			t.Errorf("vaultctx %s: exit %d, stderr:\n%s\nwant exit 1, %q and the advice to remove or fix the link", strings.Join(args, " "), code, stderr, says)
		}
	}
	_, out := runCaptured(t, "doctor", "--db", loop)
	for _, check := range []string{"index integrity", "index freshness", "sqlite-vec loads", "model matches index"} {
		got := doctorLines(out, check)
		if !strings.HasPrefix(got, "✗ ") || !strings.Contains(got, says) || !strings.Contains(got, "fix: remove or fix the link") ||
			strings.Contains(got, "vaultctx index") || strings.Contains(got, "damaged") {
			t.Errorf("doctor --db on a symlink loop, %s:\n%s\nwant ✗, %q and the advice to remove or fix the link", check, got, says)
		}
	}
	if err := os.Remove(loop); err != nil {
		t.Fatal(err)
	}
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", loop, "--no-model"); code != 0 {
		t.Errorf("index after the link was removed: exit %d\n%s", code, out)
	}
}
