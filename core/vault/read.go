package vault

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is returned (wrapped) by Read when the file holds more than
// the cap it was given.
var ErrTooLarge = errors.New("file larger than the size cap")

// ErrNotRegular is returned (wrapped) by Read when the path no longer names
// a regular file (it became a FIFO, socket, device or folder since the walk).
var ErrNotRegular = errors.New("not a regular file")

// Read returns the bytes of f, read from f.Abs, as they are on disk (no
// decoding). It reads at most maxBytes+1 bytes, and returns an error
// wrapping ErrTooLarge if the file is longer than maxBytes; maxBytes of zero
// or less means DefaultMaxFileBytes. It never blocks on a FIFO: the file is
// opened non-blocking and anything but a regular file gives ErrNotRegular.
// Other failures (missing file, permission) wrap the *fs.PathError.
func Read(f File, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxFileBytes
	}
	fh, err := openNoBlock(f.Abs)
	if err != nil {
		return nil, fmt.Errorf("read note: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("read note: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read note %s: %w", f.Path, ErrNotRegular)
	}
	if st.Size() > maxBytes {
		return nil, fmt.Errorf("read note %s: %d bytes: %w", f.Path, st.Size(), ErrTooLarge)
	}
	// Size the buffer for the whole file plus one byte, so a file that
	// stays the same size is read without growing it and EOF is seen on
	// the first extra read.
	buf := make([]byte, 0, st.Size()+1)
	for {
		n, err := fh.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > maxBytes {
			return nil, fmt.Errorf("read note %s: %w", f.Path, ErrTooLarge)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read note: %w", err)
		}
		if len(buf) == cap(buf) {
			// The file grew while we read it.
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// openNoBlock opens name for reading without blocking when it is a FIFO.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|oNonblock, 0)
}
