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
 * copy of the data directory never sees half of one).  The mark is moved
 * one second ahead of use, by the process that holds the state's lock,
 * before the values beyond the old mark are returned; a restart or crash
 * restart starts every generator above the mark, so the first value after
 * it is greater than every value before it even if the clock was moved
 * back.  The mark is moved when a value comes within half a second of it:
 * about two small writes per second of generated time, done ahead of need
 * by a process that finds the lock free, without making the others wait.
 * A value is taken only once the mark covers it: when the mark cannot be
 * written, the generator's position stays where it was.
 *
 * With uuidx.wal_log_mark on (and the library preloaded, so that its WAL
 * resource manager is registered), each move also goes into WAL, flushed
 * before the values it covers are returned (mark_wal.c); so does the mark
 * as it stands, before the first value taken under it, when it was set
 * without a record (the setting was off, the server has just started, or
 * the node has just been promoted).  Every row that
 * holds such a value is written to WAL after the record that covers it, so
 * a standby, a crash recovery or a point-in-time recovery that replays the
 * row has replayed the mark: redo raises the node's shared mark, its
 * generators and its own mark file (replay_mark()), and a promoted
 * node starts above every value it replayed.  Recovery that starts at a
 * checkpoint after the record still finds the mark in the mark file, which
 * the node wrote when it replayed the record, or which a base backup taken
 * after that checkpoint copied: the file is written before the record.
 *
 * v6 ends in 5236 AD, v7 and v8 in 10889 AD, so the file keeps two marks:
 * the one v7 and v8 use, and v6's own, which follows it while it lies
 * within v6's range and otherwise stays where v6 last needed it.  A clock
 * that visited the years after 5236 thus leaves v6 usable after a restart.
 * No mark is written beyond what the reader accepts (UUIDX_MARK_MAX_US).
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "compat.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

/* After a failed early move, how long before the next early attempt. */
#define UUIDX_EARLY_RETRY_US INT64CONST(100000)


typedef struct UuidxSharedState
{
	pg_atomic_uint64 last[UUIDX_NUM_GENERATORS];
	/* The mark v7 and v8 values may not pass (Unix microseconds). */
	pg_atomic_uint64 mark_us;
	/* The same for v6: at most v6's last microsecond. */
	pg_atomic_uint64 v6_mark_us;
	/* Clock (Unix us) before which no early move is tried after a failure. */
	pg_atomic_uint64 early_retry_us;
	/* 1 while both marks, as they are, have been written to WAL. */
	pg_atomic_uint32 mark_in_wal;
	/* Held while the mark is moved (persistent state only). */
	LWLock		lock;
	bool		persistent;
} UuidxSharedState;

static UuidxSharedState *state = NULL;
static UuidxStorage storage = UUIDX_STORAGE_NONE;

/* Set by the startup hook when the library is preloaded. */
static UuidxSharedState *preload_state = NULL;
static UuidxSharedState local_state;

static void replay_mark(int64 mark, int64 v6_mark);

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
 * The Unix time, in microseconds, of a position of the given generator
 * (rounded down).
 */
static int64
position_to_unix_us(UuidxGenerator gen, uint64 position)
{
	if (gen == UUIDX_GEN_V6)
		return uuidx_ticks_to_unix_us(position);
	return (int64) (position >> UUIDX_COUNTER_BITS) * 1000;
}

/*
 * The greatest position of the generator whose time does not exceed the
 * given Unix microsecond: every value handed out before a restart is at or
 * below it.
 */
