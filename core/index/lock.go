package index

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// LockedError is returned by Run when another indexer holds the index.
type LockedError struct{ PID int }

// Error says which process holds the lock, when its pid is known.
func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("index is locked by pid %d", e.PID)
	}
	return "index is locked by another indexer"
}

// lock takes an exclusive flock on dbPath+".lock" and writes our pid into
// it. The kernel releases the lock when the process dies, even on kill -9.
func lock(dbPath string) (release func(), err error) {
	name := dbPath + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := 0
		if b, rerr := os.ReadFile(name); rerr == nil {
			pid, _ = strconv.Atoi(string(bytes.TrimSpace(b)))
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{PID: pid}
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
