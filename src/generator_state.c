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
 * backends.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include <fcntl.h>
#include <unistd.h>

#include "compat.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "common/file_perm.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

/* How far ahead of use the high-water mark is moved, in microseconds. */
#define UUIDX_RESERVE_WINDOW_US INT64CONST(1000000)
/* After a failed early move, how long before the next early attempt. */
#define UUIDX_EARLY_RETRY_US INT64CONST(100000)

#define UUIDX_HWM_FILE "uuidx.hwm"
#define UUIDX_HWM_MAGIC "uuidx high-water mark v1 unix_us="
#define UUIDX_HWM_RECORD_LEN 64

typedef struct UuidxSharedState
{
	pg_atomic_uint64 last[UUIDX_NUM_GENERATORS];
	/* Unix microseconds no value handed out may exceed (persisted). */
	pg_atomic_uint64 reserved_unix_us;
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

static const char *const generator_name[UUIDX_NUM_GENERATORS] = {
	[UUIDX_GEN_V6] = "uuid_generate_v6",
	[UUIDX_GEN_V7] = "uuid_generate_v7",
	[UUIDX_GEN_V8] = "uuid_generate_v8",
};

/*
 * The Unix time, in microseconds, of a position of the given generator
 * (rounded down).
 */
int64
uuidx_position_to_unix_us(UuidxGenerator gen, uint64 position)
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
	if (unix_us <= 0)
		return 0;
	if (gen == UUIDX_GEN_V6)
		return (uint64) (UUIDX_GREGORIAN_OFFSET_TICKS + unix_us * 10 + 9);
	return ((uint64) (unix_us / 1000) << UUIDX_COUNTER_BITS) | UUIDX_COUNTER_MASK;
}

/*
 * Read the high-water mark file.  Returns 0 when there is none; a file that
 * cannot be read or parsed is reported and treated as absent, because this
 * runs in the postmaster, where an error would stop the server.
 */
static int64
read_hwm_file(void)
{
	char		buf[UUIDX_HWM_RECORD_LEN + 1];
	int			fd;
	ssize_t		n;
	int64		value;
	char	   *end;
	size_t		magic_len = strlen(UUIDX_HWM_MAGIC);

	fd = open(UUIDX_HWM_FILE, O_RDONLY | PG_BINARY, 0);
	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("uuidx could not open \"%s\": %m", UUIDX_HWM_FILE),
					 errdetail("Values generated after this restart are ordered after earlier ones only if the clock is.")));
		return 0;
	}
	n = read(fd, buf, UUIDX_HWM_RECORD_LEN);
	if (n < 0)
	{
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("uuidx could not read \"%s\": %m", UUIDX_HWM_FILE),
				 errdetail("Values generated after this restart are ordered after earlier ones only if the clock is.")));
		close(fd);
		return 0;
	}
	close(fd);
	buf[n] = '\0';

	if (strncmp(buf, UUIDX_HWM_MAGIC, magic_len) != 0)
		goto corrupt;
	errno = 0;
	value = strtoi64(buf + magic_len, &end, 10);
	/* No time any generator can reach lies beyond the last v7 millisecond. */
	if (errno != 0 || end == buf + magic_len || *end != '\n' || value < 0 ||
		value > (UUIDX_V7_MAX_MS + 1) * 1000 - 1)
		goto corrupt;
	return value;

corrupt:
	ereport(WARNING,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("uuidx ignores the unreadable high-water mark file \"%s\"",
					UUIDX_HWM_FILE),
			 errdetail("Values generated after this restart are ordered after earlier ones only if the clock is."),
			 errhint("Remove the file; uuidx writes a new one.")));
	return 0;
}

/*
 * Write and fsync the high-water mark.  Returns false with errno set on
 * failure, without raising an error: the caller holds the writer flag.
 */
static bool
write_hwm_file(int64 unix_us)
{
	static bool dir_synced = false;
	char		buf[UUIDX_HWM_RECORD_LEN];
	int			fd;
	int			len;
	int			save_errno;

	memset(buf, ' ', sizeof(buf));
	len = snprintf(buf, sizeof(buf), "%s" INT64_FORMAT "\n",
				   UUIDX_HWM_MAGIC, unix_us);
	Assert(len > 0 && len < UUIDX_HWM_RECORD_LEN);
	/* Pad with spaces after the newline so every write has the same size. */
	buf[len] = ' ';
	buf[UUIDX_HWM_RECORD_LEN - 1] = '\n';

	fd = open(UUIDX_HWM_FILE, O_WRONLY | O_CREAT | PG_BINARY, pg_file_create_mode);
	if (fd < 0)
		return false;

	errno = 0;
	if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf))
	{
		save_errno = errno ? errno : ENOSPC;
		close(fd);
		errno = save_errno;
		return false;
	}
	if (fsync(fd) != 0)
	{
		save_errno = errno;
		close(fd);
		errno = save_errno;
		return false;
	}
	if (close(fd) != 0)
		return false;

	/*
	 * A new file is durable only once its directory entry is; whoever
	 * created it may have failed or crashed before syncing the directory,
	 * so each process syncs it once, with its first write.
	 */
	if (!dir_synced)
	{
		int			dirfd = open(".", O_RDONLY, 0);

		if (dirfd < 0)
			return false;
		if (fsync(dirfd) != 0)
		{
			save_errno = errno;
			close(dirfd);
			errno = save_errno;
			return false;
		}
		close(dirfd);
	}
	dir_synced = true;
	return true;
}

