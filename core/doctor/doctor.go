package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/refresh"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/core/store"
)

// Status is the outcome kind of one check.
type Status int

const (
	// OK is a passing check.
	OK Status = iota
	// Warn is a check that passed with a caveat, such as a hook that the
	// config turns on but settings.json does not wire; callers treat it
	// as passing. Its Finding carries a Hint.
	Warn
	// Fail is a failing check; its Finding carries a Hint.
	Fail
)

// Hint is the kind of remedy a Finding points at. The caller words it;
// Finding.Subject holds the path, directory or command it applies to.
type Hint int

const (
	// NoHint is the zero Hint: nothing to do.
	NoHint Hint = iota
	// HintInstall: build and install the binaries (scripts/install.sh).
	HintInstall
	// HintAddToPath: put the directory Subject on $PATH.
	HintAddToPath
	// HintFixConfigFile: the config file named in the message does not
	// parse; fix or re-create it.
	HintFixConfigFile
	// HintSetVault: set vault in the config file Subject.
	HintSetVault
	// HintVaultDir: point vault at an existing folder.
	HintVaultDir
	// HintFixConfig: fix the config first (a check that needs it).
	HintFixConfig
	// HintIndex: build the index.
	HintIndex
	// HintRebuildIndex: rebuild the index from scratch.
	HintRebuildIndex
	// HintNewerIndex: a newer vaultctx wrote the index; run that version
	// (a rebuild here would downgrade it).
	HintNewerIndex
	// HintCgo: rebuild the binaries with cgo, for sqlite-vec.
	HintCgo
	// HintHome: set HOME or CLAUDE_CONFIG_DIR.
	HintHome
	// HintEnableHooks: set "disableAllHooks": false in the settings
	// file Subject.
	HintEnableHooks
	// HintInstallHooks: wire the hooks into settings.json.
	HintInstallHooks
	// HintBug: an internal error; report it.
	HintBug
	// HintRunHook: run Subject, a shell command line that runs the hook
	// that failed its round trip by hand (a sample payload on stdin, its
	// debug log on stderr), to see why it failed.
	HintRunHook
	// HintRebuildHooks: rebuild the hook binaries.
	HintRebuildHooks
	// HintPullModel: download a model and set it in the config.
	HintPullModel
	// HintRedownloadModel: download the model again.
	HintRedownloadModel
	// HintEmbed: index, so the notes get embedded.
	HintEmbed
	// HintReembed: rebuild the index with the configured model.
	HintReembed
	// HintHybridSetup: an OK finding for a BM25-only setup; how to get
	// hybrid search.
	HintHybridSetup
	// HintWireOrTurnOff: a hook the config turns on is not wired; wire
	// it, or turn off its switch hooks.<Subject> to say it is on purpose.
	// Subject is the hook's short name.
	HintWireOrTurnOff
	// HintUnwire: a hook the config turns off (hooks.<Subject> = false)
	// is still wired; it answers nothing, so take its entry out.
	HintUnwire
	// HintConfigHooks: an OK finding; the [hooks] keys of the config
	// file Subject are where the hooks are turned on and off.
	HintConfigHooks
	// HintFreeSpace: the disk holding the index is full; free space on
	// it.
	HintFreeSpace
	// HintIndexPath: the index path names a directory or another
	// program's database; point db at a file of its own.
	HintIndexPath
	// HintStatus: an OK finding that mentions files the index lags behind
	// (unreadable ones, kept at their last indexed version); `vaultctx
	// status` lists them.
	HintStatus
	// HintOtherVault: the index holds the notes of another vault than the
	// one configured (index.ErrOtherVault), which no incremental index run
	// updates; rebuild it for the configured vault, configure the vault it
	// holds again, or choose another index file.
	HintOtherVault
	// HintIndexLink: the index path Subject runs into a loop of symbolic
	// links (store.ErrSymlinkLoop); remove or fix the link, or point db at
	// another file. No index run can use the path as it is.
	HintIndexLink
	// HintIndexLocked: another process holds the index locked
	// (store.ErrLocked); wait for it to finish or close it. The file may
	// well be intact, and a rebuild would wait for the same lock.
	HintIndexLocked
	// HintIndexUnreadable: the index file could not be opened for a reason
	// the message names that is not damage (permissions, an I/O error):
	// fix that, or point db at another file. A rebuild would meet it too.
	HintIndexUnreadable
	// HintWALUnread: a Warn finding; the index's folder is read-only to
	// this user and its WAL holds changes that cannot be read from there
	// (store.ErrWALUnread), so searches leave them out. Make the folder
	// writable, or have its owner run an index run, which moves the WAL
	// into the file.
	HintWALUnread
	// HintFixHookDir: a hook entry of ours starts with a cd to Subject, a
	// folder that does not exist; create it or take the cd out of the
	// entry (a re-install keeps what the user wrote around our binary).
	HintFixHookDir
	// HintOwnerIndex: a Warn finding; the index lags behind the vault, and
	// its folder is read-only to this user (index.ErrReadOnly), so neither
	// an index run of theirs nor the refresh at their session start can
	// update it. Its owner must run the index, or the folder be made
	// writable for this user.
	HintOwnerIndex
	// HintNotAnIndex: the file at vaultctx's own default index path is
	// not a vaultctx index (store.ErrNotAnIndex: its first page is not
	// SQLite's, or it is another database), which no index run replaces;
	// remove it, then rebuild, or point db at another file. At a path
	// the user chose, HintIndexPath applies instead (the file may be
	// another program's).
	HintNotAnIndex
)

