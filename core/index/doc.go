// Package index builds and updates a vault's index: it walks the vault
// (core/vault), parses each note (core/note), chunks it (core/chunk),
// scrubs credentials (core/scrub), embeds the chunks (core/embed) and
// writes everything to the SQLite file (core/store).
//
// Incremental runs (the default) compare each file's size, mtime, ctime and
// inode with the files table (what git's index compares; see
// core/internal/filestat), read and hash the files whose stat differs,
// re-chunk only those whose content hash changed (the others get their new
// stat recorded: Summary.FilesTouched), and remove deleted ones, committing
// every BatchFiles files. A file or folder that is there but unreadable
// (vault.Skip.Unreadable) keeps what was indexed of it
// (Summary.FilesKept, store.Unreadable). When the chunking rules changed
// since the index was written (chunk.RulesVersion against
// store.MetaChunkRules), one run re-chunks every file whose stat differs or
// not. Full runs build a new file beside the
// index and swap it in atomically, so readers never see a half-built index.
//
// One indexer runs at a time per index file: a second one fails at once with
// a *LockedError ("index is locked by pid N"). On cancellation (SIGINT,
// SIGTERM) a run finishes the files in flight, commits, and returns
// ErrInterrupted with the summary of what was done. A crash at any moment
// leaves a consistent file that the next run completes.
package index
