package eval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// maxLine is the longest input line the readers accept, in bytes.
const maxLine = 64 << 20

// ParseError is returned for a malformed line of an input file. File is the
// name as given to the reader, Line is 1-based.
type ParseError struct {
	File string
	Line int
	Err  error
}

// Error returns "file:line: message".
func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// eachLine calls fn for every non-blank line of r with its 1-based number.
// Trailing "\r" is removed. A line longer than maxLine is a ParseError.
func eachLine(r io.Reader, file string, fn func(line []byte, n int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(line, n); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return &ParseError{File: file, Line: n, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &ParseError{File: file, Line: n + 1, Err: fmt.Errorf("line longer than %d bytes", maxLine)}
		}
		return fmt.Errorf("read %s: %w", file, err)
	}
	return nil
}
