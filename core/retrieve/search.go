package retrieve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// Search modes.
const (
	ModeBM25   = "bm25"
	ModeVector = "vector"
	ModeHybrid = "hybrid"
)

// Defaults for Options.
const (
	DefaultK          = 10
	DefaultCandidates = 30
)

// ErrNoVectors is returned by Search in vector mode when the index has no
// usable vector index (no model configured, or sqlite-vec unavailable).
var ErrNoVectors = errors.New("no vector index")

// Options configures Search. The zero value means hybrid search with the
// defaults.
type Options struct {
	Mode       string  // ModeBM25, ModeVector or ModeHybrid ("" = hybrid)
	K          int     // results returned (0 = DefaultK)
	Candidates int     // candidates fetched from each leg (0 = DefaultCandidates, at least K)
	RRFK       float64 // RRF k (0 = DefaultRRFK)
	// BM25Weight and VectorWeight are the RRF weights w_i of the two lists.
	// When both are 0 (the zero value), both are 1.0; when only one is 0,
	// that list adds nothing to the scores.
	BM25Weight   float64
	VectorWeight float64
	MaxTokens    int // if > 0, cut the ranked list to this budget (see Budget)
	// MinCosine drops vector hits below this cosine similarity before
	// hybrid fusion, so a weak nearest neighbour cannot push aside an exact
	// BM25 match; 0 keeps every hit. Vector mode ignores it.
	MinCosine float64
	// BM25Lead keeps BM25's first BM25Lead hits at the head of a hybrid
	// ranking, in BM25 order, ahead of the RRF order of the rest (see
	// KeepLead); 0 is plain RRF. Other modes ignore it.
	BM25Lead int
	// Collapse folds near-duplicate chunks into the first of their group
	// before the first K are taken (see Collapse and Search), hydrating
	// more fused results and, if those run out, asking the legs for more
	// candidates, so that K distinct hits come back when the index holds
	// them. Without it, copies of one section can fill the K.
	Collapse bool
	// Copies is the index's mean number of chunks per distinct chunk text
	// (store.Store.ChunkCopies; at least 1, 0 = unknown). With Collapse,
	// the deepest window a leg is asked for is 4·Candidates times Copies
	// rounded up to a power of two (at most 8: DeepestWindow), since each
	// distinct hit then stands for Copies candidates on average; Search
	// first asks each leg for the smallest window Candidates·2^j that holds
	// K·Copies chunks (CollapseWindow) and asks again, for a window four
	// times deeper (or the deepest), only when collapsing leaves fewer than
	// K groups; unknown asks for 4·Candidates at once. For a given deepest
	// window the hits are the same whatever the first: they are those of
	// ranking the deepest at once.
	Copies float64
}

// Hit is one search result.
type Hit struct {
	ChunkID        int64
	Path           string // vault-relative
	Title          string // note title
	Section        string
	HeadingContext string
	Text           string
	Score          float64 // RRF score in hybrid mode (not descending when BM25Lead keeps a hit first); BM25 (-bm25) or cosine otherwise
	BM25Rank       int     // 1-based rank in the BM25 list, 0 when absent
	VecRank        int     // 1-based rank in the vector list, 0 when absent
	BM25Score      float64 // -bm25(), valid when BM25Rank > 0
	VecScore       float64 // cosine similarity, valid when VecRank > 0
	// AlsoIn holds the near-duplicates of this hit that Collapse folded
	// into it (Options.Collapse), in rank order, with their own paths,
	// ranks and scores; their AlsoIn is nil. Empty without Collapse.
	AlsoIn []Hit
}

// Source is what Search needs from an index: the two retrievers and a way
// to load chunks. core/store, wrapped by core/engine, provides it.
type Source interface {
	KeywordHits(ctx context.Context, query string, k int) ([]Scored, error)
	// VectorHits returns nil, nil when there is no vector index.
	VectorHits(ctx context.Context, vec []float32, k int) ([]Scored, error)
	// Hydrate fills Path, Title, Section, HeadingContext and Text for the
	// given ids, in order; missing ids are left out.
	Hydrate(ctx context.Context, ids []int64) ([]Hit, error)
}

// Embedder turns a query into a vector. core/embed.Model provides it.
type Embedder interface {
	Encode(text string) ([]float32, error)
}

