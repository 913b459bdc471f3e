package store

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sqlite_vec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/ivf"
)

// SchemaVersion is the version of schema.sql. Open refuses a file with a
// newer version and upgrades nothing silently: an older version returns
// ErrSchema so the caller can rebuild with a full index.
//
// Version 2 added chunks_exact (the unstemmed texts) and filled the cjk
// column with ftsquery.Extras instead of CJK bigrams alone. Version 3
// dropped chunks_exact again: the exact-form leg reads the chunks of the
// stemmed match instead (exactSplit). A writer upgrades a version 2 file
// in place (dropUnstemmed) and readers read both.
const SchemaVersion = 3

// readableVersions are the schema versions readers accept: SchemaVersion
// and version 2, whose only difference (the unused chunks_exact table)
// reads the same.
var readableVersions = []string{"2", fmt.Sprint(SchemaVersion)}

//go:embed schema.sql
var schemaSQL string

// ErrSchema is returned by Open when the file's schema version is not
// SchemaVersion; a full index (`vaultctx index --full`) rebuilds it.
var ErrSchema = errors.New("index schema version mismatch")

// SchemaError is the error Open returns for a file of another schema
// version; it wraps ErrSchema.
type SchemaError struct {
	Have string // the file's schema_version meta value ("" when absent)
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("file has schema %q, want %d: %v", e.Have, SchemaVersion, ErrSchema)
}

func (e *SchemaError) Unwrap() error { return ErrSchema }

// Older reports whether the file was made by an earlier schema version
// (one a full rebuild upgrades), not by a later one.
func (e *SchemaError) Older() bool {
	v, err := strconv.Atoi(e.Have)
	return err == nil && v >= 1 && v < SchemaVersion
}

// Newer reports whether the file was made by a later schema version than
// this build's: a newer vaultctx wrote it, and a full rebuild here would
// replace its index with an older one.
func (e *SchemaError) Newer() bool {
	v, err := strconv.Atoi(e.Have)
	return err == nil && v > SchemaVersion
}

// ErrNoFTS5 is returned by Open when SQLite was built without FTS5, which
// happens when the binary was not built with `-tags sqlite_fts5`.
var ErrNoFTS5 = errors.New("SQLite lacks FTS5")

// ErrNotIndexed is returned by Open with ReadOnly set when the file does not
// exist or holds no index yet.
var ErrNotIndexed = errors.New("no index yet")

// ErrNotAnIndex is returned by Open with ReadOnly set for a file that
// SQLite reads but that holds none of the index's tables: another
// program's database, or a path given as the index by mistake. It is never
// replaced (see core/index). The wrapping error names the file.
var ErrNotAnIndex = errors.New("not a vaultctx index")

// ErrIsDir is returned by Open when the index path is a directory; the
// wrapping error names it.
var ErrIsDir = errors.New("is a directory")

// ErrSymlinkLoop is returned (wrapped, beside the system's ELOOP) by Open
// when the index path runs into a loop of symbolic links, such as a link
// that points at itself: no file can be read or written there until the
// link is removed or fixed, and a full index run would fail on it too.
// The wrapping error names the path.
var ErrSymlinkLoop = errors.New("a loop of symbolic links")

// ErrLocked is returned (wrapped, beside SQLite's "database is locked")
// by Open when another process held a lock on the index that kept it from
// being read for the whole busy timeout: a sqlite3 shell in an exclusive
// transaction or exclusive locking mode, a backup tool. It is not damage:
// the file is intact, and an index run waits for the same lock. IsLocked
// reports it, and SQLite's own lock errors from any query.
var ErrLocked = errors.New("the index is locked by another process")

// ErrDamaged is returned (wrapped, beside SQLite's own error) by Open when
// the file is an SQLite database whose header or pages SQLite cannot read:
// "unsupported file format" (a damaged schema format number), "file is not
// a database", "database disk image is malformed". A full index (`vaultctx
// index --full`) builds a new file and replaces the damaged one.
var ErrDamaged = errors.New("index file is damaged")

// ErrDiskFull is returned (wrapped, beside SQLite's own error) by Open when
// the disk holding the index has no space left (ENOSPC, EDQUOT or
// SQLITE_FULL), and is the Fallback of a read-only store that reads an
// intact index as an immutable file because its disk is full.
var ErrDiskFull = errors.New("the disk holding the index is full")

