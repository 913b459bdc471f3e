//go:build !(linux || openbsd || dragonfly || solaris || darwin || ios || freebsd || netbsd)

package filestat

// sysStamp knows no ctime or inode on this platform.
func sysStamp(any) (int64, uint64) { return 0, 0 }
