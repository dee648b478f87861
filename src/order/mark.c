/*-------------------------------------------------------------------------
 *
 * mark.c
 *	  Moving the high-water mark: writing it (the file, the WAL record, the
 *	  synchronous standbys' acknowledgement) and publishing it to the
 *	  values; the moves values make when they must; redo of a mark replayed
 *	  from WAL, as uuidx's WAL resource manager; and making what redo wrote
 *	  durable.  The mark worker (worker.c) decides when to do what.
 *	  state.c says what the mark is and when it moves.
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include "miscadmin.h"
#include "compat.h"
#include "postmaster/interrupt.h"
#include "postmaster/startup.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

/* After a failed early move, how long before the next early attempt. */
#define UUIDX_EARLY_RETRY_US INT64CONST(100000)

/* Under the lock: the file now holds these marks, which no record has. */
static inline void
note_written(int64 mark, int64 v6_mark)
{
	uuidx_state->written_mark_us = mark;
	uuidx_state->written_v6_mark_us = v6_mark;
	uuidx_state->written_in_wal = false;
}

/*
 * Are the standbys to wait for at lsn done?  Where synchronous_standby_names
 * names none, or where they have flushed it.  The setting as the mark
 * worker read it last, where the worker runs: a session reads its
 * configuration only between statements, the worker also while it waits,
 * so a reload reaches every wait at once, as the checkpointer's reading
 * reaches commits (an operator who empties the setting to give up a
 * standby releases them); this process's own otherwise.
 */
static bool
standbys_done(XLogRecPtr lsn)
{
	bool		named;

	if (uuidx_state->worker_latch != NULL)
		named = pg_atomic_read_u32(&uuidx_state->standbys_named) != 0;
	else
		named = uuidx_mark_wal_standbys_named();
	return !named || uuidx_mark_wal_standbys_flushed(lsn);
}

/*
 * The mark worker's: read the configuration again where a reload came (in
 * its main loop, and while it waits for the standbys), and publish what its
 * synchronous_standby_names says for standbys_done().
 */
void
uuidx_mark_reload_standbys(void)
{
	if (ConfigReloadPending)
	{
		ConfigReloadPending = false;
		ProcessConfigFile(PGC_SIGHUP);
	}
	pg_atomic_write_u32(&uuidx_state->standbys_named, uuidx_mark_wal_standbys_named() ? 1 : 0);
}

/* Error context of the wait for the standbys. */
static void
wait_context(void *arg)
{
	XLogRecPtr	lsn = *(XLogRecPtr *) arg;

	errcontext("waiting for the synchronous standbys to flush the high-water mark's WAL record at %X/%X",
			   LSN_FORMAT_ARGS(lsn));
}

/*
 * Wait until the synchronous standbys have flushed the record at lsn: a
 * mark is used only once they have it, so that a standby promoted in a
 * failover starts above every value handed out, a bare SELECT's too.  The
 * wait polls (every 10 ms) rather than queue in PostgreSQL's list of
 * waiting commits, where each process waits for an LSN of its own, and
 * several of ours may wait for one record.  With UUIDX_MARK_WAIT a cancel
 * (statement_timeout, a cancel request) is PostgreSQL's own ERROR, 57014,
 * with the wait as its context: no value beyond the mark is handed out.
 * With UUIDX_MARK_WAIT_AS_COMMIT (uuidx_generator_advance(), whose marks
 * the file and WAL hold already, as a commit's record is written before
 * its wait, and which holds interrupts meanwhile, as a commit does), a
 * cancel or a termination ends the wait with a WARNING that the move
 * stands; the interrupt stays pending, so the statement still ends with
 * its error once the caller has moved the generators.  With
 * UUIDX_MARK_NO_WAIT (an early move, made by a value the mark still
 * covers), nothing waits.  True once the standbys have the record; false
 * where not waited for, or the wait was canceled.
 */