// ErrHotJournal is returned (wrapped) by a read-only Open when a rollback
// journal of an interrupted write lies beside the file: the file holds
// half of that write until a writer rolls it back (any index run does).
// Reading it as an immutable file would show the half-made write.
var ErrHotJournal = errors.New("an interrupted write awaits rollback")

// DefaultBusyTimeout is how long a connection waits for a lock before it
// fails with SQLITE_BUSY.
const DefaultBusyTimeout = 5 * time.Second

// DefaultColumnWeights are the BM25 weights of the FTS5 columns chunk_text,
// section and heading_context, in that order (the CJK bigram column takes
// chunk_text's weight). KeywordHits uses them when it is passed the zero
// weights.
var DefaultColumnWeights = [3]float64{1.0, 0.5, 0.3}

// Options configures Open.
type Options struct {
	// ReadOnly opens the file with mode=ro; the file must exist.
	ReadOnly bool
	// BusyTimeout is the lock wait; 0 means DefaultBusyTimeout.
	BusyTimeout time.Duration
	// Bulk tunes a private, freshly created file for a one-shot bulk load:
	// no journal and no fsync until Close, and FTS5's segments left
	// unmerged until BuildImpact or Seal merges them in one pass (see
	// mergeText). Only for full rebuilds into a temporary file that is
	// renamed into place afterwards.
	Bulk bool
	// NoMmap makes a ReadOnly store read pages through SQLite's page cache
	// (32 MB per connection) instead of mapping the file. A process that
	// runs hundreds of queries (the calibration after an index run) then
	// keeps its resident memory bounded; with the map, every page it
	// touched stays resident, 400 MiB of an 850 MB index at 4x the large
	// corpus. A writer never maps the file.
	NoMmap bool
	// OneQuery opens a ReadOnly store for a process that runs one search
	// and exits (a hook, `vaultctx search`): pages are read with pread
	// through a page cache of OneQueryCachePages pages that SQLite
	// recycles, instead of through the memory map. In a fresh process
	// every page it touches for the first time is a page fault, and the
	// faults are what a short search costs: see OneQueryCachePages. It
	// takes precedence over NoMmap. A process that runs many queries
	// should leave it unset: its mapped pages stay mapped from one query to
	// the next, where OneQuery would read them again.
	OneQuery bool
	// Parallel opens a ReadOnly store's second connection in the
	// background once Open has read the file (see warmSecond): for
	// a process about to run a hybrid search, whose BM25 leg runs on it.
	// Other readers would open it for nothing.
	Parallel bool
}

// Store is an open index file. It is safe for concurrent use by readers; one
// writer at a time goes through Begin.
type Store struct {
	db       *sql.DB
	path     string
	opt      Options
	vecOK    bool
	vecDim   int
	vecSlots int       // chunk_vecs' vec0 chunk_size (meta vec_chunk)
	center   []float32 // vector centre (see vec.go), loaded on first use
	vecMu    sync.Mutex
	lists    *ivf.Lists // IVF centroids (see ivf.go), loaded on first use
	// pending: a Bulk store's vectors go to vec_pending until
	// TrainVectorLists (see pendingVecSQL).
	pending bool
	imp     atomic.Pointer[impactIndex]
	// meta is the meta table as a read-only store found it at Open (nil
	// for a writer, which reads it afresh each time).
	meta map[string]string
	// fallback is why a read-only store reads the file as immutable (see
	// Fallback), nil when it does not.
	fallback error
}

var autoVec sync.Once

// driverName is go-sqlite3 registered with a connect hook that applies the
// per-connection pragmas (page cache, temp store, mmap) to every pooled
// connection, so read-only stores can run queries side by side. The mmap
// limit is SQLite's default maximum (SQLITE_MAX_MMAP_SIZE, 0x7fff0000
// bytes): a page past the limit is read with pread into a freshly
// allocated cache page, which costs a fresh process several times a
// mapped page, and at 4x the large corpus (an 842 MB file) the vector
// lists lay past the former 256 MiB limit (559 preads per query against
// 6 at 1x). Mapping costs address space only; the pages a query touches
// are what it pays for. A process of one search reads with pread into a
// small recycled cache instead (driverOneQuery, OneQueryCachePages).
const driverName = "sqlite3_vaultctx"

// readerMmap is the most bytes of the file a reader maps (PRAGMA
// mmap_size): 2 GiB less 64 KiB, SQLite's largest on every platform.
const readerMmap = 2147418112

