//go:build unix

package posttool

import (
	"context"
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHookPersistedFIFO: a FIFO with no writer at persistedOutputPath is
// refused at once (os.Lstat, then O_NONBLOCK) and the output passes
// through. The watchdog only turns a hang into a failure.
func TestHookPersistedFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "output.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	full := make([]byte, 40000)
	for i := range full {
		full[i] = 'a' + byte(i%26)
		if i%80 == 79 {
			full[i] = '\n'
		}
	}
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		if _, err := ReadPersisted(context.Background(), fifo, int64(len(full)), claudeHead(full)); !errors.Is(err, ErrPersistedNotRegular) {
			t.Errorf("ReadPersisted(FIFO): %v, want ErrPersistedNotRegular", err)
		}
		out, err := Hook(context.Background(), persistedInput(t, "cat", fifo, full, int64(len(full))), Options{OutputDir: t.TempDir()})
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if r.out != nil || r.err != nil {
			t.Errorf("Hook = %.200s, %v; want a pass-through", r.out, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Hook blocked on a FIFO")
	}
}
