package handoff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/xdg"
)

// LogName is the refresh log's file name in $XDG_STATE_HOME/vaultctx.
const LogName = "refresh.log"

// MaxLogBytes is the size past which Request starts the log afresh,
// keeping the previous one as LogName+".1": 1 MiB.
const MaxLogBytes = 1 << 20

// LogPath returns the refresh log, $XDG_STATE_HOME/vaultctx/refresh.log
// (XDG_STATE_HOME defaults to ~/.local/state), from getenv.
func LogPath(getenv func(string) string) (string, error) {
	dir, err := xdg.StateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("refresh log: %w", err)
	}
	return filepath.Join(dir, LogName), nil
}

// requestPath and lockPath are the protocol's files for the index db.
func requestPath(db string) string { return db + ".refresh" }
func lockPath(db string) string    { return db + ".refresh.lock" }

// Request asks for a background refresh of the index file db: it writes a
// new request token and starts argv (argv[0] is the program's path)
// detached, its stdout and stderr appended to logPath, and returns without
// waiting. The started process is expected to call Serve for db; when a
// runner already serves db, the new one exits at once and the running one
// refreshes again.
//
// Errors: the token could not be written (the index folder is not
// writable), the log could not be opened, or argv could not be started;
// errors.ErrUnsupported where detaching is not implemented (Windows).
func Request(db string, argv []string, logPath string) error {
	if len(argv) == 0 {
		return errors.New("refresh request: no command")
	}
	token := strconv.FormatInt(time.Now().UnixNano(), 10) + " " + strconv.Itoa(os.Getpid()) + "\n"
	if err := fsx.WriteAtomic(requestPath(db), []byte(token), 0o644, false); err != nil {
		return fmt.Errorf("refresh request: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return fmt.Errorf("refresh request: %w", err)
	}
	if fi, err := os.Stat(logPath); err == nil && fi.Size() > MaxLogBytes {
		_ = os.Rename(logPath, logPath+".1")
	}
	logf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("refresh request: %w", err)
	}
	defer logf.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return fmt.Errorf("refresh request: %w", err)
	}
	defer devnull.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	// The hook's own stdout is the protocol's pipe: the runner must not
	// hold it open, or Claude Code would wait for the runner to finish.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, logf, logf
	attr, err := detached()
	if err != nil {
		return fmt.Errorf("refresh request: %w", err)
	}
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("refresh request: %w", err)
	}
	// Reaped when the asker lives on (a test, a long-lived caller); a hook
	// exits first and the runner is re-parented.
	go func() { _ = cmd.Wait() }()
	return nil
}

// maxSmallFile bounds the request and lock files read here (bytes): a
// token or a pid. A FIFO or device there reads as empty, never waited on.
const maxSmallFile = 4096

// token returns the current request token of db, "" when there is none.
func token(db string) string {
	b, _ := fsx.ReadRegular(requestPath(db), maxSmallFile)
	return string(b)
}

// Serve runs refresh for db for as long as requests keep coming: it takes
// the runner lock (returning 0, nil at once when another runner holds it),
// reads the request token, calls refresh, releases the lock, and starts
// over when the token changed meanwhile. It stops early when ctx is done
// or refresh fails, and returns how many times refresh ran. refresh
// should not itself fail when another indexer (not a runner) holds the
// index: it waits for it, as only a runner can.
func Serve(ctx context.Context, db string, refresh func(context.Context) error) (runs int, err error) {
	for ctx.Err() == nil {
		release, ok, err := tryLock(lockPath(db))
		if err != nil {
			return runs, fmt.Errorf("refresh runner: %w", err)
		}
		if !ok {
			return runs, nil
		}
		seen := token(db)
		err = refresh(ctx)
		runs++
		release()
		if err != nil {
			return runs, err
		}
		if token(db) == seen {
			return runs, nil
		}
	}
	return runs, nil
}

// Runner returns the pid of the live background runner of db, or 0 when
// none runs. Like index.Holder it only reads the pid the runner wrote and
// asks the kernel whether that process exists; it never takes the lock.
func Runner(db string) int {
	b, err := fsx.ReadRegular(lockPath(db), maxSmallFile)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil || pid <= 0 || !alive(pid) {
		return 0
	}
	return pid
}
