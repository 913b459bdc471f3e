//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// TestPreToolConfigNotAFile: a config that is a FIFO made every hook wait
// for a writer past its own deadline, and /dev/zero made it read until it
// ran out of memory (exit 2, which blocks the tool call). The hook refuses
// both at once: exit 0, nothing on stdout, one stderr line, well inside
// its deadline.
func TestPreToolConfigNotAFile(t *testing.T) {
	env := hooktest.NewEnvWith(t, true, sources...)
	bin := hooktest.Build(t)
	payload := withSession(hooktest.Payload(t, "pretooluse-websearch.json"), "")
	fifo := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, cfg := range []string{fifo, "/dev/zero"} {
		done := make(chan hooktest.Result, 1)
		go func() {
			done <- hooktest.Run(t, bin, payload, env.Vars, "VAULTCTX_CONFIG="+cfg, "VAULTCTX_HOOK_DEADLINE=60s")
		}()
		select {
		case r := <-done:
			if r.Code != 0 || len(r.Stdout) != 0 || r.Elapsed > 10*time.Second {
				t.Errorf("config %s: exit %d, stdout %q, %v (stderr %q); want exit 0, no output, at once", cfg, r.Code, r.Stdout, r.Elapsed, r.Stderr)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("config %s: the hook still runs after 30 s", cfg)
		}
	}
}
