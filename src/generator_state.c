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
 * High-water mark.  While the state is shared, no value is handed out whose
 * time lies beyond a mark that has been written and fsync'ed to the file
 * uuidx.hwm in the data directory.  The mark is moved one second ahead of
 * use, by one process at a time, before the values beyond the old mark are
 * returned; a restart or crash restart starts every generator above the
 * mark, so the first value after it is greater than every value before it
 * even if the clock was moved back.  The mark is moved when a value comes
 * within half a second of it: about two small writes and fsyncs per second
 * of generated time, done ahead of need without blocking the other
 * backends.  A value is taken only once the mark covers it: when the mark
 * cannot be written, the generator's position stays where it was.
 *
 * v6 ends in 5236 AD, v7 and v8 in 10889 AD, so the file keeps two marks:
 * the one v7 and v8 use, and v6's own, which follows it while it lies
 * within v6's range and otherwise stays where v6 last needed it.  A clock
 * that visited the years after 5236 thus leaves v6 usable after a restart.
 * No mark is written beyond what the reader accepts (UUIDX_HWM_MAX_US).
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
#include "common/file_perm.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* How far ahead of use the high-water mark is moved, in microseconds. */
#define UUIDX_RESERVE_WINDOW_US INT64CONST(1000000)
/* After a failed early move, how long before the next early attempt. */
#define UUIDX_EARLY_RETRY_US INT64CONST(100000)

#define UUIDX_HWM_FILE "uuidx.hwm"
/* Version 1 (written by 1.0) kept one mark; version 2 adds v6's own. */
#define UUIDX_HWM_MAGIC_V1 "uuidx high-water mark v1 unix_us="
#define UUIDX_HWM_MAGIC "uuidx high-water mark v2 unix_us="
#define UUIDX_HWM_V6_FIELD " v6_unix_us="
#define UUIDX_HWM_RECORD_LEN 128

/*
 * The greatest mark, written or read: the last microsecond of the last
 * millisecond v7 and v8 can encode.  No generator needs more.
 */
#define UUIDX_HWM_MAX_US ((UUIDX_V7_MAX_MS + 1) * 1000 - 1)

typedef struct UuidxSharedState
{
	pg_atomic_uint64 last[UUIDX_NUM_GENERATORS];
	/* Unix microseconds no v7/v8 value handed out may exceed (persisted). */
	pg_atomic_uint64 reserved_unix_us;
	/* The same for v6 (persisted): at most v6's last microsecond. */
	pg_atomic_uint64 reserved_v6_unix_us;
	/* Set while one process writes the high-water mark file. */
	pg_atomic_flag hwm_writer;
	/* Clock (Unix us) before which no early move is tried after a failure. */
	pg_atomic_uint64 early_retry_unix_us;
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
#define UUIDX_HWM_LOST_DETAIL \
	"Values generated after this restart are ordered after earlier ones only if the clock is."

/*
 * Parse a mark: digits, then the end of the field.  False unless it is a
 * number from 0 to max.
 */
static bool
parse_hwm_value(const char *digits, const char **end, int64 *value, int64 max)
{
	char	   *stop;

	errno = 0;
	*value = strtoi64(digits, &stop, 10);
	*end = stop;
	return errno == 0 && stop != digits && *value >= 0 && *value <= max;
}

/*
 * Read the high-water mark file into *mark (v7 and v8) and *v6_mark.  Both
 * are 0 when there is no file; a file that cannot be read or parsed is
 * reported and treated as absent, because this runs in the postmaster,
 * where an error would stop the server.  A version 1 file holds one mark,
 * which v6 takes only as far as its range goes.
 */
static void
read_hwm_file(int64 *mark, int64 *v6_mark)
{
	char		buf[UUIDX_HWM_RECORD_LEN + 1];
	int			fd;
	ssize_t		n;
	const char *p;

	*mark = 0;
	*v6_mark = 0;
	fd = OpenTransientFile(UUIDX_HWM_FILE, O_RDONLY | PG_BINARY);
	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", UUIDX_HWM_FILE),
					 errdetail(UUIDX_HWM_LOST_DETAIL)));
		return;
	}
	n = read(fd, buf, UUIDX_HWM_RECORD_LEN);
	if (n < 0)
	{
		int			save_errno = errno;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", UUIDX_HWM_FILE),
				 errdetail(UUIDX_HWM_LOST_DETAIL)));
		return;
	}
	CloseTransientFile(fd);
	buf[n] = '\0';

	if (strncmp(buf, UUIDX_HWM_MAGIC, strlen(UUIDX_HWM_MAGIC)) == 0)
	{
		p = buf + strlen(UUIDX_HWM_MAGIC);
		if (!parse_hwm_value(p, &p, mark, UUIDX_HWM_MAX_US) ||
			strncmp(p, UUIDX_HWM_V6_FIELD, strlen(UUIDX_HWM_V6_FIELD)) != 0 ||
			!parse_hwm_value(p + strlen(UUIDX_HWM_V6_FIELD), &p, v6_mark, v6_max_unix_us()) ||
			*p != '\n')
			goto corrupt;
		return;
	}
	if (strncmp(buf, UUIDX_HWM_MAGIC_V1, strlen(UUIDX_HWM_MAGIC_V1)) == 0)
	{
		/*
		 * 1.0 wrote up to a second past the end of v7 (needed time plus the
		 * window); such a mark still means "v7 and v8 are at their end".
		 */
		p = buf + strlen(UUIDX_HWM_MAGIC_V1);
		if (!parse_hwm_value(p, &p, mark, UUIDX_HWM_MAX_US + UUIDX_RESERVE_WINDOW_US) ||
			*p != '\n')
			goto corrupt;
		*mark = Min(*mark, UUIDX_HWM_MAX_US);
		*v6_mark = Min(*mark, v6_max_unix_us());
		return;
	}

