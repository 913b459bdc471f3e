package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/vaultctx/vaultctx/core/index"
)

// DefaultQuiet is how long after the last event of a burst a run starts:
// 500 ms. An editor's save (write, rename) and a `git checkout` are each
// one burst, and a note written at once is indexed about 0.5 s after its
// last write plus the run (0.2-0.3 s on the large corpus), within 2 s.
const DefaultQuiet = 500 * time.Millisecond

// DefaultMaxDelay bounds how long a burst that never goes quiet delays its
// run: 5 s after its first event.
const DefaultMaxDelay = 5 * time.Second

// LockRetry is how long Watch waits before it tries again when another
// indexer held the index.
const LockRetry = 2 * time.Second

// Options configure Watch.
type Options struct {
	// Index is the incremental run Watch repeats; Vault and DB are
	// required, Full is ignored, Logger is set from Logger when nil.
	Index    index.Options
	Quiet    time.Duration // 0 = DefaultQuiet
	MaxDelay time.Duration // 0 = DefaultMaxDelay
	Logger   *slog.Logger  // nil discards
	// OnRun, if set, is called after every run, from Watch's goroutine.
	OnRun func(Run)
}

// Run is one index run of Watch.
type Run struct {
	Summary index.Summary
	Err     error // the run's error; Watch goes on after it
	// Trigger holds up to MaxTrigger vault-relative paths of the events
	// that led to the run, first seen first; empty for the run at start.
	Trigger []string
	Events  int // events that led to it
}

// MaxTrigger is how many paths Run.Trigger keeps.
const MaxTrigger = 10

// Watch indexes opt.Index.Vault once, then again after every burst of
// changes, until ctx is done; it then lets the run in progress commit what
// it did and returns nil. A run that fails (another indexer holds the
// index, a note folder vanished) is reported through OnRun and the log,
// and is retried after the next event, or after Quiet when the index was
// locked.
//
// Errors: the vault cannot be watched (missing, not a folder, no inotify
// instance left), the rules do not validate, or another process watches
// the index (*index.WatchedError, see index.LockWatch).
func Watch(ctx context.Context, opt Options) error {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Index.Logger == nil {
		opt.Index.Logger = log
	}
	opt.Index.Full = false
	quiet, maxDelay := opt.Quiet, opt.MaxDelay
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	if maxDelay <= 0 {
		maxDelay = DefaultMaxDelay
	}
	if err := opt.Index.Rules.Validate(); err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	root, err := filepath.Abs(opt.Index.Vault)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	if fi, err := os.Stat(root); err != nil {
		return fmt.Errorf("watch: %w", err)
	} else if !fi.IsDir() {
		return fmt.Errorf("watch: %s is not a folder", root)
	}
	// An index path that no run would take (a device, a FIFO, a folder,
	// another program's file) ends the watch now, before its lock file is
	// made beside it, instead of failing every run for ever.
	if err := index.CheckTarget(ctx, opt.Index); err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	release, err := index.LockWatch(opt.Index.DB)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer release()
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer fw.Close()
	w := &watcher{opt: opt, root: root, fw: fw, log: log, dirs: map[string]bool{}}
	if err := w.addTree(root); err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	log.Info("watching", "vault", root, "folders", len(w.dirs))

	var (
		pending  []string // trigger paths of the next run
		events   int
		dirty    bool
		first    time.Time
		timer    *time.Timer
		timerC   <-chan time.Time
		running  bool
		done     = make(chan Run, 1)
		inflight sync.WaitGroup
	)
	start := func(trigger []string, n int) {
		running = true
		inflight.Add(1)
		go func() {
			defer inflight.Done()
			sum, err := index.Run(ctx, opt.Index)
			if errors.Is(err, index.ErrInterrupted) {
				err = nil
			}
			done <- Run{Summary: sum, Err: err, Trigger: trigger, Events: n}
		}()
	}
	arm := func(d time.Duration) {
		if timer == nil {
			timer = time.NewTimer(d)
		} else {
			timer.Reset(d)
		}
		timerC = timer.C
	}
	schedule := func() {
		// Quiet after this event, but no later than MaxDelay after the
		// burst's first.
		d := quiet
		if left := time.Until(first.Add(maxDelay)); left < d {
			d = max(left, 0)
		}
		arm(d)
	}
	note := func(rel string) {
		if !dirty {
			dirty, first = true, time.Now()
		}
		events++
		if len(pending) < MaxTrigger && rel != "" {
			pending = append(pending, rel)
		}
		if !running {
			schedule()
		}
	}
	start(nil, 0)
	for {
		select {
		case <-ctx.Done():
			inflight.Wait()
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				inflight.Wait()
				return nil
			}
			if rel, relevant := w.event(ev); relevant {
				note(rel)
			}
		case err, ok := <-fw.Errors:
			if !ok {
				inflight.Wait()
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				log.Warn("event queue overflowed: re-indexing to catch up")
				note("")
				continue
			}
			log.Warn("watch error", "err", err)
		case <-timerC:
			timerC = nil
			if running || !dirty {
				continue
			}
			trigger, n := pending, events
			pending, events, dirty = nil, 0, false
			start(trigger, n)
		case r := <-done:
			running = false
			var locked *index.LockedError
			switch {
			case errors.As(r.Err, &locked):
				log.Info("index locked by another indexer: retrying", "err", r.Err)
				if !dirty {
					dirty, first = true, time.Now()
					pending, events = r.Trigger, r.Events
				}
			case r.Err != nil && (errors.Is(r.Err, index.ErrVaultEmptied) || !isDir(root)):
				// The vault folder went away or came back empty (moved,
				// unmounted): the watches hold the old folders, so no
				// event would come again. End with the error, for the
				// service manager to start a watch that sets them up anew.
				inflight.Wait()
				return fmt.Errorf("watch: %w", r.Err)
			case r.Err != nil && (errors.Is(r.Err, index.ErrNotAnIndex) || errors.Is(r.Err, index.ErrDBIsDir) || errors.Is(r.Err, index.ErrOtherVault)):
				// The index path became one no run takes: no later run would.
				inflight.Wait()
				return fmt.Errorf("watch: %w", r.Err)
			case r.Err != nil:
				log.Error("index run failed", "err", r.Err)
			default:
				log.Info("indexed", "files", r.Summary.FilesIndexed, "deleted", r.Summary.FilesDeleted,
					"events", r.Events, "seconds", r.Summary.Seconds)
			}
			if opt.OnRun != nil {
				opt.OnRun(r)
			}
			switch {
			case ctx.Err() != nil || !dirty:
			case errors.As(r.Err, &locked):
				arm(max(quiet, LockRetry))
			default:
				schedule()
			}
		}
	}
}

