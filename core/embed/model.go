package embed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/vaultctx/vaultctx/core/internal/mmap"
	"github.com/vaultctx/vaultctx/core/internal/tokenizer"
	"github.com/vaultctx/vaultctx/core/internal/xdg"
)

// DefaultModel is the Hugging Face model `vaultctx model pull` fetches.
const DefaultModel = "minishlab/potion-base-8M"

// MaxTokens is model2vec's default max_length: at most this many token ids
// contribute to one embedding.
const MaxTokens = 512

// BatchSize is the most texts one EncodeBatch task takes; callers should
// pass at least this many texts per call.
const BatchSize = 64

// ErrNotModel is returned by Open when a directory lacks the files of a
// Model2Vec or sentence-transformers static model.
var ErrNotModel = errors.New("not a model directory")

// ErrClosed is returned by Encode and EncodeBatch after Close.
var ErrClosed = errors.New("model is closed")

// MetaFile is the JSON file (with at least {"name": ...}) that hub.Pull
// writes next to the model files; Name reads the model name from it.
const MetaFile = "vaultctx-model.json"

// Model is a static embedding model. Open is cheap; the tokenizer and the
// memory-mapped matrix load on the first Encode. A Model is safe for
// concurrent use; Close must not race with encoding.
type Model struct {
	dir  string
	name string
	// namedByDir: name is the directory's base name (no name recorded in
	// the files), so it is no part of the model's identity (see Hash).
	namedByDir bool
	cfgPath    string
	tokPath    string
	stPath     string
	normalize  bool
	emb        *tensor
	weights    *tensor
	mapping    *tensor
	dim        int
	rows       int
	vocabSize  int
	cacheDir   string

	loadOnce sync.Once
	loadErr  error
	tok      *tokenizer.Tokenizer
	mm       []byte
	f32      []float32 // zero-copy view of an F32 matrix

	denseOnce sync.Once
	dense     []float32

	hashOnce sync.Once
	hash     string
	hashErr  error

	closed atomic.Bool
}

// Options tunes OpenOptions.
type Options struct {
	// CacheDir holds the tokenizer and digest caches. Empty means
	// $XDG_CACHE_HOME/vaultctx (or ~/.cache/vaultctx); "-" disables caching.
	CacheDir string
}

// Open is OpenOptions(dir, Options{}).
func Open(dir string) (*Model, error) { return OpenOptions(dir, Options{}) }

// OpenOptions reads a model directory's config and safetensors header and
// checks that the files agree. It does not read the matrix or the tokenizer.
// It returns ErrNotModel when files are missing and ErrCorrupt when they
// cannot be parsed.
func OpenOptions(dir string, opt Options) (*Model, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open model: %w", err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open model: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("open model %s: %w: not a directory", abs, ErrNotModel)
	}
	m := &Model{dir: abs, cacheDir: opt.CacheDir}
	if m.cacheDir == "" {
		m.cacheDir = defaultCacheDir()
	} else if m.cacheDir == "-" {
		m.cacheDir = ""
	}
	if err := m.locate(); err != nil {
		return nil, err
	}
	if err := m.readConfig(); err != nil {
		return nil, err
	}
	if err := m.readHeader(); err != nil {
		return nil, err
	}
	return m, nil
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// locate finds the config, tokenizer and matrix files.
func (m *Model) locate() error {
	root := m.dir
	sub := filepath.Join(root, "0_StaticEmbedding")
	switch {
	case exists(filepath.Join(root, "tokenizer.json")) && exists(filepath.Join(root, "model.safetensors")):
		m.tokPath, m.stPath = filepath.Join(root, "tokenizer.json"), filepath.Join(root, "model.safetensors")
	case exists(filepath.Join(sub, "tokenizer.json")) && exists(filepath.Join(sub, "model.safetensors")):
		m.tokPath, m.stPath = filepath.Join(sub, "tokenizer.json"), filepath.Join(sub, "model.safetensors")
	default:
		var missing []string
		for _, f := range []string{"config.json", "tokenizer.json", "model.safetensors"} {
			if !exists(filepath.Join(root, f)) {
				missing = append(missing, f)
			}
		}
		return fmt.Errorf("open model %s: %w: missing %s", root, ErrNotModel, strings.Join(missing, ", "))
	}
	// The config sits in the model root; a 0_StaticEmbedding folder opened
	// directly takes its parent's.
	cfgDirs := []string{root}
	if filepath.Base(root) == "0_StaticEmbedding" {
		cfgDirs = append(cfgDirs, filepath.Dir(root))
	}
	for _, d := range cfgDirs {
		for _, c := range []string{"config.json", "config_sentence_transformers.json"} {
			if p := filepath.Join(d, c); exists(p) && m.cfgPath == "" {
				m.cfgPath = p
			}
		}
	}
	if m.cfgPath == "" {
		return fmt.Errorf("open model %s: %w: missing config.json", root, ErrNotModel)
	}
	return nil
}