static uint64
last_position_at(UuidxGenerator gen, int64 unix_us)
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
						   last_position_at(gen, gen == UUIDX_GEN_V6 ? v6_mark : mark));
	pg_atomic_init_u64(&s->mark_us, (uint64) mark);
	pg_atomic_init_u64(&s->v6_mark_us, (uint64) v6_mark);
	pg_atomic_init_u64(&s->early_retry_us, 0);
	pg_atomic_init_u32(&s->mark_in_wal, 0);
	s->persistent = persistent;
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
	uuidx_mark_wal_register(replay_mark);
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
static void
attach_state(void)
{
	if (preload_state != NULL)
	{
		state = preload_state;
		storage = UUIDX_STORAGE_PRELOAD;
	}
#ifdef UUIDX_HAVE_DSM_REGISTRY
	else if (IsUnderPostmaster)
	{
		bool		found;

		/*
		 * Versioned: a library with another layout gets its own segment (v3
		 * holds the lock).  Sessions still running an older library keep
		 * theirs, so a library upgrade takes a server restart.
		 */
		state = UUIDX_GET_NAMED_DSM_SEGMENT("uuidx_state_v3", sizeof(UuidxSharedState),
											init_dsm_state, &found);
		storage = UUIDX_STORAGE_DSM;
	}
#endif
	else
	{
		init_state(&local_state, false);
		state = &local_state;
		storage = UUIDX_STORAGE_LOCAL;
	}
	if (state->persistent)
		UUIDX_REGISTER_TRANCHE(state->lock.tranche, "uuidx");
}

static inline void
ensure_state(void)
{
	if (unlikely(state == NULL))
		attach_state();
}

/* The mark that covers a generator's values. */
static inline pg_atomic_uint64 *
mark_of(UuidxGenerator gen)
{
	return gen == UUIDX_GEN_V6 ? &state->v6_mark_us : &state->mark_us;
}

/* Raise an atomic to at least value. */
static void
atomic_raise(pg_atomic_uint64 *var, uint64 value)
{
	uint64		cur = pg_atomic_read_u64(var);

	while (cur < value && !pg_atomic_compare_exchange_u64(var, &cur, value))
		;
}

/*
 * Must the mark be written to WAL before the next value is taken?  When
 * moves of the mark go into WAL and the mark as it is has not been written
 * there: it was set before the setting was turned on, before this server
 * started, or on this node before it was promoted.
 */
static inline bool
mark_wal_pending(void)
{
	return unlikely(uuidx_wal_log_mark_setting) &&
		pg_atomic_read_u32(&state->mark_in_wal) == 0 &&
		uuidx_mark_wal_active();
}

/*
 * Make the marks new_mark and new_v6_mark (not less than they are), with
 * the state's lock held: the file first, then WAL where to_wal, then the
 * marks in memory.  Marks that stay go into WAL only (where they are not
 * there yet).  A file that cannot be written is reported at elevel and
 * leaves everything as it was: false.
 */
static bool
set_marks(int64 new_mark, int64 new_v6_mark, bool to_wal, int elevel)
{
	if (new_mark != (int64) pg_atomic_read_u64(&state->mark_us) ||
		new_v6_mark != (int64) pg_atomic_read_u64(&state->v6_mark_us))
	{
		if (!uuidx_mark_file_write(new_mark, new_v6_mark, elevel))
			return false;
	}
	else if (!to_wal || pg_atomic_read_u32(&state->mark_in_wal) != 0)
		return true;
	if (to_wal)
		uuidx_mark_wal_log(new_mark, new_v6_mark);
	pg_atomic_write_u32(&state->mark_in_wal, to_wal ? 1 : 0);
	pg_atomic_write_u64(&state->mark_us, (uint64) new_mark);
	pg_atomic_write_u64(&state->v6_mark_us, (uint64) new_v6_mark);
	return true;
}

/*
 * Move the marks so that the generator's mark covers needed_us, with a
 * second to spare.  The v7/v8 mark moves to the new target; v6's follows it
 * within v6's range, and beyond it moves only for v6 itself (to v6's last
 * microsecond), so a v7 or v8 value generated past 5236 AD does not use up
 * v6's range.
 *
 * When must_cover is false this is an early move: it is skipped if another
 * process holds the lock, and after a failure it is retried (and reported,
 * as a WARNING) at most every 100 ms, not for every value.  When true, the
 * caller's value lies beyond the mark, or the mark is still to be written
 * to WAL, and may not be taken until the mark covers it: the caller waits
 * for the lock, and a failure is an ERROR.
 *
 * The file is written before the WAL record.  A base backup whose
 * checkpoint comes after the record copies the file afterwards, so it has
 * the mark either way; and a file written for a record that never made it
 * to WAL only holds a greater mark, which is harmless.
 */