// Search runs a BM25, vector or hybrid search.
//
// Hybrid runs BM25 and KNN with Options.Candidates candidates each, drops
// vector hits under Options.MinCosine, fuses the lists with Fuse (RRF,
// k = 60, weights 1.0 unless set), then keeps BM25's first Options.BM25Lead
// hits in front (KeepLead) and returns the first Options.K. With a nil
// Embedder, or a source without vectors, hybrid degrades to BM25 ranks
// alone (VecRank stays 0), and vector mode returns ErrNoVectors. A query
// without a letter, a digit or an emoji returns no hits; one whose only
// words are emoji (📅) is searched by BM25 alone.
//
// With Options.Collapse, the fused list is hydrated in rank order and
// near-duplicates are folded (see Collapse) until K distinct hits are
// found. When the candidates run out first and a leg returned as many as
// it was asked for, the window of each leg doubles, up to DeepestWindow
// (4 x Candidates without Options.Copies); the results new to the deeper
// windows
// are fused among themselves and ranked after the ones already seen, so
// deepening never reorders what the first window ranked.
func Search(ctx context.Context, src Source, emb Embedder, query string, opt Options) ([]Hit, error) {
	opt = opt.withDefaults()
	if opt.Mode == ModeVector && emb == nil {
		return nil, ErrNoVectors
	}
	word := hasWord(query)
	if !word && !hasEmoji(query) {
		// Nothing to match ("*", a lone quote): BM25 finds nothing, and
		// the embedding of punctuation would bring back arbitrary chunks.
		return nil, nil
	}
	// An emoji alone (📅) is matched by BM25, through its token in the cjk
	// column (ftsquery.EmojiToken), but not embedded: like punctuation, its
	// embedding would bring back arbitrary chunks.
	var qvec func() ([]float32, error)
	if word && (opt.Mode == ModeVector || opt.Mode == ModeHybrid) && emb != nil {
		qvec = queryVector(emb, query)
	}
	// With Collapse, each leg runs once for the window the deepening below
	// is expected to need (CollapseWindow), and every smaller window is a
	// prefix of that list: a leg's top n is the first n of its top 4n (both
	// legs rank exactly). A query that needs more runs the legs again, for
	// a window four times deeper, up to DeepestWindow.
	n := opt.Candidates
	depth := n
	if opt.Collapse {
		depth = CollapseWindow(opt)
	}
	kwAll, vecAll, err := legs(ctx, src, query, qvec, opt, depth)
	if err != nil {
		return nil, err
	}
	kw, vec := window(opt, kwAll, vecAll, n)
	fused := fuse(opt, kw, vec)
	var hits []Hit
	if !opt.Collapse {
		if len(fused) > opt.K {
			fused = fused[:opt.K]
		}
		want := make([]int64, len(fused))
		for i, f := range fused {
			want[i] = f.ID
		}
		if hits, err = src.Hydrate(ctx, want); err != nil {
			return nil, err
		}
	} else {
		var c collapser
		next, deepest := 0, DeepestWindow(opt)
		for {
			if next, err = c.fill(ctx, src, fused, next, opt.K, min(opt.Copies, maxFillCopies)); err != nil {
				return nil, err
			}
			if len(c.out) >= opt.K || n >= deepest || len(kw) < n && len(vec) < n {
				break
			}
			n *= 2
			if n > depth {
				depth = min(depth<<2, deepest)
				if kwAll, vecAll, err = legs(ctx, src, query, qvec, opt, depth); err != nil {
					return nil, err
				}
			}
			kw, vec = window(opt, kwAll, vecAll, n)
			seen := make(map[int64]bool, len(fused))
			for _, f := range fused {
				seen[f.ID] = true
			}
			for _, f := range fuse(opt, kw, vec) {
				if !seen[f.ID] {
					fused = append(fused, f)
				}
			}
		}
		hits = c.out[:min(len(c.out), opt.K)]
	}
	byID := make(map[int64]Fused, len(fused))
	for _, f := range fused {
		byID[f.ID] = f
	}
	kwScore, vecScore := scores(kw), scores(vec)
	fill := func(h *Hit) {
		f := byID[h.ChunkID]
		h.BM25Rank, h.VecRank = f.Ranks[0], f.Ranks[1]
		h.BM25Score, h.VecScore = kwScore[f.ID], vecScore[f.ID]
		switch opt.Mode {
		case ModeBM25:
			h.Score = h.BM25Score
		case ModeVector:
			h.Score = h.VecScore
		default:
			h.Score = f.Score
		}
	}
	for i := range hits {
		fill(&hits[i])
		for j := range hits[i].AlsoIn {
			fill(&hits[i].AlsoIn[j])
		}
	}
	if opt.MaxTokens > 0 {
		hits = Budget(hits, opt.MaxTokens)
	}
	return hits, nil
}

