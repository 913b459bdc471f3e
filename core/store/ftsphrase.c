// ftsphrase.c: the per-column instance counts of each phrase of an FTS5
// match, for every matching row, in one call (see phrase.go).
//
// FTS5's bm25() spends most of its time per row on work the impact index
// already holds: the row's length in tokens (a chunks_fts_docsize lookup
// per row) and, once per query, a second pass over every phrase's matches
// to count its rows. vaultctx_phrase_scan walks the match once and returns
// the instance counts; phrase.go computes the same BM25 from them.

#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

// The pointer type of vaultctx_phrase_tf's buffer argument.
static const char *const phrase_buf_type = "vaultctx_phrase_buf";

// phrase_buf is the packed result: a uint32 phrase count P, then per
// matching row an int64 rowid, an int32 length in tokens over all columns,
// or over the first lencols (-1 when the rowid is at most the caller's
// limit: the caller has it), and P x 4 uint32 instance counts
// (phrase-major, one per column).
typedef struct {
	unsigned char *b;
	sqlite3_int64 n, cap;
	int phrases;
	int failed; // an SQLite error code, 0 while all is well
} phrase_buf;

// PHRASE_SCAN_MAX bounds a result (bytes). It holds every phrase's
// counts for every matching row, so many common phrases over a large vault
// would take hundreds of MB where bm25() streams; past the bound the scan
// fails with SQLITE_TOOBIG and phrase.go scores with bm25() instead.
#define PHRASE_SCAN_MAX (8 << 20)

static int buf_put(phrase_buf *pb, const void *p, sqlite3_int64 n) {
	if (pb->n + n > PHRASE_SCAN_MAX) {
		return SQLITE_TOOBIG;
	}
	if (pb->n + n > pb->cap) {
		sqlite3_int64 cap = pb->cap ? 2 * pb->cap : 4096;
		while (cap < pb->n + n) {
			cap *= 2;
		}
		unsigned char *b = sqlite3_realloc64(pb->b, (sqlite3_uint64)cap);
		if (b == NULL) {
			return SQLITE_NOMEM;
		}
		pb->b = b;
		pb->cap = cap;
	}
	memcpy(pb->b + pb->n, p, (size_t)n);
	pb->n += n;
	return SQLITE_OK;
}

// phrase_tf is the FTS5 auxiliary function
// vaultctx_phrase_tf(chunks_fts, buf, lenmax, lencols): it appends the
// current row to buf (see phrase_buf) and returns NULL. lencols > 0 sums
// the sizes of the first lencols columns only (the exact-form leg's three
// text columns), 0 all of them.
static void phrase_tf(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (argc != 3) {
		sqlite3_result_error(ctx, "vaultctx_phrase_tf: want a buffer, a rowid limit and a column count", -1);
		return;
	}
	phrase_buf *pb = sqlite3_value_pointer(argv[0], phrase_buf_type);
	if (pb == NULL) {
		sqlite3_result_error(ctx, "vaultctx_phrase_tf: no buffer", -1);
		return;
	}
	if (pb->failed) {
		return;
	}
	int np = api->xPhraseCount(fts);
	if (pb->n == 0) {
		uint32_t p = (uint32_t)np;
		pb->phrases = np;
		if ((pb->failed = buf_put(pb, &p, 4)) != SQLITE_OK) {
			return;
		}
	}
	if (np != pb->phrases) {
		pb->failed = SQLITE_CORRUPT;
		return;
	}
	int64_t rowid = api->xRowid(fts);
	int32_t dl = -1;
	if (rowid > sqlite3_value_int64(argv[1])) {
		int cols = sqlite3_value_int(argv[2]);
		int n = 0, rc = SQLITE_OK;
		if (cols <= 0) {
			rc = api->xColumnSize(fts, -1, &n);
		}
		for (int c = 0; c < cols && rc == SQLITE_OK; c++) {
			int m = 0;
			rc = api->xColumnSize(fts, c, &m);
			n += m;
		}
		if (rc != SQLITE_OK) {
			pb->failed = rc;
			return;
		}
		dl = (int32_t)n;
	}
	if ((pb->failed = buf_put(pb, &rowid, 8)) != SQLITE_OK || (pb->failed = buf_put(pb, &dl, 4)) != SQLITE_OK) {
		return;
	}
	for (int i = 0; i < np; i++) {
		uint32_t tf[4] = {0, 0, 0, 0};
		Fts5PhraseIter it;
		int col = 0, off = 0;
		int rc = api->xPhraseFirst(fts, i, &it, &col, &off);
		if (rc != SQLITE_OK) {
			pb->failed = rc;
			return;
		}
		for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off)) {
			if (col < 4) {
				tf[col]++;
			}
		}
		if ((pb->failed = buf_put(pb, tf, sizeof tf)) != SQLITE_OK) {
			return;
		}
	}
	sqlite3_result_null(ctx);
}

