/*-------------------------------------------------------------------------
 *
 * generator_state.c
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
 * is preloaded, the mark worker (mark_worker.c) keeps it a second ahead of
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
 * record, flushed) under the state's lock, and only then publishes it to
 * the values, without the lock held: with synchronous standbys, after they
 * have the record, as a commit waits for them.
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
 * the worker makes it durable within a second, and a promoted node before
 * its first value.
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
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

UuidxSharedState *uuidx_state = NULL;
static UuidxStorage storage = UUIDX_STORAGE_NONE;

/* Set by the startup hook when the library is preloaded. */
static UuidxSharedState *preload_state = NULL;
static UuidxSharedState local_state;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static const uint64 max_position[UUIDX_NUM_GENERATORS] = {
	[UUIDX_GEN_V6] = (uint64) UUIDX_V6_MAX_TICKS,
	[UUIDX_GEN_V7] = PG_UINT64_MAX,
	[UUIDX_GEN_V8] = PG_UINT64_MAX,
};

/*
 * Right shift that leaves the clock part of a position: v6 positions are
 * all clock (100-ns ticks); v7 and v8 end in the 16-bit counter.
 */
static const int clock_shift[UUIDX_NUM_GENERATORS] = {
	[UUIDX_GEN_V6] = 0,
	[UUIDX_GEN_V7] = UUIDX_COUNTER_BITS,
	[UUIDX_GEN_V8] = UUIDX_COUNTER_BITS,
};

/* The generators' names, as uuidx_generator_state() shows them. */
static const char *const generator_name[UUIDX_NUM_GENERATORS] = {
	[UUIDX_GEN_V6] = "v6",
	[UUIDX_GEN_V7] = "v7",
	[UUIDX_GEN_V8] = "v8",
};

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
	return Min(position, max_position[gen]);
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
	pg_atomic_init_u32(&s->mark_in_wal, 0);
	pg_atomic_init_u32(&s->wal_wanted, uuidx_wal_log_mark_setting ? 1 : 0);
	pg_atomic_init_u32(&s->replay_pending, 0);
	pg_atomic_init_u32(&s->replay_writes, 0);
	pg_atomic_init_u32(&s->renew_asked, 0);
	s->worker_latch = NULL;
	pg_atomic_init_u32(&s->standbys_named, 0);
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
	uuidx_mark_wal_register(uuidx_mark_replay);
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
		 * 1.4.1, the worker's reading of synchronous_standby_names). Sessions
		 * still running an older library keep theirs, so a library upgrade
		 * takes a server restart.
		 */
		uuidx_state = UUIDX_GET_NAMED_DSM_SEGMENT("uuidx_state_v5", sizeof(UuidxSharedState),
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
	if (uuidx_state->persistent)
		UUIDX_REGISTER_TRANCHE(uuidx_state->lock.tranche, "uuidx");
}

/*
 * The error for a generator at the end of its UUID version's time range:
 * because the clock is beyond the greatest time the version can encode, or
 * because the last value handed out already holds it.
 */
void
uuidx_range_end_error(UuidxGenerator gen, bool clock_beyond)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("the %s generator has reached the end of its timestamp range",
					generator_name[gen]),
			 clock_beyond ?
			 errdetail("The clock is beyond the greatest time this UUID version can encode.") :
			 errdetail("The last value generated holds the greatest time this UUID version can encode."),
			 clock_beyond ?
			 errhint("Check the server's clock.") :
			 (uuidx_state != NULL && uuidx_state->persistent) ?
			 errhint("If the clock was wrong, correct it, stop the server and remove \"%s\" from the data directory.",
					 UUIDX_MARK_FILE) :
			 errhint("If the clock was wrong, correct it and open a new session.")));
}

/*
 * The next position of a generator: strictly greater than every position
 * it handed out before (in this server, or this backend when the state is
 * local), and equal to now_position whenever that is greater.  With a
 * persisted state the position is taken only once the mark covers it; if
 * the mark cannot be written, the ERROR leaves the state as it was.
 */
uint64
uuidx_next_position(UuidxGenerator gen, uint64 now_position)
{
	uint64		cur;
	uint64		next;
	int64		us = 0;			/* time of next, when the state is persisted */

	uuidx_state_ensure();

	cur = pg_atomic_read_u64(&uuidx_state->last[gen]);
	for (;;)
	{
		if (unlikely(cur >= max_position[gen]))
			uuidx_range_end_error(gen, false);

		/*
		 * A clock that has moved on to a later tick (v6) or millisecond (v7,
		 * v8) starts there, with the freshly seeded counter; otherwise the
		 * counter of the last value counts on by one.
		 */
		if ((now_position >> clock_shift[gen]) > (cur >> clock_shift[gen]))
			next = now_position;
		else
			next = cur + 1;
		if (unlikely(next > max_position[gen]))
			uuidx_range_end_error(gen, true);

		if (uuidx_state->persistent)
		{
			us = uuidx_position_unix_us(gen, next);
			if (unlikely(us > (int64) pg_atomic_read_u64(uuidx_mark_of(gen))) || uuidx_mark_write_pending())
			{
				uuidx_mark_cover(gen, us);
				cur = pg_atomic_read_u64(&uuidx_state->last[gen]);
				continue;
			}
		}
		if (pg_atomic_compare_exchange_u64(&uuidx_state->last[gen], &cur, next))
			break;
	}

	if (uuidx_state->persistent)
	{
		/* the setting turned on, or the node was promoted, meanwhile */
		if (unlikely(uuidx_mark_write_pending()))
			uuidx_mark_cover(gen, us);
		if (unlikely(us + UUIDX_MARK_AHEAD_US / 2 > (int64) pg_atomic_read_u64(uuidx_mark_of(gen))))
			uuidx_mark_renew_early(gen, us);
	}
	return next;
}

