// Package refresh keeps a vault's index fresh without being asked, in the
// short-lived processes that notice a change: the SessionStart hook
// (AtSessionStart) and the detached background run it and the PostToolUse
// hook hand work to (Background, the body of `vaultctx index
// --background`). It also reports how fresh an index is (Check), for
// `vaultctx status` and `vaultctx doctor`.
//
// A hook never waits on another indexer: when one holds the index, or the
// change is larger than a hook can index in its budget, the hook hands the
// work to a background run (core/internal/handoff) and returns at once. The
// background run is one process per index file, logged to
// $XDG_STATE_HOME/vaultctx/refresh.log, and runs again while new requests
// arrive. What is indexed, and how, is core/index's incremental run; this
// package only decides where and when it runs.
package refresh
