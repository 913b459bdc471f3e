package main

import (
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/recall"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/watch"
)

// watchCmd is `vaultctx watch`: it keeps the index fresh as notes change
// (core/watch), logging each run to stderr, until SIGINT or SIGTERM, and
// then exits 0 once the run in progress has committed.
type watchCmd struct {
	Vault   string        `help:"Vault root directory (default: vault in the config, else the one the index records)." type:"path" placeholder:"DIR"`
	DB      string        `help:"Index file (default: as for index)." type:"path" placeholder:"FILE"`
	Model   string        `help:"Embedding model directory (default: model in the config, else the one the index records)." type:"path" placeholder:"DIR"`
	NoModel bool          `help:"Index for BM25 only, without vectors."`
	Quiet   time.Duration `help:"Index this long after the last change of a burst." default:"500ms"`
}

// Run watches the vault.
func (c *watchCmd) Run(g *globals) error {
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	vault := orDefault(c.Vault, cfg.Vault)
	if vault == "" {
		// No config (the set-up without the installer): the vault the
		// index was built from, as for the model.
		vault = index.RecordedVault(g.Ctx, orDefault(c.DB, cfg.DB))
	}
	if vault == "" {
		return usageError{"no vault to watch: pass --vault DIR, or set vault = \"...\" in " + configHint(g)}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	opt := index.Options{
		Vault:    vault,
		DB:       orDefault(c.DB, cfg.DB),
		ModelDir: orDefault(c.Model, cfg.Model),
		NoModel:  c.NoModel,
		Rules:    cfg.Rules(),
	}
	return watch.Watch(g.Ctx, watch.Options{
		Index:  opt,
		Quiet:  c.Quiet,
		Logger: log,
		// An index the watcher made or rebuilt whole has no calibration
		// yet: measure it once, as `vaultctx index` would.
		OnRun: func(r watch.Run) {
			logRecalibration(log, recall.Recalibrate(g.Ctx, cfg, opt, r.Summary, r.Err, recall.IfMissing))
		},
	})
}

// logRecalibration logs what recall.Recalibrate measured, if anything.
func logRecalibration(log *slog.Logger, r recall.Recalibration) {
	if r.Fusion != nil {
		log.Info("fusion of hybrid search calibrated", "fusion", r.Fusion.String())
	}
	if r.FusionErr != nil && !errors.Is(r.FusionErr, retrieve.ErrFewPseudoQueries) {
		log.Warn("fusion not calibrated", "err", r.FusionErr)
	}
	if r.Floor != nil {
		log.Info("relevance floor calibrated", "floor", r.Floor.String())
	}
	if r.FloorErr != nil {
		log.Warn("relevance floor not calibrated", "err", r.FloorErr)
	}
}
