package filestat

import (
	"io/fs"
	"os"
)

// Stamp is what a change check compares. Two stamps of one path differ
// when the file may have changed; equal stamps mean it has not (unless
// someone set the system clock back and wrote within the same size, which
// git accepts too).
type Stamp struct {
	Size    int64  // bytes
	MtimeNS int64  // modification time, ns since the Unix epoch
	CtimeNS int64  // status-change time, ns since the Unix epoch; 0 when unknown
	Inode   uint64 // inode number; 0 when unknown
}

// Of returns the stamp of an os.Stat or os.Lstat result.
func Of(fi fs.FileInfo) Stamp {
	s := Stamp{Size: fi.Size(), MtimeNS: fi.ModTime().UnixNano()}
	s.CtimeNS, s.Inode = sysStamp(fi.Sys())
	return s
}

// Path returns the stamp of the file at path, following symlinks, and the
// error of os.Stat.
func Path(path string) (Stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	return Of(fi), nil
}
