package recall

import (
	"context"
	"os"
	"runtime/debug"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
)

// Answer is Prompt or PreTool: it answers one decoded payload with the
// loaded config.
type Answer func(ctx context.Context, cfg config.Config, in hookio.Input) ([]byte, error)

// leaveOpen makes answer leave the index open for the process exit to
// reclaim. Closing a read-only SQLite file with a memory map costs about a
// quarter of a hook's CPU (48 against 36 ms task-clock, perf stat over 30
// runs), mostly TLB shootdowns while other threads still run; at exit the
// kernel drops the whole address space at once. Only Main sets it.
var leaveOpen bool

// Main is the whole life of a context hook process: it turns the garbage
// collector off (the process lives for tens of milliseconds; the heap may
// grow to 512 MiB before a collection), leaves the index open for the
// exit to reclaim (see leaveOpen), loads the config as vaultctx does,
// and runs answer under hookio.Run with the configured deadline. A config
// error fails open like any other. It returns the exit status, always 0.
func Main(event string, answer Answer) int {
	leaveOpen = true
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
	cfg, cfgErr := config.Load("", os.Getenv)
	deadline := time.Duration(cfg.Hooks.DeadlineMS) * time.Millisecond
	return hookio.Run(event, deadline, func(ctx context.Context, in hookio.Input) ([]byte, error) {
		if cfgErr != nil {
			return nil, cfgErr
		}
		return answer(ctx, cfg, in)
	})
}