static bool
wait_for_standbys(XLogRecPtr lsn, UuidxMarkWait how)
{
	ErrorContextCallback errcallback;
	bool		have = true;

	if (standbys_done(lsn))
		return true;
	if (how == UUIDX_MARK_NO_WAIT)
		return false;
	/* the caller holds interrupts until its move stands (as a commit does) */
	Assert(how != UUIDX_MARK_WAIT_AS_COMMIT || InterruptHoldoffCount > 0);
	errcallback.callback = wait_context;
	errcallback.arg = &lsn;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	for (;;)
	{
		if (how == UUIDX_MARK_WAIT_AS_COMMIT && (ProcDiePending || QueryCancelPending))
		{
			ereport(WARNING,
					(errmsg("canceling the wait for synchronous replication of the generators' advance"),
					 errdetail("The generators have been advanced on this server, but the WAL record of their high-water mark might not have been replicated to the standby."),
					 errhint("Values beyond the mark the standbys have still wait for them.")));
			have = false;
			break;
		}
		CHECK_FOR_INTERRUPTS();
		if (uuidx_state->worker_latch == MyLatch)
			uuidx_mark_reload_standbys();
		if (standbys_done(lsn))
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 WAIT_EVENT_SYNC_REP);
		ResetLatch(MyLatch);
	}
	error_context_stack = errcallback.previous;
	return have;
}

/*
 * The mark's writer.  One process at a time writes the marks: the file
 * (with its fsyncs) and the WAL record (with its flush), without the
 * state's lock, which guards only the few fields the writer reads and sets
 * (a process waiting for an LWLock cannot be canceled).  A process that
 * needs the role while another holds it sleeps on the state's condition
 * variable, where a cancel, statement_timeout or termination ends the wait
 * with PostgreSQL's own error.  The role is given back when the write ends,
 * on an ERROR and at the process's exit (uuidx_mark_writer_cleanup()).
 * A process may take it before it writes (uuidx_generator_advance() takes
 * it before it holds interrupts, so that its wait can be canceled); the
 * write then gives it back, before any wait for the standbys.
 */
static bool writer_held = false;

#if PG_VERSION_NUM >= 170000
static uint32 writer_wait_event = 0;
#endif

/* The wait event of a wait for the writer: "UuidxMarkWrite" from 17 on. */
static uint32
writer_wait_event_info(void)
{
#if PG_VERSION_NUM >= 170000
	if (writer_wait_event == 0)
		writer_wait_event = WaitEventExtensionNew("UuidxMarkWrite");
	return writer_wait_event;
#else
	return PG_WAIT_EXTENSION;
#endif
}

/*
 * Take the writer's role: at once where no process holds it; otherwise,
 * with wait, once the writer gives it back (the wait can be canceled),
 * without, not at all: false, and no lock is waited for either.
 */
bool
uuidx_mark_writer_take(bool wait)
{
	bool		taken = false;

	if (writer_held)
		return true;
	for (;;)
	{
		if (wait)
			LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
		else if (!LWLockConditionalAcquire(&uuidx_state->lock, LW_EXCLUSIVE))
			break;
		if (uuidx_state->writer_pid == 0)
		{
			uuidx_state->writer_pid = MyProcPid;
			taken = true;
		}
		LWLockRelease(&uuidx_state->lock);
		if (taken || !wait)
			break;

		/*
		 * The first call only prepares the sleep: the role is looked at
		 * again. Woken every 100 ms at least, for the startup process (redo),
		 * which handles its own interrupts (a shutdown or promotion request).
		 */
		(void) ConditionVariableTimedSleep(&uuidx_state->writer_cv, 100, writer_wait_event_info());
		if (AmStartupProcess())
			UUIDX_STARTUP_PROC_INTERRUPTS();
	}
	if (wait)
		ConditionVariableCancelSleep();
	writer_held = taken;
	return taken;
}

/* Under the lock: marks redo raised that the file does not hold yet? */
static bool
replayed_unwritten_locked(void)
{
	return (int64) pg_atomic_read_u64(&uuidx_state->mark_us) > uuidx_state->written_mark_us ||
		(int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us) > uuidx_state->written_v6_mark_us;
}

/* Give the writer's role back. */
void
uuidx_mark_writer_give(void)
{
	Assert(writer_held);
	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	Assert(uuidx_state->writer_pid == MyProcPid);
	uuidx_state->writer_pid = 0;
	writer_held = false;
	LWLockRelease(&uuidx_state->lock);
	ConditionVariableBroadcast(&uuidx_state->writer_cv);
}

