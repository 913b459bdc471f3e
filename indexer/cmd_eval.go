package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/eval"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// evalCmd is `vaultctx eval`: retrieval quality on a BEIR dataset or on a
// vault reference set, per search mode, optionally checked against a
// committed baseline (see eval/README.md).
//
//	vaultctx eval --beir DIR [--split S] [--subset N] [--model DIR] [--mode M] [--json]
//	vaultctx eval --queries FILE [--vault DIR] [--db FILE] [--model DIR] [--mode M] [--json]
//
// With --beir, every document becomes one note in a temporary vault that is
// indexed from scratch and deleted afterwards. With --queries, --db alone
// (or the configured index) is evaluated as it is; --vault alone is indexed
// into a temporary index first; --vault with --db brings that index up to
// date first.
//
// The table (or JSON report) goes to stdout, progress to stderr. With
// --baseline, a drop of nDCG@10 of more than --tolerance below the file's
// value for any measured mode is an error (exit 1); --write-baseline records
// this run's values into the file instead.
type evalCmd struct {
	BEIR    string `name:"beir" help:"BEIR dataset directory (corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv)." type:"path" placeholder:"DIR" xor:"input"`
	Split   string `help:"BEIR qrels split to score." default:"test" placeholder:"SPLIT"`
	Subset  int    `help:"Evaluate on N documents/notes: the judged ones plus a fixed choice of distractors (see eval/README.md)." placeholder:"N"`
	Queries string `help:"Vault reference set (JSONL: {\"query\": ..., \"relevant\": [...]})." type:"path" placeholder:"FILE" xor:"input"`
	Vault   string `help:"Vault the reference set judges; indexed before the run (into a temporary index unless --db is given)." type:"path" placeholder:"DIR"`
	DB      string `help:"Index file to evaluate (default: as for index)." type:"path" placeholder:"FILE"`
	Model   string `help:"Embedding model directory (default: model in the config; for an existing index, the one it records)." type:"path" placeholder:"DIR"`
	Mode    string `help:"bm25, vector, hybrid or all." enum:"bm25,vector,hybrid,all" default:"all"`
	K       int    `short:"k" help:"Metric cut-off (recall@K, nDCG@K, MRR@K)." default:"10" placeholder:"N"`

	JSON     bool `name:"json" help:"Print the report as JSON."`
	PerQuery bool `help:"Include each query's scores and ranked units in the JSON report."`

	Baseline      string  `help:"Baseline file to check nDCG against (e.g. eval/baseline.json)." type:"path" placeholder:"FILE"`
	Tolerance     float64 `help:"Allowed nDCG drop below the baseline." default:"0.02"`
	WriteBaseline bool    `help:"Record this run's nDCG into the --baseline file instead of checking it."`
}

// Run measures retrieval quality.
func (c *evalCmd) Run(g *globals) error {
	if c.BEIR == "" && c.Queries == "" {
		return usageError{"nothing to evaluate: pass --beir DIR (a BEIR dataset) or --queries FILE (a vault reference set)"}
	}
	if c.WriteBaseline && c.Baseline == "" {
		return usageError{"--write-baseline needs --baseline FILE"}
	}
	if c.K <= 0 {
		return usageError{"-k must be at least 1"}
	}
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	modes := eval.Modes
	if c.Mode != "all" {
		modes = []string{c.Mode}
	}
	needVectors := c.Mode != retrieve.ModeBM25

	var rep *eval.Report
	if c.BEIR != "" {
		rep, err = c.runBEIR(g.Ctx, cfg, modes, needVectors, log)
	} else {
		rep, err = c.runQueries(g.Ctx, cfg, modes, needVectors, log)
	}
	if err != nil {
		if g.Ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}

	if c.JSON {
		if err := rep.WriteJSON(os.Stdout); err != nil {
			return err
		}
	} else if err := rep.WriteTable(os.Stdout); err != nil {
		return err
	}
	if c.Baseline == "" {
		return nil
	}
	return c.checkBaseline(rep)
}

// runBEIR writes the dataset as a vault, indexes it into a temporary
// directory and runs every judged query.
func (c *evalCmd) runBEIR(ctx context.Context, cfg config.Config, modes []string, needVectors bool, log *slog.Logger) (*eval.Report, error) {
	if c.Vault != "" || c.DB != "" {
		return nil, usageError{"--vault and --db go with --queries; --beir builds its own temporary index"}
	}
	model := orDefault(c.Model, cfg.Model)
	if needVectors && model == "" {
		return nil, usageError{"vector and hybrid search need an embedding model: pass --model DIR (e.g. ../shared/models/glove-120k), or --mode bm25"}
	}
	ds, err := eval.LoadBEIR(c.BEIR, c.Split)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usageError{fmt.Sprintf("%v\n(splits in %s: %s)", err, c.BEIR, splits(c.BEIR))}
	}
	if err != nil {
		return nil, err
	}
	ds = ds.Subset(c.Subset)

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
	fmt.Fprintf(os.Stderr, "indexing %d documents of %s ...\n", len(ds.Docs), ds.Name)
	opt := index.Options{
		Vault: vaultDir, DB: db, Full: true, ModelDir: model, NoModel: model == "",
		Rules: config.Defaults().Rules(), Logger: log,
	}
	if _, err := index.Run(ctx, opt); err != nil {
		return nil, err
	}
	return c.search(ctx, cfg, db, model, eval.BEIRSet(ds, notes), modes, needVectors, log)
}

