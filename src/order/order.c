/*-------------------------------------------------------------------------
 *
 * order.c
 *	  The order's part of _PG_init: the setting uuidx.wal_log_mark and,
 *	  where the library is preloaded, the state's shared memory (state.c),
 *	  the WAL resource manager of the mark (mark.c) and the mark worker
 *	  (worker.c).
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include "miscadmin.h"
#include "utils/guc.h"

/*
 * uuidx.wal_log_mark is kept in the shared state too, where every process
 * reads it (state.c).
 */
static void
assign_wal_log_mark(bool newval, void *extra)
{
	uuidx_state_wal_wanted(newval);
}

void
uuidx_order_init(void)
{
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
	if (process_shared_preload_libraries_in_progress)
	{
		uuidx_state_install_hooks();
		uuidx_mark_register_rmgr();
		uuidx_mark_worker_register();
	}
}