/*
 * On an ERROR or the exit of a process that holds the role: give it back
 * (PG_ENSURE_ERROR_CLEANUP).
 */
void
uuidx_mark_writer_cleanup(int code, Datum arg)
{
	if (!writer_held || uuidx_state == NULL)
		return;
	if (LWLockHeldByMe(&uuidx_state->lock))
		LWLockRelease(&uuidx_state->lock);
	uuidx_mark_writer_give();
}

/*
 * As the writer: write the marks *new_mark and *new_v6_mark, raised to
 * those written before, to the file, where they are new (or a replayed
 * mark is not yet in the file and the node takes values now), then, where
 * the mark goes into WAL (uuidx_wal_active(), read as the write begins, so
 * that a move that waited for the role across the reload that turned the
 * setting off writes no record), the WAL record, flushed, where the marks
 * as written are not in WAL yet.  Sets *lsn to their record (Invalid
 * without).  A file that cannot be written is reported at elevel, paced
 * where that is below ERROR (uuidx_mark_report_begin()): false.
 */
static bool
write_marks(int64 *new_mark, int64 *new_v6_mark, int elevel, XLogRecPtr *lsn)
{
	bool		to_wal;
	bool		to_file;
	bool		in_wal;

	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	to_wal = uuidx_wal_active();
	*new_mark = Max(*new_mark, uuidx_state->written_mark_us);
	*new_v6_mark = Max(*new_v6_mark, uuidx_state->written_v6_mark_us);
	to_file = *new_mark != uuidx_state->written_mark_us ||
		*new_v6_mark != uuidx_state->written_v6_mark_us ||
		(pg_atomic_read_u32(&uuidx_state->replay_pending) != 0 && !RecoveryInProgress());
	in_wal = !to_file && uuidx_state->written_in_wal;
	*lsn = uuidx_state->written_lsn;
	LWLockRelease(&uuidx_state->lock);

	if (to_file)
	{
		UuidxMarkReport report;
		bool		written;

		/* a move that is retried (below ERROR) reports as paced */
		written = uuidx_mark_file_write(*new_mark, *new_v6_mark, true,
										elevel < ERROR ? uuidx_mark_report_begin(&report) : elevel);
		if (elevel < ERROR)
			uuidx_mark_report_end(&report, written);
		if (!written)
			return false;
		pg_atomic_fetch_add_u64(&uuidx_state->durable_writes, 1);
		LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
		note_written(*new_mark, *new_v6_mark);
		if (!replayed_unwritten_locked())
			pg_atomic_write_u32(&uuidx_state->replay_pending, 0);
		LWLockRelease(&uuidx_state->lock);
	}
	if (!to_wal)
	{
		*lsn = InvalidXLogRecPtr;
		return true;
	}

	/*
	 * A cancel or termination that came during the file's fsyncs ends the
	 * move here (not while uuidx_generator_advance() holds interrupts): the
	 * file holds a greater mark than any record, which is harmless, and the
	 * next move writes the record.
	 */
	CHECK_FOR_INTERRUPTS();
	if (!in_wal)
	{
		*lsn = uuidx_mark_wal_log(*new_mark, *new_v6_mark);
		LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
		uuidx_state->written_lsn = *lsn;
		uuidx_state->written_in_wal = true;
		LWLockRelease(&uuidx_state->lock);
	}
	return true;
}

/* write_marks(), the role given back on an ERROR or exit meanwhile. */
static bool
write_marks_as_writer(int64 *new_mark, int64 *new_v6_mark, int elevel, XLogRecPtr *lsn)
{
	bool		written;

	PG_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	{
		written = write_marks(new_mark, new_v6_mark, elevel, lsn);
	}
	PG_END_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	return written;
}

/*
 * Write the marks new_mark and new_v6_mark (not less than those written
 * before) and publish them to the values.  As the mark's writer
 * (uuidx_mark_writer_take(); with UUIDX_MARK_NO_WAIT, an early move by a
 * value's process, a writer at work skips the move) the file first, then
 * the WAL record (write_marks()).  Then, the role given back, the wait for
 * the synchronous standbys (wait_for_standbys()); and last, under the
 * lock, the marks the values may use.  A file that cannot be written, or a
 * wait for the standbys canceled (UUIDX_MARK_WAIT), is reported at elevel
 * and leaves the values' marks as they were: false; so does a wait
 * canceled with UUIDX_MARK_WAIT_AS_COMMIT, after its WARNING (the values'
 * marks are only ever ones the standbys have); and so does a move
 * skipped, or standbys that do not have the record yet, with
 * UUIDX_MARK_NO_WAIT.
 */