// lockWait is how long doctor waits for another process's lock on the
// index (store.Options.BusyTimeout) before it reports the index locked. A
// reader of a WAL index waits only for an exclusive lock (a sqlite3 shell
// in an exclusive transaction, a full index run renaming its new file into
// place, which takes milliseconds), so a lock held this long is held on
// purpose. doctor waits once: the checks after the first that finds the
// lock report it at once (doctor.locked).
const lockWait = time.Second

// Finding is the outcome of one check: its name, its status, what was
// seen, and the remedy (always set for Fail).
type Finding struct {
	Check   string // e.g. "index integrity"
	Status  Status
	Message string // what was seen, one line
	Hint    Hint
	Subject string // what Hint applies to: a path, directory or command; may be ""
	// VaultUnknown is set, from the config check on, when no vault
	// folder is known: the config names none and the index
	// records none it can read (there is no index, or it does not open),
	// or the one named is not a folder. An index run then finds no vault
	// by itself, so a remedy that runs one (HintIndex, HintRebuildIndex,
	// ...) must name the vault.
	VaultUnknown bool
}

// Options says where the installation is.
type Options struct {
	// ConfigPath is the config file given by the user (--config); ""
	// means $VAULTCTX_CONFIG, else the XDG default.
	ConfigPath string
	// DB is the index file given by the user (--db), which every check
	// reads and the hook round trips are run with (as VAULTCTX_DB); ""
	// means the config's: $VAULTCTX_DB, db in the config, else the XDG
	// default.
	DB string
	// Getenv reads the environment (config, XDG and Claude Code paths);
	// nil means os.Getenv.
	Getenv func(string) string
	// BinDir is the directory of the running vaultctx binary; when every
	// missing binary is there, the PATH check hints HintAddToPath.
	BinDir string
	// SettingsTemplate is the hooks template (install.SettingsTemplate)
	// whose events the wiring check expects.
	SettingsTemplate []byte
	// OnFinding, if set, is called with each Finding as its check ends,
	// so a caller can print progress (a round trip can take seconds).
	OnFinding func(Finding)
}

