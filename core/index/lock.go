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

// Holder returns the pid of the live process holding the indexer lock of
// dbPath, or 0 when none does. It only reads the lock file (the pid the
// holder wrote there) and asks the kernel whether that process exists, so
// it never takes the lock itself: an indexer starting at that moment is not
// turned away. A holder killed with kill -9 leaves its pid behind; it reads
// as free once the process is gone. A recycled pid can read as held, which
// costs a caller a needless hand-off, never a lost update.
func Holder(dbPath string) int {
	b, err := os.ReadFile(dbPath + ".lock")
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return 0
	}
	return pid
}
