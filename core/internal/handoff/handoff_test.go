//go:build unix

package handoff

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor polls cond every 20 ms for up to a minute: a generous bound on a
// busy machine, never a timing assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// TestRequestDetaches: the command runs in a session of its own, with its
// output appended to the log, and Request does not wait for it.
func TestRequestDetaches(t *testing.T) {
	dir := t.TempDir()
	db, log := filepath.Join(dir, "index.db"), filepath.Join(dir, "state", "refresh.log")
	done := filepath.Join(dir, "done")
	// The child prints its session id and its own pid: equal when it leads
	// a session of its own. It then waits for the test to let it finish.
	script := `if [ -r /proc/$$/stat ]; then cut -d' ' -f6 /proc/$$/stat; else ps -o sid= -p $$; fi; echo $$; while [ ! -e "` + done + `" ]; do sleep 0.05; done; echo finished`
	if err := Request(db, []string{"/bin/sh", "-c", script}, log); err != nil {
		t.Fatal(err)
	}
	if token(db) == "" {
		t.Error("no request token written")
	}
	waitFor(t, "the child's first lines", func() bool {
		b, _ := os.ReadFile(log)
		return len(strings.Fields(string(b))) >= 2
	})
	b, _ := os.ReadFile(log)
	if f := strings.Fields(string(b)); f[0] != f[1] {
		t.Errorf("the child's session id %s is not its pid %s: not detached", f[0], f[1])
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the child to finish", func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), "finished")
	})
	if err := Request(db, []string{filepath.Join(dir, "missing")}, log); err == nil {
		t.Error("Request of a missing program: no error")
	}
}

// TestServeCoalesces: requests that arrive during a run cost one more run
// in all, and a runner that finds the lock held returns at once.
func TestServeCoalesces(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	var runs atomic.Int32
	inRun := make(chan struct{})
	proceed := make(chan struct{})
	type result struct {
		n   int
		err error
	}
	res := make(chan result, 1)
	go func() {
		n, err := Serve(ctx, db, func(context.Context) error {
			if runs.Add(1) == 1 {
				inRun <- struct{}{}
				<-proceed
			}
			return nil
		})
		res <- result{n, err}
	}()
	<-inRun
	if pid := Runner(db); pid != os.Getpid() {
		t.Errorf("Runner during a run = %d, want %d", pid, os.Getpid())
	}
	// A second runner while the first runs: it returns at once.
	if n, err := Serve(ctx, db, func(context.Context) error { t.Error("second runner ran"); return nil }); n != 0 || err != nil {
		t.Errorf("second runner: %d runs, %v", n, err)
	}
	// Three requests during the run: one more run.
	for i := 0; i < 3; i++ {
		if err := os.WriteFile(requestPath(db), []byte{byte('a' + i)}, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	close(proceed)
	r := <-res
	if r.err != nil || r.n != 2 || runs.Load() != 2 {
		t.Errorf("Serve = %d runs, %v (refresh ran %d times); want 2", r.n, r.err, runs.Load())
	}
	if pid := Runner(db); pid != 0 {
		t.Errorf("Runner after the runner ended = %d", pid)
	}
	// A failing refresh stops the runner with its error.
	boom := errors.New("boom")
	if n, err := Serve(ctx, db, func(context.Context) error { return boom }); n != 1 || !errors.Is(err, boom) {
		t.Errorf("failing refresh: %d runs, %v", n, err)
	}
}
