package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/vaultctx/vaultctx/core/settings"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"golang.org/x/term"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/recall"
	"github.com/vaultctx/vaultctx/core/refresh"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// indexCmd is `vaultctx index`.
type indexCmd struct {
	Vault   string `help:"Vault root directory (default: vault in the config, else the one the index records)." type:"path" placeholder:"DIR"`
	DB      string `help:"Index file (default: $VAULTCTX_DB, db in the config, or $XDG_DATA_HOME/vaultctx/index.db)." type:"path" placeholder:"FILE"`
	Model   string `help:"Embedding model directory (default: model in the config, else the one the index records)." type:"path" placeholder:"DIR"`
	NoModel bool   `help:"Index for BM25 only, without vectors."`
	Full    bool   `help:"Rebuild from scratch into a new file and swap it in atomically."`
	JSON    bool   `name:"json" help:"Print the summary as JSON."`
	// Background is the detached refresh the hooks start (core/refresh).
	Background bool `help:"Run as the background refresh the hooks start: exit at once if one already runs, index again while new requests arrive, wait for another indexer instead of failing, log to stderr."`
}

// Run indexes the vault.
func (c *indexCmd) Run(g *globals) error {
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	vault := orDefault(c.Vault, cfg.Vault)
	if vault == "" {
		// No config (the set-up without the installer): the vault the
		// index was built from, as for the model.
		var err error
		vault, err = index.ReadVault(g.Ctx, orDefault(c.DB, cfg.DB))
		if vault == "" && store.IsLocked(err) {
			// Not "no vault": the index that names it could not be read.
			if !errors.Is(err, store.ErrLocked) {
				err = fmt.Errorf("%w: %w", store.ErrLocked, err)
			}
			return fmt.Errorf("read the vault the index records: %w", err)
		}
	}
	if vault == "" {
		return usageError{"no vault to index: pass --vault DIR, or set vault = \"...\" in " + configHint(g)}
	}
	if c.Background {
		return c.background(g, cfg)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opt := index.Options{
		Vault:    vault,
		DB:       orDefault(c.DB, cfg.DB),
		Full:     c.Full,
		ModelDir: orDefault(c.Model, cfg.Model),
		NoModel:  c.NoModel,
		Rules:    cfg.Rules(),
		Logger:   log,
	}
	opt.Progress = progress(c.JSON)
	sum, err := index.Run(g.Ctx, opt)
	var locked *index.LockedError
	if errors.As(err, &locked) {
		return err
	}
	if err != nil && !errors.Is(err, index.ErrInterrupted) {
		return err
	}
	// The run's heap is garbage by now: hand it back to the system before
	// the calibration's searches, so that the two do not add up in the
	// command's peak memory.
	debug.FreeOSMemory()
	cal := recall.Recalibrate(g.Ctx, cfg, opt, sum, err, recall.IfChanged)
	fusion, fusionErr, calibrated, calErr := cal.Fusion, cal.FusionErr, cal.Floor, cal.FloorErr
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if e := enc.Encode(sum); e != nil {
			return e
		}
	} else {
		if sum.SchemaUpgraded != "" {
			fmt.Printf("the index was of schema %s, made by an earlier version: rebuilt whole as schema %d\n", sum.SchemaUpgraded, store.SchemaVersion)
		}
		fmt.Printf("indexed %d files (%d chunks written), %d unchanged, %d deleted, %d skipped, %d with problems\n",
			sum.FilesIndexed, sum.ChunksWritten, sum.FilesUnchanged, sum.FilesDeleted, sum.FilesSkipped, sum.FilesProblems)
		vec := "BM25 only"
		if sum.Vectors {
			vec = "BM25 + vectors"
		}
		if !(c.Full && sum.Interrupted) {
			fmt.Printf("index %s holds %d chunks (%s) after %.2f s\n", opt.DB, sum.Chunks, vec, sum.Seconds)
		}
		if sum.ModelChanged {
			fmt.Printf("the embedding model changed: re-embedded %d chunks\n", sum.Reembedded)
		}
		status := "vaultctx status"
		if c.DB != "" {
			status += " --db " + settings.ShellQuote(c.DB)
		}
		if n := total(sum.Redactions); n > 0 {
			fmt.Printf("scrubbed %d credentials before indexing (see `%s`)\n", n, status)
		}
		if sum.FilesKept > 0 {
			fmt.Printf("%d unreadable file%s kept at the last indexed version\n", sum.FilesKept, plural(sum.FilesKept))
		}
		if sum.FilesSkipped+sum.FilesProblems+sum.FilesKept > 0 {
			fmt.Printf("run `%s` to see skipped files and parse problems\n", status)
		}
		if fusion != nil {
			fmt.Printf("fusion of hybrid search calibrated: %s\n", fusion)
		}
		if errors.Is(fusionErr, retrieve.ErrFewPseudoQueries) {
			fmt.Printf("fusion of hybrid search not calibrated, the vault is too small (%v): vector_weight stays %g\n", fusionErr, cfg.Search.VectorWeight)
		}
		if calibrated != nil {
			fmt.Printf("relevance floor of the context hooks calibrated: %s\n", calibrated)
		}
	}
	if fusionErr != nil && !errors.Is(fusionErr, retrieve.ErrFewPseudoQueries) {
		fmt.Fprintf(os.Stderr, "vaultctx: the fusion was not calibrated (hybrid search uses the configured vector_weight and min_cosine): %v\n", fusionErr)
	}
	if calErr != nil {
		fmt.Fprintf(os.Stderr, "vaultctx: the relevance floor was not calibrated (the hooks use its defaults): %v\n", calErr)
	}
	if errors.Is(err, index.ErrInterrupted) {
		if c.Full {
			fmt.Fprintln(os.Stderr, "vaultctx: full rebuild interrupted; the partial rebuild was discarded and the previous index is unchanged")
		} else {
			fmt.Fprintln(os.Stderr, "vaultctx: interrupted; the work done so far is saved, run `vaultctx index` again to finish")
		}
		return errInterrupted
	}
	return nil
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// progress returns the progress callback: one line on a terminal,
// redrawn at most every progressEvery with the count, rate and time left
// and cleared when the run ends (progressLine); a log line every 500 files
// otherwise.
func progress(quiet bool) func(done, total int) {
	if quiet {
		return nil
	}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		p := &progressLine{w: os.Stderr, start: time.Now()}
		return p.update
	}
	start := time.Now()
	return func(done, total int) {
		if done%500 == 0 || done == total {
			rate := float64(done) / time.Since(start).Seconds()
			fmt.Fprintf(os.Stderr, "indexed %d/%d files (%.0f files/s)\n", done, total, rate)
		}
	}
}

