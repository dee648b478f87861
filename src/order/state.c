/*-------------------------------------------------------------------------
 *
 * state.c
 *	  The state that makes every generator strictly increasing, where it
 *	  lives, and the high-water mark that carries the order over restarts.
 *
 * Each generator keeps one 64-bit "position" (v6: the 60-bit timestamp in
 * 100-ns ticks; v7 and v8: Unix millisecond << 16 | counter).  The next
 * value takes max(clock position, last position + 1) with a compare-and-swap
 * loop, so no lock is held and no value is ever handed out twice or out of
 * order, whatever the clock does: when it steps back or stalls, the
 * position runs ahead of it, and when it catches up, the position follows
 * it again (RFC 9562 section 6.2, "Counter Rollover Handling").
 *
 * Where the state lives, decided on first use:
 *	  - in the main shared memory segment, when the library is in
 *		shared_preload_libraries (shmem_request_hook + shmem_startup_hook);
 *	  - otherwise, on PostgreSQL 17 and later, in a segment of the DSM
 *		registry, created by the first backend that needs it;
 *	  - otherwise in this backend's memory: values are then strictly
 *		increasing within the backend only, and uuidx_generator_state()
 *		says so.
 *
 * The mark.  While the state is shared, no value is handed out whose time
 * lies beyond the high-water mark, a time written durably to the file
 * uuidx.hwm in the data directory (a new file renamed over the old, so a
 * copy of the data directory never sees half of one); a restart or crash
 * restart starts every generator above the mark, so the first value after
 * it is greater than every value before it even if the clock was moved
 * back.  The mark is a reservation made ahead of need: where the library
 * is preloaded, the mark worker (worker.c) keeps it a second ahead of
 * the clock and of the generators while values are being made, renewing
 * it when less than half a second remains, so that a value waits for no
 * I/O unless the clock outruns the worker; a value that finds less than a
 * quarter left (the worker is late, or cannot write) renews it itself,
 * where no other process is at it.  A value that finds the mark
 * behind it (the first after a restart, or after five minutes without
 * values, when the worker lets the reservation lapse, or where there is no
 * worker) moves the mark itself, and is taken only once the mark covers
 * it: when the mark cannot be written, the generator's position stays
 * where it was.  A restart can thus date the first values after it up to
 * a second ahead of the clock, until the clock catches up.
 *
 * Moving the mark writes it (the file, then, with the mark in WAL, a WAL
 * record, flushed), one process at a time, the mark's writer, without the
 * state's lock held, and only then publishes it to the values: with
 * synchronous standbys, after they have the record, as a commit waits for
 * them.  A process that needs the mark while another writes it waits on a
 * condition variable, so a cancel or statement_timeout ends its wait
 * (mark.c); values the mark covers never wait.
 *
 * With uuidx.wal_log_mark on (and the library preloaded, so that its WAL
 * resource manager is registered), each move also goes into WAL; so does
 * the mark as it stands, before the first value taken under it, when it
 * was set without a record (the setting was off, the server has just
 * started, or the node has just been promoted).  The setting as the server
 * last read it is kept in the shared state by its assign hook, which runs
 * in the postmaster before any session can see the new value: a statement
 * that began before the reload that turned it on has its next value
 * covered by a record too.  Every row that holds such a value is written
 * to WAL after the record that covers it, so a standby, a crash recovery
 * or a point-in-time recovery that replays the row has replayed the mark:
 * redo raises the node's marks and its generators (uuidx_mark_replay()), and a
 * promoted node starts above every value it replayed.  Redo writes the
 * node's mark file without an fsync, which a crash of PostgreSQL keeps;
 * the worker makes it durable within a second (redo itself, where the
 * worker is later than that), and a promoted node before its first value;
 * a file redo cannot write stops the replay (mark.c).
 * Recovery that starts at a checkpoint after the record still finds the
 * mark in the mark file, which the node wrote when it replayed the record,
 * or which a base backup taken after that checkpoint copied: the file is
 * written before the record.
 *
 * v6 ends in 5236 AD, v7 and v8 in 10889 AD, so the file keeps two marks:
 * the one v7 and v8 use, and v6's own, which follows it while it lies
 * within v6's range and otherwise stays where v6 last needed it.  A clock
 * that visited the years after 5236 thus leaves v6 usable after a restart.
 * No mark is written beyond what the reader accepts (UUIDX_MARK_MAX_US).
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include "compat.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"

UuidxSharedState *uuidx_state = NULL;
static UuidxStorage storage = UUIDX_STORAGE_NONE;

/* Set by the startup hook when the library is preloaded. */
static UuidxSharedState *preload_state = NULL;
static UuidxSharedState local_state;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * The greatest position of the generator whose time does not exceed the
 * given Unix microsecond: every value handed out before a restart is at or
 * below it.
 */
uint64
uuidx_last_position_at(UuidxGenerator gen, int64 unix_us)
{
	uint64		position;

	if (unix_us <= 0)
		return 0;
	if (gen == UUIDX_GEN_V6)
		position = (uint64) (UUIDX_GREGORIAN_OFFSET_TICKS + unix_us * 10 + 9);
	else
		position = ((uint64) (unix_us / 1000) << UUIDX_COUNTER_BITS) | UUIDX_COUNTER_MASK;
	return Min(position, uuidx_max_position(gen));
}

