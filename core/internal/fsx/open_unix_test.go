//go:build unix

package fsx

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadTailFIFO checks that a FIFO is refused at once instead of
// blocking until a writer comes.
func TestReadTailFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	if _, _, err := ReadTail(fifo, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadTail(a FIFO) = %v, want ErrNotRegular", err)
	}
}
