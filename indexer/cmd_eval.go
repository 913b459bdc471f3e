package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/vaultctx/vaultctx/core/eval"
	"github.com/vaultctx/vaultctx/core/eval/harness"
	"github.com/vaultctx/vaultctx/core/store"
)

// evalCmd is `vaultctx eval`: retrieval quality on a BEIR dataset or on a
// vault reference set, per search mode, optionally checked against a
// committed baseline (see eval/README.md and core/eval/harness).
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
	modes := eval.Modes
	if c.Mode != "all" {
		modes = []string{c.Mode}
	}
	rep, err := harness.Run(g.Ctx, harness.Options{
		BEIR: c.BEIR, Split: c.Split, Queries: c.Queries, Vault: c.Vault, DB: c.DB, Subset: c.Subset,
		Model: c.Model, Modes: modes, K: c.K, PerQuery: c.PerQuery, Config: cfg,
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Progress: os.Stderr,
	})
	if err != nil {
		if g.Ctx.Err() != nil {
			return errInterrupted
		}
		return c.usage(err, orDefault(c.DB, cfg.DB))
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

// usage turns the harness errors that come from how eval was called into
// usage errors that say what to pass; db is the index scored.
func (c *evalCmd) usage(err error, db string) error {
	var split *harness.SplitError
	var vec *harness.VectorsError
	switch {
	case errors.Is(err, harness.ErrBEIRIndex):
		return usageError{"--vault and --db go with --queries; --beir builds its own temporary index"}
	case errors.Is(err, harness.ErrNeedModel) && c.BEIR != "":
		return usageError{"vector and hybrid search need an embedding model: pass --model DIR (e.g. ../shared/models/glove-120k), or --mode bm25"}
	case errors.Is(err, harness.ErrNeedModel):
		return usageError{"vector and hybrid search need an embedding model: pass --model DIR, or --mode bm25"}
	case errors.As(err, &split):
		list := "none"
		if len(split.Splits) > 0 {
			list = strings.Join(split.Splits, ", ")
		}
		return usageError{fmt.Sprintf("%v\n(splits in %s: %s)", split.Err, split.Dir, list)}
	case errors.Is(err, harness.ErrSubsetNeedsVault):
		return usageError{"--subset with --queries needs --vault DIR and no --db: it indexes a reduced copy of the vault"}
	case errors.Is(err, store.ErrNotIndexed):
		return usageError{fmt.Sprintf("%s: no index yet: pass --vault DIR to index it first", db)}
	case errors.As(err, &vec):
		return usageError{fmt.Sprintf("vector and hybrid search are unavailable (%v): index with --model DIR, or pass --mode bm25", vec.Err)}
	}
	return err
}

// checkBaseline compares rep with the baseline file, or records it there.
func (c *evalCmd) checkBaseline(rep *eval.Report) error {
	if c.WriteBaseline {
		if err := eval.RecordFile(c.Baseline, rep); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "recorded nDCG@%d of %s in %s: review and commit it\n", rep.K, rep.Set, c.Baseline)
		return nil
	}
	regs, err := eval.CheckFile(c.Baseline, rep, c.Tolerance)
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
