package ftsquery

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
)

// PhraseTokens returns the tokens of term, one of Terms (a quoted phrase
// of one or more tokens, optionally behind a column filter such as
// TextColumns), as Tokens forms them. It returns nil for a term that is
// not a quoted phrase or holds no token.
func PhraseTokens(term string) []string {
	if i := strings.IndexByte(term, '"'); i > 0 && strings.HasSuffix(term[:i], ":") {
		term = term[i:]
	}
	if len(term) < 2 || term[0] != '"' || term[len(term)-1] != '"' {
		return nil
	}
	var toks []string
	Tokens(strings.ReplaceAll(term[1:len(term)-1], `""`, `"`), func(b []byte) {
		toks = append(toks, string(b))
	})
	return toks
}

// PhraseCounter counts the instances of phrases in texts as FTS5 counts
// the instances of a phrase query in a column: every run of consecutive
// tokens (Tokens, before stemming) equal to the phrase's tokens, runs
// allowed to overlap ("a a" occurs twice in "a a a"). It is the term
// frequency of BM25 over a column tokenized by unicode61 alone.
//
// A PhraseCounter reuses its buffers: it is not safe for concurrent use.
type PhraseCounter struct {
	phrases [][][]byte
	// active[i] holds the lengths of the partial matches of phrase i that
	// end at the last token.
	active, next [][]int
	low          []byte // the lowercased text of Count's ASCII path
}

// NewPhraseCounter returns a counter of phrases, each a list of tokens as
// PhraseTokens returns them. An empty phrase is never counted.
func NewPhraseCounter(phrases [][]string) *PhraseCounter {
	c := &PhraseCounter{phrases: make([][][]byte, len(phrases)), active: make([][]int, len(phrases)), next: make([][]int, len(phrases))}
	for i, p := range phrases {
		for _, t := range p {
			c.phrases[i] = append(c.phrases[i], []byte(t))
		}
	}
	return c
}

// Count adds to counts[i] the instances of phrase i in text. counts must
// have one element per phrase.
func (c *PhraseCounter) Count(text string, counts []uint32) {
	c.CountOnly(text, nil, counts)
}

// CountOnly is Count for the phrases listed in only (indexes into the
// phrases; nil means all of them): the others' counts are left as they
// are when text is ASCII, and counted as well otherwise.
func (c *PhraseCounter) CountOnly(text string, only []int, counts []uint32) {
	for i := range c.active {
		c.active[i] = c.active[i][:0]
	}
	low, ok := lowerASCII(c.low[:0], text)
	c.low = low
	if !ok {
		Tokens(text, func(tok []byte) { c.token(tok, counts) })
		return
	}
	// ASCII text: a token is a run of letters and digits, so a phrase
	// occurs where its tokens occur, lowercased, each between non-token
	// bytes and with only non-token bytes between them. Found with
	// bytes.Index instead of tokenizing the text: the same counts.
	for k := 0; ; k++ {
		i := k
		if only != nil {
			if k == len(only) {
				break
			}
			i = only[k]
		} else if k == len(c.phrases) {
			break
		}
		p := c.phrases[i]
		if len(p) == 0 || len(p[0]) == 0 {
			continue
		}
		for off := 0; ; {
			j := bytes.Index(low[off:], p[0])
			if j < 0 {
				break
			}
			j += off
			off = j + 1
			if j > 0 && asciiFold[low[j-1]] != 0 {
				continue
			}
			if phraseFollows(low, j+len(p[0]), p[1:]) {
				counts[i]++
			}
		}
	}
}

// phraseFollows reports whether a token ends at low[e] (lowercase ASCII
// text) and rest (lowercase tokens) follow it, each after non-token bytes
// alone.
func phraseFollows(low []byte, e int, rest [][]byte) bool {
	if e < len(low) && asciiFold[low[e]] != 0 {
		return false
	}
	for _, tok := range rest {
		for e < len(low) && asciiFold[low[e]] == 0 {
			e++
		}
		if !bytes.HasPrefix(low[e:], tok) {
			return false
		}
		e += len(tok)
		if e < len(low) && asciiFold[low[e]] != 0 {
			return false
		}
	}
	return true
}

// token advances the partial matches by the next token of a text.
func (c *PhraseCounter) token(tok []byte, counts []uint32) {
	for i, p := range c.phrases {
		if len(p) == 0 {
			continue
		}
		next := c.next[i][:0]
		for _, m := range c.active[i] {
			if bytes.Equal(tok, p[m]) {
				if m+1 == len(p) {
					counts[i]++
				} else {
					next = append(next, m+1)
				}
			}
		}
		if bytes.Equal(tok, p[0]) {
			if len(p) == 1 {
				counts[i]++
			} else {
				next = append(next, 1)
			}
		}
		c.active[i], c.next[i] = next, c.active[i]
	}
}

// lowerASCII appends text to dst with A-Z lowercased, eight bytes at a
// time (SWAR: each byte's range test done in its own lane, no carries
// since every lane is below 0x80), and reports whether text is all ASCII.
// On false, dst holds an unspecified prefix.
func lowerASCII(dst []byte, text string) ([]byte, bool) {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	dst = slices.Grow(dst, len(text))
	i := 0
	for ; i+8 <= len(text); i += 8 {
		x := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		if x&high != 0 {
			return dst, false
		}
		geA := (x + (0x80-'A')*ones) & high   // lane >= 'A'
		gtZ := (x + (0x80-'Z'-1)*ones) & high // lane > 'Z'
		x |= (geA &^ gtZ) >> 2                // 0x80 >> 2 = 0x20
		dst = binary.LittleEndian.AppendUint64(dst, x)
	}
	for ; i < len(text); i++ {
		b := text[i]
		if b >= 0x80 {
			return dst, false
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		dst = append(dst, b)
	}
	return dst, true
}