// readConfig takes normalize and the name from the config files.
func (m *Model) readConfig() error {
	data, err := os.ReadFile(m.cfgPath)
	if err != nil {
		return fmt.Errorf("open model: %w", err)
	}
	if !gjson.ValidBytes(data) || !gjson.ParseBytes(data).IsObject() {
		return fmt.Errorf("open model: %w: %s is not a JSON object", ErrCorrupt, m.cfgPath)
	}
	cfg := gjson.ParseBytes(data)
	if n := cfg.Get("normalize"); n.Exists() && n.Type != gjson.Null {
		m.normalize = n.Bool()
	} else if mods, err := os.ReadFile(filepath.Join(filepath.Dir(m.cfgPath), "modules.json")); err == nil {
		// sentence-transformers: a Normalize module means unit vectors.
		m.normalize = strings.Contains(string(mods), "sentence_transformers.models.Normalize")
	}
	if data, err := os.ReadFile(filepath.Join(m.dir, MetaFile)); err == nil {
		m.name = gjson.GetBytes(data, "name").String()
	}
	modelName, name := cfg.Get("model_name").String(), cfg.Get("name").String()
	switch {
	case m.name != "":
	case modelName != "":
		m.name = modelName
	case name != "":
		m.name = name
	default:
		m.name, m.namedByDir = filepath.Base(m.dir), true
	}
	return nil
}

// readHeader finds the tensors and checks their shapes against each other.
func (m *Model) readHeader() error {
	ts, _, err := readSafetensors(m.stPath)
	if err != nil {
		return fmt.Errorf("open model: %w", err)
	}
	for _, n := range []string{"embeddings", "embedding.weight", "0"} {
		if t, ok := ts[n]; ok {
			m.emb = t
			break
		}
	}
	if m.emb == nil {
		return fmt.Errorf("open model: %w: %s has no embeddings tensor", ErrCorrupt, m.stPath)
	}
	switch m.emb.DType {
	case "F32", "F16", "BF16", "F64", "I8":
	default:
		return fmt.Errorf("open model: %w: embeddings dtype %s is not supported", ErrCorrupt, m.emb.DType)
	}
	if len(m.emb.Shape) != 2 || m.emb.Shape[0] == 0 || m.emb.Shape[1] == 0 {
		return fmt.Errorf("open model: %w: embeddings shape %v is not a matrix", ErrCorrupt, m.emb.Shape)
	}
	m.rows, m.dim = int(m.emb.Shape[0]), int(m.emb.Shape[1])
	m.vocabSize = m.rows
	if t, ok := ts["mapping"]; ok {
		if len(t.Shape) != 1 || (t.DType != "I32" && t.DType != "I64") {
			return fmt.Errorf("open model: %w: mapping must be a vector of I32 or I64, got %v %s", ErrCorrupt, t.Shape, t.DType)
		}
		m.mapping = t
		m.vocabSize = int(t.Shape[0])
	}
	if t, ok := ts["weights"]; ok {
		if len(t.Shape) != 1 || (t.DType != "F64" && t.DType != "F32" && t.DType != "F16") {
			return fmt.Errorf("open model: %w: weights must be a vector of F64, F32 or F16, got %v %s", ErrCorrupt, t.Shape, t.DType)
		}
		if int(t.Shape[0]) != m.vocabSize {
			return fmt.Errorf("open model: %w: %d weights for a vocabulary of %d", ErrCorrupt, t.Shape[0], m.vocabSize)
		}
		m.weights = t
	}
	return nil
}

// Dir is the model directory (absolute).
func (m *Model) Dir() string { return m.dir }