corrupt:
	*mark = 0;
	*v6_mark = 0;
	ereport(WARNING,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("ignoring invalid high-water mark file \"%s\"", UUIDX_HWM_FILE),
			 errdetail(UUIDX_HWM_LOST_DETAIL),
			 errhint("Remove the file; uuidx writes a new one.")));
}

/* The step of writing the mark that failed. */
typedef enum HwmWriteStep
{
	HWM_WRITE_OK = 0,
	HWM_WRITE_OPEN,
	HWM_WRITE_WRITE,
	HWM_WRITE_FSYNC,
	HWM_WRITE_CLOSE,
	HWM_WRITE_OPEN_DIR,
	HWM_WRITE_FSYNC_DIR
} HwmWriteStep;

/*
 * Write and fsync the high-water mark, in place: one fixed-size record at
 * offset 0, so a retry after a failure writes the whole record again.
 * Returns the step that failed, with errno set, without raising an error:
 * the caller holds the writer flag.  So the file is opened with
 * BasicOpenFilePerm(), which reports failure only by its result, where
 * OpenTransientFile() could raise an ERROR (no descriptor slot left).
 */
static HwmWriteStep
write_hwm_file(int64 mark, int64 v6_mark)
{
	static bool dir_synced = false;
	char		buf[UUIDX_HWM_RECORD_LEN];
	int			fd;
	int			len;
	int			save_errno;

	memset(buf, ' ', sizeof(buf));
	len = snprintf(buf, sizeof(buf), "%s" INT64_FORMAT "%s" INT64_FORMAT "\n",
				   UUIDX_HWM_MAGIC, mark, UUIDX_HWM_V6_FIELD, v6_mark);
	Assert(len > 0 && len < UUIDX_HWM_RECORD_LEN);
	/* Pad with spaces after the newline so every write has the same size. */
	buf[len] = ' ';
	buf[UUIDX_HWM_RECORD_LEN - 1] = '\n';

	fd = BasicOpenFilePerm(UUIDX_HWM_FILE, O_WRONLY | O_CREAT | PG_BINARY, pg_file_create_mode);
	if (fd < 0)
		return HWM_WRITE_OPEN;

	errno = 0;
	if (pg_pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf))
	{
		save_errno = errno ? errno : ENOSPC;
		close(fd);
		errno = save_errno;
		return HWM_WRITE_WRITE;
	}
	if (pg_fsync(fd) != 0)
	{
		save_errno = errno;
		close(fd);
		errno = save_errno;
		return HWM_WRITE_FSYNC;
	}
	if (close(fd) != 0)
		return HWM_WRITE_CLOSE;

	/*
	 * A new file is durable only once its directory entry is; whoever created
	 * it may have failed or crashed before syncing the directory, so each
	 * process syncs it once, with its first write.
	 */
	if (!dir_synced)
	{
		fd = BasicOpenFile(".", O_RDONLY | PG_BINARY);
		if (fd < 0)
			return HWM_WRITE_OPEN_DIR;
		/* As core's fsync_fname_ext(): some systems cannot fsync directories. */
		if (pg_fsync(fd) != 0 && errno != EBADF && errno != EINVAL)
		{
			save_errno = errno;
			close(fd);
			errno = save_errno;
			return HWM_WRITE_FSYNC_DIR;
		}
		close(fd);
		dir_synced = true;
	}
	return HWM_WRITE_OK;
}