/*
 * Start a state: empty, or above the persisted high-water mark.
 */
static void
init_state(UuidxSharedState *s, bool persistent)
{
	int64		hwm = persistent ? read_hwm_file() : 0;

	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		pg_atomic_init_u64(&s->last[gen], last_position_at(gen, hwm));
	pg_atomic_init_u64(&s->reserved_unix_us, (uint64) hwm);
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

		/* Versioned: a library with another layout gets its own segment. */
		state = GetNamedDSMSegment("uuidx_state_v1", sizeof(UuidxSharedState),
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

/*
 * Move the high-water mark so that it covers needed_us.  When must_cover
 * is false this is an early move: it is skipped if another process is
 * already writing, and after a failure it is retried (and reported) at most
 * every 100 ms, not for every value.  When true, the caller's value lies
 * beyond the mark and may not be returned until the mark covers it.
 */
static void
extend_reservation(int64 needed_us, bool must_cover)
{
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
			int64		reserved = (int64) pg_atomic_read_u64(&state->reserved_unix_us);
			bool		ok = true;
			int			save_errno = 0;

			if (reserved < needed_us + UUIDX_RESERVE_WINDOW_US / 2)
			{
				int64		target = Max(needed_us, now_us) + UUIDX_RESERVE_WINDOW_US;

				ok = write_hwm_file(target);
				save_errno = errno;
				if (ok)
					pg_atomic_write_u64(&state->reserved_unix_us, (uint64) target);
				else
					pg_atomic_write_u64(&state->early_retry_unix_us,
										(uint64) (now_us + UUIDX_EARLY_RETRY_US));
			}
			pg_atomic_clear_flag(&state->hwm_writer);

			if (!ok)
			{
				errno = save_errno;
				ereport(must_cover ? ERROR : WARNING,
						(errcode_for_file_access(),
						 errmsg("could not persist the uuidx high-water mark in \"%s\": %m",
								UUIDX_HWM_FILE),
						 errdetail("A UUID is returned only once its time is covered by the persisted mark, so that order survives a restart."),
						 errhint("Check that the data directory is writable and has free space.")));
			}
			if ((int64) pg_atomic_read_u64(&state->reserved_unix_us) >= needed_us)
				return;
			continue;
		}

		/* Another process is writing the mark. */
		if (!must_cover)
			return;
		pg_usleep(100);
		CHECK_FOR_INTERRUPTS();
		if ((int64) pg_atomic_read_u64(&state->reserved_unix_us) >= needed_us)
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
			 errmsg("%s has reached the end of its timestamp range",
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
 * local), and equal to now_position whenever that is greater.
 */
uint64
uuidx_next_position(UuidxGenerator gen, uint64 now_position)
{
	uint64		cur;
	uint64		next;

	ensure_state();

	cur = pg_atomic_read_u64(&state->last[gen]);
	for (;;)
	{
		if (unlikely(cur >= max_position[gen]))
			uuidx_range_end_error(gen, false);
		/*
		 * A clock that has moved on to a later tick (v6) or millisecond
		 * (v7, v8) starts there, with the freshly seeded counter; otherwise
		 * the counter of the last value counts on by one.
		 */
		if ((now_position >> clock_shift[gen]) > (cur >> clock_shift[gen]))
			next = now_position;
		else
			next = cur + 1;
		if (unlikely(next > max_position[gen]))
			uuidx_range_end_error(gen, true);
		if (pg_atomic_compare_exchange_u64(&state->last[gen], &cur, next))
			break;
	}

	if (state->persistent)
	{
		int64		us = uuidx_position_to_unix_us(gen, next);
		int64		reserved = (int64) pg_atomic_read_u64(&state->reserved_unix_us);

		if (unlikely(us + UUIDX_RESERVE_WINDOW_US / 2 > reserved))
			extend_reservation(us, us > reserved);
	}
	return next;
}

UuidxStorage
uuidx_state_storage(void)
{
	ensure_state();
	return storage;
}

uint64
uuidx_last_position(UuidxGenerator gen)
{
	ensure_state();
	return pg_atomic_read_u64(&state->last[gen]);
}

/*
 * The persisted high-water mark in Unix microseconds, or -1 when the state
 * is not persisted.
 */
int64
uuidx_reserved_unix_us(void)
{
	ensure_state();
	if (!state->persistent)
		return -1;
	return (int64) pg_atomic_read_u64(&state->reserved_unix_us);
}

const char *
uuidx_storage_name(UuidxStorage s)
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
