/*-------------------------------------------------------------------------
 *
 * mark_wal.c
 *	  The high-water mark in WAL: uuidx's custom WAL resource manager.
 *
 * With uuidx.wal_log_mark on, each move of the mark (mark.c) is also a WAL
 * record of this resource manager, flushed, and flushed by the synchronous
 * standbys where there are any, before the values it covers are handed
 * out.  Redo, on a standby, in crash recovery and in archive recovery,
 * raises the node's mark and generators to the record's (mark.c's
 * uuidx_mark_replay()), so that a promoted standby, a point-in-time
 * recovery or a node brought back with pg_rewind starts above every value
 * it replayed.  mark.c makes the resource manager, with its redo and this
 * file's functions: this file knows records, not the state they move.
 *
 * The resource manager is registered whenever the library is preloaded,
 * so that any node with this library can replay the records; they are
 * written only when the setting is on, as a node without the library
 * stops replaying at the first of them ("resource manager with ID 167 not
 * registered").  Logical decoding skips them (no rm_decode).
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include "access/xloginsert.h"
#include "miscadmin.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "utils/timestamp.h"

/*
 * uuidx's WAL resource manager id, to be registered on PostgreSQL's wiki
 * page "CustomWALResourceManagers" (ids taken there, as far as known:
 * 128-140, 144, 241).
 */
#define UUIDX_RMGR_ID 167

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

/*
 * The marks of a record (redo's, mark.c).
 */
void
uuidx_mark_wal_read(XLogReaderState *record, int64 *mark_us, int64 *v6_mark_us)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_uuidx_mark *rec = (xl_uuidx_mark *) XLogRecGetData(record);

	if (info != XLOG_UUIDX_MARK)
		elog(PANIC, "uuidx redo: unknown record type %u", info);
	*mark_us = rec->mark_us;
	*v6_mark_us = rec->v6_mark_us;
}

/* rm_desc: what pg_waldump and pg_walinspect show of a record. */
void
uuidx_mark_wal_desc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_uuidx_mark *rec = (xl_uuidx_mark *) XLogRecGetData(record);

	if (info == XLOG_UUIDX_MARK)
		appendStringInfo(buf, "v7/v8 up to %s; v6 up to %s",
						 timestamptz_to_str(uuidx_unix_us_to_timestamptz(rec->mark_us)),
						 timestamptz_to_str(uuidx_unix_us_to_timestamptz(rec->v6_mark_us)));
}

/* rm_identify */
const char *
uuidx_mark_wal_identify(uint8 info)
{
	if ((info & ~XLR_INFO_MASK) == XLOG_UUIDX_MARK)
		return "MARK";
	return NULL;
}

/*
 * Called while shared_preload_libraries is processed, with the resource
 * manager mark.c makes of these records' functions and its redo.
 */
void
uuidx_mark_wal_register(RmgrData *rmgr)
{
	RegisterCustomRmgr(UUIDX_RMGR_ID, rmgr);
	registered = true;
}

/*
 * Do moves of the mark go into WAL now?  With the setting on (wanted: as
 * the server last read it, state.c), the resource manager
 * registered, and WAL to write (not in recovery).
 */
bool
uuidx_mark_wal_active(bool wanted)
{
	return wanted && registered && !RecoveryInProgress();
}

/*
 * Write the marks after a move to WAL and flush it, before the values the
 * move covers are returned; its position, for the wait in mark.c.
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
 * Does this process's synchronous_standby_names name any standby?  Read
 * from the setting, which every minor release has (the shared flags that
 * say the same changed in 2025's).
 */
bool
uuidx_mark_wal_standbys_named(void)
{
	return max_wal_senders > 0 && SyncRepStandbyNames != NULL && SyncRepStandbyNames[0] != '\0';
}

/*
 * Have the synchronous standbys flushed the WAL up to lsn?  Whatever
 * synchronous_commit says in this process (a session's own, or the
 * worker's, which is the server's): a mark covers every session's values,
 * so the wait (mark.c) is for what a failover needs, the standbys'
 * flush, as a commit at "on" waits.
 */
bool
uuidx_mark_wal_standbys_flushed(XLogRecPtr lsn)
{
	return ((volatile WalSndCtlData *) WalSndCtl)->lsn[SYNC_REP_WAIT_FLUSH] >= lsn;
}
