/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  Reading the real-time clock, and every conversion between the time
 *	  units uuidx uses: Unix 100-ns units and microseconds, the 100-ns
 *	  Gregorian ticks of v1 and v6, and PostgreSQL's TimestampTz.
 *
 * The generators read CLOCK_REALTIME and keep it in 100-ns units, the
 * resolution v6 needs; the vDSO makes the call about as cheap as the
 * gettimeofday() behind clock_timestamp().  (Nanoseconds would overflow
 * 64 bits in the year 2262, long before the end of v7 in 10889.)  The
 * clock may step back or stall; src/order/ makes the values
 * strictly increasing anyway.
 *
 *-------------------------------------------------------------------------
 */
#include "layout/layout.h"

#include <time.h>

#include "utils/timestamp.h"

/*
 * Seconds beyond which the clock is taken as this far from the epoch: about
 * 28,500 years, past the end of every UUID version's range (so a generator
 * reports the end of its range), and small enough that 100-ns units fit in
 * an int64.
 */
#define UUIDX_CLOCK_MAX_SECONDS INT64CONST(900000000000)

/*
 * The time since the Unix epoch in 100-ns units, as the system clock says
 * now (negative before 1970).
 */
int64
uuidx_clock_unix_100ns(void)
{
	struct timespec ts;
	int64		sec;

	if (unlikely(clock_gettime(CLOCK_REALTIME, &ts) != 0))
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not read the real-time clock: %m")));

	sec = (int64) ts.tv_sec;
	if (unlikely(sec > UUIDX_CLOCK_MAX_SECONDS))
		sec = UUIDX_CLOCK_MAX_SECONDS;
	else if (unlikely(sec < -UUIDX_CLOCK_MAX_SECONDS))
		sec = -UUIDX_CLOCK_MAX_SECONDS;
	return sec * 10000000 + ts.tv_nsec / 100;
}

/* The same in microseconds (rounded towards 0). */
int64
uuidx_clock_unix_us(void)
{
	return uuidx_clock_unix_100ns() / 10;
}

/*
 * Microseconds on the monotonic clock, which no step of the real-time clock
 * moves and every process of the machine shares: for pacing retries and
 * reports, which a clock set back must not stop nor a clock set ahead
 * hurry.
 */
int64
uuidx_clock_monotonic_us(void)
{
	struct timespec ts;

	if (unlikely(clock_gettime(CLOCK_MONOTONIC, &ts) != 0))
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not read the monotonic clock: %m")));
	return (int64) ts.tv_sec * USECS_PER_SEC + ts.tv_nsec / 1000;
}

/*
 * Unix microseconds to TimestampTz (microseconds since 2000-01-01).
 */
int64
uuidx_unix_us_to_timestamptz(int64 unix_us)
{
	return unix_us - UUIDX_UNIX_TO_PG_EPOCH_US;
}

/*
 * TimestampTz to Unix microseconds; the caller checks the value is finite.
 */
int64
uuidx_timestamptz_to_unix_us(TimestampTz ts)
{
	return ts + UUIDX_UNIX_TO_PG_EPOCH_US;
}

/*
 * 100-ns units since the Unix epoch to 100-ns ticks since 1582-10-15.
 */
uint64
uuidx_unix_100ns_to_ticks(int64 unix_100ns)
{
	return (uint64) (unix_100ns + UUIDX_GREGORIAN_OFFSET_TICKS);
}

/*
 * 100-ns ticks since 1582-10-15 to Unix microseconds, rounded down.
 */
int64
uuidx_ticks_to_unix_us(uint64 ticks)
{
	int64		rel = (int64) ticks - UUIDX_GREGORIAN_OFFSET_TICKS;

	/* floor division: times before 1970 round toward the past as well */
	if (rel < 0)
		return -((-rel + 9) / 10);
	return rel / 10;
}

/*
 * Report a time outside what UUIDv7 can hold.
 */
static void
v7_range_error(const char *what, TimestampTz ts)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("%s is outside the range of UUIDv7", what),
			 errdetail("It is %s; UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655+00.",
					   timestamptz_to_str(ts))));
}

/*
 * The Unix millisecond of a time that a v7 can hold, or an error naming
 * `what`.  With whole_last_ms, every time in the last millisecond counts
 * (a bound or a given timestamp falls in it); without, the last
 * millisecond's first microsecond is the end, as core uuidv7(interval) has
 * it for a shifted clock.
 */
int64
uuidx_timestamptz_to_v7_ms(TimestampTz ts, bool whole_last_ms, const char *what)
{
	/* Compared before converting, so no sum can overflow. */
	const TimestampTz first = uuidx_unix_us_to_timestamptz(0);
	const TimestampTz last = uuidx_unix_us_to_timestamptz(UUIDX_V7_MAX_MS * 1000 +
														  (whole_last_ms ? 999 : 0));

	if (TIMESTAMP_NOT_FINITE(ts) || ts < first || ts > last)
		v7_range_error(what, ts);
	return uuidx_timestamptz_to_unix_us(ts) / 1000;
}
