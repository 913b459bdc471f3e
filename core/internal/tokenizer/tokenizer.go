package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// ErrUnsupported is returned by Load when tokenizer.json uses a model,
// normalizer or pre-tokenizer this package does not implement.
var ErrUnsupported = errors.New("unsupported tokenizer component")

// Kind names a tokenization model.
type Kind string

// The supported models.
const (
	WordPiece Kind = "WordPiece"
	Unigram   Kind = "Unigram"
)

// Tokenizer turns text into token ids like Hugging Face's
// Tokenizer.encode(text, add_special_tokens=False). It is safe for concurrent
// use. Its vocabulary may live in a memory-mapped cache file: call Close only
// when no Encode call can still run.
type Tokenizer struct {
	kind          Kind
	norm          normalizer
	pre           preTokenizer
	bertFast      bool // BertNormalizer(clean, chinese, strip==lower) + BertPreTokenizer
	lower         bool
	vocab         *vocab
	scores        []float64
	unk           int
	prefix        string
	maxChars      int
	minScore      float64
	maxTokenBytes int
	median        int
	added         []addedToken
	hasRawAdded   bool
	hasNormAdded  bool
	unmap         func() error
	pool          sync.Pool
	punctIDs      [128]atomic.Int32 // WordPiece id+1 of one-character ASCII punctuation words, 0 = not looked up yet
	addedFirst    [256]bool         // first bytes of raw added tokens

	prefixOnce sync.Once
	prefixes   []uint64 // Unigram: set of mix(hash) of every token prefix, 0 = empty
}

type addedToken struct {
	content    string
	id         int
	normalized bool
	lstrip     bool
	rstrip     bool
	special    bool
	singleWord bool
}

// Kind reports the tokenization model.
func (t *Tokenizer) Kind() Kind { return t.kind }

// VocabSize is the number of model vocabulary entries (ids 0..VocabSize-1).
func (t *Tokenizer) VocabSize() int { return t.vocab.size() }

// UnkID is the id of the unknown token, or -1 when the model has none.
func (t *Tokenizer) UnkID() int { return t.unk }

// MedianTokenLength is the median length in code points of the distinct
// vocabulary strings (added tokens included), rounded down: model2vec's
// int(np.median([len(t) for t in tokenizer.get_vocab()])).
func (t *Tokenizer) MedianTokenLength() int { return t.median }

// Token returns the string of id, or "" when id is out of range.
func (t *Tokenizer) Token(id int) string {
	if id < 0 || id >= t.vocab.size() {
		return ""
	}
	return string(t.vocab.token(id))
}

// Close releases the memory-mapped vocabulary, if any.
func (t *Tokenizer) Close() error {
	if t.unmap == nil {
		return nil
	}
	f := t.unmap
	t.unmap = nil
	return f()
}

// Encode returns the ids of text without special tokens.
func (t *Tokenizer) Encode(text string) []int32 {
	return t.AppendEncode(nil, text)
}

// AppendEncode appends the ids of text (without special tokens) to dst.
func (t *Tokenizer) AppendEncode(dst []int32, text string) []int32 {
	sc, _ := t.pool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	defer t.pool.Put(sc)
	if text == "" {
		return dst
	}
	if !t.hasRawAdded {
		return t.encodePiece(dst, text, true, sc)
	}
	first := true
	t.splitAdded(text, false, func(piece string, id int) {
		if id >= 0 {
			dst = append(dst, int32(id))
		} else {
			dst = t.encodePiece(dst, piece, first, sc)
		}
		first = false
	})
	return dst
}

// encodePiece normalizes, pre-tokenizes and tokenizes one piece of text that
// holds no raw added token.
func (t *Tokenizer) encodePiece(dst []int32, s string, first bool, sc *scratch) []int32 {
	if t.bertFast && isASCII(s) {
		return t.bertASCII(dst, s, sc)
	}
	if t.norm != nil {
		s = t.norm.normalize(s)
	}
	if s == "" {
		return dst
	}
	if t.hasNormAdded {
		t.splitAdded(s, true, func(piece string, id int) {
			if id >= 0 {
				dst = append(dst, int32(id))
			} else {
				dst = t.preAndModel(dst, piece, first, sc)
			}
		})
		return dst
	}
	return t.preAndModel(dst, s, first, sc)
}

