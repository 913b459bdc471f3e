package vault

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// File is one note found by Walk.
type File struct {
	// Path is the vault-relative path: forward slashes, Unicode NFC, no
	// leading "./". It is the note's identity in the index.
	Path string
	// Abs is the path to open: the root joined with the on-disk names
	// (which may be NFD), through any symlinks on the way.
	Abs string
	// MtimeNS is the modification time in nanoseconds since the Unix epoch
	// (of the symlink target when the note is a symlink).
	MtimeNS int64
	// Size is the file size in bytes at walk time.
	Size int64
	// CtimeNS is the status-change time in nanoseconds since the Unix
	// epoch, and Inode the inode number (both of the symlink target when
	// the note is a symlink); 0 where the platform has none (see
	// core/internal/filestat). The kernel moves ctime on every write and
	// rename and no program can set it back, so a change check that also
	// compares these two sees a same-length edit whose mtime was restored
	// and a note renamed over another.
	CtimeNS int64
	Inode   uint64
}

// Skip is an entry that looked like a note (or a folder that could hold
// notes) but was left out.
type Skip struct {
	// Path is vault-relative, like File.Path.
	Path string
	// Reason is short and lower-case, for status output: "larger than
	// 5242880 bytes", "not a regular file (fifo)", "permission denied",
	// "symlink loop", "broken symlink", ...
	Reason string
	// Unreadable is set when the entry is still there but could not be
	// read (permission denied, an I/O error), as opposed to an entry that
	// is no note (too large, a FIFO, a broken symlink): an index keeps the
	// last version it read of such a file, or of every file below such a
	// folder.
	Unreadable bool
}

// maxDirVisits bounds how often one real folder is walked through different
// symlinked paths whose rules differ, so a maze of cross-links cannot make
// the walk exponential.
const maxDirVisits = 8

// Walk calls fn for every note under root (see the package documentation for
// which files are notes), in byte-wise order of File.Path, and returns what
// it skipped, in the same order. It follows symlinks and reports each real
// file once.
//
// Walk returns an error, and stops, only when root is missing, not a folder
// or unreadable, when r does not validate (ErrBadRule), when ctx is done
// (the error wraps ctx.Err()), or when fn returns an error (returned as is).
// The skips found until then are returned with the error.
func Walk(ctx context.Context, root string, r Rules, fn func(File) error) ([]Skip, error) {
	c, err := r.compile()
	if err != nil {
		return nil, fmt.Errorf("vault walk: %w", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("vault walk: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("vault walk: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("vault walk: %s is not a folder", root)
	}
	w := &walker{
		ctx:    ctx,
		c:      c,
		fn:     fn,
		files:  make(map[fileID]struct{}),
		visits: make(map[fileID]int),
		done:   make(map[fileID]struct{}),
	}
	rm := metaOf(fi)
	d, err := openDir(abs)
	if err != nil {
		return nil, fmt.Errorf("vault walk: %w", err)
	}
	_, err = w.walkDir(d, abs, nil, len(c.include) == 0, []fileID{rm.id})
	return w.skips, err
}

type walker struct {
	ctx    context.Context
	c      *compiled
	fn     func(File) error
	skips  []Skip
	files  map[fileID]struct{} // real files already reported
	visits map[fileID]int      // walks started per real folder
	done   map[fileID]struct{} // real folders walked with nothing pruned
}

// meta is what the walk needs to know about a file or folder.
type meta struct {
	mode     fs.FileMode
	size     int64 // bytes
	mtimeNS  int64
	ctimeNS  int64  // 0 when unknown
	ino      uint64 // 0 when unknown
	id       fileID
	hasID    bool
	readable bool // by permission bits
}

// entry is a folder entry prepared for sorting and processing.
type entry struct {
	key    string // nfc name, plus "/" for folders: sorts like full paths
	name   string // on-disk name
	nfc    string
	isDir  bool
	meta   meta   // lstat, or stat of the symlink target
	reason string // non-empty: report as a Skip
	// unreadable: the Skip is of an entry that exists but cannot be read
	unreadable bool
}

// walkDir reads and closes d, the folder at abs whose vault-relative
// components are comps, and processes its entries. included says an include
// rule (or the absence of any) already covers the folder. It reports whether
// nothing below the folder was pruned by a path rule, that is whether walking
// the same real folder through another path could find nothing new.
func (w *walker) walkDir(d *dirHandle, abs string, comps []string, included bool, anc []fileID) (complete bool, err error) {
	if err := w.ctx.Err(); err != nil {
		d.close()
		return false, fmt.Errorf("vault walk: %w", err)
	}
	ents, complete, err := w.prepare(d, comps, included)
	d.close()
	if err != nil {
		if len(comps) == 0 {
			return false, fmt.Errorf("vault walk: %w", err)
		}
		w.skipUnreadable(strings.Join(comps, "/"), err)
		return true, nil
	}
	// p is comps plus one entry's name; reused for every entry, as no
	// callee keeps it.
	p := make([]string, len(comps)+1)
	copy(p, comps)
	prefix := ""
	if len(comps) > 0 {
		prefix = strings.Join(comps, "/") + "/"
	}
	for i, e := range ents {
		p[len(comps)] = e.nfc
		rel := prefix + e.nfc
		if i > 0 && ents[i-1].key == e.key {
			w.skip(rel, "same name as another entry after Unicode NFC normalisation")
			continue
		}
		if e.reason != "" {
			w.skips = append(w.skips, Skip{Path: rel, Reason: e.reason, Unreadable: e.unreadable})
			continue
		}
		childAbs := joinName(abs, e.name)
		if e.isDir {
			ok, err := w.enterDir(childAbs, p, included || w.c.includes(p), anc, e.meta)
			if err != nil {
				return false, err
			}
			complete = complete && ok
			continue
		}
		if e.meta.hasID {
			if _, seen := w.files[e.meta.id]; seen {
				continue
			}
			w.files[e.meta.id] = struct{}{}
		}
		if err := w.ctx.Err(); err != nil {
			return false, fmt.Errorf("vault walk: %w", err)
		}
		if err := w.fn(File{Path: rel, Abs: childAbs, MtimeNS: e.meta.mtimeNS, Size: e.meta.size, CtimeNS: e.meta.ctimeNS, Inode: e.meta.ino}); err != nil {
			return false, err
		}
	}
	return complete, nil
}

// prepare lists d, drops what the rules leave out, stats what remains and
// sorts it. complete is false when a path rule pruned something.
func (w *walker) prepare(d *dirHandle, comps []string, included bool) (ents []entry, complete bool, err error) {
	des, err := d.entries()
	if err != nil {
		return nil, false, err
	}
	complete = true
	ents = make([]entry, 0, len(des))
	p := make([]string, len(comps)+1) // comps plus the entry's name
	copy(p, comps)
	for _, de := range des {
		e := entry{name: de.Name(), nfc: nfc(de.Name())}
		p[len(comps)] = e.nfc
		if w.c.hidden(p) || w.c.excluded(p) {
			complete = false
			continue
		}
		inc := included || w.c.includes(p)
		typ := de.Type()
		statted := false
		if typ&fs.ModeSymlink != 0 {
			m, err := d.stat(e.name, true)
			if err != nil {
				if !inc && !w.c.mayIncludeBelow(p) {
					complete = false
					continue
				}
				if !w.c.hasExt(e.nfc) && errors.Is(err, fs.ErrNotExist) {
					continue // a dangling link that could not have been a note
				}
				e.reason, e.key, e.unreadable = statReason(err), e.nfc, unreadable(err)
				ents = append(ents, e)
				continue
			}
			e.meta, typ, statted = m, m.mode.Type(), true
		}
		if typ.IsDir() {
			if !inc && !w.c.mayIncludeBelow(p) {
				complete = false
				continue
			}
			e.isDir, e.key = true, e.nfc+"/"
		} else {
			if !w.c.hasExt(e.nfc) {
				continue
			}
			if !inc {
				complete = false
				continue
			}
			e.key = e.nfc
		}
		if !statted {
			m, err := d.stat(e.name, false)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // removed since it was listed
				}
				e.reason, e.unreadable = statReason(err), unreadable(err)
				ents = append(ents, e)
				continue
			}
			e.meta = m
		}
		if !e.isDir {
			e.reason = fileReason(e.meta, w.c.max)
			e.unreadable = e.reason != "" && e.meta.mode.IsRegular() && !e.meta.readable && e.meta.size <= w.c.max
		}
		ents = append(ents, e)
	}
	slices.SortFunc(ents, func(a, b entry) int {
		return cmp.Or(strings.Compare(a.key, b.key), strings.Compare(a.name, b.name))
	})
	return ents, complete, nil
}

