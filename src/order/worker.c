/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  The mark worker: a background worker, started with the server where
 *	  the library is preloaded, that keeps the high-water mark ahead of the
 *	  values (state.c says what the mark is and how far ahead), so
 *	  that no value waits for the mark's file write, its WAL flush or the
 *	  synchronous standbys unless the clock outruns the worker; on a standby,
 *	  it makes durable the mark files redo renamed, at most once a second.  It connects to no database.  A value that finds the mark
 *	  within half the reservation sets the worker's latch; without values
 *	  for five minutes the worker sleeps, writing nothing.  Its loop and
 *	  policy (when to move or sync what) are here, the moves in mark.c.
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgworker_internals.h"
#include "postmaster/interrupt.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/wait_event.h"

/* The worker renews the reservation while values came this recently. */
#define UUIDX_ACTIVE_US (INT64CONST(300) * USECS_PER_SEC)


/* The positions the worker last saw, and when they last moved. */
static uint64 seen[UUIDX_NUM_GENERATORS];
static int64 active_us = PG_INT64_MIN;

/* The worker retries a failed write after this long (us), whatever wakes it. */
#define UUIDX_RETRY_US USECS_PER_SEC

/*
 * On the monotonic clock: when the worker last made redo's writes durable
 * (in recovery), and when it may next try a move after one failed.
 */
static int64 synced_us = PG_INT64_MIN;
static int64 retry_after_us = PG_INT64_MIN;

PGDLLEXPORT void uuidx_mark_worker_main(Datum arg);

/*
 * The worker's round in recovery: make durable what redo left renamed
 * only, at most once a second (the first at once).  The file as it stands
 * is fsynced, and the directory, without the lock; redo may rename a newer
 * file meanwhile, which the count of its writes shows, and the next round
 * then syncs that.  Where the fsync fails, the marks are written anew,
 * durably; where that fails too, PostgreSQL's answer to a failed fsync, a
 * PANIC unless data_sync_retry is on, when it is retried the next round
 * (uuidx_mark_make_replayed_durable(), its failures reported as paced).
 * Returns how long the worker may sleep (ms).
 */
static long
recovery_round(void)
{
	int64		now_us = uuidx_clock_monotonic_us();

	if (pg_atomic_read_u32(&uuidx_state->replay_pending) == 0)
		return 1000;
	if (now_us < synced_us + UUIDX_REPLAY_SYNC_US)
		return Max(1, (synced_us + UUIDX_REPLAY_SYNC_US - now_us) / 1000);
	synced_us = now_us;
	(void) uuidx_mark_make_replayed_durable();
	if (pg_atomic_read_u32(&uuidx_state->replay_pending) == 0)
		pg_atomic_write_u64(&uuidx_state->worker_synced_us, (uint64) uuidx_clock_unix_us());
	return UUIDX_REPLAY_SYNC_US / 1000;
}

/* After a failed move: the next try a second from now; the sleep (ms). */
static long
retry_later(void)
{
	retry_after_us = uuidx_clock_monotonic_us() + UUIDX_RETRY_US;
	return UUIDX_RETRY_US / 1000;
}

/*
 * One round of the mark worker, with its latch; returns how long it may
 * sleep, in milliseconds, unless its latch is set.  It first reads the
 * configuration again where a reload came.  In recovery it makes durable
 * the marks redo left renamed only, at most once a second
 * (recovery_round()).  Otherwise it writes the mark as it stands to WAL
 * where it should be there and is not, and, while values are being made (a
 * generator moved in the last five minutes, or a value asked), renews the
 * reservation when less than half of it is left: a second ahead of the
 * clock and the generators.  After a move that failed (the file cannot be
 * written), it tries none for a second, however often values wake it.
 */