bool
uuidx_mark_write_and_publish(int64 new_mark, int64 new_v6_mark, int elevel, UuidxMarkWait wait)
{
	XLogRecPtr	lsn = InvalidXLogRecPtr;
	bool		written;

	if (!uuidx_mark_writer_take(wait != UUIDX_MARK_NO_WAIT))
		return false;
	written = write_marks_as_writer(&new_mark, &new_v6_mark, elevel, &lsn);
	uuidx_mark_writer_give();
	if (!written)
		return false;

	if (!XLogRecPtrIsInvalid(lsn) && !wait_for_standbys(lsn, wait))
		return false;

	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	if (new_mark > (int64) pg_atomic_read_u64(&uuidx_state->mark_us) ||
		new_v6_mark > (int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us))
	{
		pg_atomic_write_u64(&uuidx_state->mark_us,
							(uint64) Max(new_mark, (int64) pg_atomic_read_u64(&uuidx_state->mark_us)));
		pg_atomic_write_u64(&uuidx_state->v6_mark_us,
							(uint64) Max(new_v6_mark, (int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us)));
		pg_atomic_write_u32(&uuidx_state->mark_in_wal, !XLogRecPtrIsInvalid(lsn) ? 1 : 0);
	}
	else if (!XLogRecPtrIsInvalid(lsn) && new_mark == (int64) pg_atomic_read_u64(&uuidx_state->mark_us) &&
			 new_v6_mark == (int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us))
		pg_atomic_write_u32(&uuidx_state->mark_in_wal, 1);
	LWLockRelease(&uuidx_state->lock);
	if (uuidx_state->worker_latch == MyLatch)
		pg_atomic_write_u64(&uuidx_state->worker_moved_us, (uint64) uuidx_clock_unix_us());
	return true;
}

/*
 * The marks that cover needed_us (a generator's value's time, or the
 * clock), with the reservation to spare: the v7/v8 mark moves to the new
 * target; v6's follows it within v6's range, and beyond it moves only for
 * v6 itself (to v6's last microsecond), so a v7 or v8 value generated past
 * 5236 AD does not use up v6's range.
 */
void
uuidx_mark_renewed(UuidxGenerator gen, int64 needed_us, int64 *new_mark, int64 *new_v6_mark)
{
	int64		now_us = uuidx_clock_unix_us();
	int64		target = Min(Max(needed_us, now_us) + UUIDX_MARK_AHEAD_US, UUIDX_MARK_MAX_US);

	*new_mark = Max((int64) pg_atomic_read_u64(&uuidx_state->mark_us), target);
	*new_v6_mark = (int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us);
	if (target <= uuidx_v6_max_unix_us() || gen == UUIDX_GEN_V6)
		*new_v6_mark = Max(*new_v6_mark, Min(target, uuidx_v6_max_unix_us()));
}

/* Have the worker renew the mark from its next round on (once per round). */
static void
ask_worker(void)
{
	Latch	   *latch = uuidx_state->worker_latch;

	if (latch != NULL && pg_atomic_read_u32(&uuidx_state->renew_asked) == 0)
	{
		pg_atomic_write_u32(&uuidx_state->renew_asked, 1);
		SetLatch(latch);
	}
}

/*
 * Move the marks so that the generator's mark covers needed_us, a value
 * that may not be taken before (its time lies beyond the mark, or the mark
 * is still to be written: uuidx_mark_write_pending()); the caller waits for the
 * lock, and a failure is an ERROR.  The file is written before the WAL
 * record: a base backup whose checkpoint comes after the record copies the
 * file afterwards, so it has the mark either way, and a file written for a
 * record that never made it to WAL only holds a greater mark, which is
 * harmless.
 */
