/*-------------------------------------------------------------------------
 *
 * module.c
 *	  Module initialisation: the magic block, uuidx.library_version, and
 *	  one init per subsystem, each for its own settings and hooks: the
 *	  generators (uuidx.node_id), the order (uuidx.wal_log_mark; where the
 *	  library is preloaded, the shared state, the WAL resource manager and
 *	  the mark worker), the time ranges (uuidx.enable_time_ranges_scan,
 *	  the custom scan, the planner hooks) and the conversions (on 19 and
 *	  later, the hook that hands uuidx's bytea casts to core's in a binary
 *	  upgrade).
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "compat.h"
#include "fmgr.h"
#include "generators/generators.h"
#include "inspect/inspect.h"
#include "order/order.h"
#include "time_range/time_range.h"
#include "utils/guc.h"

UUIDX_MODULE_MAGIC;

/* uuidx.library_version: read-only, the release this library was built as. */
static char *library_version = NULL;

void		_PG_init(void);

void
_PG_init(void)
{
	/*
	 * The release of the loaded library, on every major (PostgreSQL 18 also
	 * shows it in pg_get_loaded_modules()).  A release that changes only the
	 * library keeps the SQL version, so this is how two builds are told
	 * apart.
	 */
	DefineCustomStringVariable("uuidx.library_version",
							   "Release of the loaded uuidx library.",
							   "The SQL objects' version is pg_extension.extversion; a release that changes only the library keeps it.",
							   &library_version,
							   UUIDX_VERSION,
							   PGC_INTERNAL,
							   GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
							   NULL, NULL, NULL);
	uuidx_generators_init();
	uuidx_order_init();
	uuidx_time_range_init();
	uuidx_inspect_init();
	MarkGUCPrefixReserved("uuidx");
}
