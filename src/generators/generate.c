/*-------------------------------------------------------------------------
 *
 * generate.c
 *	  SQL entry points of the time-based generators (v6, v7, v8).
 *
 *-------------------------------------------------------------------------
 */
#include "generators/generators.h"

#include "compat.h"
#include "layout/layout.h"
#include "order/order.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inet.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(uuidx_generate_v7);
PG_FUNCTION_INFO_V1(uuidx_generate_v7_interval);
PG_FUNCTION_INFO_V1(uuidx_generate_v6);
PG_FUNCTION_INFO_V1(uuidx_generate_v6_macaddr);
PG_FUNCTION_INFO_V1(uuidx_generate_v8);

/* uuidx.node_id: -1 (unset) or 0..65535; see uuidx_layout_v8_time(). */
static int	node_id_setting = -1;

/* Random bytes a time-ordered v7/v8 value takes: 2 for the seed, 8 for the layout. */
#define UUIDX_V7_RANDOM_BYTES 10

/*
 * A clock reading (Unix 100-ns units) as a position of a v7/v8 generator:
 * its millisecond, with the counter seeded by 15 random bits from seed2.
 */
static uint64
clock_ms_position(UuidxGenerator gen, int64 now, const uint8 *seed2)
{
	int64		ms = now / 10000;
	uint64		seed = (((uint64) seed2[0] << 8) | seed2[1]) & UUIDX_COUNTER_SEED_MASK;

	if (unlikely(now < 0))
		return 0;				/* before 1970: run on from the last value */
	if (unlikely(ms > UUIDX_V7_MAX_MS))
		uuidx_range_end_error(gen, true);	/* 48 bits of ms end in 10889 */
	return ((uint64) ms << UUIDX_COUNTER_BITS) | seed;
}

/*
 * The next position of a millisecond-based generator (v7 or v8), with the
 * random bytes its layout needs and, in *clock_us, the clock reading it
 * started from (Unix microseconds).
 */
static uint64
next_ms_position(UuidxGenerator gen, uint8 *rand, int64 *clock_us)
{
	int64		now = uuidx_clock_unix_100ns();

	uuidx_random_bytes(rand, UUIDX_V7_RANDOM_BYTES);
	*clock_us = now / 10;
	return uuidx_next_position(gen, clock_ms_position(gen, now, rand));
}

/*
 * A new v7 value for now, strictly greater than the previous one.
 */
static pg_uuid_t *
make_v7(void)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	uint8		rand[UUIDX_V7_RANDOM_BYTES];
	int64		clock_us;
	uint64		position = next_ms_position(UUIDX_GEN_V7, rand, &clock_us);

	uuidx_layout_v7(uuid, position, rand + 2);
	return uuid;
}

Datum
uuidx_generate_v7(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(make_v7());
}

/*
 * Error context while the shift is added to the time of the value.
 */
static void
shift_error_context(void *arg)
{
	Interval   *shift = (Interval *) arg;

	errcontext("adding the shift %s to the current time of a UUIDv7",
			   DatumGetCString(DirectFunctionCall1(interval_out,
												   IntervalPGetDatum(shift))));
}

/*
 * uuid_generate_v7(shift interval): v7 for now + shift.
 *
 * The value comes from the same strictly increasing state as the plain
 * generator.  As core uuidv7(interval) does, the shift is added with
 * timestamptz + interval (months and days follow the session's time zone)
 * to the time in microseconds: the clock's, while the value lies in the
 * clock's millisecond, else the start of the value's millisecond (when the
 * generator runs ahead of the clock).  The shifted millisecond takes the
 * value's counter.  A shift of whole milliseconds keeps the generator's
 * order; shift '0' gives exactly what uuid_generate_v7() gives.  As with
 * core, a shifted time may not pass the start of v7's last millisecond,
 * nor come before 1970; an infinite shift and a time out of range are
 * PostgreSQL 18's errors, word for word.
 */