// readerStmtCache is how many prepared statements each connection of a
// read-only store keeps for reuse (go-sqlite3's _stmt_cache_size), more
// than the distinct statements of one hybrid search. Without it every
// query string was compiled again by sqlite3_prepare_v2 on every call:
// a quarter of the time a warm process spent in SQLite per BM25 search of
// the large corpus. A cached statement is reset when it is put back, so
// it holds no read transaction between searches.
const readerStmtCache = 48

// driverNoMmap is driverName without the memory map (Options.NoMmap).
const driverNoMmap = "sqlite3_vaultctx_nommap"

// driverOneQuery is driverName for Options.OneQuery: no memory map and a
// page cache of OneQueryCachePages.
const driverOneQuery = "sqlite3_vaultctx_onequery"

// OneQueryCachePages is the page cache of an Options.OneQuery connection,
// in pages (PRAGMA cache_size; 256 KiB at the index's 16 KiB pages).
//
// Why small, and why not mapped: a process that lives for one search pays
// for each page of memory it touches for the first time, and on the
// virtual machines this project runs on that fault costs more than the
// read. Measured there (2026-12, kernel 6.18 under a paravirtualised
// MMU): a first touch of a fresh anonymous 4 KiB page took 14 us, of a
// 16 KiB page of the mapped index 33-80 us (four faults), and a pread of
// the same 16 KiB page into a reused buffer 6-13 us. SQLite reuses the
// buffer of its least recently used unpinned page once the cache is full,
// so a cache this size allocates a quarter of a MiB once and then reads
// every further page into memory already touched. It still holds the
// interior pages of the b-trees a statement walks (a join of two tables
// four levels deep pins eight, SQLite exceeds the size rather than fail
// when more are pinned). Spawn to exit over the 73 queries of
// eval/large-queries.jsonl, one interleaved run on the scale vaults of
// scripts/scale-vault.sh: hybrid p50 at 1x 34.5 ms mapped, 30.3 / 30.7 /
// 32.6 / 37.3 ms with 10 / 20 / 40 / 100 pages; at 4x 48.2 ms mapped,
// 35.1 / 35.8 / 38.1 / 43.8 ms.
const OneQueryCachePages = 16

var registerDriver sync.Once

func register() {
	registerDriver.Do(func() {
		for name, pragmas := range map[string]struct{ cache, mmap int }{
			driverName:     {-32000, readerMmap},
			driverNoMmap:   {-32000, 0},
			driverOneQuery: {OneQueryCachePages, 0},
		} {
			set := fmt.Sprintf("PRAGMA cache_size=%d; PRAGMA temp_store=MEMORY; PRAGMA mmap_size=%d", pragmas.cache, pragmas.mmap)
			sql.Register(name, &sqlite3.SQLiteDriver{
				ConnectHook: func(c *sqlite3.SQLiteConn) error {
					_, err := c.Exec(set, nil)
					return err
				},
			})
		}
	})
}

