package compress

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// BM25 parameters (Robertson and Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", 2009), with Lucene's non-negative IDF
// ln(1 + (N - df + 0.5) / (df + 0.5)).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// rankUnits sets the rank of every tierRank unit: the order of Reciprocal
// Rank Fusion (retrieve.Fuse, k = retrieve.DefaultRRFK, equal weights) of
//
//   - BM25 of the unit's text against the query terms (command, description
//     and latest prompt); units without a matching term are absent from this
//     list;
//   - closeness to the head or tail of its stream (a unit's distance, in
//     units, to the nearer end), since a command's first and last lines
//     usually say what it did and how it ended;
//   - with emb set, cosine similarity to the query (an embedding failure
//     drops this signal).
//
// Fuse breaks ties by best single rank, then by unit index (position), so
// the order is deterministic.
func rankUnits(ctx context.Context, units []unit, lines []line, q *query, emb Embedder) {
	var ids []int64
	var streams []int
	for i, u := range units {
		if u.tier == tierRank {
			ids = append(ids, int64(i))
			streams = append(streams, u.stream)
		}
	}
	if len(ids) == 0 {
		return
	}
	var bm25 []int64
	if len(q.terms) > 0 {
		// A unit's tokens are those of its lines, or of its representative
		// group for a collapsed run, counted when the lines were prepared.
		docs := make([]bm25Doc, len(ids))
		for k, id := range ids {
			u := &units[id]
			first, last := u.first, u.last
			if u.run {
				first, last = u.repAt, u.repAt+u.period-1
			}
			d := &docs[k]
			for i := first; i <= last; i++ {
				d.len += int(lines[i].ntok)
				for _, h := range lines[i].hits {
					if h.stem < 0 {
						continue
					}
					if d.tf == nil {
						d.tf = make([]int, len(q.stems))
					}
					d.tf[h.stem]++
				}
			}
		}
		bm25 = bm25Order(ids, docs, len(q.stems))
	}
	lists := []retrieve.Ranked{
		{IDs: bm25, Weight: 1},
		{IDs: edgeRank(ids, streams), Weight: 1},
	}
	if emb != nil && len(q.terms) > 0 {
		texts := make([]string, len(ids))
		for k, id := range ids {
			texts[k] = unitText(units[id], lines)
		}
		if ranked := embedRank(ctx, emb, ids, texts, strings.Join(q.terms, " ")); ranked != nil {
			lists = append(lists, retrieve.Ranked{IDs: ranked, Weight: 1})
		}
	}
	for r, f := range retrieve.Fuse(0, lists...) {
		units[f.ID].rank = r
	}
}

func unitText(u unit, lines []line) string {
	first, last := u.first, u.last
	if u.run {
		first, last = u.repAt, u.repAt+u.period-1
	}
	var b strings.Builder
	for i := first; i <= last; i++ {
		b.WriteString(lines[i].text)
		b.WriteByte('\n')
	}
	return b.String()
}

// queryTerms are the distinct terms of the command (all words but flags'
// dashes), the description and the prompt (without stopwords).
func queryTerms(req Request) []string {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range tokens(req.Command) {
		add(t)
	}
	for _, t := range textan.SearchableTerms(req.Description + "\n" + req.Prompt) {
		add(t)
	}
	return out
}

// eachToken calls fn with each token of text, as tokens would return them,
// without allocating for ASCII text but for its buffer (the hot path over a
// whole output uses a tokenizer's each, whose buffer is reused).
// Bytes >= 0x80 count as letters here; tokens holding them go through
// tokens for exact Unicode handling, unless they hold no letter or digit at
// all (marks such as "✓" or "━━━"). The token is passed as a string, or,
// when it had to be lowercased, as a byte slice valid only during the call
// (the other argument is then empty).
func eachToken(text string, fn func(tok string, lowered []byte)) {
	new(tokenizer).each(text, fn)
}

// tokenizer holds eachToken's buffer for lowercasing tokens, so reading
// many lines allocates it once.
type tokenizer struct{ buf [64]byte }

// each is eachToken with t's buffer.
func (z *tokenizer) each(text string, fn func(tok string, lowered []byte)) {
	for i := 0; i < len(text); {
		for i < len(text) && tokenClass[text[i]] == 0 {
			i++
		}
		start := i
		var cls uint8 // union of the classes of the token's bytes
		for ; i < len(text); i++ {
			c := tokenClass[text[i]]
			if c == 0 {
				break
			}
			cls |= c
		}
		w := text[start:i]
		switch {
		case w == "":
		case cls&tokHigh != 0:
			if cls == tokHigh && !hasLetterOrDigit(w) {
				continue
			}
			for _, t := range tokens(w) {
				fn(t, nil)
			}
		case cls&tokUpper != 0 && len(w) > len(z.buf):
			for _, t := range tokens(w) {
				fn(t, nil)
			}
		case len(w) < 2 || cls == tokDigit:
		case cls&tokUpper != 0:
			b := z.buf[:len(w)]
			for k := 0; k < len(w); k++ {
				c := w[k]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b[k] = c
			}
			if !isPlaceholderWord(string(b)) {
				fn("", b)
			}
		case !isPlaceholderWord(w):
			fn(w, nil)
		}
	}
}

