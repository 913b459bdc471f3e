//go:build unix

package fsx

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// TryLock takes an exclusive advisory lock (flock(2)) on the file name,
// creating it, without waiting. It returns the function that releases the
// lock, or ErrLocked when another process (or another open of the file)
// holds it. The kernel drops the lock when the process dies, even on
// kill -9. Other errors: the file cannot be created or locked, or it is
// not a regular file (ErrNotRegular, wrapped: a FIFO put there is never
// waited on).
func TryLock(name string) (release func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|oNonblock, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = ErrNotRegular
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
