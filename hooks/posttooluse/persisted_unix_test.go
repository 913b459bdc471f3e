//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestPersistedFIFO: a FIFO with no writer at persistedOutputPath makes
// the binary exit 0 at once with nothing printed (run's test deadline
// turns a hang into a failure).
func TestPersistedFIFO(t *testing.T) {
	_, full, _ := persistedPayload(t, 100<<10)
	fifo := filepath.Join(t.TempDir(), "out.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r := run(t, payloadFor(t, fifo, full, int64(len(full))))
	if r.code != 0 || len(r.stdout) != 0 || len(r.stderr) != 0 {
		t.Errorf("exit %d, stdout %.200q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
	}
}
