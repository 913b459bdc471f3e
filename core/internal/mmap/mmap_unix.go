//go:build unix

package mmap

import (
	"fmt"
	"os"
	"syscall"
)

// Map returns the first size bytes of f, mapped read-only. The slice must
// not be written to and stays valid after f is closed, until Unmap. It
// returns an error when size is not positive or the mapping fails.
func Map(f *os.File, size int) ([]byte, error) {
	if size <= 0 {
		return nil, fmt.Errorf("mmap %s: size %d", f.Name(), size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap %s: %w", f.Name(), err)
	}
	return b, nil
}

// Unmap releases a slice returned by Map; the slice must not be used after.
func Unmap(b []byte) error { return syscall.Munmap(b) }
