package engine

import (
	"context"
	"errors"
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
	// NoMmap reads a ReadOnly index through SQLite's bounded page cache
	// instead of a memory map (see store.Options.NoMmap): for a process
	// that runs many queries and must keep its memory bounded.
	NoMmap bool
	// OneQuery says the process runs one search and exits (a hook, the
	// CLI's search): see store.Options.OneQuery.
	OneQuery bool
	// Hybrid says the caller is about to run a hybrid search: the store
	// opens the connection of its second leg ahead (store.Options.Parallel).
	Hybrid bool
}

// ErrModelMismatch is returned by Model (and VectorProblem) when the model
// it opens is not the one the index's vectors were made with: its hash
// (embed.Model.Hash) differs from the one the index records in meta
// model_hash. The vectors would not be comparable, so vector search is off
// and hybrid search answers with BM25 alone; a re-index with the new model
// (or pointing ModelDir back at the old one) fixes it. The wrapping error
// names both hashes (first 12 hex digits) and both directories, or, for a
// model of another dimension, both dimensions.
var ErrModelMismatch = errors.New("the model is not the one the index was built with")

// Engine is an open index ready to search.
type Engine struct {
	st      *store.Store
	log     *slog.Logger
	columns [3]float64

	modelDir  string // the model to load: Options.ModelDir, else indexDir
	indexDir  string // the model directory the index records
	modelOnce sync.Once
	model     *embed.Model
	modelErr  error
	modelHash string // the model hash the index records
}

// Open opens the index at dbPath.
//
// Errors: store.ErrNotIndexed when there is no index yet, and the other
// errors of store.Open. A missing or changed model is not an error of Open:
// vector search is then unavailable, VecAvailable reports false and
// VectorProblem says why (the model is opened and checked on first use).
func Open(ctx context.Context, dbPath string, opt Options) (*Engine, error) {
	st, err := store.Open(ctx, dbPath, store.Options{ReadOnly: opt.ReadOnly, NoMmap: opt.NoMmap, OneQuery: opt.OneQuery, Parallel: opt.Hybrid})
	if err != nil {
		return nil, err
	}
	e := &Engine{st: st, log: opt.Logger, columns: opt.Columns}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.indexDir, err = st.Meta(ctx, store.MetaModelDir); err != nil {
		st.Close()
		return nil, err
	}
	e.modelDir = opt.ModelDir
	if e.modelDir == "" {
		e.modelDir = e.indexDir
	}
	if e.modelHash, err = st.Meta(ctx, store.MetaModelHash); err != nil {
		st.Close()
		return nil, err
	}
	return e, nil
}

// Store returns the underlying store.
func (e *Engine) Store() *store.Store { return e.st }

// Vault returns the absolute vault root the index was built from (meta
// vault, store.MetaVault), to which every hit's Path is relative; "" when
// the index records none. Errors are the store's.
func (e *Engine) Vault(ctx context.Context) (string, error) {
	return e.st.Meta(ctx, store.MetaVault)
}

// Close closes the index.
func (e *Engine) Close() error {
	if e.model != nil {
		e.model.Close()
	}
	return e.st.Close()
}

// ModelDir returns the model directory searches embed with:
// Options.ModelDir, or else the one the index records ("" for none).
func (e *Engine) ModelDir() string { return e.modelDir }

// Model opens the embedding model on first use (ModelDir) and checks that
// it is the index's. It returns retrieve.ErrNoVectors when the index has no
// vectors or records no model; a wrapped embed error when the model does
// not open; an error when its dimensions differ from the index's; and an
// error wrapping ErrModelMismatch when its hash differs from the one the
// index records (an index that records no hash is not checked). The result
// is kept: later calls return the same model or error.
func (e *Engine) Model() (*embed.Model, error) {
	e.modelOnce.Do(func() {
		if e.modelDir == "" || !e.st.VecAvailable() {
			e.modelErr = retrieve.ErrNoVectors
			return
		}
		m, err := embed.Open(e.modelDir)
		if err != nil {
			e.modelErr = err // embed's errors name the model and say "open model"
			return
		}
		if m.Dim() != e.st.VecDim() {
			m.Close()
			e.modelErr = fmt.Errorf("model %s has %d dimensions, the index %d: %w", e.modelDir, m.Dim(), e.st.VecDim(), ErrModelMismatch)
			return
		}
		if err := e.checkHash(m); err != nil {
			m.Close()
			e.modelErr = err
			e.log.Warn("vector search off; answering with BM25 only", "err", err)
			return
		}
		e.model = m
	})
	return e.model, e.modelErr
}

