//go:build !linux

package vault

import (
	"os"
	"path/filepath"
)

// dirHandle is an open folder whose entries are stat'ed by full path.
type dirHandle struct {
	f    *os.File
	path string
}

func openDir(path string) (*dirHandle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, path: path}, nil
}

func (d *dirHandle) entries() ([]os.DirEntry, error) { return d.f.ReadDir(-1) }

func (d *dirHandle) close() { d.f.Close() }

// stat returns the metadata of the entry name, of its target if follow.
func (d *dirHandle) stat(name string, follow bool) (meta, error) {
	p := filepath.Join(d.path, name)
	info, err := os.Lstat(p)
	if follow {
		info, err = os.Stat(p)
	}
	if err != nil {
		return meta{}, err
	}
	return metaOf(info), nil
}
