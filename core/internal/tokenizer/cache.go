package tokenizer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/mmap"
)

// Cache file layout (little-endian, every section 8-byte aligned):
//
//	magic "VCTXTOK1" | u32 specLen | u32 n | u32 dataLen | u32 nslots | u32 nscores | u32 0
//	spec JSON | offs [n+1]u32 | data [dataLen]byte | slots [nslots]u32 | scores [nscores]f64
const (
	cacheMagic   = "VCTXTOK1"
	cacheVersion = "2" // bump when the layout or the spec semantics change
	headerSize   = 32
)

var errBadCache = errors.New("bad tokenizer cache")

// cacheFile names the cache entry for the tokenizer.json at path:
// <hash of the absolute path>-<hash of size, mtime and format>.bin, so a
// changed file gets a new entry and writeCache can drop the stale ones.
func cacheFile(dir, path string, st os.FileInfo) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := sha256.Sum256([]byte(abs))
	v := sha256.Sum256(fmt.Appendf(nil, "%d\x00%d\x00%s", st.Size(), st.ModTime().UnixNano(), cacheVersion))
	return filepath.Join(dir, hex.EncodeToString(p[:8])+"-"+hex.EncodeToString(v[:8])+".bin")
}

func pad8(n int) int { return (n + 7) &^ 7 }

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// writeCache writes the compact form atomically (temporary file, rename).
func writeCache(path string, sp *spec, v *vocab, scores []float64) error {
	specJSON, err := json.Marshal(sp)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	le := binary.LittleEndian
	hdr := make([]byte, headerSize)
	copy(hdr, cacheMagic)
	le.PutUint32(hdr[8:], uint32(len(specJSON)))
	le.PutUint32(hdr[12:], uint32(v.size()))
	le.PutUint32(hdr[16:], uint32(len(v.data)))
	le.PutUint32(hdr[20:], uint32(len(v.slots)))
	le.PutUint32(hdr[24:], uint32(len(scores)))
	buf.Write(hdr)
	align := func() {
		for buf.Len()%8 != 0 {
			buf.WriteByte(0)
		}
	}
	buf.Write(specJSON)
	align()
	_ = binary.Write(&buf, le, v.offs)
	align()
	buf.Write(v.data)
	align()
	_ = binary.Write(&buf, le, v.slots)
	align()
	_ = binary.Write(&buf, le, scores)

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// Not durable: a cache lost in a crash is rebuilt from tokenizer.json.
	if err := fsx.WriteAtomic(path, buf.Bytes(), 0o600, false); err != nil {
		return err
	}
	// Entries for older versions of the same tokenizer.json are dead.
	base := filepath.Base(path)
	if i := strings.IndexByte(base, '-'); i > 0 {
		old, _ := filepath.Glob(filepath.Join(filepath.Dir(path), base[:i+1]+"*.bin"))
		for _, o := range old {
			if o != path {
				os.Remove(o)
			}
		}
	}
	return nil
}

// openCache maps a cache file and builds a Tokenizer over it without copying
// the vocabulary.
func openCache(path string) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := int(st.Size())
	if size < headerSize || size > math.MaxInt32 {
		return nil, errBadCache
	}
	data, err := mmap.Map(f, size)
	if err != nil {
		return nil, err
	}
	t, err := decodeCache(data)
	if err != nil {
		mmap.Unmap(data)
		return nil, err
	}
	t.unmap = func() error { return mmap.Unmap(data) }
	return t, nil
}

// decodeCache checks every length against the file size before slicing.
func decodeCache(b []byte) (*Tokenizer, error) {
	le := binary.LittleEndian
	if len(b) < headerSize || string(b[:8]) != cacheMagic {
		return nil, errBadCache
	}
	specLen := int(le.Uint32(b[8:]))
	n := int(le.Uint32(b[12:]))
	dataLen := int(le.Uint32(b[16:]))
	nslots := int(le.Uint32(b[20:]))
	nscores := int(le.Uint32(b[24:]))
	if nslots == 0 || nslots&(nslots-1) != 0 || nslots < n {
		return nil, errBadCache
	}
	off := headerSize
	need := off + pad8(specLen) + pad8(4*(n+1)) + pad8(dataLen) + pad8(4*nslots) + 8*nscores
	if need != len(b) {
		return nil, fmt.Errorf("%w: size %d, want %d", errBadCache, len(b), need)
	}
	sp, err := decodeSpec(b[off : off+specLen])
	if err != nil {
		return nil, err
	}
	off += pad8(specLen)
	v := &vocab{}
	v.offs = u32s(b[off:], n+1)
	off += pad8(4 * (n + 1))
	v.data = b[off : off+dataLen : off+dataLen]
	off += pad8(dataLen)
	v.slots = u32s(b[off:], nslots)
	v.mask = uint64(nslots - 1)
	off += pad8(4 * nslots)
	var scores []float64
	if nscores > 0 {
		scores = f64s(b[off:], nscores)
	}
	// Offsets and slots are checked where they are used (vocab.find), so
	// opening costs O(1) instead of a pass over 10^5 entries.
	if int(v.offs[n]) != dataLen {
		return nil, errBadCache
	}
	if sp.Unk >= n || sp.Unk < -1 || (sp.Kind == WordPiece && sp.Unk < 0) {
		return nil, errBadCache
	}
	return build(sp, v, scores)
}

// decodeSpec reads the spec JSON that writeCache stored, with gjson rather
// than encoding/json to spare a fresh process the reflection set-up.
func decodeSpec(b []byte) (*spec, error) {
	if !gjson.ValidBytes(b) {
		return nil, fmt.Errorf("%w: spec is not JSON", errBadCache)
	}
	j := gjson.ParseBytes(b)
	sp := &spec{
		Kind:          Kind(j.Get("kind").String()),
		Normalizer:    json.RawMessage(j.Get("normalizer").Raw),
		PreTokenizer:  json.RawMessage(j.Get("pre_tokenizer").Raw),
		Unk:           int(j.Get("unk").Int()),
		Prefix:        j.Get("prefix").String(),
		MaxChars:      int(j.Get("max_chars").Int()),
		MinScore:      j.Get("min_score").Float(),
		MaxTokenBytes: int(j.Get("max_token_bytes").Int()),
		Median:        int(j.Get("median").Int()),
	}
	for _, a := range j.Get("added").Array() {
		sp.Added = append(sp.Added, addedJSON{
			ID: int(a.Get("id").Int()), Content: a.Get("content").String(),
			SingleWord: a.Get("single_word").Bool(), LStrip: a.Get("lstrip").Bool(), RStrip: a.Get("rstrip").Bool(),
			Normalized: a.Get("normalized").Bool(), Special: a.Get("special").Bool(),
		})
	}
	if sp.Kind != WordPiece && sp.Kind != Unigram {
		return nil, fmt.Errorf("%w: kind %q", errBadCache, sp.Kind)
	}
	return sp, nil
}

func u32s(b []byte, n int) []uint32 {
	if n == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func f64s(b []byte, n int) []float64 {
	if littleEndian {
		return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
