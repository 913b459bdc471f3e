package tokenizer

import "unicode/utf8"

// scratch holds per-call buffers so encoding does not allocate per word.
type scratch struct {
	hashes []uint64
	ends   []int
	word   []byte
	// unigram lattice
	score []float64
	start []int32
	id    []int32
	seen  []bool
}

// wordPiece appends the ids of word per models/wordpiece: a word longer than
// maxChars code points, or one that cannot be covered greedily by the longest
// vocabulary prefix at each step (continuations carry the prefix "##"),
// becomes the single unk id.
func (t *Tokenizer) wordPiece(dst []int32, word []byte, sc *scratch) []int32 {
	if len(word) > t.maxChars && utf8.RuneCount(word) > t.maxChars {
		return append(dst, int32(t.unk))
	}
	mark := len(dst)
	start := 0
	for start < len(word) {
		prefix := ""
		if start > 0 {
			prefix = t.prefix
		}
		h := hashString(fnvOffset, prefix)
		sc.hashes = sc.hashes[:0]
		sc.ends = sc.ends[:0]
		for i := start; i < len(word); {
			sz := 1
			if word[i] >= utf8.RuneSelf {
				_, sz = utf8.DecodeRune(word[i:])
			}
			h = hashBytes(h, word[i:i+sz])
			i += sz
			sc.hashes = append(sc.hashes, h)
			sc.ends = append(sc.ends, i)
		}
		found := false
		for k := len(sc.hashes) - 1; k >= 0; k-- {
			if id, ok := t.vocab.find(mix(sc.hashes[k]), prefix, word[start:sc.ends[k]]); ok {
				dst = append(dst, int32(id))
				start = sc.ends[k]
				found = true
				break
			}
		}
		if !found {
			return append(dst[:mark], int32(t.unk))
		}
	}
	return dst
}