// Open opens (and, unless ReadOnly, creates and migrates) the index at path.
//
// Errors: ErrNotIndexed for a missing or empty file in ReadOnly mode,
// ErrSymlinkLoop for a path that runs into a loop of symbolic links,
// ErrNotAnIndex for an SQLite database without the index's tables in
// ReadOnly mode, ErrIsDir for a directory, ErrNoFTS5 for a
// binary built without FTS5, ErrSchema for a file of another schema version,
// ErrLocked when another process holds the file locked past BusyTimeout,
// ErrDamaged (with SQLite's error) for a damaged file, ErrDiskFull for a
// full disk, and wrapped SQLite errors for an unreadable one. A read-only
// store that cannot create the -shm file of WAL mode, in a read-only
// folder or on a full disk with no WAL pending, reads the file as an
// immutable snapshot instead (see Fallback).
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	autoVec.Do(func() {
		configLookaside() // before anything initialises SQLite
		sqlite_vec.Auto()
		registerVecScan()
		registerPhraseScan()
	})
	if opt.BusyTimeout == 0 {
		opt.BusyTimeout = DefaultBusyTimeout
	}
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("index file %s: %w (%w)", path, ErrSymlinkLoop, err)
		}
		if opt.ReadOnly && errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("open %s: %w", path, ErrNotIndexed)
		}
		if opt.ReadOnly {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	} else if fi.IsDir() {
		return nil, fmt.Errorf("index file %s %w", path, ErrIsDir)
	} else if !fi.Mode().IsRegular() {
		// SQLite's open(2) of a FIFO waits for a writer, and a device
		// reads as an empty database: refuse both at once.
		return nil, fmt.Errorf("index file %s is a %s, not a file: %w", path, fsx.KindOf(fi.Mode()), ErrNotAnIndex)
	}
	// SQLite opens the journal, WAL and shared-memory files beside the
	// index by name; a FIFO there would hold it until a writer came.
	for _, side := range []string{"-journal", "-wal", "-shm"} {
		if sfi, err := os.Stat(path + side); err == nil && !sfi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s%s beside the index is a %s, not a file (remove it): %w", path, side, fsx.KindOf(sfi.Mode()), ErrNotAnIndex)
		}
	}
	if !opt.ReadOnly {
		return open(ctx, path, opt)
	}
	// A full index run renames a new file over the old one (see Replace).
	// A reader whose connection opened the old file just before the rename
	// must not go on reading it: SQLite finds the new file's -wal and -shm
	// by name, replays them onto the old file's pages, and reads a mix of
	// the two ("database disk image is malformed", or wrong rows). Replace
	// holds the old file's exclusive lock from its switch out of WAL mode
	// through the rename, so such a connection reads nothing before the
	// rename; the file's identity before and after Open's first read then
	// tells, and the reader opens the new file. A connection that read the
	// file in WAL mode keeps its shared lock until it closes, so no
	// Replace can take the file from under the store afterwards, nor from
	// under its second connection, which opens by name while the first
	// holds the file.
	for reopened := 0; ; reopened++ {
		s, err := open(ctx, path, opt)
		now, serr := os.Stat(path)
		if serr != nil || os.SameFile(fi, now) {
			if err == nil && opt.Parallel {
				go s.warmSecond(ctx)
			}
			return s, err
		}
		if s != nil {
			s.Close()
		}
		if reopened == maxReopen {
			return nil, fmt.Errorf("open %s: the index was replaced %d times while it was being opened; try again", path, reopened+1)
		}
		fi = now
	}
}

// maxReopen bounds how often a read-only Open opens a file again that a
// full index run replaced while it was being opened.
const maxReopen = 3

// open is Open after the checks of path: it opens the file once.
func open(ctx context.Context, path string, opt Options) (*Store, error) {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(opt.BusyTimeout.Milliseconds()))
	q.Set("_foreign_keys", "0")
	switch {
	case opt.ReadOnly:
		q.Set("mode", "ro")
		q.Set("_stmt_cache_size", strconv.Itoa(readerStmtCache))
	case opt.Bulk:
		q.Set("_journal_mode", "OFF")
		q.Set("_synchronous", "OFF")
	default:
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "NORMAL")
	}
	dsn := "file:" + escapePath(path) + "?" + q.Encode()
	register()
	db, err := sql.Open(opt.driver(), dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Writers use one connection (SQLite allows one writer, and the bulk
	// pragmas stay in one place); readers use two, so the BM25 and vector
	// legs of a hybrid search run in parallel.
	if opt.ReadOnly {
		db.SetMaxOpenConns(2)
		db.SetMaxIdleConns(2)
	} else {
		db.SetMaxOpenConns(1)
	}
	if !opt.ReadOnly {
		// The writer reads the whole file back (the impact index build); a
		// memory map would count all of it in the indexer's resident
		// memory, while the page cache is bounded. Its one connection
		// keeps the setting.
		if _, err := db.ExecContext(ctx, "PRAGMA mmap_size=0"); err != nil {
			db.Close()
			return nil, openError(path, err)
		}
	}
	s := &Store{db: db, path: path, opt: opt}
	if err := s.init(ctx); err != nil {
		db.Close()
		if opt.ReadOnly && hotJournal(err) {
			return nil, fmt.Errorf("open %s: %w: %w", path, ErrHotJournal, err)
		}
		if opt.ReadOnly && isReadOnlyDir(err) {
			// A WAL database in a directory we cannot write (a shared or
			// packaged index) cannot create its -shm file; read it as an
			// immutable file instead. Without -shm SQLite cannot read the
			// WAL either: what it holds is left out, and Fallback says so.
			why := errReadOnlyDir
			if walPending(path) {
				why = ErrWALUnread
			}
			return openImmutable(ctx, path, opt, why)
		}
		if opt.ReadOnly && diskFull(err) && !walPending(path) {
			// Nor can it on a full disk, where a quiet index run leaves
			// the file without -shm. With no WAL to replay the file alone
			// is the whole index, so the immutable read is exact.
			return openImmutable(ctx, path, opt, ErrDiskFull)
		}
		return nil, openError(path, err)
	}
	return s, nil
}

// warmSecond opens a read-only store's second pooled connection and reads
// the schema on it, then leaves it idle in the pool, while Open goes on
// (the caller's model and query): a hybrid search runs its BM25 leg on
// the second connection, and opening it (the connection pragmas, the
// extensions, the schema: about 1 ms) was on that leg's path. Open starts
// it once init has read the file, so that it never races the first
// connection's first read of a WAL file without its -shm (which failed
// with "database is locked"). Errors are left for the queries that follow
// to report.
func (s *Store) warmSecond(ctx context.Context) {
	// The pool hands out an idle connection before it opens one, so the
	// first is held (it may be the idle one init used) until the request
	// for the second has begun to open a new one; database/sql counts a
	// connection as open before it dials. The hold lasts microseconds, not
	// the open.
	first, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := s.db.Conn(ctx)
		if err != nil {
			return
		}
		defer c.Close()
		var n int
		_ = c.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM meta LIMIT 1)").Scan(&n)
	}()
	for s.db.Stats().OpenConnections < 2 {
		select {
		case <-done:
			first.Close()
			return
		default:
			runtime.Gosched()
		}
	}
	first.Close()
}

