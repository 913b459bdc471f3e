//go:build unix

package scrub

import (
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time this process has used. The
// benchmarks report it per op beside wall time, because on a shared
// machine wall time also counts waiting for a core.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
