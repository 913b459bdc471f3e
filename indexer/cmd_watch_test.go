package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/recall"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// lockedBuffer is a bytes.Buffer safe to read while a process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// envBeMain makes the test binary run as vaultctx (TestMain), so a test
// can start the CLI as a process without building it.
const envBeMain = "VAULTCTX_TEST_BE_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envBeMain) == "1" {
		os.Exit(run(os.Args[1:]))
	}
	if db := os.Getenv(envHoldLock); db != "" {
		os.Exit(holdLockMain(db))
	}
	os.Exit(m.Run())
}

// TestWatchExitsCleanly: `vaultctx watch` indexes at start, picks up a new
// note, and exits 0 on SIGTERM and on SIGINT. The index it makes gets the
// relevance floor's calibration once (recall.IfMissing), as `vaultctx
// index` gives it, and the second watch, on that calibrated index, does
// not measure again.
func TestWatchExitsCleanly(t *testing.T) {
	dir := isolateCLI(t)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	db := filepath.Join(dir, "index.db")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "watch", "--vault", vault, "--db", db, "--no-model")
			cmd.Env = append(os.Environ(), envBeMain+"=1")
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			wait := func(what, s string) {
				t.Helper()
				for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
					if strings.Contains(stderr.String(), s) {
						return
					}
				}
				cmd.Process.Kill()
				t.Fatalf("gave up waiting for %s:\n%s", what, stderr.String())
			}
			wait("the first run", "msg=indexed")
			if sig == syscall.SIGTERM {
				wait("the calibration of the new index", `msg="relevance floor calibrated"`)
				if !recall.HasCalibration(context.Background(), db) {
					t.Fatal("the index watch made has no floor calibration")
				}
			}
			note := filepath.Join(vault, "watched-"+sig.String()+".md")
			os.WriteFile(note, []byte("# Watched\n\nA note written while vaultctx watch runs, long enough to keep a chunk.\n"), 0o644)
			wait("the run for the new note", "msg=indexed files=1")
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("watch after %s: %v, want exit 0\n%s", sig, err, stderr.String())
			}
			if sig == syscall.SIGINT && strings.Contains(stderr.String(), "calibrated") {
				t.Errorf("watch on a calibrated index measured it again:\n%s", stderr.String())
			}
		})
	}
}
