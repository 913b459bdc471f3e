//go:build !unix

package vault

import (
	"io/fs"

	"github.com/vaultctx/vaultctx/core/internal/filestat"
)

// fileID identifies a real file or folder; on this platform there is none,
// so files reached through two paths are reported twice and symlink loops
// end at the operating system's own limits.
type fileID struct{}

// metaOf converts an os.Stat or os.Lstat result. Permission failures are
// left to Read.
func metaOf(info fs.FileInfo) meta {
	s := filestat.Of(info)
	return meta{mode: info.Mode(), size: s.Size, mtimeNS: s.MtimeNS, ctimeNS: s.CtimeNS, ino: s.Inode, readable: true}
}

// oNonblock is not needed where there are no FIFOs in the file system.
const oNonblock = 0
