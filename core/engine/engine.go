package engine

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// Options configures Open.
type Options struct {
	// ReadOnly opens the index read-only (search, hooks).
	ReadOnly bool
	// Columns are the BM25 column weights (chunk text, section, heading
	// context) that every search passes to the store; zero means
	// store.DefaultColumnWeights.
	Columns [3]float64
	// ModelDir overrides the model directory recorded in the index.
	ModelDir string
	// Logger receives debug messages; nil discards them.
	Logger *slog.Logger
}

// Engine is an open index ready to search.
type Engine struct {
	st      *store.Store
	log     *slog.Logger
	columns [3]float64

	modelDir  string
	modelOnce sync.Once
	model     *embed.Model
	modelErr  error
	modelHash string
}

// Open opens the index at dbPath.
//
// Errors: store.ErrNotIndexed when there is no index yet, and the other
// errors of store.Open. A missing or changed model is not an error: vector
// search is then unavailable and VecAvailable reports false.
func Open(ctx context.Context, dbPath string, opt Options) (*Engine, error) {
	st, err := store.Open(ctx, dbPath, store.Options{ReadOnly: opt.ReadOnly})
	if err != nil {
		return nil, err
	}
	e := &Engine{st: st, log: opt.Logger, columns: opt.Columns}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	e.modelDir = opt.ModelDir
	if e.modelDir == "" {
		if e.modelDir, err = st.Meta(ctx, store.MetaModelDir); err != nil {
			st.Close()
			return nil, err
		}
	}
	if e.modelHash, err = st.Meta(ctx, store.MetaModelHash); err != nil {
		st.Close()
		return nil, err
	}
	return e, nil
}

// Store returns the underlying store.
func (e *Engine) Store() *store.Store { return e.st }

// Close closes the index.
func (e *Engine) Close() error {
	if e.model != nil {
		e.model.Close()
	}
	return e.st.Close()
}

// ModelDir returns the model directory the index records ("" for none).
func (e *Engine) ModelDir() string { return e.modelDir }

// Model opens the index's embedding model on first use. It returns an error
// when there is none, it cannot be opened, or its hash differs from the one
// recorded in the index (the vectors would not be comparable).
func (e *Engine) Model() (*embed.Model, error) {
	e.modelOnce.Do(func() {
		if e.modelDir == "" || !e.st.VecAvailable() {
			e.modelErr = retrieve.ErrNoVectors
			return
		}
		m, err := embed.Open(e.modelDir)
		if err != nil {
			e.modelErr = fmt.Errorf("open model: %w", err)
			return
		}
		if m.Dim() != e.st.VecDim() {
			m.Close()
			e.modelErr = fmt.Errorf("model %s has %d dimensions, index has %d: re-index", e.modelDir, m.Dim(), e.st.VecDim())
			return
		}
		e.model = m
	})
	return e.model, e.modelErr
}

// VecAvailable reports whether vector search works: the index holds
// vectors and its model opens.
func (e *Engine) VecAvailable() bool {
	_, err := e.Model()
	return err == nil
}

// Search runs a search; see retrieve.Search. Without a usable model, hybrid
// mode is BM25 alone and vector mode fails with retrieve.ErrNoVectors.
func (e *Engine) Search(ctx context.Context, query string, opt retrieve.Options) ([]retrieve.Hit, error) {
	var emb retrieve.Embedder
	if opt.Mode != retrieve.ModeBM25 {
		m, err := e.Model()
		if err != nil {
			e.log.Debug("vector search unavailable", "err", err)
			if opt.Mode == retrieve.ModeVector {
				return nil, err
			}
		} else {
			emb = m
		}
	}
	return retrieve.Search(ctx, source{e.st, e.columns}, emb, query, opt)
}

// source adapts the store to retrieve.Source: it passes the engine's BM25
// column weights with every keyword search and turns store hits into
// retrieve's scored ids.
type source struct {
	st      *store.Store
	columns [3]float64
}

func (s source) KeywordHits(ctx context.Context, q string, k int) ([]retrieve.Scored, error) {
	hits, err := s.st.KeywordHits(ctx, q, k, s.columns)
	return scored(hits), err
}

func (s source) VectorHits(ctx context.Context, v []float32, k int) ([]retrieve.Scored, error) {
	hits, err := s.st.VectorHits(ctx, v, k)
	return scored(hits), err
}

// scored converts store hits to retrieve's type, in order (nil for none).
func scored(hits []store.Hit) []retrieve.Scored {
	if hits == nil {
		return nil
	}
	out := make([]retrieve.Scored, len(hits))
	for i, h := range hits {
		out[i] = retrieve.Scored{ID: h.ChunkID, Score: h.Score}
	}
	return out
}

func (s source) Hydrate(ctx context.Context, ids []int64) ([]retrieve.Hit, error) {
	cs, err := s.st.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]retrieve.Hit, len(cs))
	for i, c := range cs {
		out[i] = retrieve.Hit{ChunkID: c.ID, Path: c.Path, Title: c.Title, Section: c.Section, HeadingContext: c.HeadingContext, Text: c.Text}
	}
	return out, nil
}
