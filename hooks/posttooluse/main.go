// Command vaultctx-posttooluse is Claude Code's PostToolUse hook: it
// replaces a long Bash result with a stable, focused extract.
//
// It reads the hook payload (JSON) on stdin. For a Bash result of 4 KB or
// more (stdout plus stderr) it saves the full output under
// $XDG_CACHE_HOME/vaultctx/outputs/ and prints
// {"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{…}}}
// holding a header line and the extract (see packages core/posttool and
// core/compress). For
// every other payload (other tools, small outputs, images, empty interrupted
// results, PostToolUseFailure, and outputs whose extract would not be at
// least 25% smaller, compress.MinSavingPercent) it prints nothing, saves
// nothing, and the original output reaches Claude unchanged.
//
// Payloads of up to 16 MiB are read (hookio.MaxPostToolUseInput); of a
// larger output only a head and a tail are condensed
// (compress.MaxExaminedBytes), so the time stays bounded. Claude Code hands
// a hook only the first 30,000 bytes of a larger output and saves all of it
// in a file (tool_response.persistedOutputPath, see docs/claude-code.md):
// that complete file is condensed and saved instead, when it is a regular
// file of the reported size and at most 64 MiB (posttool.MaxPersistedBytes);
// otherwise the output passes through untouched.
//
// For Write, Edit and MultiEdit it re-indexes the note Claude wrote: when
// tool_input.file_path is a note of the configured vault (posttool.NoteWritten),
// it starts a detached `vaultctx index --background` (logged to
// $XDG_STATE_HOME/vaultctx/refresh.log) and exits at once, printing nothing.
//
// It always exits 0. On any error (a payload over 16 MiB too), panic or
// when its deadline (1.5 s, VAULTCTX_HOOK_DEADLINE) passes, it prints
// nothing on stdout and one line on stderr.
//
// It reads the [hooks] table of the config file as vaultctx does
// (output_threshold_bytes, output_budget_tokens, deadline_ms); environment
// variables override it. With posttooluse = false, or for a command that
// starts with one of output_passthrough's prefixes (after cd … &&, in any
// stage of a pipeline; see posttool.PassthroughPrefix), it prints and
// saves nothing. Environment: VAULTCTX_CONFIG, XDG_CONFIG_HOME,
// XDG_CACHE_HOME, HOME, VAULTCTX_POSTTOOLUSE_THRESHOLD (bytes),
// VAULTCTX_POSTTOOLUSE_BUDGET (tokens), VAULTCTX_POSTTOOLUSE_KEEP (saved
// outputs kept), VAULTCTX_HOOK_DEADLINE, VAULTCTX_LOG (debug log file).
package main

import (
	"context"
	"os"
	"runtime/debug"
	"slices"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/posttool"
)

func main() {
	// The process lives for tens of milliseconds and its input is capped
	// (hookio.MaxPostToolUseInput): collect garbage only if the heap
	// passes 1 GiB. Interleaved runs on 1 MB: CPU p50 96 ms against 103.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	cfg, cfgErr := config.Load("", os.Getenv)
	deadline := time.Duration(cfg.Hooks.DeadlineMS) * time.Millisecond
	os.Exit(hookio.Run("PostToolUse", deadline, func(ctx context.Context, in hookio.Input) ([]byte, error) {
		if cfgErr != nil {
			return nil, cfgErr
		}
		if slices.Contains(posttool.NoteTools, in.ToolName) {
			return posttool.NoteWritten(ctx, cfg, in, "")
		}
		opts, err := posttool.OptionsFromConfig(cfg.Hooks, os.Getenv)
		if err != nil {
			return nil, err
		}
		return posttool.Hook(ctx, in, opts)
	}))
}
