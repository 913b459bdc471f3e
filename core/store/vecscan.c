// vecscan.c: two aggregate SQL functions that run the vector query inside
// SQLite, so that no stored vector is copied into Go (see vecscan.go).
//
//   vaultctx_knn(q, k, validity, rowids, vectors)
//     q         BLOB  the int8 query vector (dim bytes)
//     k         INT   hits to keep
//     validity, rowids, vectors: one row of vec0's shadow tables
//                     (chunk_vecs_chunks joined to chunk_vecs_vector_chunks00)
//     returns   BLOB  up to k records {int64 id; double score}, native byte
//                     order, best first (ties by smaller id); NULL for no rows.
//     score = dot(q, x) / (|q|·|x|) in double, 0 when either norm is 0:
//     the cosine vec0's own int8 KNN ranks by.
//
//   vaultctx_nearest(u, n, list, centroid)
//     u         BLOB  the unit float32 query (dim floats, native order)
//     n         INT   lists to return; 0 or less: all of them
//     list      INT   a chunk_vec_lists row's id
//     centroid  BLOB  its unit float32 centroid (dim floats)
//     returns   BLOB  the n nearest list ids as int64, nearest first (by the
//                     float32 dot product; ties by smaller id); NULL for no
//                     rows. Only the n best are kept while the rows stream
//                     past (vc_top), so a query that probes 101 of 2,034
//                     lists does not sort all 2,034.
//
// Both read their blobs where SQLite keeps them (a memory-mapped page when
// the value fits in one) and allocate only their small results.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "dot.h"

typedef struct {
	int64_t id;
	double score;
} vc_hit;

// vc_worse reports whether a ranks below b: lower score, then larger id.
static int vc_worse(const vc_hit *a, const vc_hit *b) {
	if (a->score != b->score) {
		return a->score < b->score;
	}
	return a->id > b->id;
}

// vc_top keeps the k best hits offered, best first.
typedef struct {
	int k, n;
	vc_hit *h;
} vc_top;

static int vc_top_init(vc_top *t, int k) {
	t->k = k;
	t->n = 0;
	t->h = sqlite3_malloc64((sqlite3_uint64)k * sizeof(vc_hit));
	return t->h != NULL;
}

static void vc_top_offer(vc_top *t, int64_t id, double score) {
	vc_hit c = {id, score};
	if (t->n == t->k) {
		if (!vc_worse(&t->h[t->n - 1], &c)) {
			return;
		}
		t->n--;
	}
	int i = t->n;
	while (i > 0 && vc_worse(&t->h[i - 1], &c)) {
		t->h[i] = t->h[i - 1];
		i--;
	}
	t->h[i] = c;
	t->n++;
}

// agg_state returns an aggregate's state (zeroed on the first row), or
// NULL after reporting an error: out of memory, or a failed earlier row
// (the state's first int field is its failed flag).
static void *agg_state(sqlite3_context *ctx, int size) {
	int *s = sqlite3_aggregate_context(ctx, size);
	if (s == NULL) {
		sqlite3_result_error_nomem(ctx);
		return NULL;
	}
	return s[0] ? NULL : s;
}

typedef struct {
	int failed; // first: see agg_state
	int started;
	int dim;
	int8_t *q;
	double qn;
	int32_t *dot, *nn;
	int slots;
	vc_top top;
} knn_state;

static void knn_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	knn_state *s = agg_state(ctx, sizeof(knn_state));
	if (s == NULL) {
		return;
	}
	(void)argc;
	if (!s->started) {
		s->started = 1;
		int dim = sqlite3_value_bytes(argv[0]);
		const int8_t *q = sqlite3_value_blob(argv[0]);
		sqlite3_int64 k = sqlite3_value_int64(argv[1]);
		if (dim <= 0 || q == NULL || k <= 0 || k > 1000000) {
			s->failed = 1;
			sqlite3_result_error(ctx, "vaultctx_knn: empty query or bad k", -1);
			return;
		}
		s->dim = dim;
		s->q = sqlite3_malloc(dim);
		if (s->q == NULL || !vc_top_init(&s->top, (int)k)) {
			s->failed = 1;
			sqlite3_result_error_nomem(ctx);
			return;
		}
		memcpy(s->q, q, dim);
		int32_t n = 0;
		for (int i = 0; i < dim; i++) {
			n += (int32_t)s->q[i] * (int32_t)s->q[i];
		}
		s->qn = sqrt((double)n);
	}
	int vlen = sqlite3_value_bytes(argv[2]);
	const unsigned char *validity = sqlite3_value_blob(argv[2]);
	int rlen = sqlite3_value_bytes(argv[3]);
	const unsigned char *rowids = sqlite3_value_blob(argv[3]);
	int xlen = sqlite3_value_bytes(argv[4]);
	const int8_t *vectors = sqlite3_value_blob(argv[4]);
	int size = xlen / s->dim;
	if (rlen / 8 < size) {
		size = rlen / 8;
	}
	if (vlen * 8 < size) {
		size = vlen * 8;
	}
	if (size <= 0 || validity == NULL || rowids == NULL || vectors == NULL) {
		return;
	}
	if (size > s->slots) {
		sqlite3_free(s->dot);
		sqlite3_free(s->nn);
		s->dot = sqlite3_malloc64((sqlite3_uint64)size * sizeof(int32_t));
		s->nn = sqlite3_malloc64((sqlite3_uint64)size * sizeof(int32_t));
		if (s->dot == NULL || s->nn == NULL) {
			s->slots = 0;
			s->failed = 1;
			sqlite3_result_error_nomem(ctx);
			return;
		}
		s->slots = size;
	}
	dots_i8(s->q, vectors, s->dim, size, s->dot, s->nn);
	for (int i = 0; i < size; i++) {
		if (!((validity[i >> 3] >> (i & 7)) & 1)) {
			continue;
		}
		double score = 0;
		if (s->qn != 0 && s->nn[i] != 0) {
			score = (double)s->dot[i] / (s->qn * sqrt((double)s->nn[i]));
		}
		int64_t id;
		memcpy(&id, rowids + 8 * (size_t)i, 8);
		vc_top_offer(&s->top, id, score);
	}
}