/*
 * Report a failed write of the mark (errno as the failing step left it):
 * an ERROR when the caller's value needs it, else a WARNING.  Core's
 * wording, naming the call that failed.
 */
static void
report_hwm_write_failure(HwmWriteStep step, int elevel)
{
	const char *message = NULL;
	const char *path = UUIDX_HWM_FILE;

	switch (step)
	{
		case HWM_WRITE_OPEN:
			message = "could not open file \"%s\": %m";
			break;
		case HWM_WRITE_WRITE:
			message = "could not write file \"%s\": %m";
			break;
		case HWM_WRITE_FSYNC:
			message = "could not fsync file \"%s\": %m";
			break;
		case HWM_WRITE_CLOSE:
			message = "could not close file \"%s\": %m";
			break;
		case HWM_WRITE_OPEN_DIR:
			message = "could not open directory \"%s\": %m";
			path = ".";
			break;
		case HWM_WRITE_FSYNC_DIR:
			message = "could not fsync directory \"%s\": %m";
			path = ".";
			break;
		case HWM_WRITE_OK:
			return;
	}
	ereport(elevel,
			(errcode_for_file_access(),
			 errmsg_internal(message, path),
			 errdetail("A UUID is returned only once the persisted high-water mark covers its time, so that values generated after a restart are ordered after it."),
			 errhint("Check that the data directory is writable and has free space.")));
}

/*
 * Start a state: empty, or above the persisted high-water marks.
 */
static void
init_state(UuidxSharedState *s, bool persistent)
{
	int64		mark = 0;
	int64		v6_mark = 0;

	if (persistent)
		read_hwm_file(&mark, &v6_mark);
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		pg_atomic_init_u64(&s->last[gen],
						   last_position_at(gen, gen == UUIDX_GEN_V6 ? v6_mark : mark));
	pg_atomic_init_u64(&s->reserved_unix_us, (uint64) mark);
	pg_atomic_init_u64(&s->reserved_v6_unix_us, (uint64) v6_mark);
	pg_atomic_init_flag(&s->hwm_writer);
	pg_atomic_init_u64(&s->early_retry_unix_us, 0);
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
		return;
	}
#ifdef UUIDX_HAVE_DSM_REGISTRY
	if (IsUnderPostmaster)
	{
		bool		found;

		/*
		 * Versioned: a library with another layout gets its own segment (v2
		 * added v6's mark).  Sessions still running an older library keep
		 * theirs, so a library upgrade takes a server restart.
		 */
		state = GetNamedDSMSegment("uuidx_state_v2", sizeof(UuidxSharedState),
								   init_dsm_state, &found);
		storage = UUIDX_STORAGE_DSM;
		return;
	}
#endif
	init_state(&local_state, false);
	state = &local_state;
	storage = UUIDX_STORAGE_LOCAL;
}

static inline void
ensure_state(void)
{
	if (unlikely(state == NULL))
		attach_state();
}

/* The mark that covers a generator's values. */
static inline pg_atomic_uint64 *
reserved_of(UuidxGenerator gen)
{
	return gen == UUIDX_GEN_V6 ? &state->reserved_v6_unix_us : &state->reserved_unix_us;
}

/*
 * Move the high-water marks so that the generator's mark covers needed_us,
 * with a second to spare.  The v7/v8 mark moves to the new target; v6's
 * follows it within v6's range, and beyond it moves only for v6 itself (to
 * v6's last microsecond), so a v7 or v8 value generated past 5236 AD does
 * not use up v6's range.
 *
 * When must_cover is false this is an early move: it is skipped if another
 * process is already writing, and after a failure it is retried (and
 * reported) at most every 100 ms, not for every value.  When true, the
 * caller's value lies beyond the mark and may not be taken until the mark
 * covers it; a failure is an ERROR.
 */