// enterDir walks the child folder at abs, with metadata m.
func (w *walker) enterDir(abs string, comps []string, included bool, anc []fileID, m meta) (bool, error) {
	rel := strings.Join(comps, "/")
	if m.hasID {
		if slices.Contains(anc, m.id) {
			w.skip(rel, "symlink loop")
			return true, nil
		}
		if _, ok := w.done[m.id]; ok {
			return true, nil // every file below was reported already
		}
		if w.visits[m.id] >= maxDirVisits {
			w.skip(rel, "folder reached through too many symlinked paths ("+strconv.Itoa(maxDirVisits)+")")
			return true, nil
		}
		w.visits[m.id]++
	}
	d, err := openDir(abs)
	if err != nil {
		w.skipUnreadable(rel, err)
		return true, nil
	}
	complete, err := w.walkDir(d, abs, comps, included, append(anc[:len(anc):len(anc)], m.id))
	if err != nil {
		return false, err
	}
	if complete && m.hasID {
		w.done[m.id] = struct{}{}
	}
	return complete, nil
}

// joinName is filepath.Join for a clean folder path and one entry name,
// without Join's cleaning cost.
func joinName(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

func (w *walker) skip(rel, reason string) {
	w.skips = append(w.skips, Skip{Path: rel, Reason: reason})
}

// skipUnreadable records a folder that could not be opened or listed.
func (w *walker) skipUnreadable(rel string, err error) {
	w.skips = append(w.skips, Skip{Path: rel, Reason: statReason(err), Unreadable: unreadable(err)})
}

// unreadable reports whether err says an entry exists but cannot be read,
// rather than that it is gone or no note: permission denied, an I/O error,
// or any failure other than a missing path, a symlink loop or a name that
// is no folder.
func unreadable(err error) bool {
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.ENOTDIR):
		return false
	}
	return true
}

// fileReason returns why a candidate note with this stat cannot be indexed,
// or "".
func fileReason(fm meta, max int64) string {
	m := fm.mode
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "not a regular file (fifo)"
	case m&fs.ModeSocket != 0:
		return "not a regular file (socket)"
	case m&fs.ModeCharDevice != 0:
		return "not a regular file (char device)"
	case m&fs.ModeDevice != 0:
		return "not a regular file (device)"
	case !m.IsRegular():
		return "not a regular file"
	case fm.size > max:
		return "larger than " + strconv.FormatInt(max, 10) + " bytes"
	case !fm.readable:
		return "permission denied"
	}
	return ""
}

// statReason turns a stat or open error into a Skip reason.
func statReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.ELOOP):
		return "symlink loop"
	case errors.Is(err, fs.ErrNotExist):
		return "broken symlink"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
