// Package watch follows a vault with filesystem events (fsnotify: inotify
// on Linux, kqueue on macOS) and keeps its index fresh: `vaultctx watch`
// and the service `vaultctx service install` sets up.
//
// It watches every folder the index walks (vault.Rules.MatchDir: no
// dot-folders, nothing excluded), adding watches as folders appear, and
// reacts to events on notes (vault.Rules.Match) and on watched folders
// only, so Obsidian's .obsidian/workspace.json churn never wakes it. Events
// are debounced: an incremental index run (core/index) starts Quiet after
// the last event of a burst, or MaxDelay after its first when the vault
// never goes quiet. The run itself walks the vault, so what it indexes
// does not depend on which events arrived: an editor's atomic save (write
// a temp file, rename it over the note), a folder moved in whole, an
// inotify queue overflow, and a `git checkout` that rewrites 1,000 notes
// all end in one run that indexes each changed note once. Events that
// arrive during a run start another one after it.
//
// Idle, it holds no timer and waits in the kernel: it costs no CPU.
package watch
