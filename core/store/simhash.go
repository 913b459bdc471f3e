package store

import (
	"math/rand/v2"
)

// simhashSeed fixes the random rotation; changing it invalidates every
// stored code, so it is part of the schema.
const simhashSeed = 0x7661756c74637478 // "vaultctx"

// CodeBits is the SimHash code length for embeddings of dim dimensions:
// twice dim rounded up to a power of two, at least 64.
func CodeBits(dim int) int {
	return 2 * pow2(dim)
}

func pow2(n int) int {
	p := 32
	for p < n {
		p <<= 1
	}
	return p
}

// simhash returns the CodeBits(len(v))-bit code of v - center: for each of
// two rounds, flip signs by a seeded random ±1 diagonal, apply the
// Walsh–Hadamard transform, and keep the sign bits (bit i%8 of byte i/8).
func simhash(v, center []float32) []byte {
	p := pow2(len(v))
	out := make([]byte, 2*p/8)
	buf := make([]float64, p)
	rng := rand.New(rand.NewPCG(simhashSeed, uint64(len(v))))
	for round := 0; round < 2; round++ {
		for i := range buf {
			buf[i] = 0
			sign := 1.0
			if rng.Uint64()&1 == 1 {
				sign = -1
			}
			if i < len(v) {
				buf[i] = sign * float64(v[i]-center[i])
			}
		}
		fwht(buf)
		for i, x := range buf {
			if x > 0 {
				bit := round*p + i
				out[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	return out
}

// fwht is the in-place unnormalised fast Walsh–Hadamard transform; len(a)
// must be a power of two.
func fwht(a []float64) {
	for h := 1; h < len(a); h <<= 1 {
		for i := 0; i < len(a); i += h << 1 {
			for j := i; j < i+h; j++ {
				x, y := a[j], a[j+h]
				a[j], a[j+h] = x+y, x-y
			}
		}
	}
}
