package posttool

import (
	"context"
	"fmt"
	"os"

	"github.com/vaultctx/vaultctx/core/compress"
	"github.com/vaultctx/vaultctx/core/hookio"
)

// DefaultKeepOutputs is how many saved full outputs are kept.
const DefaultKeepOutputs = 200

// Options configure Hook: the extract's options and where full outputs go.
type Options struct {
	compress.Options
	OutputDir   string // where full outputs are saved; required
	KeepOutputs int    // saved outputs kept (default DefaultKeepOutputs)
	// Disabled turns the hook off (hooks.posttooluse = false): Hook
	// returns nil for every payload, before reading or saving anything.
	Disabled bool
	// Passthrough lists command prefixes whose output always passes
	// through (hooks.output_passthrough): Hook returns nil, before
	// reading or saving anything, for a command PassthroughPrefix matches.
	Passthrough []string
}

// Hook answers one PostToolUse payload: for a Bash result worth condensing
// (compress.ShouldCondense) it builds the extract (compress.Condense), saves the full output
// under opts.OutputDir and returns hookio.BashOutput bytes; for everything
// else (other events such as PostToolUseFailure, other tools, images, small
// or empty-interrupted results, and results whose extract would not be
// compress.MinSavingPercent smaller, see compress.WorthReplacing) it returns nil, so the
// original output reaches Claude unchanged and nothing is saved. For an
// output Claude Code persisted (tool_response.persistedOutputPath, set
// when it is over 30,000 bytes) the complete file is condensed and saved,
// and its path kept as compress.Request.FullOutputPath; when that file
// cannot be read whole (ReadPersisted's errors: missing, unreadable, not a
// regular file, over MaxPersistedBytes, changed) Hook returns nil too. The latest
// user prompt is read from the payload's transcript when it is a regular
// file. For an output too large for its extract to miss MinSavingPercent
// (see compress.MayPassThrough) the save runs alongside Condense. Errors (no output
// directory, a failed save, ctx done) are returned wrapped, and no extract
// then; the caller fails open.
func Hook(ctx context.Context, in hookio.Input, opts Options) ([]byte, error) {
	if why, prefix := gate(in, opts); why != "" {
		hookio.Logger(ctx).Debug("output passed through", "by", why, "prefix", prefix)
		return nil, nil
	}
	if in.Event != "" && in.Event != "PostToolUse" || in.ToolName != "Bash" || !in.ToolResponse.IsObject() {
		return nil, nil
	}
	// One pass over the response, whose stdout may be megabytes long: a
	// Get of a key after it would scan past it again.
	resp := hookio.Fields(in.ToolResponse, "stdout", "stderr", "interrupted", "isImage", "persistedOutputPath", "persistedOutputSize")
	req := compress.Request{
		Command:     in.ToolInput.Get("command").String(),
		Description: in.ToolInput.Get("description").String(),
		Stdout:      resp[0].String(),
		Stderr:      resp[1].String(),
		Interrupted: resp[2].Bool(),
		IsImage:     resp[3].Bool(),
	}
	if p := resp[4].String(); p != "" && !req.IsImage {
		// Claude Code saved the whole output and handed us its first
		// 30,000 bytes: condense the whole of it, or nothing.
		full, err := ReadPersisted(ctx, p, resp[5].Int(), req.Stdout)
		if err != nil {
			hookio.Logger(ctx).Debug("persisted output not read: passed through", "err", err)
			return nil, nil
		}
		req.Stdout, req.Stderr, req.FullOutputPath = full, "", p
	}
	if !compress.ShouldCondense(req, opts.Options) {
		return nil, nil
	}
	// Only an output about to be condensed is compared with the files its
	// command names: a file's content so found passes through like cat's.
	if len(req.Stdout) <= mirrorMaxBytes && MirrorsNamedFile(in.Cwd, req.Command, req.Stdout) {
		req.MirrorsFile = true
		if !compress.ShouldCondense(req, opts.Options) {
			return nil, nil
		}
	}
	if opts.OutputDir == "" {
		return nil, fmt.Errorf("posttooluse: no output directory")
	}
	req.Prompt = LatestPrompt(in.TranscriptPath)
	path := OutputPath(opts.OutputDir, in.ToolUseID, req.Stdout, req.Stderr)
	save := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("save output: panic: %v", p)
			}
		}()
		return SaveOutput(ctx, path, req.Stdout, req.Stderr, opts.KeepOutputs)
	}
	var saved chan error
	if !compress.MayPassThrough(req, opts.Options) {
		// Saving (scrubbing and writing megabytes) and condensing are
		// independent: they run side by side, and the extract is used
		// only if the save worked.
		saved = make(chan error, 1)
		go func() { saved <- save() }()
	}
	ex := compress.Condense(ctx, req, opts.Options, path)
	if !compress.WorthReplacing(req, ex) {
		hookio.Logger(ctx).Debug("extract saves too little: output passed through", "bytes_in", len(req.Stdout)+len(req.Stderr),
			"bytes_out", len(ex.Stdout)+len(ex.Stderr))
		if saved != nil { // a budget smaller than the header: rare
			if err := <-saved; err == nil {
				_ = os.Remove(path) // pruned later anyway if this fails
			}
		}
		return nil, nil
	}
	var err error
	if saved != nil {
		err = <-saved
	} else {
		err = save()
	}
	if err != nil {
		return nil, fmt.Errorf("posttooluse: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("posttooluse: %w", err)
	}
	hookio.Logger(ctx).Debug("condensed bash output", "lines", ex.Lines, "kept", ex.Kept,
		"bytes_in", len(req.Stdout)+len(req.Stderr), "bytes_out", len(ex.Stdout)+len(ex.Stderr))
	return hookio.BashOutput(ex.Stdout, ex.Stderr, req.Interrupted), nil
}