// Name is the model's name: the one hub.Pull recorded, else model_name or name
// from the config, else the directory's base name.
func (m *Model) Name() string { return m.name }

// Dim is the number of dimensions of an embedding, from the safetensors
// header.
func (m *Model) Dim() int { return m.dim }

// VocabSize is the number of token ids the model accepts: the length of the
// mapping tensor when the vocabulary is quantised, else the matrix rows.
func (m *Model) VocabSize() int { return m.vocabSize }

// Rows is the number of rows of the embedding matrix.
func (m *Model) Rows() int { return m.rows }

// DType is the embedding matrix's safetensors dtype (F32, F16, BF16, F64, I8).
func (m *Model) DType() string { return m.emb.DType }

// Normalize reports whether embeddings are L2-normalised.
func (m *Model) Normalize() bool { return m.normalize }

// Quantized reports whether the vocabulary is quantised (mapping tensor).
func (m *Model) Quantized() bool { return m.mapping != nil }

// defaultCacheDir is xdg.CacheDir, or "" (no caching) when no home folder
// is known.
func defaultCacheDir() string {
	dir, err := xdg.CacheDir(os.Getenv)
	if err != nil {
		return ""
	}
	return dir
}

// load maps the matrix and loads the tokenizer, once.
func (m *Model) load() error {
	if m.closed.Load() {
		return ErrClosed
	}
	m.loadOnce.Do(func() {
		tokCache := ""
		if m.cacheDir != "" {
			tokCache = filepath.Join(m.cacheDir, "tokenizers")
		}
		tok, err := tokenizer.Load(m.tokPath, tokCache)
		if err != nil {
			m.loadErr = fmt.Errorf("load model %s: %w", m.dir, err)
			return
		}
		if tok.VocabSize() > m.vocabSize {
			tok.Close()
			m.loadErr = fmt.Errorf("load model %s: %w: tokenizer has %d tokens, the matrix %d", m.dir, ErrCorrupt, tok.VocabSize(), m.vocabSize)
			return
		}
		f, err := os.Open(m.stPath)
		if err != nil {
			tok.Close()
			m.loadErr = fmt.Errorf("load model: %w", err)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			tok.Close()
			m.loadErr = fmt.Errorf("load model: %w", err)
			return
		}
		end := m.emb.start + m.emb.elems()*int64(dtypeSize(m.emb.DType))
		for _, t := range []*tensor{m.weights, m.mapping} {
			if t != nil {
				end = max(end, t.start+t.elems()*int64(dtypeSize(t.DType)))
			}
		}
		if st.Size() < end {
			tok.Close()
			m.loadErr = fmt.Errorf("load model: %w: %s shrank to %d bytes", ErrCorrupt, m.stPath, st.Size())
			return
		}
		mm, err := mmap.Map(f, int(st.Size()))
		if err != nil {
			tok.Close()
			m.loadErr = fmt.Errorf("load model: %w", err)
			return
		}
		m.tok, m.mm = tok, mm
		if m.emb.DType == "F32" && m.emb.start%4 == 0 && littleEndian {
			m.f32 = unsafe.Slice((*float32)(unsafe.Pointer(&mm[m.emb.start])), m.rows*m.dim)
		}
	})
	return m.loadErr
}

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Close unmaps the matrix and releases the tokenizer.
func (m *Model) Close() error {
	if m.closed.Swap(true) {
		return nil
	}
	var errs []error
	if m.tok != nil {
		errs = append(errs, m.tok.Close())
	}
	if m.mm != nil {
		errs = append(errs, mmap.Unmap(m.mm))
		m.mm, m.f32 = nil, nil
	}
	m.dense = nil
	return errors.Join(errs...)
}

// Encode returns the embedding of text (Dim() float32s, unit length when
// Normalize()). Empty or all-unknown text gives the zero vector.
func (m *Model) Encode(text string) ([]float32, error) {
	if err := m.load(); err != nil {
		return nil, err
	}
	out := make([]float32, m.dim)
	e := m.newEncoder(nil)
	if err := e.encode(out, text); err != nil {
		return nil, err
	}
	return out, nil
}

// IDs returns the token ids that contribute to text's embedding: steps 1 to 4
// of model2vec's encode (truncate, tokenize, drop unk, keep 512).
func (m *Model) IDs(text string) ([]int32, error) {
	if err := m.load(); err != nil {
		return nil, err
	}
	return m.newEncoder(nil).idsCopy(text), nil
}

