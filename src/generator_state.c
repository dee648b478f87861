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
 * generators and its own mark file (uuidx_replay_mark()), and a promoted
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

#include <fcntl.h>
#include <unistd.h>

#include "compat.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* How far ahead of use the mark is moved, in microseconds. */
#define UUIDX_MARK_AHEAD_US INT64CONST(1000000)
/* After a failed early move, how long before the next early attempt. */
#define UUIDX_EARLY_RETRY_US INT64CONST(100000)

#define UUIDX_MARK_FILE "uuidx.hwm"
#define UUIDX_MARK_TEMP_FILE "uuidx.hwm.tmp"
/* Version 1 (written by 1.0) kept one mark; version 2 adds v6's own. */
#define UUIDX_MARK_MAGIC_V1 "uuidx high-water mark v1 unix_us="
#define UUIDX_MARK_MAGIC "uuidx high-water mark v2 unix_us="
#define UUIDX_MARK_V6_FIELD " v6_unix_us="
#define UUIDX_MARK_RECORD_LEN 128

/*
 * The greatest mark, written or read: the last microsecond of the last
 * millisecond v7 and v8 can encode.  No generator needs more.
 */
#define UUIDX_MARK_MAX_US ((UUIDX_V7_MAX_MS + 1) * 1000 - 1)

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

/* The last Unix microsecond a v6 value can hold (5236-03-31). */
static inline int64
v6_max_unix_us(void)
{
	return uuidx_ticks_to_unix_us((uint64) UUIDX_V6_MAX_TICKS);
}

/* What the WARNINGs about an unusable mark file say it means. */
#define UUIDX_MARK_LOST_DETAIL \
	"Values generated after this restart are ordered after earlier ones only if the clock is."

/* What an error about writing the mark says it means. */
#define UUIDX_MARK_WRITE_DETAIL \
	"A UUID is returned only once the persisted high-water mark covers its time."
#define UUIDX_MARK_WRITE_HINT \
	"Check that the data directory is writable and has free space."

/*
 * Parse a mark: digits, then the end of the field.  False unless it is a
 * number from 0 to max.
 */
static bool
parse_mark_value(const char *digits, const char **end, int64 *value, int64 max)
{
	char	   *stop;

	errno = 0;
	*value = strtoi64(digits, &stop, 10);
	*end = stop;
	return errno == 0 && stop != digits && *value >= 0 && *value <= max;
}

/*
 * Read the mark file into *mark (v7 and v8) and *v6_mark.  Both are 0 when
 * there is no file; a file that cannot be read or parsed is reported and
 * treated as absent, because this runs in the postmaster, where an error
 * would stop the server.  A version 1 file holds one mark, which v6 takes
 * only as far as its range goes.
 */
static void
read_mark_file(int64 *mark, int64 *v6_mark)
{
	char		buf[UUIDX_MARK_RECORD_LEN + 1];
	int			fd;
	ssize_t		n;
	const char *p;

	*mark = 0;
	*v6_mark = 0;
	fd = OpenTransientFile(UUIDX_MARK_FILE, O_RDONLY | PG_BINARY);
	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", UUIDX_MARK_FILE),
					 errdetail(UUIDX_MARK_LOST_DETAIL)));
		return;
	}
	n = read(fd, buf, UUIDX_MARK_RECORD_LEN);
	if (n < 0)
	{
		int			save_errno = errno;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", UUIDX_MARK_FILE),
				 errdetail(UUIDX_MARK_LOST_DETAIL)));
		return;
	}
	CloseTransientFile(fd);
	buf[n] = '\0';

	if (strncmp(buf, UUIDX_MARK_MAGIC, strlen(UUIDX_MARK_MAGIC)) == 0)
	{
		p = buf + strlen(UUIDX_MARK_MAGIC);
		if (!parse_mark_value(p, &p, mark, UUIDX_MARK_MAX_US) ||
			strncmp(p, UUIDX_MARK_V6_FIELD, strlen(UUIDX_MARK_V6_FIELD)) != 0 ||
			!parse_mark_value(p + strlen(UUIDX_MARK_V6_FIELD), &p, v6_mark, v6_max_unix_us()) ||
			*p != '\n')
			goto corrupt;
		return;
	}
	if (strncmp(buf, UUIDX_MARK_MAGIC_V1, strlen(UUIDX_MARK_MAGIC_V1)) == 0)
	{
		/*
		 * 1.0 wrote up to a second past the end of v7 (needed time plus the
		 * window); such a mark still means "v7 and v8 are at their end".
		 */
		p = buf + strlen(UUIDX_MARK_MAGIC_V1);
		if (!parse_mark_value(p, &p, mark, UUIDX_MARK_MAX_US + UUIDX_MARK_AHEAD_US) ||
			*p != '\n')
			goto corrupt;
		*mark = Min(*mark, UUIDX_MARK_MAX_US);
		*v6_mark = Min(*mark, v6_max_unix_us());
		return;
	}

