package index

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
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

// pidWait bounds how long a run that finds the lock held waits for the
// holder's pid to appear in the lock file: the holder writes it just after
// it takes the lock, so two runs that start in the same instant would
// otherwise lose it from the message.
const (
	pidWait  = 250 * time.Millisecond
	pidPause = 5 * time.Millisecond
)

// Lock takes the lock of the index at db (through its resolved path, as
// Run does) for a writer outside Run, such as the calibrations saved after
// a run, so that no index run, and no full run's swap, meets it mid-write.
// It returns *LockedError when another indexer holds the lock.
func Lock(db string) (release func(), err error) { return lock(resolve(db)) }

// lock takes an exclusive flock on dbPath+".lock" and writes our pid into
// it. The kernel releases the lock when the process dies, even on kill -9.
// A lock file this user may not create is reported as ErrReadOnly when
// the folder is read-only to them (Writable), not as a raw open error.
func lock(dbPath string) (release func(), err error) {
	release, pid, err := pidLock(dbPath + ".lock")
	if errors.Is(err, errHeld) {
		return nil, &LockedError{PID: pid}
	}
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		if werr := Writable(dbPath); werr != nil {
			return nil, fmt.Errorf("lock %s.lock: %w", dbPath, werr)
		}
	}
	return release, err
}

// ErrReadOnly is returned (wrapped) by Run, Lock and Writable when this
// user cannot write the folder of the index, where an index run creates
// its lock file, the WAL and a full run's new file: no index run of this
// user, and so no refresh the hooks start for them, can update the
// index. Its owner can, or this user once the folder is writable for
// them.
var ErrReadOnly = errors.New("the index's folder is read-only to this user")

// wOK is access(2)'s W_OK: may the caller write (create files in a
// folder).
const wOK = 0x2

// Writable returns nil when this user may create files in the folder of
// the index at db (resolved as Run resolves it), or, when that folder
// does not exist yet, in its nearest existing parent, where Run creates
// it; else an error wrapping ErrReadOnly that names the folder. It asks
// the kernel (access(2) with W_OK, for the real user id) and writes
// nothing, so read-only commands (doctor, status) may call it. Errors
// other than a denied permission or a read-only file system are left to
// the index run to meet: Writable returns nil for them.
func Writable(db string) error {
	dir := filepath.Dir(resolve(db))
	for {
		err := syscall.Access(dir, wOK)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrNotExist) && filepath.Dir(dir) != dir:
			dir = filepath.Dir(dir)
			continue
		case errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS):
			return fmt.Errorf("%w (%s)", ErrReadOnly, dir)
		}
		return nil
	}
}

// WatchedError is returned by LockWatch when another process watches the
// index.
type WatchedError struct{ PID int }

// Error names the watching process, when its pid is known.
func (e *WatchedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("the index is already watched by pid %d (vaultctx watch)", e.PID)
	}
	return "the index is already watched by another vaultctx watch"
}

// LockWatch takes the watcher lock of the index at dbPath: an exclusive
// flock on its resolved path (as Run resolves it, so two names of one
// index are one lock) plus ".watch.lock", holding our pid. One `vaultctx
// watch` then serves an index however many are started (a service and one
// in a terminal): the others get a *WatchedError. The kernel releases the
// lock when the process dies. Other errors: the lock file cannot be made.
func LockWatch(dbPath string) (release func(), err error) {
	release, pid, err := pidLock(resolve(dbPath) + ".watch.lock")
	if errors.Is(err, errHeld) {
		return nil, &WatchedError{PID: pid}
	}
	return release, err
}

// errHeld is pidLock's error for a lock another process holds.
var errHeld = errors.New("lock held")

// pidLock takes an exclusive flock on the file name, creating it, and
// writes our pid into it. When another process holds it, it returns errHeld
// and that process's pid (0 when unknown).
func pidLock(name string) (release func(), holderPID int, err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, fmt.Errorf("lock %s: %w", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, holder(name), errHeld
		}
		return nil, 0, fmt.Errorf("lock %s: %w", name, err)
	}
	// The pid first, then the length: the file never reads as empty once
	// it held a pid, and a shorter pid over a longer one is cut to size.
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	f.WriteAt(pid, 0)
	f.Truncate(int64(len(pid)))
	return func() {
		f.Truncate(0)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, 0, nil
}

// holder returns the pid in the lock file name, waiting up to pidWait for
// a holder that took the lock an instant ago to write it; 0 when no live
// process's pid appears.
func holder(name string) int {
	deadline := time.Now().Add(pidWait)
	for {
		if b, err := os.ReadFile(name); err == nil {
			line, _, _ := bytes.Cut(b, []byte("\n"))
			// A pid left by a holder killed with -9 is not the holder's.
			if pid, err := strconv.Atoi(string(bytes.TrimSpace(line))); err == nil && pid > 0 && alive(pid) {
				return pid
			}
		}
		if time.Now().After(deadline) {
			return 0
		}
		time.Sleep(pidPause)
	}
}

// alive reports whether a process pid exists (signal 0 checks without
// sending; EPERM means it exists under another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// maxPidFile bounds the lock and request files read for a pid (bytes).
const maxPidFile = 4096

// Holder returns the pid of the live process holding the indexer lock of
// dbPath, or 0 when none does. It only reads the lock file (the pid the
// holder wrote there) and asks the kernel whether that process exists, so
// it never takes the lock itself, nor waits: an indexer starting at that
// moment is not turned away. A holder killed with kill -9 leaves its pid
// behind; it reads as free once the process is gone. A recycled pid can
// read as held, which costs a caller a needless hand-off, never a lost
// update.
func Holder(dbPath string) int {
	b, err := fsx.ReadRegular(dbPath+".lock", maxPidFile)
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	pid, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if err != nil || pid <= 0 || !alive(pid) {
		return 0
	}
	return pid
}
