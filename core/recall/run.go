package recall

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
)

// Options are the choices a context hook's main makes for its process.
// The zero value closes everything it opens, as a library should.
type Options struct {
	// LeaveOpen leaves the index open for the process exit to reclaim.
	// Closing a read-only SQLite file with a memory map costs about a
	// quarter of a hook's CPU (48 against 36 ms task-clock, perf stat over
	// 30 runs), mostly TLB shootdowns while other threads still run; at
	// exit the kernel drops the whole address space at once. Set it only
	// in a process that exits right after answering.
	LeaveOpen bool
	// Stderr receives one line when vector search is off although the
	// index holds vectors (engine.VectorProblem: a model that is not the
	// one the index was built with, or that does not open): the hook then
	// answers with BM25 alone. nil prints nothing.
	Stderr io.Writer
}

// Answer is PromptHook, Prompt or PreTool: it answers one decoded payload
// with the loaded config.
type Answer func(ctx context.Context, cfg config.Config, in hookio.Input, opts Options) ([]byte, error)

// Run is the life of a context hook process once its main has tuned the
// runtime: it loads the config as vaultctx does and runs answer, with opts,
// under hookio.Run with the configured deadline (hooks.deadline_ms), for
// payloads of event and of the further events in also (see hookio.Run). A
// config error fails open like any other. It returns the exit status,
// always 0.
func Run(event string, answer Answer, opts Options, also ...string) int {
	cfg, cfgErr := config.Load("", os.Getenv)
	deadline := time.Duration(cfg.Hooks.DeadlineMS) * time.Millisecond
	return hookio.Run(event, deadline, func(ctx context.Context, in hookio.Input) ([]byte, error) {
		if cfgErr != nil {
			return nil, cfgErr
		}
		return answer(ctx, cfg, in, opts)
	}, also...)
}
