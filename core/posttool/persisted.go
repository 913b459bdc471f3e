package posttool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxPersistedBytes is the largest complete output Hook reads from
// Claude Code's persisted file: 64 MiB. A larger output passes through
// untouched (the model then gets Claude Code's own preview and path).
// The bound keeps the hook inside its deadline: of any output compress
// examines at most compress.MaxExaminedBytes line by line, so what grows
// with the size is reading the file and scrubbing the saved copy, about
// 25 ms per 16 MiB here (BenchmarkHookPersisted).
const MaxPersistedBytes = 64 << 20

// persistedChunk is how much ReadPersisted reads between two checks of
// its context.
const persistedChunk = 1 << 20

// headCheckBytes is how much of the hook's head (tool_response.stdout)
// ReadPersisted compares with the start of the file.
const headCheckBytes = 4096

// Errors of ReadPersisted, returned wrapped. On any of them Hook passes
// the output through untouched.
var (
	// ErrPersistedNotRegular is returned when the path is not a regular
	// file: a symlink (even to a regular file), FIFO, socket, device or
	// directory. Claude Code writes a plain file.
	ErrPersistedNotRegular = errors.New("not a regular file")
	// ErrPersistedTooLarge is returned for a file over MaxPersistedBytes.
	ErrPersistedTooLarge = errors.New("over the size cap")
	// ErrPersistedChanged is returned when the file's size differs from
	// the size Claude Code reported, or the file changed while it was read.
	ErrPersistedChanged = errors.New("changed while read")
	// ErrPersistedMismatch is returned when the file does not start with
	// the head Claude Code handed the hook: it is not this output.
	ErrPersistedMismatch = errors.New("does not start with the hook's head")
)

// ReadPersisted reads the complete output Claude Code saved at path (its
// tool_response.persistedOutputPath, for an output over the 30,000 bytes
// it hands a hook; see docs/claude-code.md). size is the payload's
// persistedOutputSize in bytes (<= 0: not checked) and head its
// tool_response.stdout, the file's first 30,000 bytes made valid UTF-8.
//
// It reads only what it can read whole, promptly and safely, and returns
// an error otherwise, never part of a file:
//   - the path itself must be a regular file (os.Lstat: no symlink, FIFO,
//     device or directory), of at most MaxPersistedBytes and of exactly
//     size bytes; it is opened with O_NONBLOCK and O_NOFOLLOW (on Unix) so
//     a FIFO or symlink swapped in after the check cannot block or
//     redirect the read, and the open file must be the file checked;
//   - it is read in 1 MiB chunks, checking ctx between them; one byte
//     more than the size, or a size or modification time that differs
//     after the read, means it grew or changed: ErrPersistedChanged;
//   - its start must equal head's first 4 KiB (up to head's first U+FFFD,
//     which stands for bytes the file holds raw): ErrPersistedMismatch.
//
// Errors: the os errors of a missing or unreadable file, ctx's error, and
// ErrPersistedNotRegular, ErrPersistedTooLarge, ErrPersistedChanged and
// ErrPersistedMismatch, all wrapped.
func ReadPersisted(ctx context.Context, path string, size int64, head string) (string, error) {
	fail := func(err error) (string, error) { return "", fmt.Errorf("persisted output %s: %w", path, err) }
	li, err := os.Lstat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("persisted output: %w", err)
	case !li.Mode().IsRegular():
		return fail(ErrPersistedNotRegular)
	case li.Size() > MaxPersistedBytes:
		return fail(ErrPersistedTooLarge)
	case size > 0 && li.Size() != size:
		return fail(ErrPersistedChanged)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock|oNoFollow, 0)
	if err != nil {
		return "", fmt.Errorf("persisted output: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return "", fmt.Errorf("persisted output: %w", err)
	case !fi.Mode().IsRegular():
		return fail(ErrPersistedNotRegular)
	case !os.SameFile(li, fi) || fi.Size() != li.Size():
		return fail(ErrPersistedChanged)
	}
	data, err := readExactly(ctx, f, fi.Size())
	if err != nil {
		return fail(err)
	}
	if after, err := f.Stat(); err != nil || after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
		return fail(ErrPersistedChanged)
	}
	if !bytes.HasPrefix(data, []byte(checkedHead(head))) {
		return fail(ErrPersistedMismatch)
	}
	return string(data), nil
}

// readExactly reads r, which should hold exactly n bytes, in
// persistedChunk pieces, checking ctx before each. It returns
// ErrPersistedChanged when r holds fewer or more than n bytes (it asks
// for one byte more to see that), read errors and ctx's error as they are.
func readExactly(ctx context.Context, r io.Reader, n int64) ([]byte, error) {
	buf := make([]byte, n+1)
	off := 0
	for off < len(buf) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := r.Read(buf[off:min(off+persistedChunk, len(buf))])
		off += m
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(off) != n {
		return nil, ErrPersistedChanged
	}
	return buf[:n], nil
}

// checkedHead is the part of head ReadPersisted compares with the file: at
// most headCheckBytes, ending before the first U+FFFD (Claude Code's
// stand-in for bytes that are not UTF-8, which the file holds raw) and on
// a character boundary.
func checkedHead(head string) string {
	k := min(len(head), headCheckBytes)
	if i := strings.IndexRune(head[:k], utf8.RuneError); i >= 0 {
		k = i
	}
	for k > 0 && k < len(head) && !utf8.RuneStart(head[k]) {
		k--
	}
	return head[:k]
}