// openError wraps an error of Open, with ErrDamaged when it says the file
// is damaged, ErrLocked when another process holds it locked and
// ErrDiskFull when its disk is full.
func openError(path string, err error) error {
	switch {
	case IsDamage(err) && !sqliteHeader(path):
		// Not a damaged index but some other file: a full run refuses to
		// overwrite it (core/index), so do not advise one.
		return fmt.Errorf("open %s: %w: it does not start as an SQLite file (%w)", path, ErrNotAnIndex, err)
	case IsDamage(err):
		return fmt.Errorf("open %s: %w: %w", path, ErrDamaged, err)
	case IsLocked(err):
		return fmt.Errorf("open %s: %w: %w", path, ErrLocked, err)
	case diskFull(err):
		return fmt.Errorf("open %s: %w: %w", path, ErrDiskFull, err)
	}
	return fmt.Errorf("open %s: %w", path, err)
}

// HasSQLiteHeader reports whether the file at path starts with SQLite's
// 16-byte magic string (an empty file counts: SQLite makes a database of
// it). It returns the error of opening the file, fsx.ErrNotRegular
// (wrapped) for a FIFO, socket, device or folder, which it never waits on.
func HasSQLiteHeader(path string) (bool, error) {
	f, err := fsx.OpenRegular(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	return n == 0 || string(head[:n]) == "SQLite format 3\x00", nil
}

// sqliteHeader is HasSQLiteHeader, true for a file it cannot read (which
// says nothing against it).
func sqliteHeader(path string) bool {
	ok, err := HasSQLiteHeader(path)
	return ok || err != nil
}

// IsLocked reports whether err (from Open or any query) wraps ErrLocked or
// is SQLite's SQLITE_BUSY or SQLITE_LOCKED ("database is locked"): another
// connection held a lock past the busy timeout. It is never damage.
func IsLocked(err error) bool {
	if errors.Is(err, ErrLocked) {
		return true
	}
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// diskFull reports whether err is SQLite's SQLITE_FULL or an I/O error
// whose system error is ENOSPC or EDQUOT.
func diskFull(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
	}
	return se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC || se.SystemErrno == syscall.EDQUOT
}

// walPending reports whether path has a WAL file that may hold
// transactions not yet in the file itself (any non-empty -wal).
func walPending(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return err == nil && fi.Size() > 0
}

// errReadOnlyDir is the Fallback of a store read from a folder it cannot
// write, with no WAL beside the file.
var errReadOnlyDir = errors.New("the index's folder is read-only")

// ErrWALUnread is the Fallback of a read-only store in a folder it cannot
// write whose WAL (the -wal file beside the index) is not empty. The WAL
// may hold transactions committed since the last checkpoint, which SQLite
// reads only through the -shm file it cannot create there: the store reads
// the main file alone, the index as it was before them. The folder made
// writable for the reader, or an index run by its owner (which copies the
// WAL into the file), ends it.
var ErrWALUnread = errors.New("the index's folder is read-only and its WAL holds changes that cannot be read from there")

// Fallback returns why a read-only store reads its file as an immutable
// snapshot, without the -shm file SQLite's WAL mode shares between
// readers: ErrDiskFull on a full disk (taken only with no WAL to replay,
// so the snapshot is exact), ErrWALUnread in a folder it cannot write with
// a WAL beside the file (the snapshot lacks what the WAL holds), another
// error in such a folder without one (exact); nil when it reads the file
// normally.
func (s *Store) Fallback() error { return s.fallback }

// hotJournal reports whether err is SQLITE_READONLY_ROLLBACK: a hot
// journal that a read-only connection cannot roll back.
func hotJournal(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrReadonlyRollback
}

func isReadOnlyDir(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrReadonly || se.Code == sqlite3.ErrCantOpen
	}
	return strings.Contains(err.Error(), "readonly database") || strings.Contains(err.Error(), "unable to open")
}