void
uuidx_mark_cover(UuidxGenerator gen, int64 needed_us)
{
	int64		new_mark,
				new_v6_mark;

	uuidx_mark_renewed(gen, needed_us, &new_mark, &new_v6_mark);
	uuidx_mark_write_and_publish(new_mark, new_v6_mark, ERROR, UUIDX_MARK_WAIT);
	ask_worker();
}

/*
 * A value came within half the reservation of the mark: have the worker
 * renew it; where there is none, or the worker is late (a quarter of the
 * reservation is left), renew it now, early, skipped if another process
 * holds the lock, and after a failure retried at most every 100 ms, not
 * for every value (its failure reported as paced:
 * uuidx_mark_report_begin()).
 */
void
uuidx_mark_renew_early(UuidxGenerator gen, int64 needed_us)
{
	Latch	   *latch = uuidx_state->worker_latch;
	int64		now_us;
	int64		retry_at;
	int64		new_mark,
				new_v6_mark;

	if (latch != NULL)
	{
		ask_worker();
		if (needed_us + UUIDX_MARK_AHEAD_US / 4 <= (int64) pg_atomic_read_u64(uuidx_mark_of(gen)))
			return;
	}
	/* after a failure wait 100 ms (on the monotonic clock) */
	now_us = uuidx_clock_monotonic_us();
	retry_at = (int64) pg_atomic_read_u64(&uuidx_state->early_retry_us);
	if (now_us < retry_at)
		return;
	uuidx_mark_renewed(gen, needed_us, &new_mark, &new_v6_mark);
	if (!uuidx_mark_write_and_publish(new_mark, new_v6_mark, WARNING,
									  UUIDX_MARK_NO_WAIT) &&
		(int64) pg_atomic_read_u64(uuidx_mark_of(gen)) < needed_us + UUIDX_MARK_AHEAD_US / 2)
		pg_atomic_write_u64(&uuidx_state->early_retry_us, (uint64) (now_us + UUIDX_EARLY_RETRY_US));
}

/*
 * The fsync of what redo renamed: the file as it stands, and the
 * directory; the pending flag is cleared unless redo wrote again
 * meanwhile.  Without the lock or the writer's role, so that redo never
 * waits for it.  Reported at elevel; false where it failed.
 */
static bool
sync_replayed(int elevel)
{
	uint32		writes = pg_atomic_read_u32(&uuidx_state->replay_writes);

	if (!uuidx_mark_file_sync(elevel))
		return false;
	pg_atomic_fetch_add_u64(&uuidx_state->durable_writes, 1);
	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	/* not where redo wrote again */
	if (pg_atomic_read_u32(&uuidx_state->replay_writes) == writes &&
		!replayed_unwritten_locked())
		pg_atomic_write_u32(&uuidx_state->replay_pending, 0);
	LWLockRelease(&uuidx_state->lock);
	return true;
}

/*
 * On the exit of the process that replays (at a shutdown, or the end of
 * recovery) and of the worker: what redo renamed is made durable, so that
 * no restartpoint after it can leave the mark to the page cache alone.  A
 * failed fsync is PostgreSQL's PANIC unless data_sync_retry is on.
 */
void
uuidx_mark_sync_replayed_at_exit(int code, Datum arg)
{
	if (uuidx_state != NULL && uuidx_state->persistent &&
		pg_atomic_read_u32(&uuidx_state->replay_pending) != 0)
		(void) sync_replayed(data_sync_elevel(WARNING));
}

/*
 * As the writer, under the lock: write the marks as they stand, where the
 * file does not hold them (or, with rewrite, in any case), durably or
 * renamed only; a durable write clears the pending flag, a renamed one
 * sets it (*first: it was clear) and notes when.  Reported at elevel:
 * false where the write failed, or there was none to make (*unwritten
 * false).
 */
