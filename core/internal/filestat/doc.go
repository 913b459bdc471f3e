// Package filestat reads the part of a file's metadata that tells whether
// the file may have changed since it was last read: size, modification
// time, status-change time (ctime) and inode number, the fields git's index
// compares before it re-hashes a file (git's read-cache.c, ie_match_stat).
//
// The modification time alone is not enough: `touch -r`, `cp -p`, `rsync -a`
// and unzip set it back, and a rename keeps it. The kernel sets ctime on
// every write, rename and chmod, and a program cannot set it back, so a
// content change that restores the mtime still moves ctime; a file renamed
// over another keeps its own inode, not the old file's.
//
// On platforms without ctime or inode numbers (Windows, AIX here) those
// fields are 0, so only size and mtime are compared there.
package filestat