/*
 * How far ahead of the clock uuidx_generator_advance() moves the
 * generators at most: a day.  The clocks of servers that exchange data
 * differ by seconds; a key dated a day ahead was made by a clock that was
 * wrong, and following it would date every new key as far ahead.
 */
#define UUIDX_ADVANCE_MAX_AHEAD_US (INT64CONST(86400) * USECS_PER_SEC)

/*
 * The position a key of the generator's version stands for: v6 ticks; for
 * v7 and v8, the Unix millisecond and the 16 counter bits of uuidx's
 * layouts (layout.c), whatever made the key.  Every value at a greater
 * position is greater than the key.
 */
static uint64
key_position(UuidxGenerator gen, const pg_uuid_t *key)
{
	if (gen == UUIDX_GEN_V6)
		return uuidx_get_v6_ticks(key);
	return (uuidx_get_v7_ms(key) << UUIDX_COUNTER_BITS) |
		((uint64) (key->data[6] & 0x0F) << 12) | ((uint64) key->data[7] << 4) |
		((key->data[8] >> 2) & 0x0F);
}

/*
 * Raise every generator to at least target[gen], so that each hands out
 * only greater positions from now on, and keep that over restarts: the
 * marks cover the targets first, in the file and, with the mark in WAL, in
 * WAL; a target more than a day ahead of the clock, or a mark that cannot
 * be written, is an error that leaves everything as it was; with
 * synchronous standbys, it returns once they have the marks' record, as a
 * commit waits; a wait canceled is a WARNING after which the move stands,
 * as a commit does (the file and WAL have the marks already), and the
 * statement ends with the cancel's error; values beyond the marks the
 * standbys have still wait for them.  Returns the time every generator
 * now stands at, at least: all their values from now on are of a later
 * time.
 */
static TimestampTz
advance_generators(const uint64 *target)
{
	int64		now_us = uuidx_clock_unix_100ns() / 10;
	int64		needed = 0;
	int64		needed_v6;
	int64		stand = PG_INT64_MAX;

	uuidx_state_ensure();
	if (!uuidx_state->persistent)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uuidx_generator_advance() needs the generator state shared by the server"),
				 errdetail("The state is local to this session, and would not outlive it."),
				 errhint("Add uuidx to shared_preload_libraries and restart the server.")));
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		if (gen != UUIDX_GEN_V6)
			needed = Max(needed, uuidx_position_unix_us(gen, target[gen]));
	needed_v6 = uuidx_position_unix_us(UUIDX_GEN_V6, target[UUIDX_GEN_V6]);
	if (Max(needed, needed_v6) > now_us + UUIDX_ADVANCE_MAX_AHEAD_US)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot advance the generators to %s",
						timestamptz_to_str(uuidx_unix_us_to_timestamptz(Max(needed, needed_v6)))),
				 errdetail("That is more than 24 hours ahead of the clock, which reads %s.",
						   timestamptz_to_str(uuidx_unix_us_to_timestamptz(now_us))),
				 errhint("A value dated in the future was made by a clock that was wrong: check this server's clock and that of the server the value came from.")));

	/*
	 * The marks, in the file and WAL, and on the synchronous standbys; as for
	 * a commit, interrupts are held until the generators stand past the
	 * targets (a cancel of the wait ends it, with a WARNING), then taken.
	 */
	HOLD_INTERRUPTS();
	uuidx_mark_write_and_publish(Max((int64) pg_atomic_read_u64(&uuidx_state->mark_us), needed),
								 Max((int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us), Min(needed_v6, uuidx_v6_max_unix_us())),
								 ERROR, UUIDX_MARK_WAIT_AS_COMMIT);
	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		uint64		last;

		uuidx_atomic_raise(&uuidx_state->last[gen], Min(target[gen], max_position[gen]));
		/* the last microsecond of its tick or millisecond: values come after */
		last = pg_atomic_read_u64(&uuidx_state->last[gen]);
		stand = Min(stand, gen == UUIDX_GEN_V6 ? uuidx_position_unix_us(gen, last)
					: uuidx_position_unix_us(gen, last) + 999);
	}
	LWLockRelease(&uuidx_state->lock);
	RESUME_INTERRUPTS();
	CHECK_FOR_INTERRUPTS();
	return uuidx_unix_us_to_timestamptz(stand);
}