static bool
write_replayed(bool durable, bool rewrite, int elevel, bool *unwritten, bool *first)
{
	int64		mark,
				v6_mark;
	bool		written = false;

	*first = false;
	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	/* never below what the file holds (a move not yet published, say) */
	mark = Max((int64) pg_atomic_read_u64(&uuidx_state->mark_us), uuidx_state->written_mark_us);
	v6_mark = Max((int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us), uuidx_state->written_v6_mark_us);
	*unwritten = rewrite || replayed_unwritten_locked();
	LWLockRelease(&uuidx_state->lock);
	if (*unwritten && uuidx_mark_file_write(mark, v6_mark, durable, elevel))
	{
		written = true;
		LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
		note_written(mark, v6_mark);
		if (durable)
		{
			/* unless redo raised the marks again meanwhile */
			if (!replayed_unwritten_locked())
				pg_atomic_write_u32(&uuidx_state->replay_pending, 0);
		}
		else
		{
			pg_atomic_fetch_add_u32(&uuidx_state->replay_writes, 1);
			*first = pg_atomic_exchange_u32(&uuidx_state->replay_pending, 1) == 0;
			if (*first)
				pg_atomic_write_u64(&uuidx_state->replay_pending_us,
									(uint64) uuidx_clock_monotonic_us());
		}
		LWLockRelease(&uuidx_state->lock);
		if (durable)
			pg_atomic_fetch_add_u64(&uuidx_state->durable_writes, 1);
	}
	return written;
}

/*
 * As the writer: make the marks redo renamed durable, at elevel for each
 * failure on the way.  The fsync of the file as it stands; where it fails,
 * the marks written anew, durably: a new file, fsynced, renamed over the
 * old one, which needs nothing of what the kernel may have dropped of the
 * old one after the failed fsync (PostgreSQL cannot write a data page
 * again from memory, uuidx can).  Where that fails too: false, after,
 * with final, PostgreSQL's answer to a failed fsync,
 * data_sync_elevel(elevel), a PANIC unless data_sync_retry is on.
 */
static bool
make_replayed_durable(int elevel, bool final)
{
	bool		unwritten;
	bool		first;

	if (sync_replayed(elevel) || write_replayed(true, true, elevel, &unwritten, &first))
		return true;
	if (!final)
		return false;
	ereport(data_sync_elevel(elevel),
			(errcode(ERRCODE_IO_ERROR),
			 errmsg("could not make the high-water mark replayed from WAL durable in \"%s\"",
					UUIDX_MARK_FILE),
			 errdetail("Neither the fsync of the file nor a new file written in its place succeeded."),
			 errhint("Check the disk that holds the data directory.")));
	return false;
}

/*
 * The worker's, in recovery: make_replayed_durable() as the writer, its
 * failures reported as paced (uuidx_mark_report_begin()).  True where the
 * marks are durable.
 */
bool
uuidx_mark_make_replayed_durable(void)
{
	UuidxMarkReport report;
	int			elevel = uuidx_mark_report_begin(&report);
	bool		done;

	(void) uuidx_mark_writer_take(true);
	PG_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	{
		done = make_replayed_durable(elevel, true);
	}
	PG_END_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	uuidx_mark_writer_give();
	uuidx_mark_report_end(&report, done);
	return done;
}

/*
 * Redo's mark could not be written to the file, or made durable: the
 * replay stops here, with or without the worker (which would write the
 * same file in the same directory), as it stops where it cannot write a
 * file of PostgreSQL's own, so that no restartpoint passes a mark the file
 * lacks; a start replays the record again.  The failing call was reported
 * just before, as a WARNING.
 */
static void
replay_stops(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_IO_ERROR),
			 errmsg("could not write the high-water mark replayed from WAL to \"%s\"",
					UUIDX_MARK_FILE),
			 errdetail("The replay stops here, so that no restartpoint passes a mark the file lacks; a start replays the record again."),
			 errhint("Make the data directory writable, or free space in it, and start the server again.")));
}

/*
 * Is a mark redo renamed waiting for its fsync longer than the worker's
 * round (a worker stalled on its disk, say)?  Redo then makes its own
 * write durable, so that a mark is left to the page cache a second at
 * most while marks come.
 */
static bool
replayed_pending_long(void)
{
	return pg_atomic_read_u32(&uuidx_state->replay_pending) != 0 &&
		uuidx_clock_monotonic_us() - (int64) pg_atomic_read_u64(&uuidx_state->replay_pending_us) >=
		UUIDX_REPLAY_SYNC_US;
}

/*
 * As the writer, redo's write of the marks it raised: renamed only where
 * the worker runs and has kept up, durable where not; where the write
 * fails, the replay stops (replay_stops()).  True where the worker should
 * be woken: it has a first write to sync.
 */