// maxDeepen is how many times Search with Options.Collapse doubles the
// legs' candidates when copies leave fewer than K distinct hits, for an
// index without Options.Copies: at most 4 x Candidates per leg (120 by
// default). On five versions of the PowerShell docs, where most sections
// exist five times, 30 candidates per leg hold 6 to 9 distinct hits and
// 60 hold 10.
const maxDeepen = 2

// maxFillCopies bounds the Options.Copies by which a collapsed search
// scales how many fused results it hydrates at once (collapser.fill,
// which reads a Copies below 1 or NaN as 1): 8, as for the windows.
const maxFillCopies = 1 << maxCopiesDeepen

// maxCopiesDeepen bounds the doublings Options.Copies adds to maxDeepen:
// 3, so that a leg ranks at most 32 x Candidates (960 by default), however
// large a (damaged) Copies.
const maxCopiesDeepen = 3

// DeepestWindow returns the most candidates Search with Options.Collapse
// asks a leg for: Candidates·2^(maxDeepen+e), where 2^e is Copies rounded
// up to a power of two (e ≤ maxCopiesDeepen; e = 0 without Copies). Zero
// fields of opt take their defaults.
func DeepestWindow(opt Options) int {
	opt = opt.withDefaults()
	e := 0
	for e < maxCopiesDeepen && opt.Copies >= 1 && float64(int(1)<<e) < opt.Copies {
		e++
	}
	return opt.Candidates << (maxDeepen + e)
}

// CollapseWindow returns the number of candidates Search first asks each
// leg for with Options.Collapse (see Options.Copies): the smallest
// Candidates·2^j up to DeepestWindow of at least K·Copies chunks, in which
// K groups of the index's mean size fit (the expected number of distinct
// texts among d chunks is d/Copies); 4·Candidates without Copies. Zero
// fields of opt take their defaults.
func CollapseWindow(opt Options) int {
	opt = opt.withDefaults()
	d := opt.Candidates
	if !(opt.Copies >= 1) {
		return d << maxDeepen
	}
	for deepest := DeepestWindow(opt); d < deepest && float64(d) < float64(opt.K)*opt.Copies; {
		d <<= 1
	}
	return d
}

// legs runs the legs the mode needs with n candidates each: BM25 on query
// and KNN on the vector qvec returns (qvec nil, or returning nil: no
// vector leg), unfiltered (see window). qvec is called on the vector
// leg's side, while the BM25 leg runs, so that embedding the query (and
// opening the model, for an Embedder that opens it on first use) adds
// nothing to a search whose BM25 leg is the slower.
func legs(ctx context.Context, src Source, query string, qvec func() ([]float32, error), opt Options, n int) (kw, vec []Scored, err error) {
	needKW := opt.Mode == ModeBM25 || opt.Mode == ModeHybrid
	needVec := (opt.Mode == ModeVector || opt.Mode == ModeHybrid) && qvec != nil
	// The legs are independent: run them side by side (the store allows
	// two readers), so hybrid costs about the slower leg, not the sum.
	var kwErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if needKW {
			kw, kwErr = src.KeywordHits(ctx, query, n)
		}
	}()
	if needVec {
		var v []float32
		if v, err = qvec(); err == nil && v != nil {
			vec, err = src.VectorHits(ctx, v, n)
		}
	}
	<-done
	if kwErr != nil {
		return nil, nil, kwErr
	}
	if err != nil {
		return nil, nil, err
	}
	return kw, vec, nil
}

// queryVector returns the function that embeds query with emb on its first
// call and returns the same vector, or error, on every call: nil for a
// query whose words the model does not know, which embeds to the zero
// vector, whose "nearest" chunks would be arbitrary.
func queryVector(emb Embedder, query string) func() ([]float32, error) {
	var (
		once sync.Once
		v    []float32
		err  error
	)
	return func() ([]float32, error) {
		once.Do(func() {
			if v, err = emb.Encode(query); err != nil {
				v, err = nil, fmt.Errorf("embed query: %w", err)
			} else if isZero(v) {
				v = nil
			}
		})
		return v, err
	}
}

