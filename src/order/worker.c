/*-------------------------------------------------------------------------
 *
 * mark_worker.c
 *	  The mark worker: a background worker, started with the server where
 *	  the library is preloaded, that keeps the high-water mark ahead of the
 *	  values (generator_state.c says what the mark is and how far ahead), so
 *	  that no value waits for the mark's file write, its WAL flush or the
 *	  synchronous standbys unless the clock outruns the worker; on a standby,
 *	  it writes the marks replayed from WAL to the mark file, at most once a
 *	  second.  It connects to no database.  A value that finds the mark
 *	  within half the reservation sets the worker's latch; without values
 *	  for five minutes the worker sleeps, writing nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/wait_event.h"

PGDLLEXPORT void uuidx_mark_worker_main(Datum arg);

static void
leave(int code, Datum arg)
{
	uuidx_mark_worker_leave();
}

/*
 * The worker's main loop: a round of generator_state.c's, then a sleep on
 * its latch until the round's time or a value's call.
 */
void
uuidx_mark_worker_main(Datum arg)
{
	long		sleep_ms = 0;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	before_shmem_exit(leave, (Datum) 0);

	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		/* (the round reads the configuration again after a reload) */
		sleep_ms = uuidx_mark_worker_step(MyLatch);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 sleep_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * Called from _PG_init while shared_preload_libraries is processed: the
 * worker starts with the postmaster (in recovery too, where it writes the
 * replayed marks) and is restarted a second after it fails.
 */
void
uuidx_mark_worker_register(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 1;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "uuidx");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "uuidx_mark_worker_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "uuidx mark worker");
	snprintf(worker.bgw_type, BGW_MAXLEN, "uuidx mark worker");
	RegisterBackgroundWorker(&worker);
}
