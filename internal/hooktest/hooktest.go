package hooktest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// Env is a private environment for hook runs.
type Env struct {
	Dir   string   // temp root
	DB    string   // index file
	Vault string   // vault root
	Vars  []string // KEY=VALUE pairs for the child process (VAULTCTX_HOOK_DEADLINE is 60s)
}

// VaultMark is what Env.MaskVault writes in place of the vault root.
const VaultMark = "$VAULT"

// MaskVault returns b with every occurrence of the vault root (Env.Vault,
// a temp folder that changes each run) replaced by VaultMark, so a hook's
// output, which names notes by their absolute paths, compares with a
// golden file.
func (e *Env) MaskVault(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(e.Vault), []byte(VaultMark))
}

// Source is a file or directory under ../shared (From, relative to testkit.Shared)
// copied into a test vault at To (relative to the vault root).
type Source struct{ From, To string }

// DefaultSources are the notes of NewEnv's vault: the Obsidian demo vault
// under tasks/ and cpp-docs/docs/text under cpp-text/.
var DefaultSources = []Source{
	{From: "corpora/obsidian/tasks-demo-vault", To: "tasks"},
	{From: "corpora/large/cpp-docs/docs/text", To: "cpp-text"},
}

// PowerShellVersions are the Microsoft.PowerShell.Management pages of the
// five PowerShell doc versions in the large corpus (5.1, 7.4, 7.5, 7.6,
// 7.7; about 340 files), each under ps/<version>/: most sections are copied
// word for word across versions (the SYNTAX of Get-ChildItem is the same in
// 7.4 to 7.7, and 5.1's lists other parameters), for near-duplicate tests.
var PowerShellVersions = func() []Source {
	var out []Source
	for _, v := range []string{"5.1", "7.4", "7.5", "7.6", "7.7"} {
		out = append(out, Source{
			From: "corpora/large/PowerShell-Docs/reference/" + v + "/Microsoft.PowerShell.Management",
			To:   "ps/" + v + "/Microsoft.PowerShell.Management",
		})
	}
	return out
}()

// NewEnv builds a vault of real notes (DefaultSources) and indexes it, with
// vectors from the GloVe test model when withModel is set.
func NewEnv(tb testing.TB, withModel bool) *Env {
	tb.Helper()
	return NewEnvWith(tb, withModel, DefaultSources...)
}

// AfterIndex, when set, runs after NewEnvWith's index run with the index
// file and the model folder ("" for BM25 only): the hooks' tests set it to
// recall.CalibrateIndex, which `vaultctx index` runs after every run, and
// which this package cannot call itself (core/recall's tests import it).
var AfterIndex func(db, modelDir string) error

// NewEnvWith builds a vault from srcs and indexes it, with vectors from the
// GloVe test model (../shared/models/glove-120k) when withModel is set. It
// fails the test on any error.
func NewEnvWith(tb testing.TB, withModel bool, srcs ...Source) *Env {
	tb.Helper()
	dir := tb.TempDir()
	e := &Env{Dir: dir, DB: filepath.Join(dir, "data", "vaultctx", "index.db"), Vault: filepath.Join(dir, "vault")}
	for _, s := range srcs {
		testkit.CopyTree(tb, testkit.Shared(tb, s.From), filepath.Join(e.Vault, s.To))
	}
	opt := index.Options{Vault: e.Vault, DB: e.DB, Rules: vault.Rules{MaxFileBytes: 5 << 20}, NoModel: !withModel}
	if withModel {
		opt.ModelDir = testkit.Shared(tb, "models/glove-120k")
	}
	if _, err := index.Run(context.Background(), opt); err != nil {
		tb.Fatalf("index: %v", err)
	}
	if AfterIndex != nil {
		if err := AfterIndex(e.DB, opt.ModelDir); err != nil {
			tb.Fatalf("after index: %v", err)
		}
	}
	e.Vars = []string{
		"HOME=" + dir,
		"PATH=" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"VAULTCTX_DB=" + e.DB,
		// A generous deadline: on a loaded machine the default 1.5 s would
		// make output-checking tests flaky. Tests of the deadline pass their
		// own VAULTCTX_HOOK_DEADLINE to Run, which wins (the last value of a
		// duplicated variable is used).
		"VAULTCTX_HOOK_DEADLINE=60s",
	}
	return e
}

// Build compiles the main package in the current directory (the test's)
// with the sqlite_fts5 tag and returns the binary's path.
func Build(tb testing.TB) string {
	tb.Helper()
	return BuildDir(tb, ".")
}

// BuildDir compiles the main package in dir (relative to the test's
// directory, e.g. "../userprompt") with the sqlite_fts5 tag and returns
// the binary's path.
func BuildDir(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "hook")
	cmd := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BuildAs compiles the main package in dir (relative to the test's
// directory) with the sqlite_fts5 tag into binDir/name and returns its
// path: hooks that start `vaultctx` find it beside themselves, so a test
// builds both into one folder.
func BuildAs(tb testing.TB, binDir, name, dir string) string {
	tb.Helper()
	bin := filepath.Join(binDir, name)
	cmd := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", dir, err, out)
	}
	return bin
}

// Result is one hook run.
type Result struct {
	Stdout, Stderr []byte
	Code           int
	Elapsed        time.Duration
}

// Run runs bin with stdin and the environment vars (plus extra).
func Run(tb testing.TB, bin string, stdin []byte, vars []string, extra ...string) Result {
	tb.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(append([]string{}, vars...), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.Bytes(), Stderr: errb.Bytes(), Elapsed: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.Code = ee.ExitCode()
	} else if err != nil {
		tb.Fatalf("run %s: %v", bin, err)
	}
	return r
}

// Payload reads an example payload from ../shared/hook-payloads.
func Payload(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(testkit.Shared(tb, "hook-payloads", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FakeBinDir makes a bin folder (with a space in its path, to exercise
// quoting) holding executables named as the three hook binaries: shell
// scripts that exit 0, for settings wiring tests.
func FakeBinDir(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "bin dir")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, b := range []string{settings.UserPromptBinary, settings.PreToolUseBinary, settings.PostToolUseBinary} {
		if err := os.WriteFile(filepath.Join(dir, b), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// FreshClaude points HOME and CLAUDE_CONFIG_DIR at new temporary folders
// and returns the settings.json path they select.
func FreshClaude(t *testing.T) string {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	cfg := filepath.Join(t.TempDir(), "claude")
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	return filepath.Join(cfg, "settings.json")
}
