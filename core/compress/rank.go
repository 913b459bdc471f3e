package compress

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/vaultctx/vaultctx/core/hookio"
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
func rankUnits(ctx context.Context, units []unit, lines []line, req Request, emb Embedder) {
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
	query := queryTerms(req)
	// The tokens of a unit, read from its lines without joining them.
	unitTokens := func(k int, fn func(string, []byte)) {
		u := units[ids[k]]
		if u.run {
			eachToken(u.rep, fn)
			return
		}
		for i := u.first; i <= u.last; i++ {
			eachToken(lines[i].text, fn)
		}
	}

	lists := []retrieve.Ranked{
		{IDs: bm25Rank(ids, unitTokens, query), Weight: 1},
		{IDs: edgeRank(ids, streams), Weight: 1},
	}
	if emb != nil && len(query) > 0 {
		texts := make([]string, len(ids))
		for k, id := range ids {
			texts[k] = unitText(units[id], lines)
		}
		if ranked := embedRank(ctx, emb, ids, texts, strings.Join(query, " ")); ranked != nil {
			lists = append(lists, retrieve.Ranked{IDs: ranked, Weight: 1})
		}
	}
	for r, f := range retrieve.Fuse(0, lists...) {
		units[f.ID].rank = r
	}
}

func unitText(u unit, lines []line) string {
	if u.run {
		return u.rep
	}
	var b strings.Builder
	for i := u.first; i <= u.last; i++ {
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
	for _, t := range hookio.SearchableTerms(req.Description + "\n" + req.Prompt) {
		add(t)
	}
	return out
}

// eachToken calls fn with each token of text, as tokens would return them,
// without allocating for ASCII text (the hot path over a whole output).
// Bytes >= 0x80 count as letters here; tokens holding them go through
// tokens for exact Unicode handling, unless they hold no letter or digit at
// all (marks such as "✓" or "━━━"). The token is passed as a string, or,
// when it had to be lowercased, as a byte slice valid only during the call
// (the other argument is then empty).
func eachToken(text string, fn func(tok string, lowered []byte)) {
	var buf [64]byte
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
		case cls&tokUpper != 0 && len(w) > len(buf):
			for _, t := range tokens(w) {
				fn(t, nil)
			}
		case len(w) < 2 || cls == tokDigit:
		case cls&tokUpper != 0:
			b := buf[:len(w)]
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

// tokens splits text into lowercased runs of letters and digits of two or
// more characters, skipping pure numbers and the normaliser's placeholders.
func tokens(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
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

// bm25Rank returns the ids whose tokens (tokensOf(k, fn) calls fn with each
// token of ids[k]) match at least one query term, best BM25 score first
// (ties: earlier id first).
func bm25Rank(ids []int64, tokensOf func(k int, fn func(string, []byte)), query []string) []int64 {
	if len(query) == 0 {
		return nil
	}
	q := map[string]bool{}
	var filter [filterSize]bool
	var stems []string
	for _, t := range query {
		t = stem(t)
		if !q[t] {
			stems = append(stems, t)
		}
		q[t] = true
		filter[filterSlot([]byte(t))] = true
	}
	query = stems
	tf := make([]map[string]int, len(ids))
	lens := make([]int, len(ids))
	df := map[string]int{}
	total := 0
	for i := range ids {
		tokensOf(i, func(t string, lowered []byte) {
			lens[i]++
			total++
			if lowered != nil {
				lowered = stemBytes(lowered)
				if !filter[filterSlot(lowered)] || !q[string(lowered)] {
					return
				}
				t = string(lowered) // a query term: rare enough to copy
			} else if t = stem(t); !filter[filterSlotString(t)] || !q[t] {
				return
			}
			if tf[i] == nil {
				tf[i] = map[string]int{}
			}
			if tf[i][t] == 0 {
				df[t]++
			}
			tf[i][t]++
		})
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
	for i := range ids {
		if tf[i] == nil {
			continue
		}
		s := 0.0
		for _, t := range query { // query order: deterministic float sums
			f := float64(tf[i][t])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(lens[i])/avg))
		}
		hits = append(hits, scored{ids[i], s})
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.id
	}
	return out
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

// stem strips one common English inflection ("-ing", "-ed", "-s")
// when at least three letters remain, so "install" matches "installed" and
// "installing" — a light suffix stripper in the spirit of the first step of
// Porter's algorithm (Porter, "An algorithm for suffix stripping", 1980),
// not the full algorithm. It returns a prefix of w.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "s"} {
		if len(w) >= len(suf)+3 && w[len(w)-len(suf):] == suf {
			if suf == "s" && w[len(w)-2] == 's' { // "class", "pass"
				return w
			}
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// stemBytes is stem for a byte slice.
func stemBytes(w []byte) []byte {
	for _, suf := range []string{"ing", "ed", "s"} {
		if len(w) >= len(suf)+3 && string(w[len(w)-len(suf):]) == suf {
			if suf == "s" && w[len(w)-2] == 's' {
				return w
			}
			return w[:len(w)-len(suf)]
		}
	}
	return w
}
