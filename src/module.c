/*-------------------------------------------------------------------------
 *
 * module.c
 *	  Module initialisation: the magic block, the settings (uuidx.node_id,
 *	  uuidx.wal_log_mark, uuidx.enable_time_ranges_scan,
 *	  uuidx.library_version and a test-only one), the
 *	  planner hook of time_range_paths.c, and, when the library is
 *	  preloaded, the shared-memory hooks, the WAL resource manager and the
 *	  mark worker.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "compat.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

UUIDX_MODULE_MAGIC;

/* uuidx.node_id: -1 (unset) or 0..65535; see uuidx_layout_v8_time(). */
int			uuidx_node_id_setting = -1;

/* uuidx.library_version: read-only, the release this library was built as. */
static char *library_version = NULL;

/* uuidx.debug_postmaster_random: see uuidx_random_debug_in_postmaster(). */
static int	debug_postmaster_random = UUIDX_DEBUG_RANDOM_OFF;

static const struct config_enum_entry debug_postmaster_random_options[] = {
	{"off", UUIDX_DEBUG_RANDOM_OFF, false},
	{"draw", UUIDX_DEBUG_RANDOM_DRAW, false},
	{"prefill", UUIDX_DEBUG_RANDOM_PREFILL, false},
	{NULL, 0, false}
};

void		_PG_init(void);

/*
 * uuidx.wal_log_mark is kept in the shared state too, where every process
 * reads it (generator_state.c).
 */
static void
assign_wal_log_mark(bool newval, void *extra)
{
	uuidx_state_wal_wanted(newval);
}

void
_PG_init(void)
{
	/*
	 * PGC_SUSET: the node id decides whether v8 values from different servers
	 * can collide, so only a superuser or the server configuration may set
	 * it.
	 */
	DefineCustomIntVariable("uuidx.node_id",
							"Node id written into uuid_generate_v8() values.",
							"-1 (the default) leaves the node bits random. Give each server that writes to the same tables its own id from 0 to 65535.",
							&uuidx_node_id_setting,
							-1, -1, 65535,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

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

	/*
	 * A developer setting for uuidx's own tests (see random_pool.c).  It acts
	 * in the postmaster, so it exists only when the library is preloaded: a
	 * PGC_POSTMASTER setting cannot be defined later.
	 */
	if (process_shared_preload_libraries_in_progress)
		DefineCustomEnumVariable("uuidx.debug_postmaster_random",
								 "Test of process isolation: random bytes drawn in the postmaster at startup.",
								 "off (the default), draw (through the pool, as any caller) or prefill (the pool filled as if by mistake). Only for uuidx's tests.",
								 &debug_postmaster_random,
								 UUIDX_DEBUG_RANDOM_OFF,
								 debug_postmaster_random_options,
								 PGC_POSTMASTER,
								 GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL,
								 NULL, NULL, NULL);

	/*
	 * PGC_SIGHUP: a node that replays the records must have this library
	 * preloaded, so whoever runs the server decides when they begin.
	 */
	DefineCustomBoolVariable("uuidx.wal_log_mark",
							 "Writes each move of the high-water mark to WAL.",
							 "Standbys and recovery then replay it. Every node that replays this server's WAL must preload uuidx first.",
							 &uuidx_wal_log_mark_setting,
							 false,
							 PGC_SIGHUP,
							 0,
							 NULL, assign_wal_log_mark, NULL);

	/*
	 * As PostgreSQL's enable_* settings: off, the planner still may, but
	 * avoids the scan wherever another plan exists.
	 */
	DefineCustomBoolVariable("uuidx.enable_time_ranges_scan",
							 "Enables the planner's use of the \"uuidx time ranges\" scan.",
							 NULL,
							 &uuidx_enable_time_ranges_scan,
							 true,
							 PGC_USERSET,
							 GUC_EXPLAIN,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("uuidx");

	/* The planner's costing of index walks over a time range. */
	uuidx_time_range_install_hook();

	if (process_shared_preload_libraries_in_progress)
	{
		uuidx_state_install_hooks();
		uuidx_mark_worker_register();
		/* Under EXEC_BACKEND every child loads the library again. */
		if (!IsUnderPostmaster)
			uuidx_random_debug_in_postmaster(debug_postmaster_random);
	}
}