// EncodeBatch embeds texts on all cores (tasks of up to BatchSize texts,
// smaller when there are few texts) and returns one vector per text, in
// order; each equals Encode's. A batch of BatchSize or more texts on a
// non-F32 model, long enough that it would decode about as many rows as
// the matrix has (see denseWorth), first decodes the whole matrix to
// float32 once (kept for the Model's life: 48 MB for glove-120k); a
// smaller batch decodes each token's row as it goes. It stops early with
// ctx.Err() when ctx is cancelled.
func (m *Model) EncodeBatch(ctx context.Context, texts []string) ([][]float32, error) {
	if err := m.load(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	backing := make([]float32, len(texts)*m.dim)
	for i := range out {
		out[i] = backing[i*m.dim : (i+1)*m.dim : (i+1)*m.dim]
	}
	var dense []float32
	if len(texts) >= BatchSize && m.f32 == nil && m.denseWorth(texts) {
		dense = m.denseMatrix()
	}
	// Tasks of up to BatchSize texts, small enough that even one batch of
	// BatchSize keeps every core busy.
	procs := runtime.GOMAXPROCS(0)
	task := min(BatchSize, max(1, (len(texts)+4*procs-1)/(4*procs)))
	nb := (len(texts) + task - 1) / task
	workers := min(procs, nb)
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	setErr := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := m.newEncoder(dense)
			for {
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				if err := ctx.Err(); err != nil {
					setErr(err)
					return
				}
				for i := b * task; i < min(len(texts), (b+1)*task); i++ {
					if err := e.encode(out[i], texts[i]); err != nil {
						setErr(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// denseWorth reports whether texts likely hold at least as many tokens as
// the matrix has rows (their bytes over the tokenizer's median token
// length, which overstates the length of the short common words of
// prose), so that decoding the whole matrix once costs less than
// decoding a row per token. Decoding glove-120k's matrix means 48 MB of
// fresh memory and 12 million values, which for the 160 chunks of an index
// run after 20 edited notes took 0.12 s more than decoding their rows.
func (m *Model) denseWorth(texts []string) bool {
	per := max(m.tok.MedianTokenLength(), 1)
	bytes := 0
	for _, t := range texts {
		if bytes += len(t); bytes/per >= m.rows {
			return true
		}
	}
	return false
}

// denseMatrix decodes a non-F32 matrix to float32 once, for batch work.
func (m *Model) denseMatrix() []float32 {
	m.denseOnce.Do(func() {
		d := make([]float32, m.rows*m.dim)
		if m.emb.DType == "F16" {
			// A table of all 65,536 halves beats converting 10^7 values.
			lut := make([]float32, 1<<16)
			for h := range lut {
				lut[h] = f16(uint16(h))
			}
			raw := m.mm[m.emb.start : m.emb.start+int64(2*len(d))]
			for i := range d {
				d[i] = lut[uint16(raw[2*i])|uint16(raw[2*i+1])<<8]
			}
		} else {
			for r := 0; r < m.rows; r++ {
				m.decodeRow(d[r*m.dim:(r+1)*m.dim], r)
			}
		}
		m.dense = d
	})
	return m.dense
}

// decodeRow writes row r of the matrix as float32 into dst.
func (m *Model) decodeRow(dst []float32, r int) {
	b := m.mm[m.emb.start:]
	n := m.dim
	switch m.emb.DType {
	case "F32":
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*(r*n+i):]))
		}
	case "F16":
		for i := range dst {
			dst[i] = f16(binary.LittleEndian.Uint16(b[2*(r*n+i):]))
		}
	case "BF16":
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*(r*n+i):])) << 16)
		}
	case "F64":
		for i := range dst {
			dst[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*(r*n+i):])))
		}
	case "I8":
		for i := range dst {
			dst[i] = float32(int8(b[r*n+i]))
		}
	}
}

// f16 converts an IEEE 754 half-precision value to float32 exactly.
func f16(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
}

// encoder holds one goroutine's buffers.
type encoder struct {
	m     *Model
	dense []float32
	ids   []int32
	acc   []float64
	row   []float32
}

