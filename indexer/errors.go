package main

import (
	"errors"
	"fmt"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// Exit statuses of vaultctx (see the command doc).
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// errInterrupted is returned by a command that stopped early on SIGINT or
// SIGTERM after saving its work; main maps it to exit status 130.
var errInterrupted = errors.New("interrupted")

// reportedError is the failure of a program vaultctx ran (vaultctx-pull)
// that printed its own message on stderr: main prints nothing more and
// exits with code.
type reportedError struct{ code int }

func (e reportedError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is an error in how the command was called; its text says what
// to do next. main maps it to exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// otherVaultFix is what to do about an index that holds another vault
// than the one set (index.ErrOtherVault): the hint of `vaultctx index` and
// watch, and doctor's fix, in the same words. main adds the --vault and
// --db the user gave to the index run it names.
const otherVaultFix = "run `vaultctx index --full` to rebuild it for the vault you set (it replaces the index of the vault it holds), " +
	"or set vault (--vault, vault in the config, or VAULTCTX_VAULT) back to the vault it holds, " +
	"or choose another --db (or db in the config, or VAULTCTX_DB)"

// lockedFix is what to do about an index another process holds locked
// (store.ErrLocked): the hint of every command, and doctor's fix.
const lockedFix = "wait for the other process that holds it (a sqlite3 shell, a backup) to finish, or close it, then run the command again"

// walUnreadFix is what to do about an index whose WAL holds changes that
// cannot be read from its read-only folder (store.ErrWALUnread): search's
// and status's warning, and doctor's fix.
const walUnreadFix = "make the folder writable for you, or have its owner run `vaultctx index`, which moves the WAL's changes into the file"

// readOnlyFix is what to do about an index whose folder is read-only to
// this user (index.ErrReadOnly): the hint of an index run, status's
// refresh line, and doctor's fix. main adds the --db the user gave.
const readOnlyFix = "have the index's owner run `vaultctx index`, or make its folder writable for you and run it yourself"

// notAnIndexFix is what to do about a file at the index path that is not
// a vaultctx index (store.ErrNotAnIndex, index.ErrNotAnIndex), which no
// index run replaces: the hint of every command, and doctor's fix when
// the file is at vaultctx's own default path. main adds the --db (and the
// vault flag) the user gave to the index run it names.
const notAnIndexFix = "remove it, then run `vaultctx index --full`, or choose another --db (or db in the config, or VAULTCTX_DB)"

// hints are the next steps printed under a core error, by sentinel. Core
// errors say what went wrong; only the CLI knows its commands and flags.
var hints = []struct {
	err  error
	hint string
}{
	{store.ErrSchema, "run `vaultctx index --full`"},
	{store.ErrDamaged, "run `vaultctx index --full`, which builds a new index and replaces the damaged file"},
	{store.ErrInconsistent, "run `vaultctx index --full` to rebuild it"},
	{store.ErrHotJournal, "run `vaultctx index`, which rolls the interrupted write back"},
	{store.ErrDiskFull, "free space on the disk that holds the index"},
	{store.ErrLocked, lockedFix},
	{store.ErrNoFTS5, "build with `go build -tags sqlite_fts5`"},
	{store.ErrNotIndexed, "run `vaultctx index`"},
	{store.ErrNotAnIndex, notAnIndexFix},
	{store.ErrSymlinkLoop, "remove or fix the link, or choose another --db (or db in the config, or VAULTCTX_DB)"},
	{retrieve.ErrNoVectors, "index with a model (--model DIR) for vector search"},
	{engine.ErrModelMismatch, "run `vaultctx index --full` to re-embed with this model, or set model in the config (or VAULTCTX_MODEL) to the one the index was built with"},
	{embed.ErrNotModel, "run `vaultctx model pull`"},
	{index.ErrNoVault, "pass --vault DIR or set vault in the config"},
	{index.ErrNoDB, "pass --db FILE or set db in the config"},
	{index.ErrDBIsDir, "pass a file path with --db (or set db in the config, or VAULTCTX_DB)"},
	{index.ErrNotAnIndex, notAnIndexFix},
	{index.ErrVaultEmptied, "check that the vault is mounted and synced; if you emptied it on purpose, run `vaultctx index --full`"},
	{index.ErrOtherVault, otherVaultFix},
	{index.ErrReadOnly, readOnlyFix},
}

// exitCode maps a command's error to the process exit status and the hint
// printed under it ("" for none): 0 for nil, 130 for errInterrupted, 2 for
// a usageError (whose text is its own hint), else 1 with the hint of the
// first core sentinel err wraps, or of damage SQLite reported.
func exitCode(err error) (code int, hint string) {
	var ue usageError
	switch {
	case err == nil:
		return exitOK, ""
	case errors.Is(err, errInterrupted):
		return exitInterrupted, ""
	case errors.As(err, &ue):
		return exitUsage, ""
	}
	if re := (reportedError{}); errors.As(err, &re) {
		return max(re.code, exitError), ""
	}
	if se := (*store.SchemaError)(nil); errors.As(err, &se) && se.Newer() {
		return exitError, "a newer vaultctx wrote this index: run that version, or `vaultctx index --full` to rebuild it for this one (which the newer one would rebuild again)"
	}
	for _, h := range hints {
		if errors.Is(err, h.err) {
			return exitError, h.hint
		}
	}
	if store.IsDamage(err) {
		// Damage a query met (an FTS5 segment, a page), not Open.
		return exitError, "the index file is damaged: `vaultctx doctor` names the damage; run `vaultctx index --full` to rebuild it"
	}
	return exitError, ""
}
