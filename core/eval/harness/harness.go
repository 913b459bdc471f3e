package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/eval"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// Options configures Run. Exactly one of BEIR and Queries is set.
type Options struct {
	// BEIR is a BEIR dataset directory; Split is the qrels split scored.
	BEIR, Split string
	// Queries is a vault reference set file (eval.ReadVaultQueries).
	Queries string
	// Vault is the vault Queries judges; when set it is indexed first.
	Vault string
	// DB is the index file to score (with Queries); "" means a temporary
	// index when Vault is set, else Config.DB.
	DB string
	// Subset, when > 0, reduces the corpus to about Subset documents or
	// notes: the judged ones plus a fixed choice of distractors.
	Subset int
	// Model is the embedding model directory; "" means Config.Model for
	// an index Run builds, and the one the index records otherwise.
	Model string
	// Modes are the search modes to score; empty means eval.Modes.
	Modes []string
	// K is the metric cut-off; <= 0 means eval.DefaultK.
	K int
	// PerQuery keeps each query's scores in the report.
	PerQuery bool
	// Config supplies the vault rules, the default index and model, and
	// the [search] settings (also recorded in Report.Settings).
	Config config.Config
	// Logger receives the indexer's, engine's and evaluator's log lines;
	// nil discards them.
	Logger *slog.Logger
	// Progress receives one line per stage; nil discards.
	Progress io.Writer
}

// ErrInputs is returned by Run when neither or both of Options.BEIR and
// Options.Queries are set.
var ErrInputs = errors.New("eval: give either a BEIR dataset or a vault reference set")

// ErrBEIRIndex is returned by Run when Vault or DB are set with BEIR,
// which builds its own temporary index.
var ErrBEIRIndex = errors.New("eval: a BEIR dataset is scored on its own temporary index, not a vault or index file")

// ErrNeedModel is returned by Run when vector or hybrid mode is asked for
// on an index it builds and no embedding model is given or configured.
var ErrNeedModel = errors.New("vector and hybrid search need an embedding model")

// ErrSubsetNeedsVault is returned by Run when Subset is set with Queries
// but Vault is not, or DB is: a subset is indexed from a reduced copy of
// the vault.
var ErrSubsetNeedsVault = errors.New("a subset of a vault reference set needs the vault and no existing index")

// SplitError is returned by Run when the BEIR dataset has no qrels file
// for the split. It wraps the error of eval.LoadBEIR (which wraps
// fs.ErrNotExist).
type SplitError struct {
	Err    error
	Dir    string   // the dataset directory
	Splits []string // the splits it has, sorted; empty when none
}

func (e *SplitError) Error() string { return e.Err.Error() }
func (e *SplitError) Unwrap() error { return e.Err }

// VectorsError is returned by Run when vector or hybrid mode is asked for
// but the engine cannot load a model for the index; Err says why.
type VectorsError struct{ Err error }

func (e *VectorsError) Error() string {
	return "vector and hybrid search are unavailable: " + e.Err.Error()
}
func (e *VectorsError) Unwrap() error { return e.Err }

// Run evaluates the set opt names and returns the report, with Settings
// set to the [search] summary. Besides the errors above, it returns the
// errors of the readers, the indexer and the searches; an index that does
// not exist is an error wrapping store.ErrNotIndexed.
func Run(ctx context.Context, opt Options) (*eval.Report, error) {
	if (opt.BEIR == "") == (opt.Queries == "") {
		return nil, ErrInputs
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Progress == nil {
		opt.Progress = io.Discard
	}
	if len(opt.Modes) == 0 {
		opt.Modes = eval.Modes
	}
	if opt.K <= 0 {
		opt.K = eval.DefaultK
	}
	if opt.BEIR != "" {
		return runBEIR(ctx, opt)
	}
	return runQueries(ctx, opt)
}

// needVectors reports whether any of modes uses the vector leg.
func needVectors(modes []string) bool {
	return slices.ContainsFunc(modes, func(m string) bool { return m != retrieve.ModeBM25 })
}

// runBEIR writes the dataset as a vault, indexes it into a temporary
// directory and runs every judged query.
func runBEIR(ctx context.Context, opt Options) (*eval.Report, error) {
	if opt.Vault != "" || opt.DB != "" {
		return nil, ErrBEIRIndex
	}
	model := orDefault(opt.Model, opt.Config.Model)
	if needVectors(opt.Modes) && model == "" {
		return nil, ErrNeedModel
	}
	ds, err := eval.LoadBEIR(opt.BEIR, opt.Split)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &SplitError{Err: err, Dir: opt.BEIR, Splits: splits(opt.BEIR)}
	}
	if err != nil {
		return nil, err
	}
	ds = ds.Subset(opt.Subset)

	tmp, err := os.MkdirTemp("", "vaultctx-eval-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	vaultDir, db := filepath.Join(tmp, "vault"), filepath.Join(tmp, "index.db")
	notes, err := eval.WriteVault(ctx, ds, vaultDir)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opt.Progress, "indexing %d documents of %s ...\n", len(ds.Docs), ds.Name)
	iopt := index.Options{
		Vault: vaultDir, DB: db, Full: true, ModelDir: model, NoModel: model == "",
		Rules: config.Defaults().Rules(), Logger: opt.Logger,
	}
	if _, err := index.Run(ctx, iopt); err != nil {
		return nil, err
	}
	if err := calibrate(ctx, opt, db, model); err != nil {
		return nil, err
	}
	return search(ctx, opt, db, model, eval.BEIRSet(ds, notes))
}