func openImmutable(ctx context.Context, path string, opt Options, why error) (*Store, error) {
	db, err := sql.Open(opt.driver(), "file:"+escapePath(path)+"?mode=ro&immutable=1")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(2)
	s := &Store{db: db, path: path, opt: opt, fallback: why}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, openError(path, err)
	}
	return s, nil
}

// driver returns the registered driver Open uses for o.
func (o Options) driver() string {
	if o.OneQuery && o.ReadOnly {
		return driverOneQuery
	}
	if o.NoMmap {
		return driverNoMmap
	}
	return driverName
}

func escapePath(p string) string {
	// The DSN is a URI: escape the characters that would end the path.
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return r.Replace(p)
}

func (s *Store) init(ctx context.Context) error {
	if !s.opt.ReadOnly {
		// Both take effect only on a new, empty file. Pages of 16 KiB pack
		// the variable-length chunk rows with half the slack of 8 KiB
		// (measured: 3.4 MB instead of 7 MB unused in chunks at 163k
		// chunks); incremental auto-vacuum lets Seal return the pages FTS5
		// frees when it merges its segments (4.4 MB).
		if _, err := s.db.ExecContext(ctx, "PRAGMA page_size=16384; PRAGMA auto_vacuum=INCREMENTAL"); err != nil {
			return err
		}
	}
	if !s.opt.ReadOnly {
		// In one write transaction: schema.sql drops and creates a
		// trigger, and two writers opening at once (the calibration after
		// a run and the next run) would otherwise interleave the two
		// ("trigger impact_ad already exists").
		if _, err := s.db.ExecContext(ctx, "BEGIN IMMEDIATE; "+schemaSQL+"; COMMIT"); err != nil {
			s.db.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
			if strings.Contains(err.Error(), "no such module: fts5") {
				return ErrNoFTS5
			}
			return fmt.Errorf("create schema: %w", err)
		}
		v, err := s.Meta(ctx, MetaSchemaVersion)
		if err != nil {
			return err
		}
		switch v {
		case "":
			if err := s.SetMeta(ctx, MetaSchemaVersion, fmt.Sprint(SchemaVersion)); err != nil {
				return err
			}
		case fmt.Sprint(SchemaVersion):
		case "2":
			if err := s.dropUnstemmed(ctx); err != nil {
				return err
			}
		default:
			return &SchemaError{Have: v}
		}
		if err := s.migrate(ctx); err != nil {
			return err
		}
		if s.opt.Bulk {
			if _, err := s.db.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', 0)"); err != nil {
				return fmt.Errorf("defer FTS5 merges: %w", err)
			}
		}
	} else {
		// A reader takes the whole meta table (about 1.5 KB) in one query:
		// a hook or search then makes one round trip instead of eight.
		if err := s.snapshotMeta(ctx); err != nil {
			if strings.Contains(err.Error(), "no such table") {
				// An empty file is an index not written yet; a database
				// with other tables (or none) is not an index at all.
				if fi, err := os.Stat(s.path); err == nil && fi.Size() > 0 {
					return fmt.Errorf("%w (an SQLite database without its tables)", ErrNotAnIndex)
				}
				return ErrNotIndexed
			}
			return err
		}
		v, err := s.Meta(ctx, MetaSchemaVersion)
		if err != nil {
			return err
		}
		if !slices.Contains(readableVersions, v) {
			return &SchemaError{Have: v}
		}
	}
	return s.initVec(ctx)
}