static void
move_mark(UuidxGenerator gen, int64 needed_us, bool must_cover)
{
	pg_atomic_uint64 *covering = mark_of(gen);
	int64		now_us = uuidx_clock_unix_100ns() / 10;
	int64		wanted = must_cover ? needed_us : needed_us + UUIDX_MARK_AHEAD_US / 2;
	bool		to_wal;
	int64		mark,
				v6_mark,
				target,
				new_mark,
				new_v6_mark;

	if (!must_cover)
	{
		int64		retry_at = (int64) pg_atomic_read_u64(&state->early_retry_us);

		/* After a failure wait 100 ms, unless the clock stepped back. */
		if (now_us < retry_at && now_us >= retry_at - UUIDX_EARLY_RETRY_US)
			return;
		if (!LWLockConditionalAcquire(&state->lock, LW_EXCLUSIVE))
			return;
	}
	else
		LWLockAcquire(&state->lock, LW_EXCLUSIVE);

	/* Another process may have moved it, or logged it, meanwhile. */
	to_wal = uuidx_mark_wal_active();
	if ((int64) pg_atomic_read_u64(covering) >= wanted &&
		(!to_wal || pg_atomic_read_u32(&state->mark_in_wal) != 0))
	{
		LWLockRelease(&state->lock);
		return;
	}
	mark = (int64) pg_atomic_read_u64(&state->mark_us);
	v6_mark = (int64) pg_atomic_read_u64(&state->v6_mark_us);
	target = Min(Max(needed_us, now_us) + UUIDX_MARK_AHEAD_US, UUIDX_MARK_MAX_US);
	new_mark = Max(mark, target);
	new_v6_mark = v6_mark;
	if (target <= uuidx_v6_max_unix_us() || gen == UUIDX_GEN_V6)
		new_v6_mark = Max(v6_mark, Min(target, uuidx_v6_max_unix_us()));

	if (!set_marks(new_mark, new_v6_mark, to_wal, must_cover ? ERROR : WARNING))
		pg_atomic_write_u64(&state->early_retry_us, (uint64) (now_us + UUIDX_EARLY_RETRY_US));
	LWLockRelease(&state->lock);
}

/*
 * Redo of a mark written to WAL (mark_wal.c): raise this node's marks and
 * generators to it, and write its own mark file, so that a restart before
 * promotion keeps what was replayed.  A file that cannot be written is
 * reported; the replay goes on (the marks in memory are raised), and the
 * next record writes the file again.
 */
static void
replay_mark(int64 mark, int64 v6_mark)
{
	ensure_state();
	if (!state->persistent)
		return;
	mark = Min(Max(mark, 0), UUIDX_MARK_MAX_US);
	v6_mark = Min(Max(v6_mark, 0), uuidx_v6_max_unix_us());

	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	mark = Max(mark, (int64) pg_atomic_read_u64(&state->mark_us));
	v6_mark = Max(v6_mark, (int64) pg_atomic_read_u64(&state->v6_mark_us));
	if (uuidx_mark_file_write(mark, v6_mark, WARNING))
	{
		pg_atomic_write_u64(&state->mark_us, (uint64) mark);
		pg_atomic_write_u64(&state->v6_mark_us, (uint64) v6_mark);
	}
	else
	{
		atomic_raise(&state->mark_us, (uint64) mark);
		atomic_raise(&state->v6_mark_us, (uint64) v6_mark);
	}
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		atomic_raise(&state->last[gen],
					 last_position_at(gen, gen == UUIDX_GEN_V6 ? v6_mark : mark));
	LWLockRelease(&state->lock);
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
			 (state != NULL && state->persistent) ?
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

	ensure_state();

	cur = pg_atomic_read_u64(&state->last[gen]);
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

		if (state->persistent)
		{
			us = position_to_unix_us(gen, next);
			if (unlikely(us > (int64) pg_atomic_read_u64(mark_of(gen))) ||
				mark_wal_pending())
			{
				move_mark(gen, us, true);
				cur = pg_atomic_read_u64(&state->last[gen]);
				continue;
			}
		}
		if (pg_atomic_compare_exchange_u64(&state->last[gen], &cur, next))
			break;
	}

	if (state->persistent &&
		unlikely(us + UUIDX_MARK_AHEAD_US / 2 > (int64) pg_atomic_read_u64(mark_of(gen))))
		move_mark(gen, us, false);
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
 * be written, is an error that leaves everything as it was.  Returns the
 * time every generator now stands at, at least: all their values from now
 * on are of a later time.
 */
