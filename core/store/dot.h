// dot.h: the vector kernels shared by dot.go (called from Go) and
// vecscan.c (called inside SQLite). Static, so each includer gets its own
// copy, compiled with the package's -O3.
#ifndef VAULTCTX_DOT_H
#define VAULTCTX_DOT_H
#include <stdint.h>
#include <stddef.h>

// dots_i8_c writes, for each of the n int8 vectors of dim components
// stored back to back at v, its dot product with the int8 vector q to dot
// and its squared norm to nn: the portable loop, left to the compiler to
// vectorise (NEON on arm64, SSE2 on amd64).
static void dots_i8_c(const int8_t *q, const int8_t *v, int dim, int n, int32_t *dot, int32_t *nn) {
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

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VC_HAVE_AVX2 1

// dots_i8_avx2 is dots_i8_c for CPUs with AVX2: each 16 components are
// sign-extended to 16 bits once and multiplied and pair-summed into 32 bits
// by vpmaddwd (products of int8 values are at most 2^14, a pair 2^15), for
// the dot product and the norm together. Integer sums are exact, so it
// returns what dots_i8_c returns. The compiler's own vectorisation of
// dots_i8_c widened to 32 bits before multiplying and, without -mavx2,
// used SSE2: the scan at four times the large corpus (41,000 vectors of
// 100 components per query) spent more in it than in reading the vectors.
__attribute__((target("avx2"))) static void dots_i8_avx2(const int8_t *q, const int8_t *v, int dim, int n, int32_t *dot, int32_t *nn) {
	int body = dim & ~15;
	for (int j = 0; j < n; j++) {
		const int8_t *x = v + (size_t)j * (size_t)dim;
		__m256i s = _mm256_setzero_si256(), m = _mm256_setzero_si256();
		for (int i = 0; i < body; i += 16) {
			__m256i xv = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(x + i)));
			__m256i qv = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(q + i)));
			s = _mm256_add_epi32(s, _mm256_madd_epi16(xv, qv));
			m = _mm256_add_epi32(m, _mm256_madd_epi16(xv, xv));
		}
		// Both sums' eight lanes at once: hadd pairs s and m lane-wise.
		__m256i h = _mm256_hadd_epi32(s, m);                 // s01 s23 m01 m23 | s45 s67 m45 m67
		__m128i t = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
		t = _mm_hadd_epi32(t, t);                            // s, m, s, m
		int32_t sd = _mm_cvtsi128_si32(t), sm = _mm_extract_epi32(t, 1);
		for (int i = body; i < dim; i++) {
			sd += (int32_t)q[i] * (int32_t)x[i];
			sm += (int32_t)x[i] * (int32_t)x[i];
		}
		dot[j] = sd;
		nn[j] = sm;
	}
}
#endif

// dots_i8 is dots_i8_avx2 where the CPU has AVX2 (asked once: the
// answer is stored with relaxed atomics, so concurrent first calls agree),
// dots_i8_c elsewhere.
static void dots_i8(const int8_t *q, const int8_t *v, int dim, int n, int32_t *dot, int32_t *nn) {
#ifdef VC_HAVE_AVX2
	static int avx2; // 0 not asked yet, 1 no, 2 yes
	int a = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
	if (a == 0) {
		__builtin_cpu_init();
		a = __builtin_cpu_supports("avx2") ? 2 : 1;
		__atomic_store_n(&avx2, a, __ATOMIC_RELAXED);
	}
	if (a == 2) {
		dots_i8_avx2(q, v, dim, n, dot, nn);
		return;
	}
#endif
	dots_i8_c(q, v, dim, n, dot, nn);
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