func (m *Model) newEncoder(dense []float32) *encoder {
	return &encoder{m: m, dense: dense, acc: make([]float64, m.dim), row: make([]float32, m.dim)}
}

// truncateChars keeps the first n code points of s.
func truncateChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

func (e *encoder) idsInto(text string) []int32 {
	m := e.m
	text = truncateChars(text, MaxTokens*m.tok.MedianTokenLength())
	ids := m.tok.AppendEncode(e.ids[:0], text)
	unk := int32(m.tok.UnkID())
	kept := ids[:0]
	for _, id := range ids {
		if id != unk {
			kept = append(kept, id)
			if len(kept) == MaxTokens {
				break
			}
		}
	}
	e.ids = ids
	return kept
}

func (e *encoder) idsCopy(text string) []int32 {
	return append([]int32(nil), e.idsInto(text)...)
}

// encode writes the embedding of text into out (len Dim()).
func (e *encoder) encode(out []float32, text string) error {
	m := e.m
	ids := e.idsInto(text)
	acc := e.acc
	clear(acc)
	for _, id := range ids {
		if int(id) >= m.vocabSize || id < 0 {
			return fmt.Errorf("encode: %w: token id %d outside a vocabulary of %d", ErrCorrupt, id, m.vocabSize)
		}
		row := int(id)
		if m.mapping != nil {
			row = m.mapRow(int(id))
			if row < 0 || row >= m.rows {
				return fmt.Errorf("encode: %w: mapping sends token %d to row %d of %d", ErrCorrupt, id, row, m.rows)
			}
		}
		w := 1.0
		if m.weights != nil {
			w = m.weight(int(id))
		}
		var r []float32
		switch {
		case m.f32 != nil:
			r = m.f32[row*m.dim : (row+1)*m.dim]
		case e.dense != nil:
			r = e.dense[row*m.dim : (row+1)*m.dim]
		default:
			m.decodeRow(e.row, row)
			r = e.row
		}
		addScaled(acc, r[:len(acc)], w)
	}
	if len(ids) == 0 {
		clear(out)
		return nil
	}
	inv := 1 / float64(len(ids))
	var norm float64
	for i := range acc {
		acc[i] *= inv
		norm += acc[i] * acc[i]
	}
	scale := 1.0
	if m.normalize && norm > 0 {
		scale = 1 / math.Sqrt(norm)
	}
	for i, v := range acc {
		out[i] = float32(v * scale)
	}
	return nil
}

func (m *Model) mapRow(id int) int {
	b := m.mm[m.mapping.start:]
	if m.mapping.DType == "I64" {
		return int(int64(binary.LittleEndian.Uint64(b[8*id:])))
	}
	return int(int32(binary.LittleEndian.Uint32(b[4*id:])))
}

func (m *Model) weight(id int) float64 {
	b := m.mm[m.weights.start:]
	switch m.weights.DType {
	case "F64":
		return math.Float64frombits(binary.LittleEndian.Uint64(b[8*id:]))
	case "F32":
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*id:])))
	}
	return float64(f16(binary.LittleEndian.Uint16(b[2*id:])))
}

// addScaled does acc[i] += float64(r[i])*w, four lanes at a time.
func addScaled(acc []float64, r []float32, w float64) {
	n := len(acc) &^ 3
	r = r[:len(acc)]
	for i := 0; i < n; i += 4 {
		a := acc[i : i+4 : i+4]
		v := r[i : i+4 : i+4]
		a[0] += float64(v[0]) * w
		a[1] += float64(v[1]) * w
		a[2] += float64(v[2]) * w
		a[3] += float64(v[3]) * w
	}
	for i := n; i < len(acc); i++ {
		acc[i] += float64(r[i]) * w
	}
}

// DefaultDir is where a pulled model lives:
// $XDG_DATA_HOME/vaultctx/models/<name> (XDG_DATA_HOME defaults to
// ~/.local/share), with the environment read through getenv (os.Getenv
// outside tests). name is a Hugging Face id such as DefaultModel. It returns
// an error when neither XDG_DATA_HOME (absolute) nor HOME is set.
func DefaultDir(getenv func(string) string, name string) (string, error) {
	base, err := xdg.DataDir(getenv)
	if err != nil {
		return "", fmt.Errorf("model folder: %w", err)
	}
	return filepath.Join(base, "models", filepath.FromSlash(name)), nil
}