static bool
write_replayed_mark(void)
{
	bool		durable = uuidx_state->worker_latch == NULL || replayed_pending_long();
	bool		unwritten;
	bool		first;

	if (!write_replayed(durable, false, WARNING, &unwritten, &first) && unwritten)
		replay_stops();

	/*
	 * An earlier write, renamed only, and the worker gone since, or late; or
	 * this one, and the worker gone meanwhile (its exit syncs only what it
	 * saw pending: the flag is set, with a barrier, before the latch is
	 * looked at again, as the worker clears its latch before it looks at the
	 * flag): redo makes it durable itself, or stops.
	 */
	if (!durable)
	{
		pg_memory_barrier();
		durable = uuidx_state->worker_latch == NULL;
	}
	if (pg_atomic_read_u32(&uuidx_state->replay_pending) != 0 &&
		(durable || replayed_pending_long()) && !make_replayed_durable(WARNING, false))
		replay_stops();
	return first;
}

/* write_replayed_mark(), the role given back on an ERROR or exit meanwhile. */
static bool
write_replayed_mark_as_writer(void)
{
	bool		wake;

	PG_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	{
		wake = write_replayed_mark();
	}
	PG_END_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	return wake;
}

/*
 * Redo of a mark written to WAL (mark_wal.c): raise this node's marks and
 * generators to it, and write its own mark file, so that a restart before
 * promotion keeps what was replayed.  Where the mark worker runs, renamed
 * over the old file without an fsync, which a crash of PostgreSQL keeps:
 * replay pays no fsync per record, and the worker makes the file durable
 * within a second, without the lock or the writer's role.  Where no worker
 * runs (no slot for it, not started yet, or restarting after a crash), or
 * it has left a mark to the page cache longer than that (stalled on its
 * disk), redo writes the file durably itself, as a move of the mark does.  The file is written as the mark's writer: where another
 * process writes the mark (a session of a hot standby moving the
 * standby's own, rarely), redo waits its turn (uuidx_mark_writer_take()), so
 * that the file holds every replayed mark before the next record is
 * replayed and no restartpoint can pass one it lacks.  A file that cannot
 * be written stops the replay, with or without the worker
 * (replay_stops()).
 */
void
uuidx_mark_replay(int64 mark, int64 v6_mark)
{
	bool		wake;
	Latch	   *latch;

	static bool exit_sync = false;

	uuidx_state_ensure();
	if (!uuidx_state->persistent)
		return;
	if (!exit_sync)
	{
		before_shmem_exit(uuidx_mark_sync_replayed_at_exit, (Datum) 0);
		exit_sync = true;
	}
	mark = Min(Max(mark, 0), UUIDX_MARK_MAX_US);
	v6_mark = Min(Max(v6_mark, 0), uuidx_v6_max_unix_us());

	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	uuidx_atomic_raise(&uuidx_state->mark_us, (uint64) mark);
	uuidx_atomic_raise(&uuidx_state->v6_mark_us, (uint64) v6_mark);
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
		uuidx_atomic_raise(&uuidx_state->last[gen],
						   uuidx_last_position_at(gen, gen == UUIDX_GEN_V6 ? v6_mark : mark));
	LWLockRelease(&uuidx_state->lock);

	(void) uuidx_mark_writer_take(true);
	wake = write_replayed_mark_as_writer();
	uuidx_mark_writer_give();
	latch = uuidx_state->worker_latch;
	if (wake && latch != NULL)
		SetLatch(latch);
}

/* rm_redo: the record's marks, replayed. */
static void
mark_redo(XLogReaderState *record)
{
	int64		mark,
				v6_mark;

	uuidx_mark_wal_read(record, &mark, &v6_mark);
	uuidx_mark_replay(mark, v6_mark);
}

/*
 * Called while shared_preload_libraries is processed: uuidx's WAL resource
 * manager, its records' functions mark_wal.c's and its redo this file's.
 */
void
uuidx_mark_register_rmgr(void)
{
	static RmgrData rmgr = {
		.rm_name = UUIDX_RMGR_NAME,
		.rm_redo = mark_redo,
		.rm_desc = uuidx_mark_wal_desc,
		.rm_identify = uuidx_mark_wal_identify,
	};

	uuidx_mark_wal_register(&rmgr);
}