// Token byte classes (see tokenClass); 0 separates tokens.
const (
	tokLower uint8 = 1 << iota // 'a'–'z'
	tokUpper                   // 'A'–'Z'
	tokDigit                   // '0'–'9'
	tokHigh                    // a byte of a multi-byte UTF-8 sequence
)

var tokenClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = tokLower
		case c >= 'A' && c <= 'Z':
			t[c] = tokUpper
		case c >= '0' && c <= '9':
			t[c] = tokDigit
		case c >= 0x80:
			t[c] = tokHigh
		}
	}
	return t
}()

// hasLetterOrDigit reports whether s holds a Unicode letter or digit.
func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// tokens returns the terms of text (textan.Terms: lowercased runs of
// letters and digits) of two or more bytes, skipping pure numbers and the
// normaliser's placeholders.
func tokens(text string) []string {
	var out []string
	for _, f := range textan.Terms(text) {
		if len(f) < 2 || isNumber(f) || isPlaceholderWord(f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// isPlaceholderWord reports whether w is a word of one of the
// normaliser's placeholders ("<time>" gives "time"), which says nothing
// about a line.
func isPlaceholderWord(w string) bool {
	switch w {
	case "time", "dur", "rate", "addr", "pid", "port", "tmp", "uuid", "progress":
		return true
	}
	return false
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// query is what output lines are ranked against: the distinct terms of
// the command, description and prompt (queryTerms), and their distinct
// stems (see textan.StemForCompare) in order of first appearance, each with a set to look
// tokens up in.
type query struct {
	terms, stems         []string
	termIndex, stemIndex termIndex
	// heads has a bit for the first two bytes of every term and stem: a
	// token matches a term, or its stem (a prefix of it, two bytes or more)
	// a stem, only if its own first two bytes are there.
	heads *[1 << 16 / 64]uint64
}

// head is the bit index of the first two bytes of w (len(w) >= 2).
func head(w string) int { return int(w[0])<<8 | int(w[1]) }

// queryHit is a token of a line that is a query term or whose stem is a
// query stem: indices into query.terms and query.stems, -1 for none.
type queryHit struct {
	term, stem int32
}

func newQuery(req Request) *query {
	q := &query{terms: queryTerms(req)}
	seen := map[string]bool{}
	for _, t := range q.terms {
		if t = textan.StemForCompare(t); !seen[t] {
			seen[t] = true
			q.stems = append(q.stems, t)
		}
	}
	q.termIndex = newTermIndex(q.terms)
	q.stemIndex = newTermIndex(q.stems)
	q.heads = new([1 << 16 / 64]uint64)
	for _, w := range append(q.terms[:len(q.terms):len(q.terms)], q.stems...) {
		if len(w) >= 2 {
			q.heads[head(w)/64] |= 1 << (head(w) % 64)
		}
	}
	return q
}

// mayHit reports whether the token w (two bytes or more) may be a term or
// have a query stem (see query.heads).
func (q *query) mayHit(w0, w1 byte) bool {
	h := int(w0)<<8 | int(w1)
	return q.heads[h/64]&(1<<(h%64)) != 0
}

// tokenStats counts the tokens of text (as eachToken reads them, with z)
// and appends to hits those that are query terms or have a query stem. It
// returns the count and hits.
func (q *query) tokenStats(z *tokenizer, text string, hits []queryHit) (int, []queryHit) {
	if len(q.terms) == 0 {
		n := 0
		z.each(text, func(string, []byte) { n++ })
		return n, hits
	}
	n := 0
	z.each(text, func(t string, lowered []byte) {
		n++
		if lowered != nil && !q.mayHit(lowered[0], lowered[1]) || lowered == nil && !q.mayHit(t[0], t[1]) {
			return
		}
		h := queryHit{term: -1, stem: -1}
		if lowered != nil {
			h.term = q.termIndex.find(lowered)
			h.stem = q.stemIndex.find(textan.StemForCompareBytes(lowered))
		} else {
			h.term = q.termIndex.findString(t)
			h.stem = q.stemIndex.findString(textan.StemForCompare(t))
		}
		if h.term >= 0 || h.stem >= 0 {
			hits = append(hits, h)
		}
	})
	return n, hits
}

// termIndex maps terms to their index in a list, with a filter (see
// filterSlot) that rejects most other tokens without a map look-up.
type termIndex struct {
	idx    map[string]int32
	filter *[filterSize]bool
}

func newTermIndex(terms []string) termIndex {
	x := termIndex{idx: make(map[string]int32, len(terms)), filter: new([filterSize]bool)}
	for i, t := range terms {
		x.idx[t] = int32(i)
		x.filter[filterSlotString(t)] = true
	}
	return x
}

// find returns the index of w, or -1.
func (x termIndex) find(w []byte) int32 {
	if !x.filter[filterSlot(w)] {
		return -1
	}
	if i, ok := x.idx[string(w)]; ok {
		return i
	}
	return -1
}

// findString is find for a string.
func (x termIndex) findString(w string) int32 {
	if !x.filter[filterSlotString(w)] {
		return -1
	}
	if i, ok := x.idx[w]; ok {
		return i
	}
	return -1
}

// bm25Doc is what BM25 reads of a unit: its length in tokens and, per
// query stem, how often it occurs (nil when none does).
type bm25Doc struct {
	len int
	tf  []int
}

// bm25Order returns the ids (ids[k] is docs[k]) that hold at least one of
// nStems query stems, best BM25 score first (ties: earlier id first). The
// scores sum over the stems in query order, so the floats are
// deterministic.
func bm25Order(ids []int64, docs []bm25Doc, nStems int) []int64 {
	df := make([]int, nStems)
	total := 0
	for _, d := range docs {
		total += d.len
		for t, f := range d.tf {
			if f > 0 {
				df[t]++
			}
		}
	}
	n := float64(len(ids))
	avg := float64(total) / n
	if avg == 0 {
		avg = 1
	}
	type scored struct {
		id    int64
		score float64
	}
	var hits []scored
	for k, d := range docs {
		if d.tf == nil {
			continue
		}
		s := 0.0
		for t, tf := range d.tf {
			f := float64(tf)
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(d.len)/avg))
		}
		hits = append(hits, scored{ids[k], s})
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.id
	}
	return out
}

// bm25Rank is bm25Order over documents given as tokens (tokensOf(k, fn)
// calls fn with each token of ids[k], as eachToken does) and raw query
// terms: the plain reference of the counts rankUnits takes from lines.
func bm25Rank(ids []int64, tokensOf func(k int, fn func(string, []byte)), terms []string) []int64 {
	if len(terms) == 0 {
		return nil
	}
	var stems []string
	index := map[string]int{}
	for _, t := range terms {
		if t = textan.StemForCompare(t); !slices.Contains(stems, t) {
			index[t] = len(stems)
			stems = append(stems, t)
		}
	}
	docs := make([]bm25Doc, len(ids))
	for k := range ids {
		tokensOf(k, func(t string, lowered []byte) {
			docs[k].len++
			if lowered != nil {
				t = string(textan.StemForCompareBytes(lowered))
			} else {
				t = textan.StemForCompare(t)
			}
			if i, ok := index[t]; ok {
				if docs[k].tf == nil {
					docs[k].tf = make([]int, len(stems))
				}
				docs[k].tf[i]++
			}
		})
	}
	return bm25Order(ids, docs, len(stems))
}

// edgeRank orders ids (given in output order) by distance to the nearer
// end of their own stream (streams[k] is the stream of ids[k]), so both
// stdout's and stderr's heads and tails come first; ties go to the earlier
// id.
func edgeRank(ids []int64, streams []int) []int64 {
	type edge struct {
		id   int64
		dist int
	}
	out := make([]edge, len(ids))
	for lo := 0; lo < len(ids); {
		hi := lo
		for hi < len(ids) && streams[hi] == streams[lo] {
			hi++
		}
		for k := lo; k < hi; k++ {
			out[k] = edge{ids[k], min(k-lo, hi-1-k)}
		}
		lo = hi
	}
	slices.SortStableFunc(out, func(a, b edge) int { return cmp.Compare(a.dist, b.dist) })
	ranked := make([]int64, len(out))
	for i, e := range out {
		ranked[i] = e.id
	}
	return ranked
}

// embedRank orders ids by cosine similarity of their text to the query
// (ties: earlier id first); nil when embedding fails.
func embedRank(ctx context.Context, emb Embedder, ids []int64, texts []string, query string) []int64 {
	vecs, err := emb.EncodeBatch(ctx, append([]string{query}, texts...))
	if err != nil || len(vecs) != len(texts)+1 {
		return nil
	}
	q := vecs[0]
	type scored struct {
		id  int64
		sim float64
	}
	s := make([]scored, len(ids))
	for i := range ids {
		s[i] = scored{ids[i], cosine(q, vecs[i+1])}
	}
	slices.SortStableFunc(s, func(a, b scored) int { return cmp.Compare(b.sim, a.sim) })
	out := make([]int64, len(s))
	for i := range s {
		out[i] = s[i].id
	}
	return out
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// filterSlotString is filterSlot for a string, without converting it.
func filterSlotString(w string) int {
	if len(w) == 0 {
		return 0
	}
	h := uint(len(w))*131 + uint(w[0])*31 + uint(w[len(w)-1])*7 + uint(w[len(w)/2])
	return int(h % filterSize)
}
