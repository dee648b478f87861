/*-------------------------------------------------------------------------
 *
 * order_internal.h
 *	  Shared by the files of src/order/, from the top layer down: the value
 *	  path (values.c) and the SQL that moves or shows the generators
 *	  (admin.c) over the mark worker (worker.c), which runs the mark's moves
 *	  (mark.c), which use the paced reports of retried writes
 *	  (mark_report.c) over the state (state.c), the mark file (mark_file.c)
 *	  and its WAL records (mark_wal.c).  state.c says what the state and
 *	  the mark are; each layer calls only those below it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_ORDER_INTERNAL_H
#define UUIDX_ORDER_INTERNAL_H

#include "order/order.h"

#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "layout/layout.h"
#include "lib/stringinfo.h"
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/latch.h"
#include "storage/lwlock.h"

/* --- mark_file.c: the marks on disk --- */

/*
 * The greatest mark, written or read, is the last microsecond of the last
 * millisecond v7 and v8 can encode; the mark is moved this far ahead of
 * use (microseconds): the reservation that the mark worker renews before
 * values need it.
 */
#define UUIDX_MARK_FILE "uuidx.hwm"
#define UUIDX_MARK_MAX_US ((UUIDX_V7_MAX_MS + 1) * 1000 - 1)
#define UUIDX_MARK_AHEAD_US INT64CONST(1000000)
/* The mark worker makes redo's writes of the mark durable this often (us). */
#define UUIDX_REPLAY_SYNC_US USECS_PER_SEC
extern void uuidx_mark_file_read(int64 *mark, int64 *v6_mark);
extern bool uuidx_mark_file_write(int64 mark, int64 v6_mark, bool durable, int elevel);
extern bool uuidx_mark_file_sync(int elevel);

/* --- mark_report.c: paced reports of the mark's retried writes --- */

/* A retried write's report (uuidx_mark_report_begin() and _end()). */
typedef struct UuidxMarkReport
{
	bool		due;			/* reported as a WARNING if it fails */
	bool		pushed;			/* its context names earlier failures */
	uint32		earlier;		/* failures not reported before it */
	ErrorContextCallback context;
} UuidxMarkReport;
extern int	uuidx_mark_report_begin(UuidxMarkReport *report);
extern void uuidx_mark_report_end(UuidxMarkReport *report, bool succeeded);

/* --- mark_wal.c: the marks in WAL, uuidx's resource manager's records --- */

#define UUIDX_RMGR_NAME "uuidx"
extern bool uuidx_wal_log_mark_setting;
extern void uuidx_mark_wal_register(RmgrData *rmgr);
extern bool uuidx_mark_wal_active(bool wanted);
extern XLogRecPtr uuidx_mark_wal_log(int64 mark_us, int64 v6_mark_us);
extern void uuidx_mark_wal_read(XLogReaderState *record, int64 *mark_us, int64 *v6_mark_us);
extern void uuidx_mark_wal_desc(StringInfo buf, XLogReaderState *record);
extern const char *uuidx_mark_wal_identify(uint8 info);
extern bool uuidx_mark_wal_standbys_named(void);
extern bool uuidx_mark_wal_standbys_flushed(XLogRecPtr lsn);

/* --- state.c: the generators' state, and where it lives --- */

/* Where the generator state lives. */
typedef enum UuidxStorage
{
	UUIDX_STORAGE_NONE = 0,		/* not attached yet */
	UUIDX_STORAGE_PRELOAD,		/* main shared memory (preloaded) */
	UUIDX_STORAGE_DSM,			/* DSM registry (PostgreSQL 17+) */
	UUIDX_STORAGE_LOCAL			/* this backend only */
} UuidxStorage;

/* The generators' state: the server's, or this backend's alone. */
typedef struct UuidxSharedState
{
	pg_atomic_uint64 last[UUIDX_NUM_GENERATORS];
	/* The mark v7 and v8 values may not pass (Unix microseconds). */
	pg_atomic_uint64 mark_us;
	/* The same for v6: at most v6's last microsecond. */
	pg_atomic_uint64 v6_mark_us;
	/* Monotonic us before which no early move is tried after a failure. */
	pg_atomic_uint64 early_retry_us;

	/*
	 * Failed writes of the mark file that are retried (mark_report.c), not
	 * reported yet, and the monotonic us before which none is reported.
	 */
	pg_atomic_uint32 unreported_failures;
	pg_atomic_uint64 report_after_us;
	/* 1 from a reported failure to the next success */
	pg_atomic_uint32 failure_reported;
	/* 1 while both marks, as they are, have been written to WAL. */
	pg_atomic_uint32 mark_in_wal;
	/* uuidx.wal_log_mark, as the server last read it. */
	pg_atomic_uint32 wal_wanted;
	/* 1 while a mark replayed from WAL is not yet durably in the mark file. */
	pg_atomic_uint32 replay_pending;
	/* Redo's writes of the mark file, counted. */
	pg_atomic_uint32 replay_writes;
	/* Monotonic us when the pending flag was last set. */
	pg_atomic_uint64 replay_pending_us;
	/* 1 while a value has asked the worker to renew the mark. */
	pg_atomic_uint32 renew_asked;
	/* The mark worker's latch, NULL when there is none. */
	Latch	   *volatile worker_latch;
	/* 1 while the worker's synchronous_standby_names names a standby. */
	pg_atomic_uint32 standbys_named;
	/* The mark worker's pid, 0 while it does not run. */
	pg_atomic_uint32 worker_pid;
	/* When it last moved the mark, or made redo's writes durable (Unix us). */
	pg_atomic_uint64 worker_moved_us;
	pg_atomic_uint64 worker_synced_us;
	/* Durable writes of the mark file and syncs of redo's, by any process. */
	pg_atomic_uint64 durable_writes;
	/* Under the lock: the marks last written, as the file holds them. */
	int64		written_mark_us;
	int64		written_v6_mark_us;
	bool		written_in_wal; /* and their WAL record, at written_lsn */
	XLogRecPtr	written_lsn;

	/*
	 * Under the lock: the process that writes the marks (the file, the WAL
	 * record), 0 if none.  One writes at a time, without the lock, which is
	 * only ever held for a few reads and writes of memory; the others wait on
	 * writer_cv, interruptibly (mark.c).
	 */
	int			writer_pid;
	ConditionVariable writer_cv;
	/* Held briefly around the fields it guards (persistent state only). */
	LWLock		lock;
	bool		persistent;
} UuidxSharedState;

