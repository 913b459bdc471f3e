package store

/*
#cgo CFLAGS: -O3
#include <stdint.h>
#include <stddef.h>

// dots_i8 writes, for each of the n int8 vectors of dim components stored
// back to back at v, its dot product with the int8 vector q to dot and its
// squared norm to nn. The plain loops are written for the compiler to
// vectorise (SSE2/AVX2 on amd64, NEON on arm64).
static void dots_i8(const int8_t *q, const int8_t *v, int dim, int n, int32_t *dot, int32_t *nn) {
	for (int j = 0; j < n; j++) {
		const int8_t *x = v + (size_t)j * (size_t)dim;
		int32_t s = 0, m = 0;
		for (int i = 0; i < dim; i++) {
			s += (int32_t)q[i] * (int32_t)x[i];
			m += (int32_t)x[i] * (int32_t)x[i];
		}
		dot[j] = s;
		nn[j] = m;
	}
}

// dots_f32 writes the dot products of the float vector u (dim components)
// with each of the n float vectors stored back to back at v to out. Eight
// partial sums let the compiler use SIMD without reordering float
// additions itself (which it may not do without -ffast-math).
static void dots_f32(const float *u, const float *v, int dim, int n, float *out) {
	for (int j = 0; j < n; j++) {
		const float *x = v + (size_t)j * (size_t)dim;
		float p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
		int i = 0;
		for (; i + 8 <= dim; i += 8) {
			for (int k = 0; k < 8; k++) {
				p[k] += u[i + k] * x[i + k];
			}
		}
		float s = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
		for (; i < dim; i++) {
			s += u[i] * x[i];
		}
		out[j] = s;
	}
}
*/
import "C"

import "unsafe"

// dotsI8 sets dot[j] to the dot product of q with the j-th of len(dot)
// int8 vectors of len(q) components stored back to back in v, and nn[j] to
// that vector's squared norm; v must hold len(dot)·len(q) bytes and nn
// must be as long as dot. It is the scan's inner loop, in C so that the
// compiler vectorises it; dotI8 is its Go reference.
func dotsI8(q []int8, v []byte, dot, nn []int32) {
	if len(q) == 0 || len(dot) == 0 {
		return
	}
	_ = v[len(dot)*len(q)-1]
	_ = nn[len(dot)-1]
	C.dots_i8((*C.int8_t)(unsafe.Pointer(&q[0])), (*C.int8_t)(unsafe.Pointer(&v[0])),
		C.int(len(q)), C.int(len(dot)), (*C.int32_t)(unsafe.Pointer(&dot[0])), (*C.int32_t)(unsafe.Pointer(&nn[0])))
}

// dotI8 returns the dot product of the int8 vector q with v, the bytes of
// another int8 vector of the same length, and v's squared norm: the slow
// reference for dotsI8.
func dotI8(q []int8, v []byte) (dot, nn int32) {
	v = v[:len(q)]
	for i, a := range q {
		b := int32(int8(v[i]))
		dot += int32(a) * b
		nn += b * b
	}
	return dot, nn
}

// dotsF32 sets out[j] to the dot product of u with the j-th of len(out)
// float32 vectors of len(u) components stored back to back in v, which
// must hold len(out)·len(u) floats.
func dotsF32(u, v, out []float32) {
	if len(u) == 0 || len(out) == 0 {
		return
	}
	_ = v[len(out)*len(u)-1]
	C.dots_f32((*C.float)(unsafe.Pointer(&u[0])), (*C.float)(unsafe.Pointer(&v[0])),
		C.int(len(u)), C.int(len(out)), (*C.float)(unsafe.Pointer(&out[0])))
}