func (t *Tokenizer) preAndModel(dst []int32, s string, first bool, sc *scratch) []int32 {
	if t.pre == nil {
		return t.model(dst, s, sc)
	}
	t.pre.split(s, first, func(w string) {
		if w != "" {
			dst = t.model(dst, w, sc)
		}
	})
	return dst
}

func (t *Tokenizer) model(dst []int32, w string, sc *scratch) []int32 {
	if t.kind == Unigram {
		return t.unigram(dst, w, sc)
	}
	sc.word = append(sc.word[:0], w...)
	return t.wordPiece(dst, sc.word, sc)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// bertASCII is BertNormalizer + BertPreTokenizer + WordPiece fused for pure
// ASCII input, where accent stripping and CJK padding are no-ops: control
// bytes vanish, whitespace ends a word, punctuation is a word of its own.
func (t *Tokenizer) bertASCII(dst []int32, s string, sc *scratch) []int32 {
	w := sc.word[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if len(w) > 0 {
				dst = t.wordPiece(dst, w, sc)
				w = w[:0]
			}
		case c < 0x20 || c == 0x7f:
			// control character: removed without splitting
		case asciiPunct[c]:
			if len(w) > 0 {
				dst = t.wordPiece(dst, w, sc)
				w = w[:0]
			}
			dst = append(dst, t.punctID(c, sc))
		default:
			if t.lower && c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			w = append(w, c)
		}
	}
	if len(w) > 0 {
		dst = t.wordPiece(dst, w, sc)
	}
	sc.word = w[:0]
	return dst
}

// punctID is the WordPiece id of the one-byte word c, looked up once: a
// lookup touches cold pages of the mapped vocabulary, so doing all of them
// at load time would cost a fresh process a quarter of a millisecond.
func (t *Tokenizer) punctID(c byte, sc *scratch) int32 {
	if v := t.punctIDs[c].Load(); v != 0 {
		return v - 1
	}
	var one [1]byte
	one[0] = c
	id := t.wordPiece(nil, one[:], sc)[0]
	t.punctIDs[c].Store(id + 1)
	return id
}

// splitAdded cuts s around added tokens (normalized ones when normalized is
// true, else the raw ones), leftmost-longest as the Aho-Corasick matcher in
// added_vocabulary.rs does; lstrip and rstrip widen a match over adjacent
// whitespace. f receives text pieces with id -1 and tokens with their id.
func (t *Tokenizer) splitAdded(s string, normalized bool, f func(piece string, id int)) {
	pos := 0
	last := 0
	for pos < len(s) {
		if !normalized && !t.addedFirst[s[pos]] {
			pos++
			continue
		}
		best := -1
		bestLen := 0
		for i := range t.added {
			a := &t.added[i]
			if a.normalized != normalized || a.content == "" {
				continue
			}
			if strings.HasPrefix(s[pos:], a.content) && len(a.content) > bestLen {
				if a.singleWord && !singleWordOK(s, pos, pos+len(a.content)) {
					continue
				}
				best, bestLen = i, len(a.content)
			}
		}
		if best < 0 {
			pos++ // added tokens are valid UTF-8, so they never start mid-rune
			continue
		}
		a := &t.added[best]
		start, end := pos, pos+bestLen
		if a.lstrip {
			for start > last {
				r, sz := utf8.DecodeLastRuneInString(s[last:start])
				if !isBertWhitespace(r) {
					break
				}
				start -= sz
			}
		}
		if a.rstrip {
			for end < len(s) {
				r, sz := utf8.DecodeRuneInString(s[end:])
				if !isBertWhitespace(r) {
					break
				}
				end += sz
			}
		}
		if start > last {
			f(s[last:start], -1)
		}
		f(s[start:end], a.id)
		last, pos = end, end
	}
	if last < len(s) {
		f(s[last:], -1)
	}
}

func isWordRune(r rune) bool { return r == '_' || unicodeIsAlnum(r) }

func singleWordOK(s string, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:start])
		if isWordRune(r) {
			return false
		}
	}
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		if isWordRune(r) {
			return false
		}
	}
	return true
}

