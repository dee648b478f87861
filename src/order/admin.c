/*-------------------------------------------------------------------------
 *
 * admin.c
 *	  The SQL that moves the generators (uuidx_generator_advance()), shows
 *	  them (uuidx_generator_state()), and shows the high-water mark's
 *	  upkeep (uuidx_mark_status()).
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

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
 * layouts (layout.h), whatever made the key.  Every value at a greater
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
	int64		now_us = uuidx_clock_unix_us();
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
	 * targets (a cancel of the wait ends it, with a WARNING), then taken. The
	 * writer's role is taken first, while a cancel still ends the wait for it
	 * (mark.c), and given back once the marks are written.
	 */
	(void) uuidx_mark_writer_take(true);
	HOLD_INTERRUPTS();
	PG_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	{
		uuidx_mark_write_and_publish(Max((int64) pg_atomic_read_u64(&uuidx_state->mark_us), needed),
									 Max((int64) pg_atomic_read_u64(&uuidx_state->v6_mark_us), Min(needed_v6, uuidx_v6_max_unix_us())),
									 ERROR, UUIDX_MARK_WAIT_AS_COMMIT);
	}
	PG_END_ENSURE_ERROR_CLEANUP(uuidx_mark_writer_cleanup, (Datum) 0);
	LWLockAcquire(&uuidx_state->lock, LW_EXCLUSIVE);
	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		uint64		last;

		uuidx_atomic_raise(&uuidx_state->last[gen], Min(target[gen], uuidx_max_position(gen)));
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
	clock_us = uuidx_clock_unix_us();
	wal_logged = uuidx_state->persistent && uuidx_wal_active();

	for (int gen = 0; gen < UUIDX_NUM_GENERATORS; gen++)
	{
		Datum		values[8];
		bool		nulls[8] = {false};
		uint64		last = pg_atomic_read_u64(&uuidx_state->last[gen]);
		Interval   *ahead = palloc0(sizeof(Interval));

		values[0] = CStringGetTextDatum(uuidx_generator_name(gen));
		values[1] = CStringGetTextDatum(uuidx_state_storage() == UUIDX_STORAGE_LOCAL ? "backend" : "server");
		values[2] = CStringGetTextDatum(storage_name(uuidx_state_storage()));
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

/* A Unix time of the state as a timestamptz, NULL where it is 0 (never). */
static void
set_time(Datum *value, bool *null, pg_atomic_uint64 *us)
{
	int64		t = (int64) pg_atomic_read_u64(us);

	*null = t == 0;
	if (t != 0)
		*value = TimestampTzGetDatum(uuidx_unix_us_to_timestamptz(t));
}

/*
 * uuidx_mark_status() (SQL 1.5): one row on the high-water mark's upkeep:
 * whether the mark worker runs and its pid, when it last moved the mark
 * and last made replayed marks durable, the process writing the mark now,
 * the durable writes of the mark file so far (by any process, syncs of
 * redo's writes included), and whether a mark replayed from WAL is in the
 * file but not yet durable.  Where the state is not shared by the server
 * (no mark), the worker does not run and the rest is NULL.
 */
PG_FUNCTION_INFO_V1(uuidx_mark_status);
Datum
uuidx_mark_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[7] = {0};
	bool		nulls[7] = {false};
	uint32		worker_pid;
	int			writer_pid;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	uuidx_state_ensure();
	if (!uuidx_state->persistent)
	{
		values[0] = BoolGetDatum(false);
		for (int i = 1; i < 7; i++)
			nulls[i] = true;
		PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
	}
	worker_pid = pg_atomic_read_u32(&uuidx_state->worker_pid);
	LWLockAcquire(&uuidx_state->lock, LW_SHARED);
	writer_pid = uuidx_state->writer_pid;
	LWLockRelease(&uuidx_state->lock);

	values[0] = BoolGetDatum(worker_pid != 0);
	nulls[1] = worker_pid == 0;
	values[1] = Int32GetDatum((int32) worker_pid);
	set_time(&values[2], &nulls[2], &uuidx_state->worker_moved_us);
	set_time(&values[3], &nulls[3], &uuidx_state->worker_synced_us);
	nulls[4] = writer_pid == 0;
	values[4] = Int32GetDatum(writer_pid);
	values[5] = Int64GetDatum((int64) pg_atomic_read_u64(&uuidx_state->durable_writes));
	values[6] = BoolGetDatum(pg_atomic_read_u32(&uuidx_state->replay_pending) != 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
