/*-------------------------------------------------------------------------
 *
 * mark_wal.c
 *	  The high-water mark in WAL: uuidx's custom WAL resource manager.
 *
 * With uuidx.wal_log_mark on, each move of the mark (generator_state.c)
 * is also a WAL record of this resource manager, flushed, and flushed by
 * the synchronous standbys where there are any, before the values it
 * covers are handed out.  Redo, on a standby, in crash recovery and in
 * archive recovery, raises the node's mark and generators to the record's
 * (generator_state.c), so that a promoted standby, a point-in-time
 * recovery or a node brought back with pg_rewind starts above every value
 * it replayed.  The redo function is mark_move.c's, given at
 * registration: this file knows records, not the state they move.
 *
 * The resource manager is registered whenever the library is preloaded,
 * so that any node with this library can replay the records; they are
 * written only when the setting is on, as a node without the library
 * stops replaying at the first of them ("resource manager with ID 167 not
 * registered").  Logical decoding skips them (no rm_decode).
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/latch.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

/*
 * uuidx's WAL resource manager id, to be registered on PostgreSQL's wiki
 * page "CustomWALResourceManagers" (ids taken there, as far as known:
 * 128-140, 144, 241).
 */
#define UUIDX_RMGR_ID 167
#define UUIDX_RMGR_NAME "uuidx"

/* The one kind of record: the marks after a move. */
#define XLOG_UUIDX_MARK 0x00

typedef struct xl_uuidx_mark
{
	int64		mark_us;		/* v7 and v8, Unix microseconds */
	int64		v6_mark_us;		/* v6, Unix microseconds */
} xl_uuidx_mark;

/* uuidx.wal_log_mark */
bool		uuidx_wal_log_mark_setting = false;

/* Whether this process has the resource manager (the library is preloaded). */
static bool registered = false;

/* What redo does with a record's marks. */
static UuidxMarkRedo redo_marks = NULL;

static void
mark_redo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_uuidx_mark *rec = (xl_uuidx_mark *) XLogRecGetData(record);

	if (info != XLOG_UUIDX_MARK)
		elog(PANIC, "uuidx redo: unknown record type %u", info);
	redo_marks(rec->mark_us, rec->v6_mark_us);
}

static void
mark_desc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_uuidx_mark *rec = (xl_uuidx_mark *) XLogRecGetData(record);

	if (info == XLOG_UUIDX_MARK)
		appendStringInfo(buf, "v7/v8 up to %s; v6 up to %s",
						 timestamptz_to_str(uuidx_unix_us_to_timestamptz(rec->mark_us)),
						 timestamptz_to_str(uuidx_unix_us_to_timestamptz(rec->v6_mark_us)));
}

static const char *
mark_identify(uint8 info)
{
	if ((info & ~XLR_INFO_MASK) == XLOG_UUIDX_MARK)
		return "MARK";
	return NULL;
}

static RmgrData uuidx_rmgr = {
	.rm_name = UUIDX_RMGR_NAME,
	.rm_redo = mark_redo,
	.rm_desc = mark_desc,
	.rm_identify = mark_identify,
};

/*
 * Called while shared_preload_libraries is processed, with what redo does.
 */
void
uuidx_mark_wal_register(UuidxMarkRedo redo)
{
	redo_marks = redo;
	RegisterCustomRmgr(UUIDX_RMGR_ID, &uuidx_rmgr);
	registered = true;
}

/*
 * Do moves of the mark go into WAL now?  With the setting on (wanted: as
 * the server last read it, generator_state.c), the resource manager
 * registered, and WAL to write (not in recovery).
 */
bool
uuidx_mark_wal_active(bool wanted)
{
	return wanted && registered && !RecoveryInProgress();
}

/*
 * Write the marks after a move to WAL and flush it, before the values the
 * move covers are returned; its position, for uuidx_mark_wal_wait().
 */
XLogRecPtr
uuidx_mark_wal_log(int64 mark_us, int64 v6_mark_us)
{
	xl_uuidx_mark rec;
	XLogRecPtr	lsn;

	rec.mark_us = mark_us;
	rec.v6_mark_us = v6_mark_us;
	XLogBeginInsert();
	XLogRegisterData((char *) &rec, sizeof(rec));
	lsn = XLogInsert(UUIDX_RMGR_ID, XLOG_UUIDX_MARK);
	XLogFlush(lsn);
	return lsn;
}

/*
 * Have the synchronous standbys flushed the WAL up to lsn?  True where
 * synchronous_standby_names names none.  Whatever synchronous_commit says
 * in this process (a session's own, or the worker's, which is the
 * server's): a mark covers every session's values, so it waits for what
 * a failover needs, the standbys' flush, as a commit at "on" does.  Read
 * from this process's synchronous_standby_names, which every minor
 * release has (the shared flags that say the same changed in 2025's).
 */
static bool
standbys_have(XLogRecPtr lsn)
{
	if (max_wal_senders == 0 || SyncRepStandbyNames == NULL || SyncRepStandbyNames[0] == '\0')
		return true;
	return ((volatile WalSndCtlData *) WalSndCtl)->lsn[SYNC_REP_WAIT_FLUSH] >= lsn;
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
 * several of ours may wait for one record.  A cancel (statement_timeout,
 * a cancel request) is PostgreSQL's own ERROR, 57014, with the wait as
 * its context: no value beyond the mark is handed out.  Where block is
 * false (an early move, made by a value the mark still covers), nothing
 * waits: false unless they have the record.
 */
bool
uuidx_mark_wal_wait(XLogRecPtr lsn, bool block)
{
	ErrorContextCallback errcallback;

	if (standbys_have(lsn))
		return true;
	if (!block)
		return false;
	errcallback.callback = wait_context;
	errcallback.arg = &lsn;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if (standbys_have(lsn))
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 WAIT_EVENT_SYNC_REP);
		ResetLatch(MyLatch);
	}
	error_context_stack = errcallback.previous;
	return true;
}
