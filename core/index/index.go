package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/internal/chunk"
	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/note"
	"github.com/vaultctx/vaultctx/core/scrub"
	"github.com/vaultctx/vaultctx/core/store"
	"github.com/vaultctx/vaultctx/core/vault"
)

// ErrInterrupted is returned by Run when ctx was cancelled; the work done
// until then is committed and described by the returned Summary.
var ErrInterrupted = errors.New("indexing interrupted")

// DefaultBatchFiles is how many files one transaction commits.
const DefaultBatchFiles = 500

// reembedPage is how many chunks are re-embedded per transaction after a
// model change.
const reembedPage = 2048

// Options configures Run.
type Options struct {
	Vault string // vault root directory (required)
	DB    string // index file (required)
	// Full rebuilds from scratch into a new file and swaps it in. A run
	// on a missing or empty file is always full.
	Full bool
	// ModelDir is the embedding model; "" means the model the index
	// records, if any, and no vectors otherwise.
	ModelDir string
	// NoModel indexes BM25 only and drops any vectors.
	NoModel    bool
	Rules      vault.Rules
	BatchFiles int // files per transaction; 0 = DefaultBatchFiles
	Workers    int // parse/chunk/embed workers; 0 = GOMAXPROCS
	Logger     *slog.Logger
	// Progress, if set, is called from the writing goroutine after every
	// file written, with done counting files written so far this run out of
	// total files to (re)index.
	Progress func(done, total int)
}

// Summary describes one run. Its JSON form is `vaultctx index --json`.
type Summary struct {
	// SchemaUpgraded is the schema version of an index an earlier version
	// made, which this run rebuilt whole; "" when there was none.
	SchemaUpgraded string `json:"schema_upgraded,omitempty"`
	FilesIndexed   int    `json:"files_indexed"`   // new or changed files (re)indexed
	FilesUnchanged int    `json:"files_unchanged"` // same size, mtime, ctime and inode as last time: not read
	// FilesTouched counts files whose stat changed but whose content hash
	// did not (a touch, a copy back, a rename of identical bytes): only
	// their stat was recorded, nothing was chunked or embedded.
	FilesTouched int `json:"files_touched"`
	FilesDeleted int `json:"files_deleted"` // removed from the index (deleted, renamed away, excluded)
	FilesSkipped int `json:"files_skipped"` // skipped by the walk (size cap, FIFO, unreadable ...)
	// FilesKept counts indexed files that could not be read this time
	// (permission denied, an I/O error), themselves or through their
	// folder: their last indexed version stays (see store.Unreadable).
	FilesKept     int            `json:"files_kept_unreadable"`
	FilesProblems int            `json:"files_with_problems"`
	Chunks        int            `json:"chunks"`         // chunks in the index after the run
	ChunksWritten int            `json:"chunks_written"` // chunks written by this run
	Reembedded    int            `json:"reembedded"`     // existing chunks given new vectors
	ImpactTerms   int            `json:"impact_terms"`   // terms in the rebuilt BM25 impact index, 0 when not rebuilt
	ModelChanged  bool           `json:"model_changed"`
	Vectors       bool           `json:"vectors"` // the index has a vector index
	Redactions    map[string]int `json:"redactions"`
	Seconds       float64        `json:"seconds"`
	Interrupted   bool           `json:"interrupted"`
}

