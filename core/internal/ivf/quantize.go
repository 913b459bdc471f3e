package ivf

import "math"

// Vec is a quantised vector: round(x·127/max|x|) per component.
type Vec []int8

// Quantize returns v - center as int8, scaled so that the largest
// component is ±127 (the zero vector stays zero). center has len(v)
// components.
func Quantize(v, center []float32) Vec {
	x := make([]float32, len(v))
	var m float32
	for i := range v {
		x[i] = v[i] - center[i]
		if a := float32(math.Abs(float64(x[i]))); a > m {
			m = a
		}
	}
	out := make(Vec, len(v))
	if m == 0 {
		return out
	}
	f := 127 / m
	for i, a := range x {
		out[i] = int8(max(-127, min(127, math.Round(float64(a*f)))))
	}
	return out
}

// Bytes returns q as bytes (two's complement), as vec_int8 stores it.
func (q Vec) Bytes() []byte {
	b := make([]byte, len(q))
	for i, x := range q {
		b[i] = byte(x)
	}
	return b
}

// Norm returns q's Euclidean norm.
func (q Vec) Norm() float64 {
	var n int32
	for _, x := range q {
		n += int32(x) * int32(x)
	}
	return math.Sqrt(float64(n))
}

// Unit returns q as a float32 vector of length 1 (or zero).
func (q Vec) Unit() []float32 {
	out := make([]float32, len(q))
	n := q.Norm()
	if n == 0 {
		return out
	}
	for i, x := range q {
		out[i] = float32(float64(x) / n)
	}
	return out
}
