package posttool

// This file holds the package's atomic write until the shared WriteAtomic
// owner lands; callers then switch to it.

import (
	"io"
	"os"
	"path/filepath"
)

// writeAtomic writes the concatenation of parts to path with mode 0600
// through a temporary file and a rename (without first joining the parts:
// outputs are up to megabytes).
func writeAtomic(path string, parts ...string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	for _, p := range parts {
		if _, err = io.WriteString(f, p); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