static void
extend_reservation(UuidxGenerator gen, int64 needed_us, bool must_cover)
{
	pg_atomic_uint64 *covering = reserved_of(gen);

	for (;;)
	{
		/* Read before taking the flag: the read may raise an error. */
		int64		now_us = uuidx_clock_unix_100ns() / 10;

		if (!must_cover)
		{
			int64		retry_at = (int64) pg_atomic_read_u64(&state->early_retry_unix_us);

			/* After a failure wait 100 ms, unless the clock stepped back. */
			if (now_us < retry_at && now_us >= retry_at - UUIDX_EARLY_RETRY_US)
				return;
		}

		if (pg_atomic_test_set_flag(&state->hwm_writer))
		{
			int64		mark = (int64) pg_atomic_read_u64(&state->reserved_unix_us);
			int64		v6_mark = (int64) pg_atomic_read_u64(&state->reserved_v6_unix_us);
			int64		target = Min(Max(needed_us, now_us) + UUIDX_RESERVE_WINDOW_US,
									 UUIDX_HWM_MAX_US);
			int64		new_mark = Max(mark, target);
			int64		new_v6_mark = v6_mark;
			HwmWriteStep failed = HWM_WRITE_OK;
			int			save_errno = 0;

			if (target <= v6_max_unix_us() || gen == UUIDX_GEN_V6)
				new_v6_mark = Max(v6_mark, Min(target, v6_max_unix_us()));

			/* Write only when the mark is short and the write moves it. */
			if ((int64) pg_atomic_read_u64(covering) < needed_us + UUIDX_RESERVE_WINDOW_US / 2 &&
				(new_mark != mark || new_v6_mark != v6_mark))
			{
				failed = write_hwm_file(new_mark, new_v6_mark);
				save_errno = errno;
				if (failed == HWM_WRITE_OK)
				{
					pg_atomic_write_u64(&state->reserved_unix_us, (uint64) new_mark);
					pg_atomic_write_u64(&state->reserved_v6_unix_us, (uint64) new_v6_mark);
				}
				else
					pg_atomic_write_u64(&state->early_retry_unix_us,
										(uint64) (now_us + UUIDX_EARLY_RETRY_US));
			}
			pg_atomic_clear_flag(&state->hwm_writer);

			if (failed != HWM_WRITE_OK)
			{
				errno = save_errno;
				report_hwm_write_failure(failed, must_cover ? ERROR : WARNING);
			}
			if ((int64) pg_atomic_read_u64(covering) >= needed_us)
				return;
			continue;
		}

		/* Another process is writing the mark. */
		if (!must_cover)
			return;
		pg_usleep(100);
		CHECK_FOR_INTERRUPTS();
		if ((int64) pg_atomic_read_u64(covering) >= needed_us)
			return;
	}
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
			 errmsg("uuid_generate_%s has reached the end of its timestamp range",
					generator_name[gen]),
			 clock_beyond ?
			 errdetail("The clock is beyond the greatest time this UUID version can encode.") :
			 errdetail("The last value generated holds the greatest time this UUID version can encode."),
			 clock_beyond ?
			 errhint("Check the server's clock.") :
			 (state != NULL && state->persistent) ?
			 errhint("If that time came from a wrong clock, correct the clock, stop the server and remove \"%s\" from the data directory.",
					 UUIDX_HWM_FILE) :
			 errhint("If that time came from a wrong clock, correct the clock and open a new session.")));
}

/*
 * The next position of a generator: strictly greater than every position
 * it handed out before (in this server, or this backend when the state is
 * local), and equal to now_position whenever that is greater.  With a
 * persisted state the position is taken only once the high-water mark
 * covers it; if the mark cannot be written, the ERROR leaves the state as
 * it was.
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
			if (unlikely(us > (int64) pg_atomic_read_u64(reserved_of(gen))))
			{
				extend_reservation(gen, us, true);
				cur = pg_atomic_read_u64(&state->last[gen]);
				continue;
			}
		}
		if (pg_atomic_compare_exchange_u64(&state->last[gen], &cur, next))
			break;
	}

	if (state->persistent &&
		unlikely(us + UUIDX_RESERVE_WINDOW_US / 2 >
				 (int64) pg_atomic_read_u64(reserved_of(gen))))
		extend_reservation(gen, us, false);
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
 * clock it runs, and the persisted high-water mark that covers it.
 */
PG_FUNCTION_INFO_V1(uuidx_generator_state);
Datum
uuidx_generator_state(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int64		clock_us;

	InitMaterializedSRF(fcinfo, 0);
	ensure_state();
	clock_us = uuidx_clock_unix_100ns() / 10;

	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		Datum		values[7];
		bool		nulls[7] = {false};
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
																		 (int64) pg_atomic_read_u64(reserved_of(gen))));

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
