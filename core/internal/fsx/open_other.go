//go:build !unix

package fsx

// oNonblock is not needed where there are no FIFOs in the file system.
const oNonblock = 0
