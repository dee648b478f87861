/*-------------------------------------------------------------------------
 *
 * pg_uuidv7_compat.c
 *	  The functions of pg_uuidv7 (fboulnois/pg_uuidv7), so that uuidx can
 *	  replace it without changing queries.  uuid_generate_v7() is shared
 *	  with uuidx itself.
 *
 * Differences, on purpose: a random result is VOLATILE (pg_uuidv7 marks it
 * STABLE), times outside UUIDv7's range are an error rather than wrapped
 * bits, and extraction gives NULL for a UUID that is not a v7 rather than
 * reading a time out of bits that hold none.  Timestamps without a time
 * zone are taken as UTC, as pg_uuidv7 does.
 *
 *-------------------------------------------------------------------------
 */
#include "generators/generators.h"

#include "layout/layout.h"

#include "fmgr.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(uuidx_v7_to_timestamptz);
PG_FUNCTION_INFO_V1(uuidx_v7_to_timestamp);
PG_FUNCTION_INFO_V1(uuidx_timestamptz_to_v7);
PG_FUNCTION_INFO_V1(uuidx_timestamp_to_v7);

/*
 * uuid_v7_to_timestamptz(uuid) and uuid_v7_to_timestamp(uuid): the
 * millisecond of a v7, or NULL.  timestamp and timestamptz share their
 * representation, so the second is the first under its own name.
 */
Datum
uuidx_v7_to_timestamptz(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if (uuidx_get_version(uuid) != 7)
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(uuidx_unix_us_to_timestamptz((int64) uuidx_get_v7_ms(uuid) * 1000));
}

Datum
uuidx_v7_to_timestamp(PG_FUNCTION_ARGS)
{
	return uuidx_v7_to_timestamptz(fcinfo);
}

/*
 * uuid_timestamptz_to_v7(ts, zero) and uuid_timestamp_to_v7(ts, zero): a
 * v7 of the millisecond of ts, with random bits, or with zeros when zero
 * is true.  A timestamp is read as UTC, so both take the same path.
 */
Datum
uuidx_timestamptz_to_v7(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	bool		zero = PG_GETARG_BOOL(1);
	uint64		ms = (uint64) uuidx_timestamptz_to_v7_ms(ts, true, "the timestamp");
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	uint8		rand[10] = {0};

	/*
	 * Everything after the millisecond is random, the 16 counter bits of the
	 * generators' layout included, as pg_uuidv7 fills all 74 bits.
	 */
	if (!zero)
		uuidx_random_bytes(rand, sizeof(rand));
	uuidx_layout_v7(uuid,
					(ms << UUIDX_COUNTER_BITS) | ((uint64) rand[0] << 8) | rand[1],
					rand + 2);
	PG_RETURN_UUID_P(uuid);
}

Datum
uuidx_timestamp_to_v7(PG_FUNCTION_ARGS)
{
	return uuidx_timestamptz_to_v7(fcinfo);
}
