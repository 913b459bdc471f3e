package store

/*
#include <sqlite3.h>

// Lookaside sizes (slot bytes, slots): SQLite's own default for a writer,
// a tenth of its slots for every other connection. See configLookaside.
enum { LOOKASIDE_SLOT = 1200, LOOKASIDE_WRITER = 40, LOOKASIDE_READER = 4 };

// vaultctx_lookaside_init gives a connection that can write SQLite's
// default lookaside back; an sqlite3_auto_extension entry point. A
// connection busy with lookaside memory keeps what it has (SQLITE_BUSY,
// ignored): lookaside is a speed-up, never needed.
static int vaultctx_lookaside_init(sqlite3 *db, char **err, const void *api) {
	(void)err;
	(void)api;
	if (sqlite3_db_readonly(db, "main") == 0) {
		sqlite3_db_config(db, SQLITE_DBCONFIG_LOOKASIDE, (void *)0, LOOKASIDE_SLOT, LOOKASIDE_WRITER);
	}
	return SQLITE_OK;
}

static int vaultctx_lookaside_config(void) {
	int rc = sqlite3_config(SQLITE_CONFIG_LOOKASIDE, LOOKASIDE_SLOT, LOOKASIDE_READER);
	sqlite3_auto_extension((void (*)(void))vaultctx_lookaside_init);
	return rc;
}
*/
import "C"

// configLookaside shrinks the lookaside memory SQLite gives each new
// connection from its default of 48 KiB (1,200-byte slots x 40, split into
// large and small slots) to 4.8 KiB, and gives a connection that can write
// the default back when it opens. It must run before SQLite is initialised
// (sqlite3_config); later it changes nothing for new connections but the
// writers', and reports false.
//
// Why: SQLite threads a free list through every lookaside slot when a
// connection opens (setupLookaside), so all 48 KiB are written at once,
// about 12 fresh pages per connection. A search or hook is a process that
// lives for one query and opens two read-only connections; each fresh page
// is a page fault it pays for (on this project's VMs 10-20 µs each, see
// docs/bench-history.md, "Start-up, exit and the page cache"). A reader
// prepares a few dozen statements, which a 4.8 KiB lookaside and malloc
// serve as well. The indexer's connection, which allocates all run long,
// keeps SQLite's default.
func configLookaside() bool {
	return C.vaultctx_lookaside_config() == C.SQLITE_OK
}