// window returns the first n hits of each leg's list (see legs), with the
// vector hits under Options.MinCosine dropped in hybrid mode. kw and vec
// are not changed.
func window(opt Options, kw, vec []Scored, n int) (kwN, vecN []Scored) {
	kwN, vecN = kw[:min(n, len(kw))], vec[:min(n, len(vec))]
	if opt.MinCosine > 0 && opt.Mode == ModeHybrid {
		kept := make([]Scored, 0, len(vecN))
		for _, h := range vecN {
			if h.Score >= opt.MinCosine {
				kept = append(kept, h)
			}
		}
		vecN = kept
	}
	return kwN, vecN
}

// fuse ranks the legs' lists as the mode asks: one list alone in BM25 and
// vector mode, RRF with KeepLead in hybrid mode.
func fuse(opt Options, kw, vec []Scored) []Fused {
	lists := []Ranked{{IDs: ids(kw), Weight: opt.BM25Weight}, {IDs: ids(vec), Weight: opt.VectorWeight}}
	switch opt.Mode {
	case ModeBM25:
		return Fuse(opt.RRFK, lists[0], Ranked{})
	case ModeVector:
		return Fuse(opt.RRFK, Ranked{}, lists[1])
	default:
		return KeepLead(Fuse(opt.RRFK, lists...), lists[0].IDs, opt.BM25Lead)
	}
}

// Budget returns the longest prefix of hits whose estimated size fits in
// maxTokens tokens, estimating textan.CharsPerToken characters (runes) per
// token over each hit's path, section and text (not the hits in AlsoIn).
// Order is kept. When even the first hit does
// not fit, it is kept with its text cut (at a space, marked "…") to what the
// budget leaves (see TrimText) - down to "…" alone when even its path and
// section fill the budget - so a small budget never turns results into
// none.
func Budget(hits []Hit, maxTokens int) []Hit {
	used := 0
	for i, h := range hits {
		used += len([]rune(h.Path)) + len([]rune(h.Section)) + len([]rune(h.Text))
		// used > CharBudget(maxTokens) is ceil(used/CharsPerToken) > maxTokens.
		if used > textan.CharBudget(maxTokens) {
			if i > 0 {
				return hits[:i]
			}
			room := max(textan.CharBudget(maxTokens)-len([]rune(h.Path))-len([]rune(h.Section)), 2)
			first := h
			first.Text = TrimText(h.Text, room)
			return []Hit{first}
		}
	}
	return hits
}

// TrimText returns text unchanged if it has at most limit runes, and
// otherwise a prefix ending at a line or word boundary followed by "…", of
// at most limit runes in total ("" when limit is below 2).
func TrimText(text string, limit int) string {
	if utf8.RuneCountInString(text) <= limit {
		return text
	}
	if limit <= 1 {
		return ""
	}
	// Byte offset of the first limit-1 runes (room for the ellipsis).
	cut := 0
	for range limit - 1 {
		_, size := utf8.DecodeRuneInString(text[cut:])
		cut += size
	}
	prefix := text[:cut]
	if i := strings.LastIndexByte(prefix, '\n'); i >= len(prefix)/2 {
		prefix = prefix[:i]
	} else if i := strings.LastIndexFunc(prefix, unicode.IsSpace); i > 0 {
		prefix = prefix[:i]
	}
	return strings.TrimRightFunc(prefix, unicode.IsSpace) + "…"
}

func (o Options) withDefaults() Options {
	if o.Mode == "" {
		o.Mode = ModeHybrid
	}
	if o.K <= 0 {
		o.K = DefaultK
	}
	if o.Candidates <= 0 {
		o.Candidates = DefaultCandidates
	}
	if o.Candidates < o.K {
		o.Candidates = o.K
	}
	if o.RRFK <= 0 {
		o.RRFK = DefaultRRFK
	}
	if o.BM25Weight == 0 && o.VectorWeight == 0 {
		o.BM25Weight, o.VectorWeight = 1, 1
	}
	return o
}

func ids(s []Scored) []int64 {
	out := make([]int64, len(s))
	for i, x := range s {
		out[i] = x.ID
	}
	return out
}

func scores(s []Scored) map[int64]float64 {
	m := make(map[int64]float64, len(s))
	for _, x := range s {
		m[x.ID] = x.Score
	}
	return m
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// hasWord reports whether s holds a letter or a digit.
func hasWord(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// hasEmoji reports whether s holds an emoji (textan.Emoji), which keyword
// search matches as a token of its own.
func hasEmoji(s string) bool {
	for _, r := range s {
		if textan.Emoji(r) {
			return true
		}
	}
	return false
}
