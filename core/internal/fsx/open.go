package fsx

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is returned (wrapped) by OpenRegular and ReadTail when the
// path is not a regular file (or a symlink to one): a FIFO, socket,
// device or directory.
var ErrNotRegular = errors.New("not a regular file")

// KindOf names the kind of a file that is not a regular one, for messages
// such as "f.db is a named pipe (FIFO), not a file": "directory",
// "character device", "block device", "named pipe (FIFO)", "socket", or
// "special file" for any other.
func KindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "block device"
	case m&os.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// OpenRegular opens path for reading when it is a regular file (or a
// symlink to one). The path is stat'ed first and then opened without
// blocking (O_NONBLOCK on Unix), so a FIFO put in its place between the two
// calls cannot hold the caller until a writer comes; the open file is
// checked again. It returns ErrNotRegular (wrapped) for anything else, and
// the errors of os.Stat and os.OpenFile.
func OpenRegular(path string) (*os.File, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("open %s: %w", path, ErrNotRegular)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("open %s: %w", path, ErrNotRegular)
		}
		return nil, err
	}
	return f, nil
}

// ErrTooLarge is returned (wrapped) by ReadRegular for a file over its
// limit.
var ErrTooLarge = errors.New("file too large")

// ReadRegular returns the contents of the regular file at path, opened
// with OpenRegular (so a FIFO or device is refused at once, never waited
// on or read without end), and ErrTooLarge (wrapped) when it holds more
// than limit bytes. Errors are OpenRegular's, the read's and ErrTooLarge.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: %w (over %d bytes)", path, ErrTooLarge, limit)
	}
	return data, nil
}

// ReadTail returns the last n bytes of the regular file at path (all of
// it when it is shorter), opened with OpenRegular, and whether the file
// holds more than that (cut: the first line returned is probably partial).
// Errors are OpenRegular's and the read's.
func ReadTail(path string, n int64) (data []byte, cut bool, err error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	off := max(info.Size()-n, 0)
	data, err = io.ReadAll(io.NewSectionReader(f, off, info.Size()-off))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return data, off > 0, nil
}