static TimestampTz
advance_generators(const uint64 *target)
{
	int64		now_us = uuidx_clock_unix_100ns() / 10;
	int64		needed = 0;
	int64		needed_v6;
	int64		stand = PG_INT64_MAX;

	ensure_state();
	if (!state->persistent)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uuidx_generator_advance() needs the generator state shared by the server"),
				 errdetail("The state is local to this session, and would not outlive it."),
				 errhint("Add uuidx to shared_preload_libraries and restart the server.")));
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		if (gen != UUIDX_GEN_V6)
			needed = Max(needed, position_to_unix_us(gen, target[gen]));
	needed_v6 = position_to_unix_us(UUIDX_GEN_V6, target[UUIDX_GEN_V6]);
	if (Max(needed, needed_v6) > now_us + UUIDX_ADVANCE_MAX_AHEAD_US)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot advance the generators to %s",
						timestamptz_to_str(uuidx_unix_us_to_timestamptz(Max(needed, needed_v6)))),
				 errdetail("That is more than 24 hours ahead of the clock, which reads %s.",
						   timestamptz_to_str(uuidx_unix_us_to_timestamptz(now_us))),
				 errhint("A value dated in the future was made by a clock that was wrong: check this server's clock and that of the server the value came from.")));

	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	set_marks(Max((int64) pg_atomic_read_u64(&state->mark_us), needed),
			  Max((int64) pg_atomic_read_u64(&state->v6_mark_us), Min(needed_v6, uuidx_v6_max_unix_us())),
			  uuidx_mark_wal_active(), ERROR);
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		uint64		last;

		atomic_raise(&state->last[gen], Min(target[gen], max_position[gen]));
		/* the last microsecond of its tick or millisecond: values come after */
		last = pg_atomic_read_u64(&state->last[gen]);
		stand = Min(stand, gen == UUIDX_GEN_V6 ? position_to_unix_us(gen, last)
					: position_to_unix_us(gen, last) + 999);
	}
	LWLockRelease(&state->lock);
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
		target[gen] = gen == (int) own ? key_position(own, past) : last_position_at(gen, past_us);
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
		target[gen] = last_position_at(gen, uuidx_timestamptz_to_unix_us(past));
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
	ensure_state();
	clock_us = uuidx_clock_unix_100ns() / 10;
	wal_logged = state->persistent && uuidx_mark_wal_active();

	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		Datum		values[8];
		bool		nulls[8] = {false};
		uint64		last = pg_atomic_read_u64(&state->last[gen]);
		Interval   *ahead = palloc0(sizeof(Interval));

		values[0] = CStringGetTextDatum(generator_name[gen]);
		values[1] = CStringGetTextDatum(storage == UUIDX_STORAGE_LOCAL ? "backend" : "server");
		values[2] = CStringGetTextDatum(storage_name(storage));
		if (last == 0)
			nulls[3] = true;
		else
		{
			int64		last_us = position_to_unix_us(gen, last);

			values[3] = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(last_us));
			ahead->time = Max(0, last_us - clock_us);
		}
		values[4] = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(clock_us));
		values[5] = IntervalPGetDatum(ahead);
		if (!state->persistent)
			nulls[6] = true;
		else
			values[6] = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(
																		 (int64) pg_atomic_read_u64(mark_of(gen))));
		values[7] = BoolGetDatum(wal_logged);

		/* SQL before 1.2 declares seven columns */
		Assert(rsinfo->setDesc->natts == 7 || rsinfo->setDesc->natts == 8);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
