package claudetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// Version is the pinned Claude Code CLI (npm @anthropic-ai/claude-code)
// the end-to-end tests run: the version the issues measured. scripts/test.sh
// pins the same one (a test checks that they agree).
const Version = "2.1.332"

// NodePackage is the npm package of the Node.js installed beside the CLI:
// 2.1.332 declares engines.node >= 22, and its install script runs on it.
const NodePackage = "node@22"

// EnvDir names a cache folder to use instead of
// <repository>/bin/tools/claude-<Version>, e.g. one shared by worktrees.
const EnvDir = "VAULTCTX_CLAUDE_DIR"

// installTimeout bounds one npm install (about 20 s here; the CLI's native
// package is some 200 MB).
const installTimeout = 10 * time.Minute

// CLI is an installed, checked Claude Code CLI.
type CLI struct {
	Dir    string // the npm prefix: Dir/node_modules/.bin holds claude and node
	Claude string // the claude executable
	BinDir string // Dir/node_modules/.bin, put first on the PATH of each run
}

var (
	installMu sync.Mutex
	installed = map[string]*CLI{}
)

// Claude returns the pinned CLI, installing it on first use into its cache
// folder (see EnvDir). It skips the test in -short mode; when npm is not on
// PATH or the registry cannot be reached it skips the test, or fails it
// when the environment variable CI is set. Any other failure fails the test.
func Claude(tb testing.TB) *CLI {
	tb.Helper()
	if testing.Short() {
		tb.Skip("claudetest: the real Claude Code CLI is not run in -short mode")
	}
	dir := os.Getenv(EnvDir)
	if dir == "" {
		dir = filepath.Join(testkit.Root(tb), "bin", "tools", "claude-"+Version)
	}
	installMu.Lock()
	defer installMu.Unlock()
	if c := installed[dir]; c != nil {
		return c
	}
	c, err := Locate(dir)
	if err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
		c, err = Install(ctx, dir)
		cancel()
	}
	var unreachable *UnreachableError
	switch {
	case errors.As(err, &unreachable) && os.Getenv("CI") == "":
		tb.Skipf("claudetest: cannot install Claude Code %s (%v); run scripts/test.sh with npm and the registry reachable", Version, err)
	case err != nil:
		tb.Fatalf("claudetest: %v", err)
	}
	installed[dir] = c
	return c
}

// UnreachableError is returned by Install when npm is not installed or the
// npm registry cannot be reached: the machine cannot run these tests,
// which is no fault of the code under test.
type UnreachableError struct {
	Reason string
}

func (e *UnreachableError) Error() string { return e.Reason }

// Locate checks the CLI installed in dir: `claude --version` must print
// Version and node must be version 22. It returns an error saying what is
// missing or wrong.
func Locate(dir string) (*CLI, error) {
	bin := filepath.Join(dir, "node_modules", ".bin")
	c := &CLI{Dir: dir, Claude: filepath.Join(bin, "claude"), BinDir: bin}
	out, err := exec.Command(c.Claude, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("locate claude in %s: %w", dir, err)
	}
	if want := Version + " (Claude Code)"; strings.TrimSpace(string(out)) != want {
		return nil, fmt.Errorf("locate claude in %s: version %q, want %q", dir, strings.TrimSpace(string(out)), want)
	}
	out, err = exec.Command(filepath.Join(bin, "node"), "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("locate node in %s: %w", dir, err)
	}
	if !strings.HasPrefix(string(out), "v22.") {
		return nil, fmt.Errorf("locate node in %s: version %q, want v22", dir, strings.TrimSpace(string(out)))
	}
	return c, nil
}

// unreachableNPM matches npm's messages for a registry it cannot reach.
var unreachableNPM = regexp.MustCompile(`ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network`)

// Install installs NodePackage and then the pinned CLI with `npm install
// --prefix` into a fresh folder beside dir and renames it to dir, so a
// half-done install is never used and two concurrent installs cannot mix
// (the loser's copy is removed). The CLI's install script then runs on the
// Node.js 22 just installed. It returns an *UnreachableError when npm is
// missing or reports a network error, and other errors wrapped.
func Install(ctx context.Context, dir string) (*CLI, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, &UnreachableError{Reason: "npm is not on PATH"}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("install claude: %w", err)
	}
	var r [6]byte
	_, _ = rand.Read(r[:])
	tmp := dir + ".tmp-" + hex.EncodeToString(r[:])
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "node_modules", ".bin")
	for _, pkg := range []string{NodePackage, "@anthropic-ai/claude-code@" + Version} {
		cmd := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", pkg)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			if unreachableNPM.Match(out.Bytes()) {
				return nil, &UnreachableError{Reason: fmt.Sprintf("npm install %s: %v: %s", pkg, err, lastLines(out.String(), 5))}
			}
			return nil, fmt.Errorf("install claude: npm install %s: %w\n%s", pkg, err, lastLines(out.String(), 20))
		}
	}
	if _, err := Locate(tmp); err != nil {
		return nil, fmt.Errorf("install claude: after npm install: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have installed it meanwhile: use its copy.
		if c, lerr := Locate(dir); lerr == nil {
			return c, nil
		}
		if rerr := os.RemoveAll(dir); rerr != nil {
			return nil, fmt.Errorf("install claude: %w", err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return nil, fmt.Errorf("install claude: %w", err)
		}
	}
	return Locate(dir)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
