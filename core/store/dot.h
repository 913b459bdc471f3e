// dot.h: the vector kernels shared by dot.go (called from Go) and
// vecscan.c (called inside SQLite). Static, so each includer gets its own
// copy, compiled with the package's -O3.
#ifndef VAULTCTX_DOT_H
#define VAULTCTX_DOT_H
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

#endif
