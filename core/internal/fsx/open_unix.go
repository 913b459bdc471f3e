//go:build unix

package fsx

import "syscall"

// oNonblock keeps open(2) from waiting for a writer when the path is a
// FIFO. It has no effect on regular files.
const oNonblock = syscall.O_NONBLOCK
