//go:build unix

package posttool

import "syscall"

// oNonblock keeps open(2) from waiting for a writer when the path is a
// FIFO. It has no effect on regular files.
const oNonblock = syscall.O_NONBLOCK

// oNoFollow makes open(2) fail on a symlink in the path's last component,
// so one swapped in after os.Lstat cannot redirect ReadPersisted.
const oNoFollow = syscall.O_NOFOLLOW
