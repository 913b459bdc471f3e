package tokenizer

import (
	"bytes"
)

// vocab is an immutable string -> id table laid out in flat arrays so it can
// live inside a memory-mapped cache file without any decoding.
//
// Token i is data[offs[i]:offs[i+1]]. slots is an open-addressing table with
// linear probing whose length is a power of two; a slot holds id+1, or 0 when
// empty. When the same string appears twice the later id wins, as in the Rust
// HashMap the tokenizers crate fills in id order.
type vocab struct {
	offs  []uint32
	data  []byte
	slots []uint32
	mask  uint64
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashBytes is 64-bit FNV-1a, continued from h.
func hashBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// mix spreads FNV's low bits before masking.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// buildVocab lays out tokens (indexed by id) in a fresh vocab.
func buildVocab(tokens []string) *vocab {
	n := len(tokens)
	v := &vocab{offs: make([]uint32, n+1)}
	size := 0
	for _, t := range tokens {
		size += len(t)
	}
	v.data = make([]byte, 0, size)
	for i, t := range tokens {
		v.data = append(v.data, t...)
		v.offs[i+1] = uint32(len(v.data))
	}
	nslots := 1
	for nslots < 2*n+2 {
		nslots <<= 1
	}
	v.slots = make([]uint32, nslots)
	v.mask = uint64(nslots - 1)
	for id := 0; id < n; id++ {
		tok := v.token(id)
		i := mix(hashBytes(fnvOffset, tok)) & v.mask
		for {
			s := v.slots[i]
			if s == 0 {
				v.slots[i] = uint32(id + 1)
				break
			}
			if bytes.Equal(v.token(int(s-1)), tok) {
				v.slots[i] = uint32(id + 1) // later duplicate wins
				break
			}
			i = (i + 1) & v.mask
		}
	}
	return v
}

func (v *vocab) size() int { return len(v.offs) - 1 }

func (v *vocab) token(id int) []byte {
	lo, hi := v.offs[id], v.offs[id+1]
	if lo > hi || int(hi) > len(v.data) {
		return nil
	}
	return v.data[lo:hi]
}

// find returns the id of prefix+s, given h = mix(hash(prefix+s)).
func (v *vocab) find(h uint64, prefix string, s []byte) (int, bool) {
	i := h & v.mask
	for {
		slot := v.slots[i]
		if slot == 0 {
			return 0, false
		}
		id := int(slot - 1)
		if id >= len(v.offs)-1 {
			return 0, false // corrupt cache: a slot past the table
		}
		lo, hi := v.offs[id], v.offs[id+1]
		if lo > hi || int(hi) > len(v.data) {
			return 0, false // corrupt cache: offsets out of order
		}
		t := v.data[lo:hi]
		if len(t) == len(prefix)+len(s) && string(t[:len(prefix)]) == prefix && string(t[len(prefix):]) == string(s) {
			return id, true
		}
		i = (i + 1) & v.mask
	}
}

// lookupString returns the id of the token s.
func (v *vocab) lookupString(s string) (int, bool) {
	h := mix(hashString(fnvOffset, s))
	i := h & v.mask
	for {
		slot := v.slots[i]
		if slot == 0 {
			return 0, false
		}
		id := int(slot - 1)
		if id >= len(v.offs)-1 {
			return 0, false
		}
		lo, hi := v.offs[id], v.offs[id+1]
		if lo > hi || int(hi) > len(v.data) {
			return 0, false
		}
		if string(v.data[lo:hi]) == s {
			return id, true
		}
		i = (i + 1) & v.mask
	}
}