// Run indexes opt.Vault into opt.DB and returns what it did.
//
// Errors: *LockedError when another indexer runs, ErrInterrupted (with a
// valid Summary) when ctx is cancelled, ErrNoVault, ErrNoDB, and errors
// wrapping ErrDBIsDir, ErrNotAnIndex or ErrOtherVault for an index file
// it must not write, embed.ErrNotModel for a model directory that is not
// one, store.ErrInconsistent (before the run writes anything) for an
// index whose tables disagree, and other wrapped errors for an unusable
// vault, model or index file. Problems with single files never fail a
// run: they are recorded per file and shown by `vaultctx status`.
func Run(ctx context.Context, opt Options) (Summary, error) {
	start := time.Now()
	sum := Summary{Redactions: map[string]int{}}
	if opt.Vault == "" {
		return sum, ErrNoVault
	}
	if opt.DB == "" {
		return sum, ErrNoDB
	}
	// One index, one name: the lock, the temporary file of a full run and
	// the rename all go through the resolved path, so two names of one
	// file (a symlinked --db) exclude each other, and a full run through
	// a symlink replaces its target and keeps the link.
	opt.DB = resolve(opt.DB)
	if fi, err := os.Stat(opt.Vault); err != nil {
		return sum, fmt.Errorf("vault: %w", err)
	} else if !fi.IsDir() {
		return sum, fmt.Errorf("vault %s is not a directory", opt.Vault)
	}
	if err := CheckTarget(ctx, opt); err != nil {
		return sum, err
	}
	if err := os.MkdirAll(filepath.Dir(opt.DB), 0o755); err != nil {
		return sum, fmt.Errorf("index directory: %w", err)
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	release, err := lock(opt.DB)
	if err != nil {
		return sum, err
	}
	defer release()
	// A full run that died (kill -9, a crash) left its index-sized
	// temporary file; holding the lock, no live run owns one.
	removeStale(opt.DB)
	// The first index of a file is built as a full run, into a temporary
	// file renamed into place when complete: readers see no index until
	// then, never a half-made one (a schema without its meta, an FTS5
	// table without rows). An interrupted first run still installs what
	// it indexed, as an incremental run would have committed it.
	first := false
	if fi, err := os.Stat(opt.DB); !opt.Full && (errors.Is(err, os.ErrNotExist) || (err == nil && fi.Size() == 0)) {
		opt.Full, first = true, true
	}
	// An index an earlier version made (another schema) cannot be updated
	// in place: it is rebuilt whole, from the vault, as --full would.
	if !opt.Full {
		if old, err := store.Open(ctx, opt.DB, store.Options{ReadOnly: true}); err == nil {
			old.Close()
		} else if se := (*store.SchemaError)(nil); errors.As(err, &se) && se.Older() {
			opt.Full, sum.SchemaUpgraded = true, se.Have
			log.Info("rebuilding an index of an earlier schema", "schema", se.Have, "want", store.SchemaVersion)
		}
	}

	// DB writes must finish even after ctx is cancelled: the run commits
	// what it did before it returns.
	wctx := context.WithoutCancel(ctx)

	modelDir := opt.ModelDir
	if modelDir == "" && !opt.NoModel {
		modelDir = recordedModel(wctx, opt.DB)
	}
	if opt.NoModel {
		modelDir = ""
	}

	target := opt.DB
	if opt.Full {
		target = fmt.Sprintf("%s.full-%d.tmp", opt.DB, os.Getpid())
		defer os.Remove(target)
	}
	st, err := store.Open(wctx, target, store.Options{Bulk: opt.Full})
	if err != nil {
		return sum, err
	}
	closed := false
	defer func() {
		if !closed {
			// Leave no WAL behind, even on an error after writes: readers
			// cannot checkpoint it, and it slows each of them.
			if err := st.Checkpoint(wctx); err != nil {
				log.Warn("WAL left behind", "err", err)
			}
			st.Close()
		}
	}()

	if !opt.Full {
		if err := checkNotEmptied(wctx, st, opt); err != nil {
			return sum, err
		}
		// Counts and blob lengths only (see store.Consistency): damage
		// that gives wrong results without an error is reported, and a
		// full run rebuilds every table. Checked before the run writes:
		// a damaged vector chunk would otherwise stop it with
		// sqlite-vec's own error ("vector blob size mismatch").
		if err := st.Consistency(wctx, false); err != nil {
			return sum, err
		}
	}
	r := &run{opt: opt, st: st, log: log, sum: &sum, ctx: ctx, wctx: wctx}
	if err := r.setupModel(modelDir); err != nil {
		return sum, err
	}
	// A long-lived caller (`vaultctx watch`) runs again and again: each run
	// unmaps the model it mapped.
	defer func() {
		if r.model != nil {
			r.model.Close()
		}
	}()
	if err := r.indexFiles(); err != nil {
		return sum, err
	}
	if r.model != nil && ctx.Err() == nil {
		if err := r.reembed(); err != nil {
			return sum, err
		}
		// The vector index's lists follow the vault's growth (a no-op
		// unless it outgrew them).
		if _, err := st.TrainVectorLists(wctx); err != nil {
			return sum, err
		}
	}
	if r.model != nil {
		// Every vector is written: the model's decoded matrix (48 MB for
		// glove-120k) need not stay live through the impact build.
		r.model.Close()
		r.model = nil
	}
	if err := r.finish(); err != nil {
		return sum, err
	}
	if ctx.Err() == nil {
		// The impact index makes BM25 over common terms cheap (see
		// store.BuildImpact); a full run builds it, an incremental run
		// rebuilds it once enough chunks changed.
		var ist store.ImpactStats
		if opt.Full {
			ist, err = st.BuildImpact(wctx, 0)
		} else {
			_, ist, err = st.MaintainImpact(wctx)
		}
		if err != nil {
			return sum, err
		}
		sum.ImpactTerms = ist.Terms
		if ist.Terms > 0 {
			log.Info("impact index built", "terms", ist.Terms, "postings", ist.Postings, "bytes", ist.Bytes, "rejected", ist.Rejected, "spilled_bytes", ist.Spilled)
		}
	}
	_, chunks, err := st.Counts(wctx)
	if err != nil {
		return sum, err
	}
	sum.Chunks = chunks
	sum.Vectors = st.VecAvailable()
	if opt.Full && (ctx.Err() == nil || first) {
		if err := st.Seal(wctx); err != nil {
			return sum, err
		}
		closed = true
		if err := store.Replace(wctx, opt.DB, target); err != nil {
			return sum, err
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	if ctx.Err() != nil {
		sum.Interrupted = true
		return sum, ErrInterrupted
	}
	return sum, nil
}

// recordedModel returns the model directory an existing index records.
func recordedModel(ctx context.Context, db string) string {
	return recorded(ctx, db, store.MetaModelDir)
}

// RecordedVault returns the absolute vault root the index at db was built
// from (store.MetaVault), or "" when there is no readable index. A set-up
// without a config file (`vaultctx index --vault DIR`, then the hooks)
// names the vault only there; the hooks' refresh and doctor read it as
// the model is read (see Run).
func RecordedVault(ctx context.Context, db string) string {
	return recorded(ctx, db, store.MetaVault)
}

// KnownVault returns the vault an index run of the index at db takes
// when it is given vault ("" for none): vault itself, else the one the
// index records (RecordedVault); "" when neither names one. ok reports
// whether that vault is a folder. When it is not, a run given no vault
// stops at once (the CLI's "no vault to index", or a missing vault), so a
// remedy that names an index run must name the vault too: doctor's fixes
// and the CLI's hints add it (see doctor.Finding.VaultUnknown).
func KnownVault(ctx context.Context, vault, db string) (v string, ok bool) {
	v = vault
	if v == "" {
		v = RecordedVault(ctx, db)
	}
	if v == "" {
		return "", false
	}
	fi, err := os.Stat(v)
	return v, err == nil && fi.IsDir()
}

// recordedWait is how long recorded waits for a lock on the index. A
// reader of a WAL index waits only for another process's exclusive lock
// (a sqlite3 shell's, a full run's rename of a new file into place); the
// caller that needs the index itself waits again and reports the lock.
const recordedWait = time.Second

// ReadVault is RecordedVault with the reason a vault could not be read:
// nil with "" when there is no file at db, else the error of opening or
// reading the index, which wraps store.ErrLocked when another process
// held it locked past a short wait (one second). A caller that finds no
// vault tells "the index is locked" from "no vault configured" by it.
func ReadVault(ctx context.Context, db string) (string, error) {
	return recordedErr(ctx, db, store.MetaVault)
}

// recorded returns the meta value key of the index at db, "" when there
// is no readable index.
func recorded(ctx context.Context, db, key string) string {
	v, _ := recordedErr(ctx, db, key)
	return v
}

// recordedErr returns the meta value key of the index at db, and the
// error that kept it from being read (nil with "" when there is no file).
func recordedErr(ctx context.Context, db, key string) (string, error) {
	if _, err := os.Stat(db); err != nil {
		return "", nil
	}
	st, err := store.Open(ctx, db, store.Options{ReadOnly: true, BusyTimeout: recordedWait})
	if err != nil {
		return "", err
	}
	defer st.Close()
	return st.Meta(ctx, key)
}

// ErrNoVault is returned by Run when Options.Vault is "".
var ErrNoVault = errors.New("no vault")

// ErrNoDB is returned by Run when Options.DB is "".
var ErrNoDB = errors.New("no index file")

// ErrDBIsDir is returned by Run when Options.DB is a directory; the
// wrapping error names it. It is store.ErrIsDir, which a search of that
// path returns.
var ErrDBIsDir = store.ErrIsDir

// ErrNotAnIndex is returned by Run when opt.DB is an existing file that is
// not a vaultctx index; it is never overwritten. The wrapping error names
// the file. It is store.ErrNotAnIndex, which a search of an SQLite
// database without the index's tables returns.
var ErrNotAnIndex = store.ErrNotAnIndex

// ErrOtherVault is returned by an incremental Run when opt.DB holds the
// index of another vault: indexing would delete all of it. The wrapping
// error names both vaults; a full Run replaces the index.
var ErrOtherVault = errors.New("the index holds another vault")

// ErrVaultEmptied is returned by an incremental Run when the vault holds no
// note at all while the index holds some: an unmounted drive or a sync
// folder that is empty for a moment looks like that, and indexing it would
// delete the whole index. A full Run empties the index on purpose.
var ErrVaultEmptied = errors.New("the vault holds no notes, but the index does")

// errFound stops checkNotEmptied's walk at the first note.
var errFound = errors.New("found a note")

// checkNotEmptied returns ErrVaultEmptied (wrapped) when st holds files and
// opt.Vault holds no note under opt.Rules. The walk stops at the first
// note, so a vault with notes costs one directory read or so.
func checkNotEmptied(ctx context.Context, st *store.Store, opt Options) error {
	files, _, err := st.Counts(ctx)
	if err != nil || files == 0 {
		return nil
	}
	_, err = vault.Walk(ctx, opt.Vault, opt.Rules, func(vault.File) error { return errFound })
	if err == nil {
		return fmt.Errorf("%s: %w (%d files indexed); the index is kept", opt.Vault, ErrVaultEmptied, files)
	}
	return nil // a note was found, or the walk failed: the run reports that itself
}

// CheckTarget refuses, before any work, an index path that is a directory,
// an existing file that is not a vaultctx index (a note passed as --db by
// mistake would otherwise be replaced by a full run), and, for an
// incremental run, an index of another vault. A file that starts like SQLite
// but cannot be read is a damaged index, which a full run replaces
// (store.Replace installs the new file over any old one SQLite cannot
// open).
//
// Run calls it first; a long-lived caller (core/watch) calls it before it
// takes any lock beside the file. Errors: ErrDBIsDir, ErrNotAnIndex,
// ErrOtherVault, store.ErrSymlinkLoop and store.ErrLocked (wrapped,
// naming the file), and os.Stat's.
func CheckTarget(ctx context.Context, opt Options) error {
	fi, err := os.Stat(opt.DB)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("index file %s: %w (%w)", opt.DB, store.ErrSymlinkLoop, err)
	}
	if err != nil {
		return fmt.Errorf("index file: %w", err)
	}
	if fi.IsDir() {
		return fmt.Errorf("index file %s %w", opt.DB, ErrDBIsDir)
	}
	if !fi.Mode().IsRegular() {
		// A device (/dev/null), FIFO or socket: the run would rename its
		// new file over it, which as root destroys a system node.
		return fmt.Errorf("%s is a %s, not a file: %w; refusing to replace it", opt.DB, fsx.KindOf(fi.Mode()), ErrNotAnIndex)
	}
	if fi.Size() == 0 {
		return nil
	}
	ok, err := store.HasSQLiteHeader(opt.DB)
	if err != nil {
		return fmt.Errorf("index file: %w", err)
	}
	if !ok {
		return fmt.Errorf("%s exists and is not an SQLite file: %w; refusing to overwrite it", opt.DB, ErrNotAnIndex)
	}
	st, err := store.Open(ctx, opt.DB, store.Options{ReadOnly: true})
	switch {
	case errors.Is(err, store.ErrNotIndexed), errors.Is(err, store.ErrNotAnIndex):
		return fmt.Errorf("%s is an SQLite database but %w; refusing to overwrite it", opt.DB, ErrNotAnIndex)
	case errors.Is(err, store.ErrLocked):
		// Another process held it locked through the busy timeout: the
		// run would wait as long again to write (or to install a full
		// build) and fail the same way.
		return err
	case err != nil:
		return nil // damaged or another schema: the run reports it, --full replaces it
	}
	defer st.Close()
	held, err := st.Meta(ctx, store.MetaVault)
	if err != nil || held == "" || opt.Full {
		return nil
	}
	want, _ := filepath.Abs(opt.Vault)
	if sameDir(held, want) {
		return nil
	}
	return fmt.Errorf("%s holds the index of %s, not %s: %w", opt.DB, held, want, ErrOtherVault)
}

// sameDir reports whether two absolute paths name the same directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// resolve returns the absolute path of p with every symlink resolved, the
// last element too when it is a link to a file yet to be made; as much of
// it as exists is resolved, and p's absolute form is returned when
// nothing can be.
func resolve(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	for range 40 { // the kernel's limit of links in one lookup
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return r
		}
		fi, err := os.Lstat(abs)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			break
		}
		// A dangling link: follow it by hand to the file it will be.
		target, err := os.Readlink(abs)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		abs = target
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// removeStale deletes the temporary files of full runs that died
// (<db>.full-PID.tmp and its -wal, -shm, .packed). Only a run holding the
// lock may call it.
func removeStale(db string) {
	matches, _ := filepath.Glob(db + ".full-*.tmp*")
	for _, m := range matches {
		os.Remove(m)
	}
}

type run struct {
	opt       Options
	st        *store.Store
	log       *slog.Logger
	sum       *Summary
	ctx, wctx context.Context
	model     *embed.Model
	modelHash string
	redMu     sync.Mutex
	// old is the files table at the start of the run; rechunk says the
	// chunking rules changed since the index was written, so a file whose
	// stat changed is re-chunked even when its content hash did not.
	old     map[string]store.File
	rechunk bool
}

func (r *run) setupModel(dir string) error {
	ctx := r.wctx
	prevHash, err := r.st.Meta(ctx, store.MetaModelHash)
	if err != nil {
		return err
	}
	if dir == "" {
		if r.st.VecDim() > 0 {
			r.log.Info("no model configured: dropping vectors, BM25 only")
			if err := r.st.DropVec(ctx); err != nil {
				return err
			}
		}
		for _, k := range []string{store.MetaModelHash, store.MetaModelDir, store.MetaModelName} {
			if err := r.st.SetMeta(ctx, k, ""); err != nil {
				return err
			}
		}
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	m, err := embed.Open(abs)
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	hash, err := m.Hash()
	if err != nil {
		m.Close()
		return fmt.Errorf("model: %w", err)
	}
	changed := prevHash != hash
	if changed && prevHash != "" {
		r.sum.ModelChanged = true
		r.log.Warn("the embedding model changed: re-embedding every chunk", "old", prevHash[:min(12, len(prevHash))], "new", hash[:min(12, len(hash))], "model", abs)
	}
	if err := r.st.EnsureVec(ctx, m.Dim(), changed); err != nil {
		m.Close()
		return fmt.Errorf("vector index: %w", err)
	}
	for k, v := range map[string]string{store.MetaModelHash: hash, store.MetaModelDir: abs, store.MetaModelName: m.Name()} {
		if err := r.st.SetMeta(ctx, k, v); err != nil {
			m.Close()
			return err
		}
	}
	r.model, r.modelHash = m, hash
	return nil
}

// sameStat reports whether a walked file has the stamp its row records:
// size, mtime, ctime and inode, the fields git's index compares
// (see core/internal/filestat). A row written before ctime and inode were
// recorded holds 0 for both and so differs once, which costs one read and
// hash of the file (see prepare), not a re-chunk.
func sameStat(o store.File, f vault.File) bool {
	return o.Size == f.Size && o.MtimeNS == f.MtimeNS && o.CtimeNS == f.CtimeNS && o.Inode == f.Inode
}

// keptBy reports whether path is one of the unreadable files of skips or
// lies below one of its unreadable folders.
func keptBy(skips []vault.Skip, path string) bool {
	for _, s := range skips {
		if path == s.Path || (strings.HasPrefix(path, s.Path) && len(path) > len(s.Path) && path[len(s.Path)] == '/') {
			return true
		}
	}
	return false
}

// prepared is one file made ready for the store by a worker.
type prepared struct {
	seq    int
	file   store.File
	chunks []store.Chunk
	vecs   [][]float32
	texts  []string // what to embed, one per chunk (see EmbedText)
	skip   string   // non-empty: the file could not be read
	// unreadable: the file is there but could not be read (see
	// vault.Skip.Unreadable); its last indexed version stays.
	unreadable bool
	// touched: only the stat changed (same content hash); file holds
	// the new stat and nothing else is written.
	touched bool
}

func (r *run) indexFiles() error {
	ctx, wctx := r.ctx, r.wctx
	old, err := r.st.Files(wctx)
	if err != nil {
		return err
	}
	rules, err := r.st.Meta(wctx, store.MetaChunkRules)
	if err != nil {
		return err
	}
	r.old = old
	r.rechunk = len(old) > 0 && rules != chunk.RulesVersion
	switch {
	case r.rechunk:
		r.log.Info("the chunking rules changed: re-chunking every file", "old", rules, "new", chunk.RulesVersion)
	case len(old) == 0 && rules != chunk.RulesVersion:
		// Every chunk this index will hold follows the current rules, even
		// if this first run is interrupted: say so now, so the next run
		// does not re-chunk what this one wrote.
		if err := r.st.SetMeta(wctx, store.MetaChunkRules, chunk.RulesVersion); err != nil {
			return err
		}
	}
	var todo []vault.File
	seen := make(map[string]bool, len(old))
	skips, err := vault.Walk(ctx, r.opt.Vault, r.opt.Rules, func(f vault.File) error {
		seen[f.Path] = true
		if o, ok := old[f.Path]; ok && !r.rechunk && sameStat(o, f) {
			r.sum.FilesUnchanged++
			return nil
		}
		todo = append(todo, f)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while walking: nothing written yet
		}
		return fmt.Errorf("walk %s: %w", r.opt.Vault, err)
	}
	var storeSkips []store.Skip
	var unreadable []vault.Skip
	for _, s := range skips {
		storeSkips = append(storeSkips, store.Skip{Path: s.Path, Reason: s.Reason, Unreadable: s.Unreadable})
		r.log.Warn("skipped", "path", s.Path, "reason", s.Reason)
		if s.Unreadable {
			unreadable = append(unreadable, s)
		}
	}
	var gone []string
	for p := range old {
		if seen[p] {
			continue
		}
		if keptBy(unreadable, p) {
			// There but unreadable: the last indexed version stays.
			r.sum.FilesKept++
			continue
		}
		gone = append(gone, p)
	}
	sort.Strings(gone)

	batch := r.opt.BatchFiles
	if batch <= 0 {
		batch = DefaultBatchFiles
	}
	// Deletions first, in one transaction with the skip list.
	tx, err := r.st.Begin(wctx)
	if err != nil {
		return err
	}
	for _, p := range gone {
		if err := tx.DeleteFile(wctx, p); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.SetSkips(wctx, storeSkips); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	r.sum.FilesDeleted = len(gone)

	// Three stages overlap: the workers prepare files, this goroutine
	// puts them in walk order (so chunk ids are deterministic) and embeds
	// each batch, and a writer commits the batch before. The writer's
	// SQL (FTS5 above all) takes one core for most of a full run; before,
	// the other core idled while it ran, and the writer waited while a
	// batch was embedded.
	results := r.prepareAll(todo)
	batches := make(chan []prepared)
	var werr error // the writer's first error; read after done closes
	var failed atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		written := 0
		for b := range batches {
			if werr != nil {
				continue
			}
			if werr = r.write(b, &written, len(todo)); werr != nil {
				failed.Store(true)
			}
		}
	}()
	stop := func(err error) error {
		close(batches)
		<-done
		return errors.Join(err, werr)
	}
	pending := map[int]prepared{}
	next := 0
	var buf []prepared
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if err := r.embed(buf); err != nil {
			return err
		}
		batches <- buf
		buf = nil // the writer owns it now
		return nil
	}
	for p := range results {
		pending[p.seq] = p
		for {
			q, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			buf = append(buf, q)
			if len(buf) >= batch {
				if err := flush(); err != nil || failed.Load() {
					drain(results)
					return stop(err)
				}
			}
		}
	}
	if err := stop(flush()); err != nil {
		return err
	}
	r.sum.FilesSkipped = len(skips)
	return nil
}

func drain(c <-chan prepared) {
	for range c {
	}
}

// prepareAll reads, parses, chunks, scrubs and embeds files on Workers
// goroutines. Results arrive in any order, tagged with their index in
// files. After ctx is cancelled no new file is started; files in flight
// are finished.
func (r *run) prepareAll(files []vault.File) <-chan prepared {
	workers := r.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan int)
	out := make(chan prepared, 4*workers)
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case <-r.ctx.Done():
				return
			case jobs <- i:
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				p := r.prepare(files[i])
				p.seq = i
				out <- p
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func (r *run) prepare(f vault.File) prepared {
	raw, err := vault.Read(f, r.opt.Rules.MaxFileBytes)
	if err != nil {
		return prepared{file: store.File{Path: f.Path}, skip: err.Error(), unreadable: readFailed(err)}
	}
	sum := sha256.Sum256(raw)
	hash := hex.EncodeToString(sum[:16])
	if o, ok := r.old[f.Path]; ok && !r.rechunk && o.Hash == hash {
		return prepared{touched: true, file: store.File{Path: f.Path, MtimeNS: f.MtimeNS, Size: f.Size, CtimeNS: f.CtimeNS, Inode: f.Inode}}
	}
	n := note.Parse(f.Path, raw)
	sc := scrub.Default()
	counts := map[string]int{}
	clean := func(s string) string {
		out, finds := sc.Scrub(s)
		for _, fd := range finds {
			counts[fd.Rule]++
		}
		return out
	}
	title := clean(n.Title)
	hc := clean(n.HeadingContext())
	// Scrub the whole body before chunking, so a credential that spans a
	// chunk boundary (a long private key) is still seen whole.
	cs := chunk.Split(n.Title, clean(n.Body), chunk.DefaultOptions())
	out := prepared{file: store.File{
		Path: f.Path, MtimeNS: f.MtimeNS, Size: f.Size, CtimeNS: f.CtimeNS, Inode: f.Inode,
		Hash: hash, Title: title,
		Error: strings.Join(n.Problems, "; "),
	}}
	texts := make([]string, 0, len(cs))
	for _, c := range cs {
		text := c.Text
		h := sha256.Sum256([]byte(text))
		sc := store.Chunk{
			Ordinal: c.Ordinal, Title: title, Section: clean(c.Section), Text: text,
			HeadingContext: hc, MtimeNS: f.MtimeNS, Hash: h[:8],
		}
		// Here, on a worker, rather than in the writing goroutine.
		sc.Prepare()
		out.chunks = append(out.chunks, sc)
		texts = append(texts, EmbedText(sc))
	}
	out.texts = texts
	if len(counts) > 0 {
		r.redMu.Lock()
		for k, v := range counts {
			r.sum.Redactions[k] += v
		}
		r.redMu.Unlock()
		b, _ := json.Marshal(counts)
		out.file.Redactions = string(b)
	}
	return out
}

// readFailed reports whether a vault.Read error says the file is there but
// could not be read (permission denied, an I/O error), rather than that it
// is gone, too large or no regular file any more.
func readFailed(err error) bool {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, vault.ErrTooLarge), errors.Is(err, vault.ErrNotRegular):
		return false
	}
	return true
}