// checkpointTries, checkpointWait and checkpointPause bound Checkpoint to
// about 2.5 s: each try waits up to checkpointWait (SQLite's busy
// handler) for readers to reach the newest snapshot, and the pause lets
// the readers of the moment finish. A hook or search reads for about
// 10 ms.
const (
	checkpointTries = 5
	checkpointWait  = 400 * time.Millisecond
	checkpointPause = 50 * time.Millisecond
)

// ErrCheckpointBusy is returned by Checkpoint when readers kept the WAL in
// use through every try.
var ErrCheckpointBusy = errors.New("readers kept the WAL in use")

// Checkpoint copies every transaction in the WAL into the file and
// truncates the WAL to 0 bytes (PRAGMA wal_checkpoint(TRUNCATE)). A writer
// calls it before it closes: a connection that closes while readers are
// open does not checkpoint, and read-only readers cannot, so the WAL it
// leaves (56 MB after a large incremental run) slows every later read
// (2.6x) until a quiet run. Readers of the newest snapshot do not block
// the copy, only the truncation; SQLite's busy handler waits for them (up
// checkpointWait) and Checkpoint tries again a few times, for about
// 2.5 s in all. It is a no-op for read-only and Bulk stores.
// Errors: ErrCheckpointBusy when readers stayed on older snapshots
// throughout, and SQLite's.
func (s *Store) Checkpoint(ctx context.Context) error {
	if s.opt.ReadOnly || s.opt.Bulk {
		return nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", s.path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout=%d", checkpointWait.Milliseconds())); err != nil {
		return fmt.Errorf("checkpoint %s: %w", s.path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("PRAGMA busy_timeout=%d", s.opt.BusyTimeout.Milliseconds()))
	for try := 0; ; try++ {
		var busy, logFrames, done int
		err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done)
		if err != nil {
			return fmt.Errorf("checkpoint %s: %w", s.path, err)
		}
		if busy == 0 {
			return nil
		}
		if try+1 == checkpointTries {
			return fmt.Errorf("checkpoint %s: %w (%d of %d frames copied)", s.path, ErrCheckpointBusy, done, logFrames)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("checkpoint %s: %w", s.path, ctx.Err())
		case <-time.After(checkpointPause):
		}
	}
}

// Path returns the file the store was opened on.
func (s *Store) Path() string { return s.path }

// Close closes the database. For a Bulk store it first syncs the file.
func (s *Store) Close() error {
	return s.db.Close()
}

// Check runs PRAGMA integrity_check, which since SQLite 3.44 also checks
// the structure of the FTS5 index (its xIntegrity method), and, on a
// writer, FTS5's integrity-check command with rank 1, which also compares
// the FTS5 index with the chunks it was made from. It returns nil when
// they pass, or an error of one line describing the first problem (and
// how many more integrity_check found, up to its limit of 100). A
// read-only store runs only read statements and so never changes the file
// (FTS5's command is a write statement; a read-write connection would
// also roll back a hot journal and checkpoint a WAL when it closes): see
// Consistency for the row-level checks it adds.
func (s *Store) Check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("integrity_check: %w", err)
	}
	var problems []string
	for rows.Next() {
		var res string
		if err := rows.Scan(&res); err != nil {
			rows.Close()
			return fmt.Errorf("integrity_check: %w", err)
		}
		// A row may hold several problems, one a line, under a header
		// ("*** in database main ***").
		for _, line := range strings.Split(res, "\n") {
			if line = strings.TrimSpace(line); line != "" && line != "ok" && !strings.HasPrefix(line, "*** ") {
				problems = append(problems, line)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("integrity_check: %w", err)
	}
	switch len(problems) {
	case 0:
	case 1:
		return fmt.Errorf("integrity_check: %s", problems[0])
	default:
		// One line: doctor prints it as what it saw.
		return fmt.Errorf("integrity_check: %s (and %d more found)", problems[0], len(problems)-1)
	}
	if s.opt.ReadOnly {
		return nil
	}
	return ftsCheck(ctx, s.db)
}

// ftsCheck runs FTS5's integrity-check command on chunks_fts.
func ftsCheck(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('integrity-check', 1)"); err != nil {
		return fmt.Errorf("fts5 integrity-check chunks_fts: %w", err)
	}
	return nil
}
