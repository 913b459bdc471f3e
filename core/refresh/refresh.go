package refresh

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/internal/handoff"
	"github.com/vaultctx/vaultctx/core/store"
)

// DefaultInlineFiles is the most changed files (new, modified or deleted)
// the SessionStart hook indexes itself; more are handed to a background
// run. An incremental run costs about 0.25 s of walking and setup on the
// large corpus (16,691 notes) plus about 1.4 ms per (re)indexed note on two
// cores (its full build: 23 s for 16,673 notes), so 100 notes come to about
// 0.4 s, a quarter of the hook's default 1.5 s deadline. The time box of
// Options.Margin guards the rest.
const DefaultInlineFiles = 100

// DefaultInlineBytes is the most bytes of new and modified notes the
// SessionStart hook indexes itself: a few large notes are chunked and
// embedded one core each, and between files is where a run can stop.
// Measured on a loaded two-core machine: three notes of 400 KB took
// 1.48 s (0.8 MB/s), ten overran the deadline with nothing committed; at
// that rate 256 KiB is about a third of a second, a quarter of the hook's
// default 1.5 s deadline, as for DefaultInlineFiles.
const DefaultInlineBytes = 256 << 10

// DefaultMargin is the time AtSessionStart leaves between the end of an
// inline run's time box and the hook's deadline: a cancelled run finishes
// the notes in flight and commits them before it returns.
const DefaultMargin = 300 * time.Millisecond

// Action is what AtSessionStart did.
type Action string

// The Actions.
const (
	Fresh    Action = "fresh"      // nothing changed since the last index run
	Indexed  Action = "indexed"    // indexed inline, within the hook's budget
	HandedOn Action = "handed off" // a background run got the work
	NoIndex  Action = "no index"   // no vault configured or no index yet: nothing to refresh
)

// Outcome describes one AtSessionStart.
type Outcome struct {
	Action  Action
	Reason  string        // why the work was handed off ("" otherwise)
	Changes index.Changes // what the stat walk found (zero when it did not run)
	Summary index.Summary // the inline run (Action Indexed, or cut short and handed off)
}

// Options tune AtSessionStart. The zero value uses the defaults.
type Options struct {
	InlineFiles int           // 0 = DefaultInlineFiles
	InlineBytes int64         // 0 = DefaultInlineBytes
	Margin      time.Duration // 0 = DefaultMargin
	// Binary is the vaultctx executable of the background run; "" looks
	// beside the running program, then on PATH (handoff.Binary).
	Binary string
	Getenv func(string) string // for the refresh log's path; nil = os.Getenv
	Logger *slog.Logger        // nil discards
}

func (o Options) getenv() func(string) string {
	if o.Getenv == nil {
		return os.Getenv
	}
	return o.Getenv
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// indexOptions are the incremental run of cfg, as `vaultctx index` makes it.
func indexOptions(cfg config.Config, log *slog.Logger) index.Options {
	return index.Options{Vault: cfg.Vault, DB: cfg.DB, ModelDir: cfg.Model, Rules: cfg.Rules(), Logger: log}
}

// AtSessionStart brings cfg's index up to date before a session's first
// prompt, within the deadline of ctx:
//
//   - when another indexer or background run holds the index, it hands
//     the work on (that run may have walked the vault already) and returns
//     at once, without walking;
//   - else a stat walk (index.Pending) tells whether anything changed;
//     nothing, and it returns;
//   - at most InlineFiles changed files of at most InlineBytes, and time
//     left, it runs the
//     incremental index itself, cut off Margin before ctx's deadline; a
//     run cut off, or turned away by another indexer's lock, hands the rest
//     on;
//   - more, and it hands the work on at once.
//
// Errors: the stat walk's (a missing vault) and the hand-off's (no vaultctx
// executable, an index folder it cannot write). With no vault in cfg it
// refreshes the vault the index records (index.RecordedVault). No vault
// there either, or no index yet, is Action NoIndex with a nil error: the
// installer and `vaultctx index` build the first index, not a hook.
func AtSessionStart(ctx context.Context, cfg config.Config, o Options) (Outcome, error) {
	log := o.logger()
	if cfg.Vault == "" {
		cfg.Vault = index.RecordedVault(ctx, cfg.DB)
	}
	if cfg.Vault == "" {
		return Outcome{Action: NoIndex}, nil
	}
	if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
		return Outcome{Action: NoIndex}, nil
	}
	handOn := func(out Outcome, why string) (Outcome, error) {
		out.Action, out.Reason = HandedOn, why
		log.Debug("refresh handed off", "reason", why, "changed", out.Changes.Files())
		return out, handoff.Index(cfg, o.Binary, o.getenv())
	}
	if pid := index.Holder(cfg.DB); pid != 0 {
		return handOn(Outcome{}, fmt.Sprintf("indexer pid %d holds the index", pid))
	}
	if pid := handoff.Runner(cfg.DB); pid != 0 {
		return handOn(Outcome{}, fmt.Sprintf("background refresh pid %d is running", pid))
	}
	ch, err := index.Pending(ctx, cfg.Vault, cfg.DB, cfg.Rules())
	out := Outcome{Changes: ch}
	switch {
	case errors.Is(err, store.ErrNotIndexed):
		return Outcome{Action: NoIndex}, nil
	case err != nil:
		return out, err
	case ch.Files() == 0:
		out.Action = Fresh
		return out, nil
	}
	inline := o.InlineFiles
	if inline <= 0 {
		inline = DefaultInlineFiles
	}
	if ch.Files() > inline {
		return handOn(out, fmt.Sprintf("%d changed files, more than %d", ch.Files(), inline))
	}
	limit := o.InlineBytes
	if limit <= 0 {
		limit = DefaultInlineBytes
	}
	if ch.Bytes > limit {
		return handOn(out, fmt.Sprintf("%d bytes of changed notes, more than the hook reads itself", ch.Bytes))
	}
	margin := o.Margin
	if margin <= 0 {
		margin = DefaultMargin
	}
	rctx := ctx
	if dl, ok := ctx.Deadline(); ok {
		if time.Until(dl) < 2*margin {
			return handOn(out, "no time left in the hook's budget")
		}
		var cancel context.CancelFunc
		rctx, cancel = context.WithDeadline(context.WithoutCancel(ctx), dl.Add(-margin))
		defer cancel()
	}
	sum, err := index.Run(rctx, indexOptions(cfg, log))
	out.Summary = sum
	var locked *index.LockedError
	switch {
	case errors.As(err, &locked):
		return handOn(out, locked.Error())
	case errors.Is(err, index.ErrInterrupted):
		return handOn(out, "the inline run did not fit the hook's budget")
	case err != nil:
		return out, err
	}
	out.Action = Indexed
	log.Debug("refreshed inline", "indexed", sum.FilesIndexed, "deleted", sum.FilesDeleted, "seconds", sum.Seconds)
	return out, nil
}

