// Package session keeps the per-session state of vaultctx's context hooks:
// the set of chunks already injected into one Claude Code session (Seen;
// Reset forgets them after /compact),
// so that no hook repeats a chunk, in one small JSON file per session under
// $XDG_STATE_HOME/vaultctx/sessions, expired after TTL (24 h).
//
// It also holds SafeName, which turns payload ids into file names. Paths
// come from core/internal/xdg and the state file is written with
// core/internal/fsx.WriteAtomic.
package session
