// Package vault finds the notes of a vault: it walks a folder tree, applies
// the include/exclude rules and the extension list, follows symlinks, and
// reports what it had to leave out and why.
//
// # Which files are notes
//
// A file is a note when all of these hold (see Rules.Match):
//
//   - its name ends with one of Rules.Extensions, compared case-insensitively
//     (default ".md"; "md" and ".md" are the same rule);
//   - no component of its vault-relative path starts with "." (so .obsidian,
//     .trash, .git, every other dot-folder and every dot-file are left out),
//     unless an include rule spells that component out literally;
//   - no exclude rule matches it, and, if there are include rules, one of
//     them does.
//
// Include and exclude rules match whole path components from the vault root:
// "Archive", "Archive/", "/Archive" and "Archive/**" are the same rule; it
// matches "Archive/a.md" and "Archive/2020/b.md" but not "ArchiveOld/b.md".
// "Projects/Old" matches that folder only, not "Old" elsewhere. A component
// may be a path.Match pattern ("2019-*", "Draft?"), and a "**" component
// matches any number of folders, so "**/_templates" matches a _templates
// folder at any depth. Matching is case-sensitive, as on Linux file systems.
// Exclude wins over include. Rules are normalised to Unicode NFC. Patterns
// never let a dot-folder in; to index the whole vault plus one dot-folder,
// include ["*", ".notes"].
//
// # The walk
//
// Walk reads each folder once and stats (fstatat, relative to the open
// folder) only the subfolders and the entries that can be notes, so a vault
// of 17,000 notes walks in under 100 ms on a small machine
// (BenchmarkWalkLarge). It calls back in byte-wise order of the
// vault-relative path (the order of Go's sort.Strings and of SQLite's BINARY
// collation), which lets a caller merge the walk with a sorted listing of
// what it indexed before.
//
// Symlinked folders and files are followed, wherever they point. Each real
// file (device and inode) is reported once, under its lexically first path;
// a folder reached again through a symlink is not walked again when its first
// walk saw all of it, and a symlink back to a folder that is being walked is
// reported as a "symlink loop"; a folder reached through more than eight
// different symlinked paths is not walked again, so a maze of cross-links
// stays linear. Paths are normalised to Unicode NFC, so a note whose name
// macOS stored in NFD has the same path as on Linux, and bytes of a file
// name that are not UTF-8 become U+FFFD in File.Path (File.Abs keeps them).
//
// Nothing about a single entry aborts the walk: unreadable folders and files,
// FIFOs, sockets, devices, broken symlinks, loops and files over the size cap
// come back as a Skip with a short reason; Skip.Unreadable tells an entry
// that is there but cannot be read (permission denied, an I/O error), whose
// indexed version a caller should keep, from one that is no note (any other
// reason). Walk fails only when the root is
// missing or unreadable, when the context is cancelled, when the rules are
// invalid, or when the callback returns an error.
package vault