// EmbedText is the text embedded for a chunk: its heading context and
// section give a short chunk the topic of its note.
func EmbedText(c store.Chunk) string {
	return c.HeadingContext + "\n" + c.Section + "\n" + c.Text
}

// embed gives the prepared files of batch their chunks' vectors, in one
// EncodeBatch: it spreads over every core and decodes the embedding
// matrix once. Without a model it does nothing.
func (r *run) embed(batch []prepared) error {
	if r.model == nil {
		return nil
	}
	var texts []string
	for _, p := range batch {
		texts = append(texts, p.texts...)
	}
	vecs, err := r.model.EncodeBatch(r.wctx, texts)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	for i := range batch {
		n := len(batch[i].texts)
		batch[i].vecs, vecs = vecs[:n:n], vecs[n:]
	}
	return nil
}

// write commits one batch of prepared files (embedded, see embed), and
// calls Progress after each file with *written, the files written so far,
// out of total.
func (r *run) write(batch []prepared, written *int, total int) error {
	ctx := r.wctx
	tx, err := r.st.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if r.model != nil {
		if vecs := vecsOf(batch); len(vecs) > 0 {
			if err := tx.SetCenter(ctx, vecs); err != nil {
				return err
			}
		}
	}
	progress := func() {
		*written++
		if r.opt.Progress != nil {
			r.opt.Progress(*written, total)
		}
	}
	for _, p := range batch {
		if p.skip != "" {
			r.log.Warn("skipped", "path", p.file.Path, "reason", p.skip)
			_, had := r.old[p.file.Path]
			if p.unreadable && had {
				r.sum.FilesKept++
			} else if err := tx.DeleteFile(ctx, p.file.Path); err != nil {
				return err
			}
			if err := tx.AddSkip(ctx, store.Skip{Path: p.file.Path, Reason: p.skip, Unreadable: p.unreadable}); err != nil {
				return err
			}
			r.sum.FilesSkipped++
			progress()
			continue
		}
		if p.touched {
			if err := tx.UpdateStat(ctx, p.file); err != nil {
				return err
			}
			r.sum.FilesTouched++
			progress()
			continue
		}
		if p.file.Error != "" {
			r.sum.FilesProblems++
			r.log.Warn("parse problem", "path", p.file.Path, "problem", p.file.Error)
		}
		write := tx.ReplaceFile
		if _, had := r.old[p.file.Path]; !had {
			// Nothing to replace (every file of a full run): AddFile
			// skips the lookups and deletes.
			write = tx.AddFile
		}
		if err := write(ctx, p.file, p.chunks, p.vecs); err != nil {
			return err
		}
		r.sum.FilesIndexed++
		r.sum.ChunksWritten += len(p.chunks)
		progress()
	}
	return tx.Commit()
}

