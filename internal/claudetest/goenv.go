package claudetest

import (
	"os/exec"
	"strings"
	"testing"
)

// GoEnv returns KEY=VALUE pairs for Session.Env that let a `go` command
// the scripted model runs in the session's private HOME reuse this
// machine's Go installation and caches (GOROOT, GOPATH, GOMODCACHE,
// GOCACHE) instead of compiling the standard library again, with
// GOTOOLCHAIN=local so it never downloads a toolchain, and CGO_ENABLED=0.
func GoEnv(tb testing.TB) []string {
	tb.Helper()
	keys := []string{"GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE"}
	out, err := exec.Command("go", append([]string{"env"}, keys...)...).Output()
	if err != nil {
		tb.Fatalf("go env: %v", err)
	}
	vals := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(vals) != len(keys) {
		tb.Fatalf("go env printed %q", out)
	}
	env := []string{"GOTOOLCHAIN=local", "GOFLAGS=", "CGO_ENABLED=0"}
	for i, k := range keys {
		env = append(env, k+"="+vals[i])
	}
	return env
}
