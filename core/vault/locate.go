package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ErrNotFound is returned (wrapped, with fs.ErrNotExist) by Locate when no
// file on disk has the vault-relative path asked for: the note was deleted
// or renamed since it was indexed, or the vault moved.
var ErrNotFound = errors.New("no such note on disk")

// Locate returns the path on disk of the note whose vault-relative path is
// rel (a File.Path: forward slashes, Unicode NFC) in the vault at root, an
// absolute folder: root joined with the real names of rel's components,
// which are not rel's own when the file system stores a name in another
// normalisation (NFD, as macOS and many sync tools write it). Claude Code
// opens the result; the NFC key would not exist on Linux.
//
// The NFC path is tried first (one stat, the common case); only when it
// does not exist are the folders on the way listed, and each component
// matched to the entry whose name is the same after NFC normalisation (and
// invalid UTF-8 replaced, as Walk does). It returns an error wrapping
// ErrNotFound and fs.ErrNotExist when there is no such file, or when rel
// is empty or holds an empty, "." or ".." component; other errors of
// os.Stat and os.ReadDir come back wrapped.
func Locate(root, rel string) (string, error) {
	comps := strings.Split(rel, "/")
	for _, c := range comps {
		if c == "" || c == "." || c == ".." {
			return "", fmt.Errorf("locate %q: %w", rel, errNotFound)
		}
	}
	p := root
	for _, c := range comps {
		p = joinName(p, c)
	}
	if _, err := os.Stat(p); err == nil {
		return p, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("locate %q: %w", rel, err)
	}
	p = root
	for _, c := range comps {
		next := joinName(p, c)
		if _, err := os.Lstat(next); err == nil {
			p = next
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("locate %q: %w", rel, errNotFound)
			}
			return "", fmt.Errorf("locate %q: %w", rel, err)
		}
		found := ""
		for _, e := range ents {
			if nfc(e.Name()) == c {
				found = e.Name()
				break
			}
		}
		if found == "" {
			return "", fmt.Errorf("locate %q: %w", rel, errNotFound)
		}
		p = joinName(p, found)
	}
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("locate %q: %w", rel, errNotFound)
		}
		return "", fmt.Errorf("locate %q: %w", rel, err)
	}
	return p, nil
}

// errNotFound wraps both ErrNotFound and fs.ErrNotExist.
var errNotFound = fmt.Errorf("%w: %w", ErrNotFound, fs.ErrNotExist)