/*
 * uuidx_generator_advance(past uuid): the generator of past's version (v6,
 * v7 or v8) hands out only values greater than past from now on, the
 * others only values of a later time.  (A v6 key sorts above every v7 and
 * v8 key of its time, and no v7 or v8 value could pass it before the year
 * 2940.)
 */
PG_FUNCTION_INFO_V1(uuidx_generator_advance_uuid);
Datum
uuidx_generator_advance_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *past = PG_GETARG_UUID_P(0);
	int			version = uuidx_get_version(past);
	UuidxGenerator own;
	int64		past_us;
	uint64		target[UUIDX_NUM_GENERATORS];

	switch (version)
	{
		case 6:
			own = UUIDX_GEN_V6;
			past_us = uuidx_ticks_to_unix_us(uuidx_get_v6_ticks(past));
			break;
		case 7:
		case 8:
			own = version == 7 ? UUIDX_GEN_V7 : UUIDX_GEN_V8;
			past_us = (int64) uuidx_get_v7_ms(past) * 1000 + 999;
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot advance the generators past UUID %s",
							DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(past)))),
					 version < 0 ?
					 errdetail("It is not of the RFC 9562 variant, so it has no version.") :
					 errdetail("It is a version %d UUID, which holds no time of uuidx's generators.", version),
					 errhint("Pass a v6, v7 or v8 UUID, or a time.")));
	}
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		target[gen] = gen == (int) own ? key_position(own, past) : uuidx_last_position_at(gen, past_us);
	PG_RETURN_TIMESTAMPTZ(advance_generators(target));
}

/*
 * uuidx_generator_advance(past timestamptz): every generator hands out only
 * values of a later time from now on.
 */
PG_FUNCTION_INFO_V1(uuidx_generator_advance_timestamptz);
Datum
uuidx_generator_advance_timestamptz(PG_FUNCTION_ARGS)
{
	TimestampTz past = PG_GETARG_TIMESTAMPTZ(0);
	uint64		target[UUIDX_NUM_GENERATORS];

	if (TIMESTAMP_NOT_FINITE(past))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("cannot advance the generators to %s", timestamptz_to_str(past)),
				 errhint("Pass a finite time.")));
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		target[gen] = uuidx_last_position_at(gen, uuidx_timestamptz_to_unix_us(past));
	PG_RETURN_TIMESTAMPTZ(advance_generators(target));
}

static const char *
storage_name(UuidxStorage s)
{
	switch (s)
	{
		case UUIDX_STORAGE_PRELOAD:
			return "shared_preload_libraries";
		case UUIDX_STORAGE_DSM:
			return "dsm_registry";
		case UUIDX_STORAGE_LOCAL:
			return "backend_local";
		case UUIDX_STORAGE_NONE:
			break;
	}
	return "none";
}

/*
 * uuidx_generator_state(): one row per generator, with where its state
 * lives, the time of its last position, the clock, how far ahead of the
 * clock it runs, the persisted mark that covers it, and (SQL 1.2 and
 * later, which declare the column) whether moves of the mark go into WAL.
 */
PG_FUNCTION_INFO_V1(uuidx_generator_state);
Datum
uuidx_generator_state(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int64		clock_us;
	bool		wal_logged;

	InitMaterializedSRF(fcinfo, 0);
	uuidx_state_ensure();
	clock_us = uuidx_clock_unix_100ns() / 10;
	wal_logged = uuidx_state->persistent && uuidx_wal_active();

	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		Datum		values[8];
		bool		nulls[8] = {false};
		uint64		last = pg_atomic_read_u64(&uuidx_state->last[gen]);
		Interval   *ahead = palloc0(sizeof(Interval));

		values[0] = CStringGetTextDatum(generator_name[gen]);
		values[1] = CStringGetTextDatum(storage == UUIDX_STORAGE_LOCAL ? "backend" : "server");
		values[2] = CStringGetTextDatum(storage_name(storage));
		if (last == 0)
			nulls[3] = true;
		else
		{
			int64		last_us = uuidx_position_unix_us(gen, last);

			values[3] = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(last_us));
			ahead->time = Max(0, last_us - clock_us);
		}
		values[4] = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(clock_us));
		values[5] = IntervalPGetDatum(ahead);
		if (!uuidx_state->persistent)
			nulls[6] = true;
		else
			values[6] = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(
																		 (int64) pg_atomic_read_u64(uuidx_mark_of(gen))));
		values[7] = BoolGetDatum(wal_logged);

		/* SQL before 1.2 declares seven columns */
		Assert(rsinfo->setDesc->natts == 7 || rsinfo->setDesc->natts == 8);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
