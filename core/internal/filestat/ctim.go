//go:build linux || openbsd || dragonfly || solaris

package filestat

import "syscall"

// sysStamp returns ctime (ns) and inode of a *syscall.Stat_t, or zeros.
func sysStamp(sys any) (int64, uint64) {
	st, ok := sys.(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ctim.Nano(), uint64(st.Ino)
}
