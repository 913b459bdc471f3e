package tokenizer

import (
	"unicode/utf8"
)

// unkPenalty is K_UNK_PENALTY in models/unigram/model.rs: an unknown
// character scores min_score - 10.
const unkPenalty = 10.0

// unigram appends the ids of the Viterbi segmentation of s, following
// encode_optimized in models/unigram/model.rs: best_path_ends_at[pos] keeps
// the best (highest total log-probability) path ending at each byte offset;
// candidates are visited by start, then by increasing length, and a later
// candidate replaces the kept one only when strictly better. A character with
// no single-character piece gets an unknown node; consecutive unknown nodes are
// fused into one piece, which maps to the unk id unless the fused string is
// itself in the vocabulary.
func (t *Tokenizer) unigram(dst []int32, s string, sc *scratch) []int32 {
	n := len(s)
	if n == 0 {
		return dst
	}
	if cap(sc.score) < n+1 {
		sc.score = make([]float64, n+1)
		sc.start = make([]int32, n+1)
		sc.id = make([]int32, n+1)
		sc.seen = make([]bool, n+1)
	}
	score, from, ids, seen := sc.score[:n+1], sc.start[:n+1], sc.id[:n+1], sc.seen[:n+1]
	for i := range seen {
		seen[i] = false
		score[i] = 0
	}
	t.prefixOnce.Do(t.buildPrefixes)
	unkScore := t.minScore - unkPenalty
	for pos := 0; pos < n; {
		mblen := 1
		if s[pos] >= utf8.RuneSelf {
			_, mblen = utf8.DecodeRuneInString(s[pos:])
		}
		base := score[pos]
		single := false
		h := uint64(fnvOffset)
		limit := n
		if pos+t.maxTokenBytes < limit {
			limit = pos + t.maxTokenBytes
		}
		for end := pos; end < limit; {
			sz := 1
			if s[end] >= utf8.RuneSelf {
				_, sz = utf8.DecodeRuneInString(s[end:])
			}
			h = hashString(h, s[end:end+sz])
			end += sz
			if end > limit {
				break
			}
			mh := mix(h)
			if !t.isPrefix(mh) {
				break // no token starts with s[pos:end], so none is longer
			}
			id, ok := t.vocab.find(mh, s[pos:end], nil)
			if !ok {
				continue
			}
			cand := t.scores[id] + base
			if !seen[end] || cand > score[end] {
				seen[end], score[end], from[end], ids[end] = true, cand, int32(pos), int32(id)
			}
			if end-pos == mblen {
				single = true
			}
		}
		if !single {
			end := pos + mblen
			cand := unkScore + base
			if !seen[end] || cand > score[end] {
				seen[end], score[end], from[end], ids[end] = true, cand, int32(pos), int32(t.unk)
			}
		}
		pos += mblen
	}
	// Backtrack, then emit in order.
	mark := len(dst)
	unkEnd := -1
	for end := n; end > 0; {
		start := int(from[end])
		if ids[end] == int32(t.unk) && t.unk >= 0 {
			if unkEnd < 0 {
				unkEnd = end
			}
		} else {
			if unkEnd >= 0 {
				dst = append(dst, t.pieceID(s[end:unkEnd]))
				unkEnd = -1
			}
			if ids[end] >= 0 {
				dst = append(dst, ids[end])
			}
		}
		end = start
	}
	if unkEnd >= 0 {
		dst = append(dst, t.pieceID(s[:unkEnd]))
	}
	for i, j := mark, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// pieceID maps a fused unknown piece to its id: the vocabulary id when the
// string is a token (the last duplicate wins), else unk.
func (t *Tokenizer) pieceID(s string) int32 {
	if id, ok := t.vocab.lookupString(s); ok {
		return int32(id)
	}
	return int32(t.unk)
}

// buildPrefixes fills the prefix set that stands in for the trie of
// models/unigram/trie.rs: the Viterbi scan stops extending a candidate as
// soon as no token starts with it. A hash collision only costs an extra
// exact lookup.
func (t *Tokenizer) buildPrefixes() {
	total := 0
	for id := 0; id < t.vocab.size(); id++ {
		total += utf8.RuneCount(t.vocab.token(id))
	}
	size := 1
	for size < 2*total+2 {
		size <<= 1
	}
	set := make([]uint64, size)
	mask := uint64(size - 1)
	for id := 0; id < t.vocab.size(); id++ {
		tok := t.vocab.token(id)
		h := uint64(fnvOffset)
		for i := 0; i < len(tok); {
			_, sz := utf8.DecodeRune(tok[i:])
			h = hashBytes(h, tok[i:i+sz])
			i += sz
			k := mix(h) | 1
			j := k & mask
			for set[j] != 0 && set[j] != k {
				j = (j + 1) & mask
			}
			set[j] = k
		}
	}
	t.prefixes = set
}

func (t *Tokenizer) isPrefix(mh uint64) bool {
	k := mh | 1
	mask := uint64(len(t.prefixes) - 1)
	for j := k & mask; ; j = (j + 1) & mask {
		switch t.prefixes[j] {
		case k:
			return true
		case 0:
			return false
		}
	}
}
