package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// envHoldLock makes the test binary (TestMain) hold the index it names
// locked, as a sqlite3 shell does after `PRAGMA locking_mode=EXCLUSIVE;
// BEGIN EXCLUSIVE;`, until its stdin closes.
const envHoldLock = "VAULTCTX_TEST_HOLD_LOCK"

// holdLockMain is the test binary as the other process holding db
// locked: it prints "locked" once it holds the lock and keeps it until
// stdin reaches its end.
func holdLockMain(db string) int {
	raw, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	raw.SetMaxOpenConns(1)
	if _, err := raw.Exec("PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString(0) // until EOF
	raw.Close()
	return 0
}

// holdLock starts another process that holds the index db locked, and
// returns once it does, with the function that ends that process (also
// called when the test ends).
func holdLock(t *testing.T, db string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envHoldLock+"="+db)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			stdin.Close()
			cmd.Wait()
		})
	}
	t.Cleanup(release)
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("the lock holder: %q, %v", line, err)
	}
	return release
}

// TestLockedIndex: another process holds the index locked (a sqlite3
// shell in an exclusive transaction). doctor took 23 s, called the file
// damaged and advised `vaultctx index --full`, which waited 15 s more and
// failed with "install index: database is locked". doctor now says the
// index is locked by another process, advises waiting for it or closing
// it, and calls nothing damaged, within a bound (one short lock wait, not
// one per check); an index run fails saying the same, and works once the
// other process is gone.
func TestLockedIndex(t *testing.T) {
	db := filepath.Join(t.TempDir(), "index.db")
	doctorSetup(t, db)
	if code, out := runCaptured(t, "index", "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	release := holdLock(t, db)
	const says = "locked by another process"

	code, out := runWithin(t, 10*time.Second, "doctor")
	if code != 1 {
		t.Errorf("doctor on a locked index: exit %d, want 1", code)
	}
	got := doctorLines(out, "index integrity")
	if !strings.HasPrefix(got, "✗ index integrity: ") || !strings.Contains(got, says) || !strings.Contains(got, "fix: wait for the other process") {
		t.Errorf("doctor on a locked index:\n%s\nwant ✗, %q and the advice to wait for or close the other process", got, says)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "damaged") || strings.Contains(l, "vaultctx index --full") {
			t.Errorf("doctor on a locked index calls it damaged or advises a rebuild: %q", l)
		}
	}

	code, _, stderr := runStderr(t, "index", "--no-model")
	if hint := hintLine(stderr); code != 1 || !strings.Contains(stderr, says) || !strings.Contains(hint, "wait for the other process") ||
		strings.Contains(stderr, "damaged") {
		t.Errorf("index on a locked index: exit %d, stderr:\n%s\nwant exit 1, %q and the advice to wait for or close the other process", code, stderr, says)
	}

	release()
	if code, out := runCaptured(t, "index", "--no-model"); code != 0 {
		t.Errorf("index once the other process is gone: exit %d: %s", code, out)
	}
	if _, out := runCaptured(t, "doctor"); !strings.HasPrefix(doctorLines(out, "index integrity"), "✓ ") {
		t.Errorf("doctor once the other process is gone:\n%s", doctorLines(out, "index integrity"))
	}
}

// TestLockedIndexNoConfig: with no config file the vault is the one the
// index records, which a locked index does not give up. `vaultctx index`
// waited a second and exited 2 with "no vault to index: pass --vault
// DIR", and doctor marked "✗ config parses: no vault configured": both
// sent the user to a config that was never the problem. They say the
// index is locked, and what to do; once the lock is gone the index run
// finds the vault again.
func TestLockedIndexNoConfig(t *testing.T) {
	dir := isolateCLI(t)
	hooktest.FreshClaude(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	db := filepath.Join(dir, "index.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	release := holdLock(t, db)
	const says = "locked by another process"

	code, _, stderr := runStderr(t, "index", "--db", db, "--no-model")
	if hint := hintLine(stderr); code != 1 || !strings.Contains(stderr, says) || !strings.Contains(hint, "wait for the other process") ||
		strings.Contains(stderr, "no vault") {
		t.Errorf("index on a locked index, no config: exit %d, stderr:\n%s\nwant exit 1, %q and the advice to wait for or close the other process", code, stderr, says)
	}
	_, out := runWithin(t, 10*time.Second, "doctor", "--db", db)
	if got := doctorLines(out, "config parses"); !strings.HasPrefix(got, "✗ ") || !strings.Contains(got, says) || !strings.Contains(got, "fix: wait for the other process") {
		t.Errorf("doctor on a locked index, no config:\n%s\nwant ✗ saying %q, and the advice to wait for the other process", got, says)
	}

	release()
	if code, out := runCaptured(t, "index", "--db", db, "--no-model"); code != 0 {
		t.Errorf("index once the other process is gone: exit %d: %s", code, out)
	}
}
