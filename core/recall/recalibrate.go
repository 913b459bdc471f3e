package recall

import (
	"context"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// Policy says when Recalibrate measures an index after an index run.
type Policy int

const (
	// IfChanged measures after a run that indexed or deleted files, after
	// a full run, and whenever a calibration is missing: what `vaultctx
	// index` does.
	IfChanged Policy = iota
	// IfMissing measures only an index that lacks a calibration: one just
	// made, or rebuilt whole after a schema upgrade. The watcher and the
	// background refresh use it, since their runs follow every saved note
	// and a calibration costs about 2 s of CPU on a large vault; their
	// index keeps the calibration of the last `vaultctx index` run.
	IfMissing
)

// Recalibration is what Recalibrate measured and saved; a nil field was
// not measured.
type Recalibration struct {
	// Fusion is the fusion of hybrid search (engine.CalibrateIndex).
	Fusion *retrieve.Fusion
	// FusionErr is why the fusion was not calibrated: nil, or
	// retrieve.ErrFewPseudoQueries for a vault too small to measure, or
	// another error (the index then uses the configured weights).
	FusionErr error
	// Floor is the relevance floor of the context hooks (CalibrateIndex).
	Floor *Calibration
	// FloorErr is why the floor was not calibrated.
	FloorErr error
}

// Recalibrate re-measures, as policy p says, the settings an index keeps
// for its vault and model after an index run of opt that returned sum and
// runErr: first the fusion of hybrid search, then the relevance floor,
// which searches with that fusion. It works under the index's lock
// (index.Lock), as any writer of the index. It does nothing after a run
// that failed or was interrupted, or while another indexer holds the
// lock, and stops without an error when ctx is cancelled. An index
// without working vectors (opt.NoModel, or no model) has its fusion
// calibration cleared and measures the floor with BM25 alone.
func Recalibrate(ctx context.Context, cfg config.Config, opt index.Options, sum index.Summary, runErr error, p Policy) Recalibration {
	var r Recalibration
	if runErr != nil || ctx.Err() != nil {
		return r
	}
	// The calibrations are written into the index: under its lock, as any
	// writer. An indexer that holds it now recalibrates after its own run.
	release, err := index.Lock(opt.DB)
	if err != nil {
		return r
	}
	defer release()
	model := opt.ModelDir
	if opt.NoModel {
		model = ""
	}
	changed := p == IfChanged && (sum.FilesIndexed+sum.FilesDeleted > 0 || opt.Full)
	// A cancelled context (the watcher stopping) ends the work where it
	// is, and what it left unmeasured is not an error to report: the
	// checks below read a failed open as "no calibration".
	var fused, floored bool
	if !changed {
		fused, floored = calibrated(ctx, opt.DB)
	}
	if !fused {
		if ctx.Err() != nil {
			return r
		}
		f, ok, err := engine.CalibrateIndex(ctx, opt.DB, model, cfg.Search.Columns, cfg.Search.Candidates)
		if ctx.Err() != nil {
			return Recalibration{}
		}
		if ok {
			r.Fusion = &f
		}
		r.FusionErr = err
	}
	cfg.DB, cfg.Model = opt.DB, model
	if !floored {
		if ctx.Err() != nil {
			return r
		}
		c, err := CalibrateIndex(ctx, cfg)
		if ctx.Err() != nil {
			return r
		}
		if err == nil {
			r.Floor = &c
		}
		r.FloorErr = err
	}
	return r
}

// calibrated reports whether the index at db holds a fusion calibration,
// or has no vectors to calibrate (a BM25-only index, which IfMissing must
// not measure again after every run), and whether it holds a relevance
// floor's (HasCalibration). It opens the index once: after a run that
// changed nothing, these two reads were all Recalibrate did, and opening
// the file twice for them was a tenth of the run. An index that cannot be
// opened has neither.
func calibrated(ctx context.Context, db string) (fusion, floor bool) {
	e, err := engine.Open(ctx, db, engine.Options{ReadOnly: true})
	if err != nil {
		return false, false
	}
	defer e.Close()
	_, fused := e.Fusion(ctx)
	_, floor = LoadCalibration(ctx, e)
	return fused || !e.VecAvailable(), floor // VecAvailable opens the model: only when needed
}
