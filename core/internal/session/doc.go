// Package session keeps the per-session state of vaultctx's context hooks:
// the set of chunks already injected into one Claude Code session (Seen),
// so that no hook repeats a chunk, in one small JSON file per session under
// $XDG_STATE_HOME/vaultctx/sessions, expired after TTL (24 h).
//
// It also holds, for now, the hooks' XDG directories (StateDir, CacheDir in
// paths.go), SafeName for turning payload ids into file names, and the
// atomic write of the state file (atomic.go).
package session
