package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// TTL is how long a session's de-duplication state lives: a state file
// not written for 24 h is ignored and deleted.
const TTL = 24 * time.Hour

// maxSeen caps the chunk IDs remembered per session (the newest are kept).
const maxSeen = 10000

// Seen is the set of chunk IDs already injected into one Claude Code
// session by any vaultctx hook, so no hook repeats a chunk. It lives in one
// small JSON file per session (mode 0600) and is not safe for concurrent
// use by several goroutines; concurrent hook processes may lose each other's
// additions (last writer wins), which only means a chunk may be repeated.
type Seen struct {
	path   string
	origID string  // storedID of the session id
	ids    []int64 // in insertion order
	set    map[int64]bool
	dirty  bool
}

type seenFile struct {
	SessionID string  `json:"session_id"`
	Chunks    []int64 `json:"chunks"`
}

// SweepEvery is how often Open looks through the whole state
// directory for expired files; in between, a hook reads only its own
// session's file (a sweep stats every file, about 2 ms for 450 of them,
// too much for a hook that must answer in 15).
const SweepEvery = time.Hour

// sweptMarker is the file in the state directory whose modification time
// records the last sweep.
const sweptMarker = ".swept"

// Open loads the state of sessionID from dir (usually
// $XDG_STATE_HOME/vaultctx/sessions, see xdg.StateDir), creating dir (mode 0700)
// if needed, and, at most once per SweepEvery, deletes the state files in
// dir older than TTL. A missing, expired or corrupt state file gives an
// empty set (an expired one is deleted). It returns an error only when dir
// cannot be created.
func Open(dir, sessionID string) (*Seen, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open seen state: %w", err)
	}
	now := time.Now()
	marker := filepath.Join(dir, sweptMarker)
	if info, err := os.Stat(marker); err != nil || now.Sub(info.ModTime()) > SweepEvery {
		// Mark first: concurrent hooks then skip the sweep this one does.
		if os.WriteFile(marker, nil, 0o600) == nil {
			_ = os.Chtimes(marker, now, now)
		}
		expireSeen(dir, now)
	}
	s := &Seen{path: filepath.Join(dir, SafeName(sessionID)+".json"), origID: storedID(sessionID), set: map[int64]bool{}}
	if info, err := os.Stat(s.path); err == nil && now.Sub(info.ModTime()) > TTL {
		_ = os.Remove(s.path)
		return s, nil
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return s, nil
	}
	var f seenFile
	if json.Unmarshal(data, &f) != nil || f.SessionID != s.origID {
		return s, nil
	}
	for _, id := range f.Chunks {
		if !s.set[id] {
			s.set[id] = true
			s.ids = append(s.ids, id)
		}
	}
	return s, nil
}

// Reset forgets every chunk shown in session sessionID: it deletes the
// session's state file in dir (as Open names it), so the next Open starts
// empty. A missing file is no error; another one is returned wrapped.
// Claude Code 2.1.332 keeps the session_id across /compact, after which
// none of the chunks shown before are in the conversation any more.
func Reset(dir, sessionID string) error {
	err := os.Remove(filepath.Join(dir, SafeName(sessionID)+".json"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reset seen state: %w", err)
	}
	return nil
}

// Has reports whether chunkID was already injected in this session.
func (s *Seen) Has(chunkID int64) bool { return s.set[chunkID] }

// Add records chunk IDs as injected; Save persists them.
func (s *Seen) Add(ids ...int64) {
	for _, id := range ids {
		if !s.set[id] {
			s.set[id] = true
			s.ids = append(s.ids, id)
			s.dirty = true
		}
	}
}

// Save writes the state atomically (temporary file and rename, mode 0600).
// It does nothing when nothing was added since Open.
func (s *Seen) Save() error {
	if !s.dirty {
		return nil
	}
	ids := s.ids
	if len(ids) > maxSeen {
		ids = ids[len(ids)-maxSeen:]
	}
	data, err := json.Marshal(seenFile{SessionID: s.origID, Chunks: ids})
	if err != nil {
		return fmt.Errorf("save seen state: %w", err)
	}
	if err := fsx.WriteAtomic(s.path, data, 0o600, false); err != nil {
		return fmt.Errorf("save seen state: %w", err)
	}
	s.dirty = false
	return nil
}

// expireSeen deletes *.json state files older than TTL; errors are
// ignored (another hook may be deleting the same file).
func expireSeen(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		info, err := e.Info()
		if err == nil && now.Sub(info.ModTime()) > TTL {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// maxStoredID is the longest session id a state file records as it is:
// 256 bytes (Claude Code's are 36-byte UUIDs, or those plus an agent id).
const maxStoredID = 256

// storedID is the session id as the state file records it: id itself, or
// for a longer one "sha256:" and the hex SHA-256 of id, so a multi-megabyte
// session_id does not write megabytes on every call.
func storedID(id string) string {
	if len(id) <= maxStoredID {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// SafeName turns an identifier from a payload (session_id, tool_use_id)
// into a file name: letters, digits, '-', '_' and '.' are kept, anything
// else becomes '_'; when that changed the id, or the id is empty, starts
// with '.', or is over 100 bytes, a short SHA-256 of the original is
// appended so distinct ids never share a file.
func SafeName(id string) string {
	var b strings.Builder
	changed := id == "" || strings.HasPrefix(id, ".") || len(id) > 100
	for _, r := range id {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
			changed = true
		}
	}
	name := b.String()
	if len(name) > 100 {
		name = name[:100]
	}
	name = strings.TrimLeft(name, ".")
	if changed {
		sum := sha256.Sum256([]byte(id))
		name += "-" + hex.EncodeToString(sum[:6])
	}
	return name
}
