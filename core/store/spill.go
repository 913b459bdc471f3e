package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// spill is an append-only temporary file of byte segments, beside the
// index, that BuildImpact moves posting lists to while the chunks stream
// past. On Unix it is unlinked as soon as it is made, so a killed run
// leaves nothing; elsewhere close removes it. It is safe for concurrent
// use.
type spill struct {
	mu   sync.Mutex
	f    *os.File
	name string // "" once unlinked
	off  int64
}

// spillSeg is where one segment lies in a spill file: n bytes at off.
type spillSeg struct {
	off int64
	n   int
}

// newSpill creates the spill file of the index at db, in db's folder.
func newSpill(db string) (*spill, error) {
	f, err := os.CreateTemp(filepath.Dir(db), filepath.Base(db)+".spill-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("spill file: %w", err)
	}
	sp := &spill{f: f, name: f.Name()}
	if os.Remove(sp.name) == nil {
		sp.name = ""
	}
	return sp, nil
}

// write appends b and returns where it lies.
func (sp *spill) write(b []byte) (spillSeg, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sg := spillSeg{off: sp.off, n: len(b)}
	if _, err := sp.f.Write(b); err != nil {
		return sg, fmt.Errorf("spill file: %w", err)
	}
	sp.off += int64(len(b))
	return sg, nil
}

// read returns the bytes of segs, in order, in one new slice (nil for
// none).
func (sp *spill) read(segs []spillSeg) ([]byte, error) {
	n := 0
	for _, sg := range segs {
		n += sg.n
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]byte, n)
	at := 0
	for _, sg := range segs {
		if _, err := sp.f.ReadAt(out[at:at+sg.n], sg.off); err != nil && err != io.EOF {
			return nil, fmt.Errorf("spill file: %w", err)
		}
		at += sg.n
	}
	return out, nil
}

// size returns the bytes written.
func (sp *spill) size() int64 {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.off
}

// close closes the file and removes it if it was not unlinked at once.
func (sp *spill) close() {
	sp.f.Close()
	if sp.name != "" {
		os.Remove(sp.name)
	}
}
