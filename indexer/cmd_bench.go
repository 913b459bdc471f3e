package main

import (
	"encoding/json"
	"errors"
	"log/slog"
	"os"

	"github.com/vaultctx/vaultctx/core/bench"
)

// benchCmd is `vaultctx bench`: indexing, size and latency on a vault, all
// measured in one run on a private copy of it (the vault itself is never
// written), next to `grep -ril` for the same queries (core/bench).
//
// Queries come from --queries (a reference set, see eval/README.md) or, by
// default, from the H1 titles of 50 notes spread evenly over the vault. Hook
// binaries (vaultctx-userprompt, vaultctx-pretooluse, vaultctx-posttooluse)
// are looked up in --hooks, next to the vaultctx executable, then in $PATH;
// a missing one is reported, not fatal. The table (or JSON) goes to stdout,
// progress to stderr.
type benchCmd struct {
	Vault   string `help:"Vault to measure (copied to a temporary directory first)." type:"existingdir" placeholder:"DIR" required:""`
	Model   string `help:"Embedding model directory (default: model in the config; none means BM25 only)." type:"path" placeholder:"DIR"`
	Queries string `help:"Reference set whose queries are timed (default: 50 note titles)." type:"existingfile" placeholder:"FILE"`
	Hooks   string `help:"Directory holding the hook binaries (default: next to vaultctx, then $PATH)." type:"path" placeholder:"DIR"`
	Edits   int    `help:"Files edited before the incremental run." default:"20" placeholder:"N"`
	JSON    bool   `name:"json" help:"Print the results as JSON."`
}

// Run measures the vault.
func (c *benchCmd) Run(g *globals) error {
	if c.Edits < 0 {
		return usageError{"--edits must be 0 or more"}
	}
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	rep, err := bench.Run(g.Ctx, bench.Options{
		Vault: c.Vault, Model: orDefault(c.Model, cfg.Model), Queries: c.Queries, Hooks: c.Hooks, Edits: c.Edits,
		Config:   cfg,
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
		Progress: os.Stderr,
	})
	switch {
	case errors.Is(err, bench.ErrNoNotes):
		return usageError{"the vault has no .md notes to take queries from: pass --queries FILE"}
	case err != nil && err == g.Ctx.Err():
		return errInterrupted
	case err != nil:
		return err
	}
	addBenchHints(rep)
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteTable(os.Stdout)
}

// addBenchHints appends to the note of each row that could not be
// measured for want of something how to provide it.
func addBenchHints(rep *bench.Report) {
	for _, rows := range [][]bench.Latency{rep.Search, rep.Hooks} {
		for i := range rows {
			switch rows[i].Missing {
			case bench.MissingVectors:
				rows[i].Note += " (pass --model DIR)"
			case bench.MissingHook:
				rows[i].Note += ": build hooks/ (make install) or pass --hooks DIR"
			}
		}
	}
}