// LockWait is how often Background looks again at an index another
// indexer holds, and LockPatience how long it waits in all before giving
// up (the next request starts a new runner).
const (
	LockWait     = 2 * time.Second
	LockPatience = 30 * time.Minute
)

// Background is the detached refresh (`vaultctx index --background`): it
// serves refresh requests for cfg's index one run at a time (handoff.Serve;
// it returns at once, with 0 runs, when another background run serves
// them), waits for another indexer instead of failing, and logs a line per
// run to log. After each run that succeeded it calls after (if not nil)
// with the run's summary: the caller's hook to re-measure what depends on
// the index (recall.Recalibrate). It returns the number of runs and the
// first error of a run; ctx's cancellation (SIGTERM) ends it after the run
// in progress commits what it did.
func Background(ctx context.Context, cfg config.Config, log *slog.Logger, after func(context.Context, index.Summary)) (int, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return handoff.Serve(ctx, cfg.DB, func(ctx context.Context) error {
		give := time.Now().Add(LockPatience)
		for {
			sum, err := index.Run(ctx, indexOptions(cfg, log))
			var locked *index.LockedError
			if errors.As(err, &locked) && time.Now().Before(give) {
				log.Info("waiting for another indexer", "err", locked.Error())
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(LockWait):
				}
				continue
			}
			if errors.Is(err, index.ErrInterrupted) {
				log.Info("background refresh interrupted", "indexed", sum.FilesIndexed, "deleted", sum.FilesDeleted)
				return nil
			}
			if err != nil {
				log.Error("background refresh failed", "err", err)
				return err
			}
			log.Info("background refresh", "indexed", sum.FilesIndexed, "unchanged", sum.FilesUnchanged,
				"deleted", sum.FilesDeleted, "skipped", sum.FilesSkipped, "chunks", sum.Chunks, "seconds", sum.Seconds)
			if after != nil {
				after(ctx, sum)
			}
			return nil
		}
	})
}

// Report is how fresh an index is, for `vaultctx status` and `doctor`.
type Report struct {
	Changes index.Changes // changed since the last index run, by a stat walk
	// Indexer is the pid of a live process holding the index (any
	// `vaultctx index`, `watch` or background run), 0 when none.
	Indexer int
	// Runner is the pid of a live background refresh, 0 when none.
	Runner int
	// Log is the refresh log's path ("" when no home folder is known).
	Log string
}

// Refreshing reports whether an index run or a background refresh is
// under way.
func (r Report) Refreshing() bool { return r.Indexer != 0 || r.Runner != 0 }

// Check reports how fresh cfg's index is. It only reads: a stat walk
// against the files table (index.Pending) and the pids in the lock files;
// it never waits on an indexer. Errors: as index.Pending
// (store.ErrNotIndexed wrapped for a missing index).
func Check(ctx context.Context, cfg config.Config, getenv func(string) string) (Report, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	r := Report{Indexer: index.Holder(cfg.DB), Runner: handoff.Runner(cfg.DB)}
	r.Log, _ = handoff.LogPath(getenv)
	if cfg.Vault == "" {
		cfg.Vault = index.RecordedVault(ctx, cfg.DB)
	}
	if cfg.Vault == "" {
		return r, errors.New("freshness: no vault configured")
	}
	ch, err := index.Pending(ctx, cfg.Vault, cfg.DB, cfg.Rules())
	r.Changes = ch
	return r, err
}