/* The state in use, NULL before the first use (uuidx_state_attach()). */
extern UuidxSharedState *uuidx_state;

extern void uuidx_state_install_hooks(void);
extern void uuidx_state_attach(void);
extern UuidxStorage uuidx_state_storage(void);
extern void uuidx_state_wal_wanted(bool wanted);
extern uint64 uuidx_last_position_at(UuidxGenerator gen, int64 unix_us);

/* The greatest position of each generator. */
static inline uint64
uuidx_max_position(UuidxGenerator gen)
{
	return gen == UUIDX_GEN_V6 ? (uint64) UUIDX_V6_MAX_TICKS : PG_UINT64_MAX;
}

/* The generators' names, as errors and uuidx_generator_state() show them. */
static inline const char *
uuidx_generator_name(UuidxGenerator gen)
{
	return gen == UUIDX_GEN_V6 ? "v6" : gen == UUIDX_GEN_V7 ? "v7" : "v8";
}

/*
 * The Unix time, in microseconds, of a position of the given generator
 * (rounded down).
 */
static inline int64
uuidx_position_unix_us(UuidxGenerator gen, uint64 position)
{
	if (gen == UUIDX_GEN_V6)
		return uuidx_ticks_to_unix_us(position);
	return (int64) (position >> UUIDX_COUNTER_BITS) * 1000;
}

/* Find the state on first use. */
static inline void
uuidx_state_ensure(void)
{
	if (unlikely(uuidx_state == NULL))
		uuidx_state_attach();
}

/* The mark that covers a generator's values. */
static inline pg_atomic_uint64 *
uuidx_mark_of(UuidxGenerator gen)
{
	return gen == UUIDX_GEN_V6 ? &uuidx_state->v6_mark_us : &uuidx_state->mark_us;
}

/* Raise an atomic to at least value. */
static inline void
uuidx_atomic_raise(pg_atomic_uint64 *var, uint64 value)
{
	uint64		cur = pg_atomic_read_u64(var);

	while (cur < value && !pg_atomic_compare_exchange_u64(var, &cur, value))
		;
}

/* --- mark.c: the mark's moves, its redo, what the worker's rounds do --- */

/* How a move of the mark waits for the lock and the synchronous standbys. */
typedef enum UuidxMarkWait
{
	UUIDX_MARK_NO_WAIT,			/* not at all: the move is skipped */
	UUIDX_MARK_WAIT,			/* until they have it; a cancel is an ERROR */
	UUIDX_MARK_WAIT_AS_COMMIT,	/* a cancel: a WARNING, the move stands */
} UuidxMarkWait;

/* Do moves of the mark go into WAL now (mark_wal.c)? */
static inline bool
uuidx_wal_active(void)
{
	return uuidx_mark_wal_active(pg_atomic_read_u32(&uuidx_state->wal_wanted) != 0);
}

/*
 * Must the mark be written before the next value is taken, though it
 * covers it?  When moves of the mark go into WAL and the mark as it is has
 * not been written there (it was set before the setting was turned on,
 * before this server started, or on this node before it was promoted), or
 * when a mark this node replayed from WAL is not yet in its mark file and
 * the node takes values now (it has been promoted).
 */
static inline bool
uuidx_mark_write_pending(void)
{
	return (unlikely(pg_atomic_read_u32(&uuidx_state->wal_wanted) != 0) &&
			pg_atomic_read_u32(&uuidx_state->mark_in_wal) == 0 && uuidx_wal_active()) ||
		(unlikely(pg_atomic_read_u32(&uuidx_state->replay_pending) != 0) && !RecoveryInProgress());
}

extern bool uuidx_mark_writer_take(bool wait);
extern void uuidx_mark_writer_give(void);
extern void uuidx_mark_writer_cleanup(int code, Datum arg);
extern void uuidx_mark_register_rmgr(void);
extern bool uuidx_mark_write_and_publish(int64 new_mark, int64 new_v6_mark, int elevel,
										 UuidxMarkWait wait);
extern void uuidx_mark_renewed(UuidxGenerator gen, int64 needed_us, int64 *new_mark,
							   int64 *new_v6_mark);
extern void uuidx_mark_cover(UuidxGenerator gen, int64 needed_us);
extern void uuidx_mark_renew_early(UuidxGenerator gen, int64 needed_us);
extern void uuidx_mark_replay(int64 mark, int64 v6_mark);
extern bool uuidx_mark_make_replayed_durable(void);
extern void uuidx_mark_sync_replayed_at_exit(int code, Datum arg);
extern void uuidx_mark_reload_standbys(void);

/* --- worker.c: the mark worker --- */

extern void uuidx_mark_worker_register(void);

#endif							/* UUIDX_ORDER_INTERNAL_H */