static void knn_final(sqlite3_context *ctx) {
	knn_state *s = sqlite3_aggregate_context(ctx, 0);
	if (s == NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	if (!s->failed) {
		if (s->top.n == 0) {
			sqlite3_result_null(ctx);
		} else {
			sqlite3_result_blob64(ctx, s->top.h, (sqlite3_uint64)s->top.n * sizeof(vc_hit), SQLITE_TRANSIENT);
		}
	}
	sqlite3_free(s->q);
	sqlite3_free(s->dot);
	sqlite3_free(s->nn);
	sqlite3_free(s->top.h);
}

typedef struct {
	int failed; // first: see agg_state
	int started;
	int dim;
	float *u, *c;
	int all; // n <= 0: keep every list (grow top as rows come)
	vc_top top;
} nearest_state;

static void nearest_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	nearest_state *s = agg_state(ctx, sizeof(nearest_state));
	if (s == NULL) {
		return;
	}
	(void)argc;
	if (!s->started) {
		s->started = 1;
		int bytes = sqlite3_value_bytes(argv[0]);
		const void *u = sqlite3_value_blob(argv[0]);
		sqlite3_int64 n = sqlite3_value_int64(argv[1]);
		if (bytes <= 0 || bytes % 4 != 0 || u == NULL || n > 1000000) {
			s->failed = 1;
			sqlite3_result_error(ctx, "vaultctx_nearest: bad query vector or n", -1);
			return;
		}
		s->dim = bytes / 4;
		s->all = n <= 0;
		// Copies, so that the kernel reads aligned floats.
		s->u = sqlite3_malloc(bytes);
		s->c = sqlite3_malloc(bytes);
		if (s->u == NULL || s->c == NULL || !vc_top_init(&s->top, s->all ? 256 : (int)n)) {
			s->failed = 1;
			sqlite3_result_error_nomem(ctx);
			return;
		}
		memcpy(s->u, u, bytes);
	}
	sqlite3_int64 list = sqlite3_value_int64(argv[2]);
	const void *c = sqlite3_value_blob(argv[3]);
	if (c == NULL || sqlite3_value_bytes(argv[3]) != 4 * s->dim) {
		s->failed = 1;
		sqlite3_result_error(ctx, "vaultctx_nearest: a centroid has the wrong size", -1);
		return;
	}
	if (s->all && s->top.n == s->top.k) {
		int k = 2 * s->top.k;
		vc_hit *h = sqlite3_realloc64(s->top.h, (sqlite3_uint64)k * sizeof(vc_hit));
		if (h == NULL) {
			s->failed = 1;
			sqlite3_result_error_nomem(ctx);
			return;
		}
		s->top.h = h;
		s->top.k = k;
	}
	memcpy(s->c, c, 4 * (size_t)s->dim);
	float d;
	dots_f32(s->u, s->c, s->dim, 1, &d);
	vc_top_offer(&s->top, list, (double)d);
}

static void nearest_final(sqlite3_context *ctx) {
	nearest_state *s = sqlite3_aggregate_context(ctx, 0);
	if (s == NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	if (!s->failed) {
		if (s->top.n == 0) {
			sqlite3_result_null(ctx);
		} else {
			int64_t *ids = sqlite3_malloc64((sqlite3_uint64)s->top.n * sizeof(int64_t));
			if (ids == NULL) {
				sqlite3_result_error_nomem(ctx);
			} else {
				for (int i = 0; i < s->top.n; i++) {
					ids[i] = s->top.h[i].id;
				}
				sqlite3_result_blob64(ctx, ids, (sqlite3_uint64)s->top.n * sizeof(int64_t), sqlite3_free);
			}
		}
	}
	sqlite3_free(s->u);
	sqlite3_free(s->c);
	sqlite3_free(s->top.h);
}

// vaultctx_vecscan_init registers both functions on a new connection; it
// is an sqlite3_auto_extension entry point.
int vaultctx_vecscan_init(sqlite3 *db, char **err, const void *api) {
	(void)err;
	(void)api;
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
	int rc = sqlite3_create_function_v2(db, "vaultctx_knn", 5, flags, NULL, NULL, knn_step, knn_final, NULL);
	if (rc != SQLITE_OK) {
		return rc;
	}
	return sqlite3_create_function_v2(db, "vaultctx_nearest", 4, flags, NULL, NULL, nearest_step, nearest_final, NULL);
}
