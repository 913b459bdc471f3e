//go:build !unix

package posttool

// oNonblock is not needed where there are no FIFOs in the file system.
const oNonblock = 0

// oNoFollow has no equivalent here; ReadPersisted's os.Lstat and
// os.SameFile checks still refuse a symlink.
const oNoFollow = 0