// runQueries evaluates a vault reference set against an existing,
// refreshed or temporary index.
func runQueries(ctx context.Context, opt Options) (*eval.Report, error) {
	qs, err := eval.ReadVaultQueries(opt.Queries)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(opt.Queries), filepath.Ext(opt.Queries))
	set, err := eval.VaultSet(name, qs)
	if err != nil {
		return nil, err
	}
	model, db, vault := opt.Model, opt.DB, opt.Vault
	if opt.Subset > 0 {
		if vault == "" || db != "" {
			return nil, ErrSubsetNeedsVault
		}
		tmp, err := os.MkdirTemp("", "vaultctx-eval-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		vault = filepath.Join(tmp, "vault")
		n, err := eval.SubsetVault(ctx, opt.Vault, vault, qs, opt.Subset)
		if err != nil {
			return nil, err
		}
		set.Name += fmt.Sprintf("@%d", n)
	}
	if vault != "" {
		if db == "" {
			tmp, err := os.MkdirTemp("", "vaultctx-eval-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(tmp)
			db = filepath.Join(tmp, "index.db")
		}
		model = orDefault(model, opt.Config.Model)
		fresh := opt.DB == ""
		if fresh && needVectors(opt.Modes) && model == "" {
			return nil, ErrNeedModel
		}
		fmt.Fprintf(opt.Progress, "indexing %s ...\n", orDefault(opt.Vault, vault))
		iopt := index.Options{
			Vault: vault, DB: db, ModelDir: model, NoModel: fresh && model == "",
			Rules: opt.Config.Rules(), Logger: opt.Logger,
		}
		if _, err := index.Run(ctx, iopt); err != nil {
			return nil, err
		}
		if err := calibrate(ctx, opt, db, model); err != nil {
			return nil, err
		}
	}
	return search(ctx, opt, orDefault(db, opt.Config.DB), model, set)
}

// search opens the index and runs the set in every mode.
func search(ctx context.Context, opt Options, db, model string, set *eval.Set) (*eval.Report, error) {
	cfg := opt.Config
	e, err := engine.Open(ctx, db, engine.Options{ReadOnly: true, ModelDir: model, Columns: cfg.Search.Columns, Logger: opt.Logger})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	if needVectors(opt.Modes) {
		if _, err := e.Model(); err != nil {
			return nil, &VectorsError{Err: err}
		}
	}
	sc, weightFrom := cfg.Search.WithFusion(e.Fusion(ctx))
	s := engineSearcher{e: e, opt: sc.Options("", 0)}
	fmt.Fprintf(opt.Progress, "running %d queries x %d modes ...\n", len(set.Queries), len(opt.Modes))
	rep, err := eval.Run(ctx, s, set, eval.RunOptions{Modes: opt.Modes, K: opt.K, PerQuery: opt.PerQuery, Logger: opt.Logger})
	if err != nil {
		return nil, err
	}
	rep.Settings = fmt.Sprintf("%s (vector_weight from %s)", sc.Summary(), weightFrom)
	if f, ok := e.Fusion(ctx); ok {
		rep.Settings += "; index calibration " + f.String()
	}
	return rep, nil
}

// calibrate runs the fusion calibration of the index Run just built, as
// `vaultctx index` does after a run (engine.CalibrateIndex); an index
// without working vectors keeps none.
func calibrate(ctx context.Context, opt Options, db, model string) error {
	fmt.Fprintf(opt.Progress, "calibrating the fusion ...\n")
	_, _, err := engine.CalibrateIndex(ctx, db, model, opt.Config.Search.Columns, opt.Config.Search.Candidates)
	if errors.Is(err, retrieve.ErrFewPseudoQueries) {
		return nil // a set too small to calibrate keeps the defaults
	}
	return err
}

// engineSearcher adapts the engine to eval.Searcher with the configured
// ranking settings.
type engineSearcher struct {
	e   *engine.Engine
	opt retrieve.Options
}

// Search runs one search in mode for the k best hits.
func (s engineSearcher) Search(ctx context.Context, query, mode string, k int) ([]eval.Hit, error) {
	opt := s.opt
	opt.Mode, opt.K = mode, k
	hits, err := s.e.Search(ctx, query, opt)
	if err != nil {
		return nil, err
	}
	out := make([]eval.Hit, len(hits))
	for i, h := range hits {
		out[i] = eval.Hit{Path: h.Path, Section: h.Section, Vector: h.VecRank > 0}
	}
	return out, nil
}

// splits lists the qrels splits of a BEIR directory, sorted.
func splits(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "qrels", "*.tsv"))
	out := make([]string, len(m))
	for i, p := range m {
		out[i] = strings.TrimSuffix(filepath.Base(p), ".tsv")
	}
	return out
}

// orDefault returns s when it is set, else fallback.
func orDefault(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}