static long
round_of_worker(Latch *latch)
{
	int64		now_us;
	int64		newest_us = 0;
	int64		mark;
	bool		active;

	uuidx_state_ensure();
	uuidx_mark_reload_standbys();
	if (!uuidx_state->persistent)
		return 60000;
	pg_write_barrier();			/* standbys_named before the latch that
								 * vouches for it */
	uuidx_state->worker_latch = latch;
	if (RecoveryInProgress())
		return recovery_round();

	/* after a failed move, none for a second, whatever woke the worker */
	now_us = uuidx_clock_monotonic_us();
	if (now_us < retry_after_us)
		return Max(1, (retry_after_us - now_us) / 1000);

	if (uuidx_mark_write_pending() &&
		!uuidx_mark_write_and_publish((int64) pg_atomic_read_u64(&uuidx_state->mark_us),
									  (int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us), WARNING,
									  UUIDX_MARK_WAIT))
		return retry_later();

	now_us = uuidx_clock_unix_us();

	/* values were made since the last round, or one asked */
	if (pg_atomic_exchange_u32(&uuidx_state->renew_asked, 0) != 0)
		active_us = now_us;
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		uint64		last = pg_atomic_read_u64(&uuidx_state->last[gen]);

		if (last != seen[gen])
		{
			/* at the worker's start, the positions a restart set */
			if (active_us != PG_INT64_MIN)
				active_us = now_us;
			seen[gen] = last;
		}
		if (gen != UUIDX_GEN_V6)
			newest_us = Max(newest_us, uuidx_position_unix_us(gen, last));
	}
	if (active_us == PG_INT64_MIN)
		active_us = PG_INT64_MIN + 1;
	active = now_us >= active_us && now_us < active_us + UUIDX_ACTIVE_US;
	mark = (int64) pg_atomic_read_u64(&uuidx_state->mark_us);
	if (active && Max(now_us, newest_us) + UUIDX_MARK_AHEAD_US / 2 > mark)
	{
		int64		new_mark,
					new_v6_mark;

		uuidx_mark_renewed(UUIDX_GEN_V7, newest_us, &new_mark, &new_v6_mark);
		/* a failure is reported (paced); values move the mark meanwhile */
		if (!uuidx_mark_write_and_publish(new_mark, new_v6_mark, WARNING, UUIDX_MARK_WAIT))
			return retry_later();
		mark = (int64) pg_atomic_read_u64(&uuidx_state->mark_us);
	}
	if (!active)
		return 1000;
	/* awake again when half the reservation is left */
	return Max(10, Min(500, (mark - UUIDX_MARK_AHEAD_US / 2 - Max(now_us, newest_us)) / 1000));
}

/*
 * The worker is leaving: values renew the mark themselves meanwhile, and
 * what redo renamed is made durable.
 */
static void
leave(int code, Datum arg)
{
	if (uuidx_state != NULL)
	{
		uuidx_state->worker_latch = NULL;
		pg_atomic_write_u32(&uuidx_state->worker_pid, 0);
		/* redo, which sets the flag before it looks at the latch, or we sync */
		pg_memory_barrier();
	}
	uuidx_mark_sync_replayed_at_exit(code, arg);
}

/*
 * The worker's main loop: a round, then a sleep on its latch until the
 * round's time or a value's call.
 */
void
uuidx_mark_worker_main(Datum arg)
{
	long		sleep_ms = 0;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	before_shmem_exit(leave, (Datum) 0);
	uuidx_state_ensure();
	pg_atomic_write_u32(&uuidx_state->worker_pid, (uint32) MyProcPid);

	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		/* (the round reads the configuration again after a reload) */
		sleep_ms = round_of_worker(MyLatch);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 sleep_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* Do two registrations name the same function of the same library? */
static bool
same_worker(const BackgroundWorker *a, const BackgroundWorker *b)
{
	return strcmp(a->bgw_library_name, b->bgw_library_name) == 0 &&
		strcmp(a->bgw_function_name, b->bgw_function_name) == 0;
}

/*
 * Is the worker among those the postmaster will start?  (Registration
 * fails, with PostgreSQL's LOG "too many background workers", where
 * max_worker_processes are taken.)  The list is a dlist from 18 on.
 */
static bool
registered(const BackgroundWorker *worker)
{
#if PG_VERSION_NUM >= 180000
	dlist_iter	iter;

	dlist_foreach(iter, &BackgroundWorkerList)
		if (same_worker(&dlist_container(RegisteredBgWorker, rw_lnode, iter.cur)->rw_worker, worker))
		return true;
#else
	slist_iter	iter;

	slist_foreach(iter, &BackgroundWorkerList)
		if (same_worker(&slist_container(RegisteredBgWorker, rw_lnode, iter.cur)->rw_worker, worker))
		return true;
#endif
	return false;
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
	/* (in an EXEC_BACKEND child, which loads the library again, it is not) */
	if (!IsUnderPostmaster && !registered(&worker))
		ereport(WARNING,
				(errmsg("the uuidx mark worker could not be registered"),
				 errdetail("Values renew the high-water mark themselves, and may wait for its write; a standby's replayed marks are written durably by redo."),
				 errhint("Raise max_worker_processes, and restart the server.")));
}