// fts5_of returns the connection's FTS5 API, or NULL when it has none
// (a build without FTS5): the documented `SELECT fts5(?1)` handshake.
static fts5_api *fts5_of(sqlite3 *db) {
	fts5_api *api = NULL;
	sqlite3_stmt *st = NULL;
	if (!sqlite3_compileoption_used("ENABLE_FTS5") || sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK) {
		return NULL;
	}
	sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
	sqlite3_step(st);
	sqlite3_finalize(st);
	return api;
}

// register_tf registers vaultctx_phrase_tf on the connection. It runs on
// the first vaultctx_phrase_scan of a connection, inside a query, not when
// the connection opens: a statement run while sqlite3_open is still going
// reads the file before the driver sets its busy timeout, and a reader
// that met an index run's lock there failed its open with "database is
// locked".
static int register_tf(sqlite3 *db) {
	fts5_api *f = fts5_of(db);
	if (f == NULL || f->iVersion < 2) {
		return SQLITE_ERROR;
	}
	return f->xCreateFunction(f, "vaultctx_phrase_tf", NULL, phrase_tf, NULL);
}

// phrase_scan is vaultctx_phrase_scan(match, lenmax [, lencols]): the
// phrase_buf of every row of chunks_fts that matches the FTS5 expression
// match, in rowid order, with lengths over the first lencols columns
// (default 0: all); an empty blob when none does.
static void phrase_scan(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (argc != 2 && argc != 3) {
		sqlite3_result_error(ctx, "vaultctx_phrase_scan: want a match, a rowid limit and optionally a column count", -1);
		return;
	}
	sqlite3 *db = sqlite3_context_db_handle(ctx);
	sqlite3_stmt *st = NULL;
	static const char *const sql = "SELECT vaultctx_phrase_tf(chunks_fts, ?1, ?2, ?4) FROM chunks_fts WHERE chunks_fts MATCH ?3";
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK && register_tf(db) == SQLITE_OK) {
		rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	}
	if (rc != SQLITE_OK) {
		sqlite3_result_error(ctx, sqlite3_errmsg(db), -1);
		sqlite3_result_error_code(ctx, rc);
		return;
	}
	phrase_buf pb;
	memset(&pb, 0, sizeof pb);
	sqlite3_bind_pointer(st, 1, &pb, phrase_buf_type, NULL);
	sqlite3_bind_int64(st, 2, sqlite3_value_int64(argv[1]));
	sqlite3_bind_value(st, 3, argv[0]);
	sqlite3_bind_int(st, 4, argc == 3 ? sqlite3_value_int(argv[2]) : 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pb.failed) {
	}
	if (pb.failed) {
		rc = pb.failed;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_OK) {
		const char *msg = pb.failed ? sqlite3_errstr(rc) : sqlite3_errmsg(db);
		sqlite3_result_error(ctx, msg, -1);
		sqlite3_result_error_code(ctx, rc);
		sqlite3_finalize(st);
		sqlite3_free(pb.b);
		return;
	}
	sqlite3_finalize(st);
	if (pb.n == 0) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	sqlite3_result_blob64(ctx, pb.b, (sqlite3_uint64)pb.n, sqlite3_free);
}

// vaultctx_phrase_init registers vaultctx_phrase_scan on a new
// connection; it is an sqlite3_auto_extension entry point and runs no SQL
// (see register_tf). Without FTS5 the function fails, and phrase.go falls
// back to bm25().
int vaultctx_phrase_init(sqlite3 *db, char **err, const void *api) {
	(void)err;
	(void)api;
	return sqlite3_create_function_v2(db, "vaultctx_phrase_scan", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL, phrase_scan, NULL, NULL, NULL);
}