// isDir reports whether p is a folder now.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// watcher holds the watched folders.
type watcher struct {
	opt  Options
	root string
	fw   *fsnotify.Watcher
	log  *slog.Logger
	dirs map[string]bool // absolute paths of the watched folders
	full bool            // the watch limit was hit (logged once)
}

// rel is path relative to the vault root, with forward slashes; ok is
// false outside the root.
func (w *watcher) rel(path string) (string, bool) {
	r, err := filepath.Rel(w.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	if r == "." {
		r = ""
	}
	return filepath.ToSlash(r), true
}

// event updates the watches for ev and reports whether it may change the
// index: it names a note under the rules, or a watched folder (removed or
// renamed away, with everything in it), or a new folder the index walks
// (moved in whole: its notes raise no events of their own).
func (w *watcher) event(ev fsnotify.Event) (string, bool) {
	rel, ok := w.rel(ev.Name)
	if !ok {
		return "", false
	}
	if w.dirs[ev.Name] && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
		w.forget(ev.Name)
		return rel, true
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if !w.opt.Index.Rules.MatchDir(rel) {
				return "", false
			}
			if err := w.addTree(ev.Name); err != nil {
				w.log.Warn("cannot watch a new folder", "path", rel, "err", err)
			}
			return rel, true
		}
	}
	// Any other event on a note, a chmod too: one that makes a note
	// unreadable or readable again matters to the walk.
	return rel, w.opt.Index.Rules.Match(rel)
}

// addTree watches dir and every folder below it that the index walks.
// Symbolic links to folders are not followed (the index run still walks
// them). Running out of inotify watches is logged once, and the folders
// watched so far are kept.
func (w *watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // vanished or unreadable: the index run reports it
		}
		if !d.IsDir() {
			return nil
		}
		rel, ok := w.rel(p)
		if !ok || !w.opt.Index.Rules.MatchDir(rel) {
			return filepath.SkipDir
		}
		if w.dirs[p] {
			return nil
		}
		if err := w.fw.Add(p); err != nil {
			if p == dir && p == w.root {
				return err
			}
			if !w.full {
				w.full = true
				w.log.Warn("cannot watch every folder (on Linux, raise fs.inotify.max_user_watches); changes there wait for the next run",
					"path", rel, "err", err)
			}
			return filepath.SkipDir
		}
		w.dirs[p] = true
		return nil
	})
}

// forget drops dir and the folders below it from the watched set (the
// kernel drops a removed folder's watch itself; a renamed one is watched
// again under its new name when its Create event arrives).
func (w *watcher) forget(dir string) {
	prefix := dir + string(filepath.Separator)
	for p := range w.dirs {
		if p == dir || strings.HasPrefix(p, prefix) {
			_ = w.fw.Remove(p)
			delete(w.dirs, p)
		}
	}
}