// Run runs every check in order and returns their findings. It stops
// early, returning the findings so far, when ctx is cancelled.
func Run(ctx context.Context, opt Options) []Finding {
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	d := &doctor{opt: opt}
	var out []Finding
	for _, ch := range checks {
		f := ch.run(d, ctx)
		f.Check = ch.name
		f.VaultUnknown = d.cfg != nil && !d.vaultOK
		out = append(out, f)
		if opt.OnFinding != nil {
			opt.OnFinding(f)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

// passed is a passing finding.
func passed(format string, a ...any) Finding {
	return Finding{Status: OK, Message: fmt.Sprintf(format, a...)}
}

// failed is a failing finding with its remedy.
func failed(hint Hint, subject, format string, a ...any) Finding {
	return Finding{Status: Fail, Message: fmt.Sprintf(format, a...), Hint: hint, Subject: subject}
}

// doctor holds what checks learn for later checks: the config and the
// hooks as wired.
type doctor struct {
	opt     Options
	cfg     *doctorConfig
	cfgErr  error
	vaultOK bool // cfg.Vault is a folder: configured, or recorded by the index
	wiring  []Wiring
	entries []settings.Entry
	// locked is the finding of the first check that found the index
	// locked by another process; the later ones repeat it without
	// waiting again.
	locked *Finding
}

// doctorConfig is the part of the config the checks need.
type doctorConfig struct {
	Vault, DB, Model string
	Hooks            config.Hooks  // the switches and output_passthrough
	All              config.Config // the whole config (the freshness check walks the vault with its rules)
}

// check is one named check.
type check struct {
	name string
	run  func(d *doctor, ctx context.Context) Finding
}

// checks are run in order; later ones may use what earlier ones found.
var checks = []check{
	{"binaries on PATH", (*doctor).checkPath},
	{"config parses", (*doctor).checkConfig},
	{"index integrity", (*doctor).checkIndex},
	{"index freshness", (*doctor).checkFresh},
	{"sqlite-vec loads", (*doctor).checkVec},
	{"model matches index", (*doctor).checkModel},
	{"hooks wired", (*doctor).checkHooks},
	{"output passthrough", (*doctor).checkPassthrough},
	{"UserPromptSubmit round trip", roundTrip("UserPromptSubmit")},
	{"PreToolUse round trip", roundTrip("PreToolUse")},
	{"PostToolUse round trip", roundTrip("PostToolUse")},
}

// Binaries is every binary an installation has, looked up on $PATH.
var Binaries = []string{"vaultctx", settings.UserPromptBinary, settings.PreToolUseBinary, settings.PostToolUseBinary}

func (d *doctor) checkPath(ctx context.Context) Finding {
	var missing, dirs []string
	onPath := map[string]string{} // binary: the path PATH finds
	for _, b := range Binaries {
		p, err := exec.LookPath(b)
		if err != nil {
			missing = append(missing, b)
			continue
		}
		onPath[b] = p
		if dir := filepath.Dir(p); !contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	if len(missing) == 0 {
		// Found, but maybe another install's: the vaultctx a shell runs
		// then differs from this one (and the hooks it wires).
		if self := d.opt.BinDir; self != "" {
			a, errA := os.Stat(onPath["vaultctx"])
			b, errB := os.Stat(filepath.Join(self, "vaultctx"))
			if errA == nil && errB == nil && !os.SameFile(a, b) {
				return Finding{Status: Warn, Hint: HintAddToPath, Subject: self, Message: fmt.Sprintf(
					"%s, but the vaultctx found first there is %s, another install than this one (%s)", strings.Join(dirs, ", "), onPath["vaultctx"], filepath.Join(self, "vaultctx"))}
			}
		}
		return passed("%s", strings.Join(dirs, ", "))
	}
	hint, subject := HintInstall, ""
	if dir := d.opt.BinDir; dir != "" && allIn(dir, missing) {
		hint, subject = HintAddToPath, dir
	}
	// Claude Code runs the hooks by the absolute path settings.json gives
	// them, and this vaultctx runs already: neither needs PATH. A hook
	// binary wired nowhere (its hook left out) is not run at all; it only
	// has to be installed beside this vaultctx.
	wired := d.wiredPrograms(ctx)
	byPath := false
	for _, p := range wired {
		byPath = byPath || filepath.IsAbs(p)
	}
	reachable, where := true, d.opt.BinDir
	for _, b := range missing {
		switch p := wired[b]; {
		case b == "vaultctx" && d.opt.BinDir != "" && allIn(d.opt.BinDir, []string{b}):
		case p == "" && byPath && d.opt.BinDir != "" && allIn(d.opt.BinDir, []string{b}):
		case p != "" && filepath.IsAbs(p) && okExecutable(settings.ShellQuote(p), d.opt.Getenv):
			where = filepath.Dir(p)
		default:
			reachable = false
		}
	}
	if reachable && where != "" {
		return Finding{Status: Warn, Hint: HintAddToPath, Subject: where,
			Message: fmt.Sprintf("not found: %s; the hooks run by absolute path from settings.json, so they work, but vaultctx must then be called by its full path",
				strings.Join(missing, ", "))}
	}
	return failed(hint, subject, "not found: %s", strings.Join(missing, ", "))
}

// wiredPrograms returns, by binary name, the program our hook entries run
// in the user settings and the current project's settings (the first
// entry found for each); unreadable files count as none.
func (d *doctor) wiredPrograms(ctx context.Context) map[string]string {
	out := map[string]string{}
	var paths []string
	if p, err := settings.UserPath(d.opt.Getenv); err == nil {
		paths = append(paths, p)
	}
	if wd, err := os.Getwd(); err == nil {
		paths = append(paths, settings.ProjectPath(wd))
	}
	for _, p := range paths {
		rep, err := settings.Status(ctx, p)
		if err != nil {
			continue
		}
		for _, e := range rep.Entries {
			if e.Ours && out[e.Binary] == "" {
				out[e.Binary] = settings.OurProgram(e.Command)
			}
		}
	}
	return out
}

// allIn reports whether every named binary exists in dir.
func allIn(dir string, names []string) bool {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (d *doctor) checkConfig(ctx context.Context) Finding {
	d.cfg, d.cfgErr = d.loadConfig()
	switch {
	case d.cfgErr != nil:
		return failed(HintFixConfigFile, "", "%v", d.cfgErr)
	case d.cfg.Vault == "":
		// A set-up without a config file: the index names its vault, and
		// the hooks refresh that one (refresh.AtSessionStart).
		v, err := index.ReadVault(ctx, d.cfg.DB)
		if v == "" {
			if store.IsLocked(err) {
				// The index that names the vault could not be read:
				// the lock is the problem, not the config.
				f := d.lockedFinding()
				f.Message = "no vault configured, and the index that records one could not be read: " + f.Message
				return f
			}
			return failed(HintSetVault, d.configPath(), "no vault configured")
		}
		d.cfg.Vault, d.cfg.All.Vault = v, v
		if _, ok := index.KnownVault(ctx, v, d.cfg.DB); !ok {
			return failed(HintVaultDir, "", "vault %s (recorded by the index; none configured) is not a directory", v)
		}
		d.vaultOK = true
		return passed("%s: no vault configured, the index's vault %s, index %s", d.configPath(), v, d.cfg.DB)
	}
	if _, ok := index.KnownVault(ctx, d.cfg.Vault, d.cfg.DB); !ok {
		return failed(HintVaultDir, "", "vault %s is not a directory", d.cfg.Vault)
	}
	d.vaultOK = true
	return passed("%s: vault %s, index %s", d.configPath(), d.cfg.Vault, d.cfg.DB)
}

// configPath is the config file in use.
func (d *doctor) configPath() string {
	if d.opt.ConfigPath != "" {
		return d.opt.ConfigPath
	}
	return config.DefaultPath(d.opt.Getenv)
}

// loadConfig reads the config as every command does: ConfigPath, else
// $VAULTCTX_CONFIG, else the XDG default, then the VAULTCTX_* env, then
// Options.DB over its db.
func (d *doctor) loadConfig() (*doctorConfig, error) {
	c, err := config.Load(d.opt.ConfigPath, d.opt.Getenv)
	if err != nil {
		return nil, err
	}
	if d.opt.DB != "" {
		c.DB = d.opt.DB
	}
	return &doctorConfig{Vault: c.Vault, DB: c.DB, Model: c.Model, Hooks: c.Hooks, All: c}, nil
}

// openIndex opens the configured index read-only.
func (d *doctor) openIndex(ctx context.Context) (*store.Store, Finding, bool) {
	if d.cfg == nil {
		return nil, failed(HintFixConfig, "", "no usable config"), false
	}
	if d.locked != nil {
		return nil, *d.locked, false
	}
	st, err := store.Open(ctx, d.cfg.DB, store.Options{ReadOnly: true, BusyTimeout: lockWait})
	switch {
	case errors.Is(err, store.ErrLocked):
		return nil, d.lockedFinding(), false
	case errors.Is(err, store.ErrNotIndexed):
		return nil, failed(HintIndex, "", "no index at %s", d.cfg.DB), false
	case errors.Is(err, store.ErrNotAnIndex) && samePath(d.cfg.DB, config.DefaultDB(d.opt.Getenv)):
		// vaultctx's own path: no other program's file, so it may go.
		return nil, failed(HintNotAnIndex, "", "%v", err), false
	case errors.Is(err, store.ErrIsDir), errors.Is(err, store.ErrNotAnIndex):
		// A full run would refuse it too (core/index never replaces it).
		return nil, failed(HintIndexPath, "", "%v", err), false
	case errors.Is(err, store.ErrHotJournal):
		// Any index run rolls the interrupted write back; doctor reads
		// only, so it leaves the journal alone.
		return nil, failed(HintIndex, "", "%v", err), false
	case errors.Is(err, store.ErrDiskFull):
		return nil, failed(HintFreeSpace, "", "%v", err), false
	case errors.Is(err, store.ErrSymlinkLoop):
		// Not damage: a full run fails on the path as this does.
		return nil, failed(HintIndexLink, d.cfg.DB, "%v", err), false
	case err != nil:
		if se := (*store.SchemaError)(nil); errors.As(err, &se) && se.Newer() {
			return nil, failed(HintNewerIndex, "", "%v", err), false
		}
		if store.IsDamage(err) || errors.Is(err, store.ErrSchema) || errors.Is(err, store.ErrInconsistent) {
			return nil, failed(HintRebuildIndex, "", "%v", err), false
		}
		return nil, failed(HintIndexUnreadable, "", "%v", err), false
	}
	return st, Finding{}, true
}

// samePath reports whether the paths a and b name the same file: equal
// once absolute and cleaned, or the same file on disk.
func samePath(a, b string) bool {
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	if errA == nil && errB == nil && aa == bb {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// lockedFinding is the failing finding of an index another process holds
// locked (store.IsLocked), which the later checks repeat.
func (d *doctor) lockedFinding() Finding {
	msg := fmt.Sprintf("%s is locked by another process: it could not be read within %v (SQLite: database is locked)", d.cfg.DB, lockWait)
	if pid := index.Holder(d.cfg.DB); pid != 0 {
		msg += fmt.Sprintf("; a vaultctx index run holds it (pid %d)", pid)
	}
	f := failed(HintIndexLocked, "", "%s", msg)
	d.locked = &f
	return f
}

// unreadable is the failing finding of a check of the open index that
// failed with err: the lock of another process when that is what it
// met, else damage (a rebuild replaces the file).
func (d *doctor) unreadable(err error) Finding {
	if store.IsLocked(err) {
		return d.lockedFinding()
	}
	return failed(HintRebuildIndex, "", "%s: %v", d.cfg.DB, err)
}

func (d *doctor) checkIndex(ctx context.Context) Finding {
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	defer st.Close()
	if err := st.Check(ctx); err != nil {
		return d.unreadable(err)
	}
	if err := st.Consistency(ctx, true); err != nil {
		return d.unreadable(err)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return d.unreadable(err)
	}
	if errors.Is(st.Fallback(), store.ErrWALUnread) {
		return Finding{Status: Warn, Hint: HintWALUnread, Message: fmt.Sprintf(
			"%s passes integrity_check as far as the file goes (%d files, %d chunks), but %v: searches and the hooks answer without them", d.cfg.DB, stats.Files, stats.Chunks, store.ErrWALUnread)}
	}
	if errors.Is(st.Fallback(), store.ErrDiskFull) {
		return Finding{Status: Warn, Hint: HintFreeSpace, Message: fmt.Sprintf(
			"%s is intact (%d files, %d chunks), but its disk is full: it is read as it is and cannot be updated", d.cfg.DB, stats.Files, stats.Chunks)}
	}
	f = passed("%s passes integrity_check (pages, FTS5 index) and its chunks, FTS5 rows and vectors agree (%d files, %d chunks)", d.cfg.DB, stats.Files, stats.Chunks)
	// Files the last run could not read keep their old version; say so,
	// as the index may lag behind them (`vaultctx status` lists them).
	if kept, err := st.Unreadable(ctx); err == nil && len(kept) > 0 {
		f.Message += fmt.Sprintf("; %d unreadable file(s) or folder(s), last indexed version kept (first: %s: %s)",
			len(kept), kept[0].Path, kept[0].Reason)
		f.Hint = HintStatus
	}
	return f
}

// checkFresh reports the files changed since the last index run (a stat
// walk, refresh.Check), the last run's time, and whether a refresh runs.
// Changes with no refresh under way are a warning: the next session start
// (or `vaultctx index`) picks them up.
func (d *doctor) checkFresh(ctx context.Context) Finding {
	// An index that does not open gets the advice the other index checks
	// give (a damaged file: the full run), not the vault's.
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	st.Close()
	// An index of another vault than the configured one: every change
	// counted against it would be a deletion or a new note, and neither
	// an index run nor the hooks' refresh updates it. Say so as the index
	// run does (its own check, its error).
	if d.vaultOK {
		if err := index.CheckTarget(ctx, index.Options{Vault: d.cfg.Vault, DB: d.cfg.DB}); errors.Is(err, index.ErrOtherVault) {
			return failed(HintOtherVault, "", "%v", err)
		}
	}
	r, err := refresh.Check(ctx, d.cfg.All, d.opt.Getenv)
	switch {
	case errors.Is(err, store.ErrNotIndexed):
		return failed(HintIndex, "", "no index at %s", d.cfg.DB)
	case store.IsLocked(err):
		return d.lockedFinding()
	case store.IsDamage(err):
		// Rows that break the schema (a file cut short), which the stat
		// walk reads and the integrity check may pass: the index's
		// problem, not the vault's.
		return failed(HintRebuildIndex, "", "%s: %v", d.cfg.DB, err)
	case err != nil:
		return failed(HintVaultDir, "", "%v", err)
	}
	last := "never"
	if !r.Changes.LastIndex.IsZero() {
		last = r.Changes.LastIndex.Format(time.RFC3339)
	}
	running := ""
	switch {
	case r.Runner != 0:
		running = fmt.Sprintf("; a background refresh is running (pid %d, log %s)", r.Runner, r.Log)
	case r.Indexer != 0:
		running = fmt.Sprintf("; an indexer is running (pid %d)", r.Indexer)
	}
	n := r.Changes.Files()
	if n == 0 {
		return passed("no file changed since the last index (%s)%s", last, running)
	}
	msg := fmt.Sprintf("%d changed since the last index (%s): %d new, %d modified, %d deleted, e.g. %s%s",
		n, last, r.Changes.New, r.Changes.Modified, r.Changes.Deleted, strings.Join(r.Changes.Examples, ", "), running)
	if r.Refreshing() {
		return passed("%s", msg)
	}
	if err := index.Writable(d.cfg.DB); err != nil {
		// No run of this user can take the lock: promise no refresh.
		return Finding{Status: Warn, Hint: HintOwnerIndex, Message: fmt.Sprintf("%s; %v, so neither an index run nor a session start of this user refreshes them", msg, err)}
	}
	return Finding{Status: Warn, Hint: HintIndex, Message: msg + "; the next session start refreshes them"}
}

func (d *doctor) checkVec(ctx context.Context) Finding {
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	defer st.Close()
	if !st.VecLoadable(ctx) {
		return failed(HintCgo, "", "the sqlite-vec extension did not load in this binary")
	}
	if !st.VecAvailable() {
		return passed("loaded; the index holds no vectors (BM25 only)")
	}
	return passed("loaded; %d-dimensional vectors indexed", st.VecDim())
}

func (d *doctor) checkModel(ctx context.Context) Finding {
	st, f, opened := d.openIndex(ctx)
	if !opened {
		return f
	}
	indexHash, err := st.Meta(ctx, "model_hash")
	var indexDir string
	if err == nil {
		indexDir, err = st.Meta(ctx, "model_dir")
	}
	st.Close()
	if err != nil {
		return failed(HintRebuildIndex, "", "%v", err)
	}
	dir := d.cfg.Model
	if dir == "" {
		dir = indexDir
	}
	if dir == "" && indexHash == "" {
		f := passed("none configured: BM25-only search")
		f.Hint = HintHybridSetup
		return f
	}
	m, err := embed.Open(dir)
	if err != nil {
		return failed(HintPullModel, "", "no usable model at %s: %v", dir, err)
	}
	defer m.Close()
	hash, err := m.Hash()
	switch {
	case err != nil:
		return failed(HintRedownloadModel, "", "%s: %v", dir, err)
	case indexHash == "":
		return failed(HintEmbed, "", "%s is configured but the index holds no vectors from it", dir)
	case hash != indexHash:
		return failed(HintReembed, "",
			"%s (hash %.12s) is not the model the index was built with (hash %.12s)", dir, hash, indexHash)
	}
	return passed("%s (%s, %d dims), hash %.12s matches the index", dir, m.Name(), m.Dim(), hash)
}

// hooksConfig returns the [hooks] table of the config, or the defaults
// when the config did not load.
func (d *doctor) hooksConfig() config.Hooks {
	if d.cfg == nil {
		return config.Hooks{}
	}
	return d.cfg.Hooks
}

func (d *doctor) checkHooks(ctx context.Context) Finding {
	path, err := settings.UserPath(d.opt.Getenv)
	if err != nil {
		return failed(HintHome, "", "%v", err)
	}
	find := func(p string) ([]Wiring, []settings.Entry, bool, string) {
		rep, err := settings.Status(ctx, p)
		if err != nil {
			return nil, nil, false, err.Error()
		}
		w, err := HookWiring(d.opt.SettingsTemplate, rep.Entries, d.hooksConfig(), d.opt.Getenv)
		if err != nil {
			return nil, nil, false, err.Error()
		}
		var problems []string
		for _, x := range w {
			if x.State == NotWired || x.State == Broken {
				problems = append(problems, x.Event+": "+x.Problem)
			}
		}
		return w, rep.Entries, rep.Disabled, strings.Join(problems, "; ")
	}
	w, entries, disabled, problem := find(path)
	if problem != "" && !disabled {
		// A project may wire them instead of the user settings.
		if wd, err := os.Getwd(); err == nil {
			pp := settings.ProjectPath(wd)
			if pw, pe, pdis, pprob := find(pp); pprob == "" {
				path, w, entries, disabled, problem = pp, pw, pe, pdis, ""
			}
		}
	}
	d.wiring, d.entries = w, entries
	if disabled {
		return failed(HintEnableHooks, path, "%s turns every hook off", path)
	}
	if w == nil {
		return failed(HintInstallHooks, "", "%s: %s", path, problem)
	}
	var parts, notWired, wiredOff []string
	broken, dir, dirsOnly := false, "", true // dir: the first cd's missing folder; dirsOnly: nothing else is broken
	for _, x := range w {
		switch x.State {
		case Wired:
			parts = append(parts, x.Event+" wired")
			if x.Unchecked != "" {
				parts[len(parts)-1] += " (" + x.Unchecked + ")"
			}
		case Off:
			parts = append(parts, fmt.Sprintf("%s off (hooks.%s = false)", x.Event, x.Name))
		case NotWired:
			parts = append(parts, x.Event+" not wired")
			notWired = append(notWired, x.Name)
		case WiredOff:
			parts = append(parts, fmt.Sprintf("%s wired but off (hooks.%s = false): it answers nothing", x.Event, x.Name))
			wiredOff = append(wiredOff, x.Name)
		case Broken:
			parts = append(parts, x.Event+": "+x.Problem)
			if dir == "" {
				dir = x.Dir
			}
			broken, dirsOnly = true, dirsOnly && x.Dir != ""
		}
	}
	msg := path + ": " + strings.Join(parts, ", ")
	switch {
	case broken && dirsOnly:
		return failed(HintFixHookDir, dir, "%s", msg)
	case broken || len(notWired) > 0 && !anyWired(w):
		return failed(HintInstallHooks, "", "%s", msg)
	case len(notWired) > 0:
		return Finding{Status: Warn, Message: msg, Hint: HintWireOrTurnOff, Subject: strings.Join(notWired, ", ")}
	case len(wiredOff) > 0:
		return Finding{Status: Warn, Message: msg, Hint: HintUnwire, Subject: strings.Join(wiredOff, ", ")}
	}
	return passed("%s", msg)
}

// anyWired reports whether any hook of w is wired in settings.json.
func anyWired(w []Wiring) bool {
	for _, x := range w {
		if len(x.Commands) > 0 {
			return true
		}
	}
	return false
}

// checkPassthrough reports the commands whose output the PostToolUse
// hook leaves untouched (hooks.output_passthrough).
func (d *doctor) checkPassthrough(ctx context.Context) Finding {
	if d.cfg == nil {
		return failed(HintFixConfig, "", "no usable config")
	}
	h := d.cfg.Hooks
	var f Finding
	switch {
	case !h.Enabled(config.HookPostToolUse):
		f = passed("none needed: the PostToolUse hook is off (hooks.posttooluse = false)")
	case len(h.OutputPassthrough) == 0:
		f = passed("none: every long Bash output may be condensed")
	default:
		q := make([]string, len(h.OutputPassthrough))
		for i, p := range h.OutputPassthrough {
			q[i] = fmt.Sprintf("%q", p)
		}
		f = passed("output of commands starting with %s is never condensed", strings.Join(q, ", "))
	}
	f.Hint, f.Subject = HintConfigHooks, d.configPath()
	return f
}