// runQueries evaluates a vault reference set against an existing,
// refreshed or temporary index.
func (c *evalCmd) runQueries(ctx context.Context, cfg config.Config, modes []string, needVectors bool, log *slog.Logger) (*eval.Report, error) {
	qs, err := eval.ReadVaultQueries(c.Queries)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(c.Queries), filepath.Ext(c.Queries))
	set, err := eval.VaultSet(name, qs)
	if err != nil {
		return nil, err
	}
	model := c.Model
	db := c.DB
	vault := c.Vault
	if c.Subset > 0 {
		if vault == "" || db != "" {
			return nil, usageError{"--subset with --queries needs --vault DIR and no --db: it indexes a reduced copy of the vault"}
		}
		tmp, err := os.MkdirTemp("", "vaultctx-eval-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		vault = filepath.Join(tmp, "vault")
		n, err := eval.SubsetVault(ctx, c.Vault, vault, qs, c.Subset)
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
		model = orDefault(model, cfg.Model)
		fresh := c.DB == ""
		if fresh && needVectors && model == "" {
			return nil, usageError{"vector and hybrid search need an embedding model: pass --model DIR, or --mode bm25"}
		}
		fmt.Fprintf(os.Stderr, "indexing %s ...\n", orDefault(c.Vault, vault))
		opt := index.Options{
			Vault: vault, DB: db, ModelDir: model, NoModel: fresh && model == "",
			Rules: cfg.Rules(), Logger: log,
		}
		if _, err := index.Run(ctx, opt); err != nil {
			return nil, err
		}
	}
	return c.search(ctx, cfg, orDefault(db, cfg.DB), model, set, modes, needVectors, log)
}

// search opens the index and runs the set in every mode.
func (c *evalCmd) search(ctx context.Context, cfg config.Config, db, model string, set *eval.Set, modes []string, needVectors bool, log *slog.Logger) (*eval.Report, error) {
	e, err := engine.Open(ctx, db, engine.Options{ReadOnly: true, ModelDir: model, Columns: cfg.Search.Columns, Logger: log})
	if errors.Is(err, store.ErrNotIndexed) {
		return nil, usageError{fmt.Sprintf("%s: no index yet: pass --vault DIR to index it first", db)}
	}
	if err != nil {
		return nil, err
	}
	defer e.Close()
	if needVectors {
		if _, err := e.Model(); err != nil {
			return nil, usageError{fmt.Sprintf("vector and hybrid search are unavailable (%v): index with --model DIR, or pass --mode bm25", err)}
		}
	}
	s := engineSearcher{e: e, opt: cfg.Search.Options("", 0)}
	fmt.Fprintf(os.Stderr, "running %d queries x %d modes ...\n", len(set.Queries), len(modes))
	rep, err := eval.Run(ctx, s, set, eval.RunOptions{Modes: modes, K: c.K, PerQuery: c.PerQuery, Logger: log})
	if err != nil {
		return nil, err
	}
	rep.Settings = cfg.Search.Summary()
	return rep, nil
}

// checkBaseline compares rep with the baseline file, or records it there.
func (c *evalCmd) checkBaseline(rep *eval.Report) error {
	b, err := eval.ReadBaseline(c.Baseline)
	if c.WriteBaseline {
		if errors.Is(err, fs.ErrNotExist) {
			b, err = &eval.Baseline{}, nil
		}
		if err != nil {
			return err
		}
		b.Record(rep)
		if err := b.WriteFile(c.Baseline); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "recorded nDCG@%d of %s in %s: review and commit it\n", rep.K, rep.Set, c.Baseline)
		return nil
	}
	if err != nil {
		return err
	}
	regs, err := b.Check(rep, c.Tolerance)
	if err != nil {
		return err
	}
	if len(regs) == 0 {
		fmt.Fprintf(os.Stderr, "nDCG@%d of %s is within %.2f of %s\n", rep.K, rep.Set, c.Tolerance, c.Baseline)
		return nil
	}
	msgs := make([]string, len(regs))
	for i, r := range regs {
		msgs[i] = r.String()
	}
	return fmt.Errorf("nDCG regression against %s:\n  %s", c.Baseline, strings.Join(msgs, "\n  "))
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
		out[i] = eval.Hit{Path: h.Path, Section: h.Section}
	}
	return out, nil
}

// splits lists the qrels splits of a BEIR directory, for error messages.
func splits(dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "qrels", "*.tsv"))
	if len(m) == 0 {
		return "none"
	}
	out := make([]string, len(m))
	for i, p := range m {
		out[i] = strings.TrimSuffix(filepath.Base(p), ".tsv")
	}
	return strings.Join(out, ", ")
}
