package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// CalibrateFusion measures the fusion calibration of the index
// (retrieve.CalibrateFusion) on retrieve.DefaultPseudoQueries chunks that
// store.SampleChunks draws, with candidates hits per leg (0 =
// retrieve.DefaultCandidates). It returns retrieve.ErrNoVectors when
// vector search does not work (no model, or the model is not the
// index's), and the errors of the sampling, the searches and
// retrieve.ErrFewPseudoQueries.
func (e *Engine) CalibrateFusion(ctx context.Context, candidates int) (retrieve.Fusion, error) {
	m, err := e.Model()
	if err != nil {
		return retrieve.Fusion{}, err
	}
	sampled, err := e.st.SampleChunks(ctx, retrieve.DefaultPseudoQueries)
	if err != nil {
		return retrieve.Fusion{}, err
	}
	samples := make([]retrieve.Sample, len(sampled))
	for i, c := range sampled {
		samples[i] = retrieve.Sample{ChunkID: c.ID, Text: c.Text}
	}
	f, err := retrieve.CalibrateFusion(ctx, source{e.st, e.columns}, m, samples, retrieve.Options{Candidates: candidates})
	if err != nil {
		return f, err
	}
	f.Model = filepath.Base(e.modelDir)
	return f, nil
}

// SaveFusion stores f in the index meta (store.MetaFusion); the engine
// must be open for writing.
func (e *Engine) SaveFusion(ctx context.Context, f retrieve.Fusion) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if err := e.st.SetMeta(ctx, store.MetaFusion, string(b)); err != nil {
		return fmt.Errorf("save the fusion calibration: %w", err)
	}
	return nil
}

// Fusion returns the fusion calibration the index holds; ok is false when
// it holds none (BM25 only, built before calibrations, a failed
// calibration) or one that does not parse or is out of range.
func (e *Engine) Fusion(ctx context.Context) (f retrieve.Fusion, ok bool) {
	v, err := e.st.Meta(ctx, store.MetaFusion)
	if err != nil || v == "" {
		return retrieve.Fusion{}, false
	}
	if json.Unmarshal([]byte(v), &f) != nil || !f.Valid() {
		return retrieve.Fusion{}, false
	}
	return f, true
}

// CalibrateIndex calibrates the fusion of the index at db with the model
// modelDir ("" = the one the index records) and stores the result, or
// clears a stored one when the index has no working vectors (a BM25-only
// rebuild must not keep a calibration of vectors it dropped). It returns
// ok false with a nil error in that case.
func CalibrateIndex(ctx context.Context, db, modelDir string, columns [3]float64, candidates int) (f retrieve.Fusion, ok bool, err error) {
	e, err := Open(ctx, db, Options{ModelDir: modelDir, Columns: columns})
	if err != nil {
		return f, false, err
	}
	defer e.Close()
	f, err = e.CalibrateFusion(ctx, candidates)
	if err != nil {
		if clearErr := e.st.SetMeta(ctx, store.MetaFusion, ""); clearErr != nil {
			return f, false, clearErr
		}
		if errors.Is(err, retrieve.ErrNoVectors) {
			return f, false, nil
		}
		return f, false, err
	}
	return f, true, e.SaveFusion(ctx, f)
}
