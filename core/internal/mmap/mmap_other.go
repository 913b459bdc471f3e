//go:build !unix

package mmap

import (
	"fmt"
	"io"
	"os"
)

// Map returns the first size bytes of f, read into memory (this GOOS has no
// mmap in package syscall). It returns an error when size is not positive
// or the read fails.
func Map(f *os.File, size int) ([]byte, error) {
	if size <= 0 {
		return nil, fmt.Errorf("mmap %s: size %d", f.Name(), size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, int64(size)), b); err != nil {
		return nil, fmt.Errorf("mmap %s: %w", f.Name(), err)
	}
	return b, nil
}

// Unmap releases a slice returned by Map; here it does nothing.
func Unmap(b []byte) error { return nil }