func configHint(g *globals) string {
	if g.ConfigPath != "" {
		return g.ConfigPath
	}
	return config.DefaultPath(os.Getenv)
}

// background is `vaultctx index --background`: refresh.Background with the
// flags applied to the config, logging (with times) to stderr, which the
// hooks point at the refresh log.
func (c *indexCmd) background(g *globals, cfg config.Config) error {
	if c.Full || c.JSON {
		return usageError{"--background runs incremental refreshes and prints nothing: drop --full and --json"}
	}
	cfg.Vault = orDefault(c.Vault, cfg.Vault)
	cfg.DB = orDefault(c.DB, cfg.DB)
	cfg.Model = orDefault(c.Model, cfg.Model)
	if c.NoModel {
		return usageError{"--background indexes with the configured model: drop --no-model"}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("pid", os.Getpid())
	opt := index.Options{Vault: cfg.Vault, DB: cfg.DB, ModelDir: cfg.Model}
	// An index the background run rebuilt whole (after a schema upgrade)
	// has no calibration yet: measure it once, as a plain index run would.
	runs, err := refresh.Background(g.Ctx, cfg, log, func(ctx context.Context, sum index.Summary) {
		logRecalibration(log, recall.Recalibrate(ctx, cfg, opt, sum, nil, recall.IfMissing))
	})
	if runs == 0 && err == nil {
		log.Info("another background refresh serves the request")
	}
	return err
}
