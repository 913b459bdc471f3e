//go:build unix

package vault

import (
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"

	"github.com/vaultctx/vaultctx/core/internal/filestat"
)

// fileID identifies a real file or folder: device and inode.
type fileID struct{ dev, ino uint64 }

// metaOf converts an os.Stat or os.Lstat result.
func metaOf(info fs.FileInfo) meta {
	s := filestat.Of(info)
	m := meta{mode: info.Mode(), size: s.Size, mtimeNS: s.MtimeNS, ctimeNS: s.CtimeNS, ino: s.Inode, readable: true}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		m.id, m.hasID = fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
		m.readable = processCreds().canRead(m.mode, int(st.Uid), int(st.Gid))
	}
	return m
}

// creds are the process credentials readable compares against, read once
// on first use.
type creds struct {
	euid, egid int
	groups     []int
}

var processCreds = sync.OnceValue(func() creds {
	g, _ := os.Getgroups()
	return creds{euid: os.Geteuid(), egid: os.Getegid(), groups: g}
})

// canRead reports whether permission bits mode on a file owned by uid:gid
// let a process with credentials c read it, without a system call. Root
// reads everything. ACLs and other mechanisms are not considered: Read
// reports those failures.
func (c creds) canRead(mode fs.FileMode, uid, gid int) bool {
	perm := mode.Perm()
	switch {
	case c.euid == 0:
		return true
	case uid == c.euid:
		return perm&0o400 != 0
	case gid == c.egid || slices.Contains(c.groups, gid):
		return perm&0o040 != 0
	default:
		return perm&0o004 != 0
	}
}

// oNonblock keeps open(2) from waiting for a writer on a FIFO. It has no
// effect on regular files.
const oNonblock = syscall.O_NONBLOCK
