// Package fsx replaces files atomically: readers of a path see either the
// old contents or the new, never a partial file.
//
// The method is the usual one for POSIX file systems: write a temporary
// file in the same folder (a rename is atomic only within one file system),
// optionally fsync it, rename it over the target, and optionally fsync the
// folder so the rename itself survives a crash (see the "Ensuring data
// reaches disk" notes in Linux's fsync(2) and rename(2) man pages). The
// temporary file is removed on every error path.
//
// Durable writes cost two fsyncs (milliseconds on most disks); they are for
// files a user would miss, such as Claude Code's settings.json. Caches that
// can be rebuilt are written without them.
//
// It also reads the end of a file the client writes (ReadTail, over
// OpenRegular), refusing a FIFO, socket, device or folder at once instead
// of blocking on it: the hooks read Claude Code's transcripts this way.
//
// On Windows, os.Rename replaces an existing file too (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING), and syncing a folder is not supported, so a
// failed folder sync is ignored there.
package fsx
