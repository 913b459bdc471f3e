//go:build linux

package vault

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// dirHandle is an open folder whose entries are stat'ed with fstatat(2)
// relative to its descriptor: the kernel does not walk the whole path again
// for each entry, which roughly halves the time of a walk.
type dirHandle struct {
	f  *os.File
	fd int
}

func openDir(path string) (*dirHandle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, fd: int(f.Fd())}, nil
}

func (d *dirHandle) entries() ([]os.DirEntry, error) { return d.f.ReadDir(-1) }

func (d *dirHandle) close() { d.f.Close() }

// stat returns the metadata of the entry name, of its target if follow.
func (d *dirHandle) stat(name string, follow bool) (meta, error) {
	flags := unix.AT_SYMLINK_NOFOLLOW
	if follow {
		flags = 0
	}
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, flags)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return meta{}, &fs.PathError{Op: "stat", Path: name, Err: err}
		}
		break
	}
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFREG:
	default:
		mode |= fs.ModeIrregular
	}
	return meta{
		mode:     mode,
		size:     st.Size,
		mtimeNS:  st.Mtim.Nano(),
		ctimeNS:  st.Ctim.Nano(),
		ino:      st.Ino,
		id:       fileID{dev: st.Dev, ino: st.Ino},
		hasID:    true,
		readable: processCreds().canRead(mode, int(st.Uid), int(st.Gid)),
	}, nil
}
