//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime returns the user+system CPU time this process has used, or 0
// when getrusage(2) fails. Benchmarks report it per op beside wall time,
// because on a shared machine wall time also counts waiting for a core.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
