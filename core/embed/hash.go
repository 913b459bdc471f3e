package embed

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/vaultctx/vaultctx/core/internal/filestat"
	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// Hash identifies the model by its content: the hex SHA-256 of a small text
// listing its name, vocabulary size, dimensions and the SHA-256 of each of
// its three files (config, tokenizer, tensors) with its path inside the
// model directory. Nothing in it depends on where the directory is: a
// model moved or copied elsewhere has the same hash, and one changed byte
// of any of the three files gives another. The name counts only when the
// files record one (the config's model_name or name, or the MetaFile of a
// pulled model); a name taken from the directory's base name does not.
//
// File digests are cached under CacheDir/digests, keyed by absolute path,
// size, modification time, status-change time and inode (see
// core/internal/filestat), so only the first call after a file changes
// reads it whole (about 30 MB for potion-base-8M); later calls, such as a
// hook's, cost a stat and a small read per file. Restoring the mtime after
// an edit does not fool the cache: ctime moves with every write.
func (m *Model) Hash() (string, error) {
	m.hashOnce.Do(func() {
		h := sha256.New()
		name := m.name
		if m.namedByDir {
			name = ""
		}
		fmt.Fprintf(h, "vaultctx-model-hash-v1\nname=%s\nvocab=%d\ndim=%d\n", name, m.vocabSize, m.dim)
		for _, p := range []string{m.cfgPath, m.tokPath, m.stPath} {
			d, err := m.fileDigest(p)
			if err != nil {
				m.hashErr = fmt.Errorf("model hash: %w", err)
				return
			}
			rel, _ := filepath.Rel(m.dir, p)
			fmt.Fprintf(h, "file=%s sha256=%s\n", filepath.ToSlash(rel), d)
		}
		m.hash = hex.EncodeToString(h.Sum(nil))
	})
	return m.hash, m.hashErr
}

type digestEntry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	MTime  int64  `json:"mtime_ns"`
	CTime  int64  `json:"ctime_ns"`
	Inode  uint64 `json:"inode"`
	SHA256 string `json:"sha256"`
}

// fileDigest returns the hex SHA-256 of path, through the digest cache.
func (m *Model) fileDigest(path string) (string, error) {
	st, err := filestat.Path(path)
	if err != nil {
		return "", err
	}
	key := digestEntry{Path: path, Size: st.Size, MTime: st.MtimeNS, CTime: st.CtimeNS, Inode: st.Inode}
	var cachePath string
	if m.cacheDir != "" {
		k := sha256.Sum256([]byte(path))
		cachePath = filepath.Join(m.cacheDir, "digests", hex.EncodeToString(k[:16])+".json")
		if data, err := os.ReadFile(cachePath); err == nil {
			var e digestEntry
			if json.Unmarshal(data, &e) == nil && len(e.SHA256) == 64 {
				d := e.SHA256
				if e.SHA256 = ""; e == key {
					return d, nil
				}
			}
		}
	}
	d, err := SHA256File(path)
	if err != nil {
		return "", err
	}
	if cachePath != "" {
		key.SHA256 = d
		data, _ := json.Marshal(key)
		// Best effort, and not durable: a lost entry is recomputed.
		if os.MkdirAll(filepath.Dir(cachePath), 0o755) == nil {
			_ = fsx.WriteAtomic(cachePath, data, 0o600, false)
		}
	}
	return d, nil
}

// SHA256File returns the hex sha256 digest of the file at path.
func SHA256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