corrupt:
	*mark = 0;
	*v6_mark = 0;
	ereport(WARNING,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("ignoring invalid high-water mark file \"%s\"", UUIDX_MARK_FILE),
			 errdetail(UUIDX_MARK_LOST_DETAIL),
			 errhint("Remove the file; uuidx writes a new one.")));
}

/*
 * The new mark file, before it is renamed over the old one: written and
 * closed (durable_rename() fsyncs it).
 */
static bool
write_temp_mark_file(int64 mark, int64 v6_mark, int elevel)
{
	char		buf[UUIDX_MARK_RECORD_LEN];
	int			fd;
	int			len;

	memset(buf, ' ', sizeof(buf));
	len = snprintf(buf, sizeof(buf), "%s" INT64_FORMAT "%s" INT64_FORMAT "\n",
				   UUIDX_MARK_MAGIC, mark, UUIDX_MARK_V6_FIELD, v6_mark);
	Assert(len > 0 && len < UUIDX_MARK_RECORD_LEN);
	/* Pad with spaces after the newline so every file has the same size. */
	buf[len] = ' ';
	buf[UUIDX_MARK_RECORD_LEN - 1] = '\n';

	fd = OpenTransientFile(UUIDX_MARK_TEMP_FILE, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", UUIDX_MARK_TEMP_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		return false;
	}
	errno = 0;
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
	{
		int			save_errno = errno ? errno : ENOSPC;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", UUIDX_MARK_TEMP_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		return false;
	}
	if (CloseTransientFile(fd) != 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", UUIDX_MARK_TEMP_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		return false;
	}
	return true;
}

/* Error context of a failed write of the mark file. */
static void
mark_file_context(void *arg)
{
	errcontext("writing the high-water mark file \"%s\"", UUIDX_MARK_FILE);
}

/*
 * Write the marks durably: a new file, renamed over the old one with
 * durable_rename(), so that the file holds the old marks or the new ones,
 * never a mix, whatever reads it meanwhile.  Each failing step is reported
 * at elevel with core's wording; false if one failed.  The caller holds the
 * state's lock, which an ERROR releases.
 */
static bool
write_mark_file(int64 mark, int64 v6_mark, int elevel)
{
	ErrorContextCallback errcallback;
	bool		written;

	errcallback.callback = mark_file_context;
	errcallback.arg = NULL;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	written = write_temp_mark_file(mark, v6_mark, elevel) &&
		durable_rename(UUIDX_MARK_TEMP_FILE, UUIDX_MARK_FILE, elevel) == 0;
	error_context_stack = errcallback.previous;
	return written;
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
		read_mark_file(&mark, &v6_mark);
		LWLockInitialize(&s->lock, LWLockNewTrancheId());
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
}

#ifdef UUIDX_HAVE_DSM_REGISTRY
static void
init_dsm_state(void *ptr)
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
		state = GetNamedDSMSegment("uuidx_state_v3", sizeof(UuidxSharedState),
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
		LWLockRegisterTranche(state->lock.tranche, "uuidx");
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
	if (target <= v6_max_unix_us() || gen == UUIDX_GEN_V6)
		new_v6_mark = Max(v6_mark, Min(target, v6_max_unix_us()));

	if (new_mark != mark || new_v6_mark != v6_mark)
	{
		if (write_mark_file(new_mark, new_v6_mark, must_cover ? ERROR : WARNING))
		{
			if (to_wal)
				uuidx_mark_wal_log(new_mark, new_v6_mark);
			pg_atomic_write_u32(&state->mark_in_wal, to_wal ? 1 : 0);
			pg_atomic_write_u64(&state->mark_us, (uint64) new_mark);
			pg_atomic_write_u64(&state->v6_mark_us, (uint64) new_v6_mark);
		}
		else
			pg_atomic_write_u64(&state->early_retry_us,
								(uint64) (now_us + UUIDX_EARLY_RETRY_US));
	}
	else if (to_wal)
	{
		/* The marks stay; they only go into WAL. */
		uuidx_mark_wal_log(mark, v6_mark);
		pg_atomic_write_u32(&state->mark_in_wal, 1);
	}
	LWLockRelease(&state->lock);
}

/*
 * Redo of a mark written to WAL (mark_wal.c): raise this node's marks and
 * generators to it, and write its own mark file, so that a restart before
 * promotion keeps what was replayed.  A file that cannot be written is
 * reported; the replay goes on (the marks in memory are raised), and the
 * next record writes the file again.
 */
void
uuidx_replay_mark(int64 mark, int64 v6_mark)
{
	ensure_state();
	if (!state->persistent)
		return;
	mark = Min(Max(mark, 0), UUIDX_MARK_MAX_US);
	v6_mark = Min(Max(v6_mark, 0), v6_max_unix_us());

	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	mark = Max(mark, (int64) pg_atomic_read_u64(&state->mark_us));
	v6_mark = Max(v6_mark, (int64) pg_atomic_read_u64(&state->v6_mark_us));
	if (write_mark_file(mark, v6_mark, WARNING))
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