/*
 * Start a state: empty, or above the persisted marks.
 */
static void
init_state(UuidxSharedState *s, bool persistent)
{
	int64		mark = 0;
	int64		v6_mark = 0;

	if (persistent)
	{
		uuidx_mark_file_read(&mark, &v6_mark);
		LWLockInitialize(&s->lock, UUIDX_NEW_TRANCHE_ID("uuidx"));
	}
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		pg_atomic_init_u64(&s->last[gen],
						   uuidx_last_position_at(gen, gen == UUIDX_GEN_V6 ? v6_mark : mark));
	pg_atomic_init_u64(&s->mark_us, (uint64) mark);
	pg_atomic_init_u64(&s->v6_mark_us, (uint64) v6_mark);
	pg_atomic_init_u64(&s->early_retry_us, 0);
	pg_atomic_init_u32(&s->unreported_failures, 0);
	pg_atomic_init_u64(&s->report_after_us, 0);
	pg_atomic_init_u32(&s->failure_reported, 0);
	pg_atomic_init_u32(&s->mark_in_wal, 0);
	pg_atomic_init_u32(&s->wal_wanted, uuidx_wal_log_mark_setting ? 1 : 0);
	pg_atomic_init_u32(&s->replay_pending, 0);
	pg_atomic_init_u32(&s->replay_writes, 0);
	pg_atomic_init_u64(&s->replay_pending_us, 0);
	pg_atomic_init_u32(&s->renew_asked, 0);
	s->worker_latch = NULL;
	pg_atomic_init_u32(&s->standbys_named, 0);
	pg_atomic_init_u32(&s->worker_pid, 0);
	pg_atomic_init_u64(&s->worker_moved_us, 0);
	pg_atomic_init_u64(&s->worker_synced_us, 0);
	pg_atomic_init_u64(&s->durable_writes, 0);
	s->writer_pid = 0;
	ConditionVariableInit(&s->writer_cv);
	s->written_mark_us = mark;
	s->written_v6_mark_us = v6_mark;
	s->written_in_wal = false;
	s->written_lsn = InvalidXLogRecPtr;
	s->persistent = persistent;
}

/*
 * uuidx.wal_log_mark's assign hook: keep the setting in the shared state,
 * where every process reads it.  The postmaster reads the configuration
 * first, before it signals the other processes, so no session can show
 * the new value before the shared state has it.  (Before the state exists,
 * at the postmaster's start, init_state() reads the setting.)
 */
void
uuidx_state_wal_wanted(bool wanted)
{
	/* the others' reads may come late, and with an older file */
	if (preload_state != NULL && !IsUnderPostmaster)
		pg_atomic_write_u32(&preload_state->wal_wanted, wanted ? 1 : 0);
}

static void
uuidx_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(UuidxSharedState)));
}

static void
uuidx_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	preload_state = ShmemInitStruct("uuidx generator state",
									sizeof(UuidxSharedState), &found);
	if (!found)
		init_state(preload_state, true);
	LWLockRelease(AddinShmemInitLock);
	/* named here, in the postmaster, for every process it starts */
	UUIDX_REGISTER_TRANCHE(preload_state->lock.tranche, "uuidx");
}

/*
 * Called from _PG_init while shared_preload_libraries is processed.
 */
void
uuidx_state_install_hooks(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = uuidx_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = uuidx_shmem_startup;
}

#ifdef UUIDX_HAVE_DSM_REGISTRY
static void
init_dsm_state(UUIDX_DSM_INIT_ARGS)
{
	init_state((UuidxSharedState *) ptr, true);
}
#endif

/*
 * Find the state on first use.
 */
void
uuidx_state_attach(void)
{
	if (preload_state != NULL)
	{
		uuidx_state = preload_state;
		storage = UUIDX_STORAGE_PRELOAD;
	}
#ifdef UUIDX_HAVE_DSM_REGISTRY
	else if (IsUnderPostmaster)
	{
		bool		found;

		/*
		 * Versioned: a library with another layout gets its own segment (v3
		 * holds the lock; v4, 1.3.2, what the mark worker and redo share; v5,
		 * 1.4.1, the worker's reading of synchronous_standby_names; v6,
		 * 1.5.0, the writer of the mark and the worker's times; v7, 1.5.2,
		 * the pacing of failed writes' reports). Sessions still running an
		 * older library keep theirs, so a library upgrade takes a server
		 * restart.
		 */
		uuidx_state = UUIDX_GET_NAMED_DSM_SEGMENT("uuidx_state_v7", sizeof(UuidxSharedState),
												  init_dsm_state, &found);
		storage = UUIDX_STORAGE_DSM;
	}
#endif
	else
	{
		init_state(&local_state, false);
		uuidx_state = &local_state;
		storage = UUIDX_STORAGE_LOCAL;
	}
	/* the DSM registry's lock: named in the processes that use it (19: all) */
	if (storage == UUIDX_STORAGE_DSM)
		UUIDX_REGISTER_TRANCHE(uuidx_state->lock.tranche, "uuidx");
}

/* Where the state lives: none before the first use. */
UuidxStorage
uuidx_state_storage(void)
{
	return storage;
}
