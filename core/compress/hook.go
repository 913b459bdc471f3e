package compress

import (
	"context"
	"fmt"

	"github.com/vaultctx/vaultctx/core/hookio"
)

// HookOptions configure Hook.
type HookOptions struct {
	Options
	OutputDir   string // where full outputs are saved; required
	KeepOutputs int    // saved outputs kept (default DefaultKeepOutputs)
}

// Hook answers one PostToolUse payload: for a Bash result worth condensing
// (ShouldCondense) it saves the full output under opts.OutputDir, builds the
// extract (Condense) and returns hookio.BashOutput bytes; for everything
// else (other events such as PostToolUseFailure, other tools, images, small
// or empty-interrupted results) it returns nil, so the original output
// reaches Claude unchanged. The latest user prompt is read from the
// payload's transcript when it exists. The save runs alongside Condense.
// Errors (no output directory, a failed save, ctx done) are returned
// wrapped, and no extract then; the caller fails open.
func Hook(ctx context.Context, in hookio.Input, opts HookOptions) ([]byte, error) {
	if in.Event != "" && in.Event != "PostToolUse" || in.ToolName != "Bash" || !in.ToolResponse.IsObject() {
		return nil, nil
	}
	resp := hookio.Fields(in.ToolResponse, "stdout", "stderr", "interrupted", "isImage")
	req := Request{
		Command:     in.ToolInput.Get("command").String(),
		Description: in.ToolInput.Get("description").String(),
		Stdout:      resp[0].String(),
		Stderr:      resp[1].String(),
		Interrupted: resp[2].Bool(),
		IsImage:     resp[3].Bool(),
	}
	if !ShouldCondense(req, opts.Options) {
		return nil, nil
	}
	if opts.OutputDir == "" {
		return nil, fmt.Errorf("posttooluse: no output directory")
	}
	req.Prompt = LatestPrompt(in.TranscriptPath)
	path := OutputPath(opts.OutputDir, in.ToolUseID, req.Stdout, req.Stderr)
	// Saving (scrubbing and writing megabytes) and condensing are
	// independent: they run side by side, and the extract is used only if
	// the save worked.
	saved := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				saved <- fmt.Errorf("save output: panic: %v", p)
			}
		}()
		saved <- SaveOutput(ctx, path, req.Stdout, req.Stderr, opts.KeepOutputs)
	}()
	ex := Condense(ctx, req, opts.Options, path)
	if err := <-saved; err != nil {
		return nil, fmt.Errorf("posttooluse: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("posttooluse: %w", err)
	}
	hookio.Logger(ctx).Debug("condensed bash output", "lines", ex.Lines, "kept", ex.Kept,
		"bytes_in", len(req.Stdout)+len(req.Stderr), "bytes_out", len(ex.Stdout)+len(ex.Stderr))
	return hookio.BashOutput(ex.Stdout, ex.Stderr, req.Interrupted), nil
}
