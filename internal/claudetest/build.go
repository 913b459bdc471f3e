package claudetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// BuildTags are the build tags scripts/install.sh builds the hooks with.
const BuildTags = "sqlite_fts5 osusergo netgo sqlite_omit_load_extension"

// BuildHooks compiles the three hook binaries (hooks/userprompt,
// hooks/pretooluse, hooks/posttooluse) with BuildTags and cgo into a new
// folder under tb.TempDir(), each under its installed name
// (settings.UserPromptBinary, ...), and returns the folder, for
// Session.WireHooks.
func BuildHooks(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	names := map[string]string{
		"userprompt":  settings.UserPromptBinary,
		"pretooluse":  settings.PreToolUseBinary,
		"posttooluse": settings.PostToolUseBinary,
	}
	args := []string{"build", "-tags", BuildTags, "-o", dir + string(os.PathSeparator)}
	for pkg := range names {
		args = append(args, "./hooks/"+pkg)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = testkit.Root(tb)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build hooks: %v\n%s", err, out)
	}
	for pkg, name := range names {
		if err := os.Rename(filepath.Join(dir, pkg), filepath.Join(dir, name)); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
