package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// WriteAtomic replaces path with data through a temporary file in path's
// folder (which must exist). The file gets exactly perm (the umask is not
// applied, as with os.Chmod). With durable set, the file is fsynced before
// the rename and the folder after it. Errors are wrapped with the operation
// and path; the temporary file is removed on any error.
func WriteAtomic(path string, data []byte, perm fs.FileMode, durable bool) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit(durable)
}

// File is a temporary file that replaces its target when committed. Write
// to it, then call Commit to install it or Abort to drop it; after either,
// further calls do nothing. A File is not safe for concurrent use.
type File struct {
	f    *os.File
	path string // target
	done bool
}

// Create starts an atomic replacement of path: it creates a temporary file
// named "."+base(path)+".tmp-*" in path's folder with mode perm (exactly,
// umask not applied). It returns an error when the folder is missing or not
// writable.
func Create(path string, perm fs.FileMode) (*File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &File{f: f, path: path}, nil
}

// Write writes p to the temporary file. On an error the caller should Abort.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", f.path, err)
	}
	return n, nil
}

// WriteString writes s to the temporary file without first copying it to
// a byte slice (saved tool outputs are up to megabytes). On an error the
// caller should Abort.
func (f *File) WriteString(s string) (int, error) {
	n, err := f.f.WriteString(s)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", f.path, err)
	}
	return n, nil
}

// Name is the temporary file's path.
func (f *File) Name() string { return f.f.Name() }

// Abort closes and removes the temporary file, leaving the target as it was.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	os.Remove(f.f.Name())
}

// Commit closes the temporary file and renames it over the target. With
// durable set it fsyncs the file first and the folder after the rename.
// On an error the temporary file is removed and the target is untouched,
// except when only the folder sync failed: the new file is then in place
// but may not survive a crash. Commit after Commit or Abort returns an
// error wrapping os.ErrClosed.
func (f *File) Commit(durable bool) error {
	if f.done {
		return fmt.Errorf("write %s: %w", f.path, os.ErrClosed)
	}
	f.done = true
	tmp := f.f.Name()
	var serr error
	if durable {
		serr = f.f.Sync()
	}
	cerr := f.f.Close()
	if err := errors.Join(serr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if err := os.Rename(tmp, f.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if durable {
		if err := syncDir(filepath.Dir(f.path)); err != nil {
			return fmt.Errorf("write %s: sync folder: %w", f.path, err)
		}
	}
	return nil
}

// syncDir fsyncs a folder so a rename in it is durable. Windows cannot
// sync folders; there it does nothing.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	serr := d.Sync()
	cerr := d.Close()
	return errors.Join(serr, cerr)
}