// fileJSON is the part of tokenizer.json this package reads.
type fileJSON struct {
	AddedTokens  []addedJSON     `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Model        modelJSON       `json:"model"`
}

type addedJSON struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

type modelJSON struct {
	Type                    string          `json:"type"`
	UnkToken                *string         `json:"unk_token"`
	UnkID                   *int            `json:"unk_id"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	MaxInputCharsPerWord    *int            `json:"max_input_chars_per_word"`
	ByteFallback            bool            `json:"byte_fallback"`
	Vocab                   json.RawMessage `json:"vocab"`
}

// spec is everything but the vocabulary; it is stored as JSON in the cache.
type spec struct {
	Kind          Kind            `json:"kind"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	Added         []addedJSON     `json:"added"`
	Unk           int             `json:"unk"`
	Prefix        string          `json:"prefix"`
	MaxChars      int             `json:"max_chars"`
	MinScore      float64         `json:"min_score"`
	MaxTokenBytes int             `json:"max_token_bytes"`
	Median        int             `json:"median"`
}

// parseJSON reads a tokenizer.json document into a spec, the vocabulary
// strings indexed by id, and (for Unigram) their scores.
func parseJSON(data []byte) (*spec, []string, []float64, error) {
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, nil, fmt.Errorf("parse tokenizer.json: %w", err)
	}
	sp := &spec{Normalizer: f.Normalizer, PreTokenizer: f.PreTokenizer, Added: f.AddedTokens, Unk: -1}
	var tokens []string
	var scores []float64
	kind := f.Model.Type
	if kind == "" {
		switch {
		case f.Model.ContinuingSubwordPrefix != nil:
			kind = string(WordPiece)
		case len(f.Model.Vocab) > 0 && f.Model.Vocab[0] == '[':
			kind = string(Unigram)
		}
	}
	switch Kind(kind) {
	case WordPiece:
		var m map[string]int
		if err := json.Unmarshal(f.Model.Vocab, &m); err != nil {
			return nil, nil, nil, fmt.Errorf("parse WordPiece vocab: %w", err)
		}
		maxID := -1
		for _, id := range m {
			if id < 0 {
				return nil, nil, nil, fmt.Errorf("parse WordPiece vocab: negative id %d", id)
			}
			maxID = max(maxID, id)
		}
		if maxID >= 4*len(m)+16 {
			return nil, nil, nil, fmt.Errorf("parse WordPiece vocab: id %d far beyond %d entries", maxID, len(m))
		}
		tokens = make([]string, maxID+1)
		for tok, id := range m {
			tokens[id] = tok
		}
		sp.Kind = WordPiece
		unk := "[UNK]"
		if f.Model.UnkToken != nil {
			unk = *f.Model.UnkToken
		}
		id, ok := m[unk]
		if !ok {
			return nil, nil, nil, fmt.Errorf("WordPiece unk_token %q is not in the vocabulary", unk)
		}
		sp.Unk = id
		sp.Prefix = "##"
		if f.Model.ContinuingSubwordPrefix != nil {
			sp.Prefix = *f.Model.ContinuingSubwordPrefix
		}
		sp.MaxChars = 100
		if f.Model.MaxInputCharsPerWord != nil {
			sp.MaxChars = *f.Model.MaxInputCharsPerWord
		}
	case Unigram:
		var v [][2]json.RawMessage
		if err := json.Unmarshal(f.Model.Vocab, &v); err != nil {
			return nil, nil, nil, fmt.Errorf("parse Unigram vocab: %w", err)
		}
		if f.Model.ByteFallback {
			return nil, nil, nil, fmt.Errorf("%w: Unigram byte_fallback", ErrUnsupported)
		}
		tokens = make([]string, len(v))
		scores = make([]float64, len(v))
		sp.MinScore = math.Inf(1)
		for i, e := range v {
			if err := json.Unmarshal(e[0], &tokens[i]); err != nil {
				return nil, nil, nil, fmt.Errorf("parse Unigram vocab entry %d: %w", i, err)
			}
			if err := json.Unmarshal(e[1], &scores[i]); err != nil {
				return nil, nil, nil, fmt.Errorf("parse Unigram vocab entry %d: %w", i, err)
			}
			sp.MinScore = min(sp.MinScore, scores[i])
			sp.MaxTokenBytes = max(sp.MaxTokenBytes, len(tokens[i]))
		}
		sp.Kind = Unigram
		if f.Model.UnkID != nil {
			if *f.Model.UnkID < 0 || *f.Model.UnkID >= len(v) {
				return nil, nil, nil, fmt.Errorf("unk_id %d of the Unigram model is outside the vocabulary", *f.Model.UnkID)
			}
			sp.Unk = *f.Model.UnkID
		}
	default:
		return nil, nil, nil, fmt.Errorf("%w: model %q", ErrUnsupported, kind)
	}
	sp.Median = medianLength(tokens, f.AddedTokens)
	return sp, tokens, scores, nil
}

// medianLength is int(np.median(lengths)) over the distinct strings of the
// vocabulary and the added tokens, lengths in code points.
func medianLength(tokens []string, added []addedJSON) int {
	seen := make(map[string]struct{}, len(tokens)+len(added))
	lens := make([]int, 0, len(tokens)+len(added))
	add := func(s string) {
		if _, ok := seen[s]; ok {
			return
		}
		seen[s] = struct{}{}
		lens = append(lens, utf8.RuneCountInString(s))
	}
	for _, s := range tokens {
		add(s)
	}
	for _, a := range added {
		add(a.Content)
	}
	if len(lens) == 0 {
		return 0
	}
	sort.Ints(lens)
	n := len(lens)
	if n%2 == 1 {
		return lens[n/2]
	}
	return (lens[n/2-1] + lens[n/2]) / 2
}

// build assembles a Tokenizer from a spec and a vocabulary.
func build(sp *spec, v *vocab, scores []float64) (*Tokenizer, error) {
	t := &Tokenizer{
		kind: sp.Kind, vocab: v, scores: scores, unk: sp.Unk, prefix: sp.Prefix,
		maxChars: sp.MaxChars, minScore: sp.MinScore, maxTokenBytes: sp.MaxTokenBytes, median: sp.Median,
	}
	if t.kind == Unigram && len(scores) != v.size() {
		return nil, fmt.Errorf("unigram cache: %d scores for %d tokens", len(scores), v.size())
	}
	var err error
	if t.norm, err = parseNormalizer(sp.Normalizer); err != nil {
		return nil, err
	}
	if t.pre, err = parsePreTokenizer(sp.PreTokenizer); err != nil {
		return nil, err
	}
	for _, a := range sp.Added {
		t.added = append(t.added, addedToken{content: a.Content, id: a.ID, normalized: a.Normalized,
			lstrip: a.LStrip, rstrip: a.RStrip, special: a.Special, singleWord: a.SingleWord})
		if a.Normalized {
			t.hasNormAdded = true
		} else {
			t.hasRawAdded = true
		}
	}
	// Longest first, so equal-start ties pick the longer token directly.
	slices.SortStableFunc(t.added, func(a, b addedToken) int { return len(b.content) - len(a.content) })
	for _, a := range t.added {
		if !a.normalized && a.content != "" {
			t.addedFirst[a.content[0]] = true
		}
	}
	if bn, ok := t.norm.(bertNormalizer); ok && t.kind == WordPiece && !t.hasNormAdded {
		if _, ok := t.pre.(bertPre); ok && bn.clean && bn.chinese {
			t.bertFast, t.lower = true, bn.lower
		}
	}
	return t, nil
}

// FromJSON builds a Tokenizer from the bytes of a tokenizer.json file.
func FromJSON(data []byte) (*Tokenizer, error) {
	sp, tokens, scores, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	return build(sp, buildVocab(tokens), scores)
}

// Load reads the tokenizer.json at path. When cacheDir is not empty, the
// compact form is read from (or, after parsing the JSON, written to)
// cacheDir/<key>.bin, where key is a SHA-256 of the file's absolute path,
// size and modification time; a cache that cannot be written is skipped.
func Load(path, cacheDir string) (*Tokenizer, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	var cachePath string
	if cacheDir != "" {
		cachePath = cacheFile(cacheDir, path, st)
		if t, err := openCache(cachePath); err == nil {
			return t, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	sp, tokens, scores, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}
	v := buildVocab(tokens)
	t, err := build(sp, v, scores)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}
	if cachePath != "" {
		_ = writeCache(cachePath, sp, v, scores) // best effort: JSON works without it
	}
	return t, nil
}