Datum
uuidx_generate_v7_interval(PG_FUNCTION_ARGS)
{
	Interval   *shift = PG_GETARG_INTERVAL_P(0);
	pg_uuid_t  *uuid;
	uint8		rand[UUIDX_V7_RANDOM_BYTES];
	uint64		position;
	int64		clock_us;
	int64		position_ms;
	TimestampTz now_ts;
	TimestampTz shifted;
	int64		shifted_ms;
	ErrorContextCallback errcallback;

	/* In PostgreSQL 18's words, so that code written for 18 reads them. */
	if (UUIDX_INTERVAL_IS_INFINITE(shift))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("interval out of range for UUID version 7"),
				 errdetail("UUID version 7 does not support infinite intervals.")));

	position = next_ms_position(UUIDX_GEN_V7, rand, &clock_us);
	position_ms = (int64) (position >> UUIDX_COUNTER_BITS);
	now_ts = uuidx_unix_us_to_timestamptz(clock_us >= 0 && clock_us / 1000 == position_ms ?
										  clock_us : position_ms * 1000);

	/* Core's "timestamp out of range" alone would not say what overflowed. */
	errcallback.callback = shift_error_context;
	errcallback.arg = shift;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	shifted = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
													  TimestampTzGetDatum(now_ts),
													  IntervalPGetDatum(shift)));
	error_context_stack = errcallback.previous;

	if (shifted < uuidx_unix_us_to_timestamptz(0) ||
		shifted > uuidx_unix_us_to_timestamptz(UUIDX_V7_MAX_MS * 1000))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for UUID version 7"),
				 errdetail("UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.")));
	shifted_ms = uuidx_timestamptz_to_v7_ms(shifted, false, "the shifted time");

	uuid = palloc(sizeof(pg_uuid_t));
	uuidx_layout_v7(uuid,
					((uint64) shifted_ms << UUIDX_COUNTER_BITS) |
					(position & UUIDX_COUNTER_MASK),
					rand + 2);
	PG_RETURN_UUID_P(uuid);
}

/*
 * A v6 value: the next 100-ns tick of the shared state, random clock_seq,
 * and the given node, or a random one with the multicast bit set (RFC 9562
 * sections 5.6 and 6.10).
 */
static pg_uuid_t *
make_v6(const uint8 *node6)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	uint8		rand[8];
	int64		now = uuidx_clock_unix_100ns();
	uint64		ticks;

	uuidx_random_bytes(rand, sizeof(rand));
	ticks = uuidx_next_position(UUIDX_GEN_V6,
								now < 0 ? 0 : uuidx_unix_100ns_to_ticks(now));
	if (node6 == NULL)
	{
		rand[2] |= 0x01;
		node6 = rand + 2;
	}
	uuidx_layout_v6(uuid, ticks, rand, node6);
	return uuid;
}

Datum
uuidx_generate_v6(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(make_v6(NULL));
}

Datum
uuidx_generate_v6_macaddr(PG_FUNCTION_ARGS)
{
	macaddr    *mac = PG_GETARG_MACADDR_P(0);
	uint8		node6[6] = {mac->a, mac->b, mac->c, mac->d, mac->e, mac->f};

	PG_RETURN_UUID_P(make_v6(node6));
}

/*
 * uuidx's time-ordered v8, with the node id from uuidx.node_id.
 */
Datum
uuidx_generate_v8(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	uint8		rand[UUIDX_V7_RANDOM_BYTES];
	int64		clock_us;
	uint64		position = next_ms_position(UUIDX_GEN_V8, rand, &clock_us);

	uuidx_layout_v8_time(uuid, position, node_id_setting, rand + 2);
	PG_RETURN_UUID_P(uuid);
}

/*
 * _PG_init's: the generators' settings.
 */
void
uuidx_generators_init(void)
{
	/*
	 * PGC_SUSET: the node id decides whether v8 values from different servers
	 * can collide, so only a superuser or the server configuration may set
	 * it.
	 */
	DefineCustomIntVariable("uuidx.node_id",
							"Node id written into uuid_generate_v8() values.",
							"-1 (the default) leaves the node bits random. Give each server that writes to the same tables its own id from 0 to 65535.",
							&node_id_setting,
							-1, -1, 65535,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
	uuidx_random_init();
}