func vecsOf(batch []prepared) [][]float32 {
	var out [][]float32
	for _, p := range batch {
		out = append(out, p.vecs...)
	}
	return out
}

// reembed gives vectors to chunks that have none: after a model change, or
// when a run was interrupted between writing chunks and vectors.
func (r *run) reembed() error {
	ctx := r.wctx
	ids, err := r.st.ChunkIDsWithoutVectors(ctx)
	if err != nil || len(ids) == 0 {
		return err
	}
	r.log.Info("embedding chunks without vectors", "chunks", len(ids))
	for len(ids) > 0 && r.ctx.Err() == nil {
		page := ids[:min(reembedPage, len(ids))]
		ids = ids[len(page):]
		cs, err := r.st.Chunks(ctx, page)
		if err != nil {
			return err
		}
		texts := make([]string, len(cs))
		got := make([]int64, len(cs))
		for i, c := range cs {
			texts[i], got[i] = EmbedText(c), c.ID
		}
		vecs, err := r.model.EncodeBatch(ctx, texts)
		if err != nil {
			return fmt.Errorf("embed: %w", err)
		}
		tx, err := r.st.Begin(ctx)
		if err != nil {
			return err
		}
		if err := tx.SetCenter(ctx, vecs); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.PutVectors(ctx, got, vecs); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		r.sum.Reembedded += len(got)
	}
	return nil
}

func (r *run) finish() error {
	ctx := r.wctx
	abs, _ := filepath.Abs(r.opt.Vault)
	meta := map[string]string{
		store.MetaVault:         abs,
		store.MetaLastIndexTime: time.Now().UTC().Format(time.RFC3339),
	}
	if r.ctx.Err() == nil {
		// Only a run that went through every file may say its chunks
		// follow the current rules.
		meta[store.MetaChunkRules] = chunk.RulesVersion
	}
	for k, v := range meta {
		if err := r.st.SetMeta(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
}