// checkHash compares m's hash with the one the index records.
func (e *Engine) checkHash(m *embed.Model) error {
	if e.modelHash == "" {
		return nil
	}
	hash, err := m.Hash()
	if err != nil {
		return fmt.Errorf("open model: %w", err)
	}
	if hash == e.modelHash {
		return nil
	}
	return fmt.Errorf("%w: %s (hash %s); the index was built with %s (hash %s)",
		ErrModelMismatch, e.modelDir, short(hash), orUnknown(e.indexDir), short(e.modelHash))
}

// orUnknown is dir, or "an unrecorded model" for an index that records no
// model directory.
func orUnknown(dir string) string {
	if dir == "" {
		return "an unrecorded model"
	}
	return dir
}

// short returns the first 12 characters of a hex hash.
func short(h string) string { return h[:min(12, len(h))] }

// VectorProblem returns why vector search is off although the index holds
// vectors: the error of Model (ErrModelMismatch, a model that does not open
// or has other dimensions). It returns nil when vector search works and
// when the index simply has no vectors (retrieve.ErrNoVectors). It opens
// the model if no search has yet.
func (e *Engine) VectorProblem() error {
	_, err := e.Model()
	if err == nil || errors.Is(err, retrieve.ErrNoVectors) {
		return nil
	}
	return err
}

// VecAvailable reports whether vector search works: the index holds
// vectors and its model opens.
func (e *Engine) VecAvailable() bool {
	_, err := e.Model()
	return err == nil
}

// Search runs a search; see retrieve.Search. Without a usable model (see
// Model), hybrid mode is BM25 alone and vector mode fails with Model's
// error (retrieve.ErrNoVectors, ErrModelMismatch, ...). With
// opt.Collapse and no opt.Copies, Copies is the index's
// (store.Store.ChunkCopies).
func (e *Engine) Search(ctx context.Context, query string, opt retrieve.Options) ([]retrieve.Hit, error) {
	var emb retrieve.Embedder
	switch opt.Mode {
	case retrieve.ModeBM25:
	case retrieve.ModeVector:
		m, err := e.Model()
		if err != nil {
			e.log.Debug("vector search unavailable", "err", err)
			return nil, err
		}
		emb = m
	default:
		// Hybrid opens the model on the vector leg's side, while the BM25
		// leg runs (retrieve.Search embeds there): about 0.1 ms of files
		// and mapping off a search's critical path.
		emb = lazyModel{e}
	}
	if opt.Collapse && opt.Copies == 0 {
		opt.Copies = e.ChunkCopies(ctx)
	}
	return retrieve.Search(ctx, source{e.st, e.columns}, emb, query, opt)
}

// lazyModel is the Embedder of a hybrid search: it opens the engine's
// model on the first Encode (Engine.Model). A model that does not open
// embeds every query to nil, so that hybrid answers with BM25 alone
// (Engine.VectorProblem tells why).
type lazyModel struct{ e *Engine }

func (l lazyModel) Encode(text string) ([]float32, error) {
	m, err := l.e.Model()
	if err != nil {
		l.e.log.Debug("vector search unavailable", "err", err)
		return nil, nil
	}
	return m.Encode(text)
}

// ChunkCopies returns the index's mean number of chunks per distinct chunk
// text (store.Store.ChunkCopies), or 0 when it is not recorded or cannot
// be read: a cost hint only (retrieve.Options.Copies).
func (e *Engine) ChunkCopies(ctx context.Context) float64 {
	c, err := e.st.ChunkCopies(ctx)
	if err != nil {
		e.log.Debug("chunk copies unavailable", "err", err)
		return 0
	}
	return c
}

// DocFreqs returns the index's chunk count and each term's document
// frequency (store.Store.DocFreqs): the relevance floor's term weights.
func (e *Engine) DocFreqs(ctx context.Context, terms []string) (n int64, df []int64, err error) {
	return e.st.DocFreqs(ctx, terms)
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
