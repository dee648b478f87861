/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  Reading the real-time clock, and converting between Unix time and
 *	  PostgreSQL's TimestampTz.
 *
 * The generators read CLOCK_REALTIME with nanosecond resolution: v6 needs
 * 100-ns ticks, and the vDSO makes the call about as cheap as the
 * gettimeofday() behind clock_timestamp().  The clock may step back or
 * stall; generator_state.c makes the values strictly increasing anyway.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include <time.h>

/*
 * Nanoseconds since the Unix epoch, as the system clock says now.
 */
int64
uuidx_clock_unix_ns(void)
{
	struct timespec ts;

	if (unlikely(clock_gettime(CLOCK_REALTIME, &ts) != 0))
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not read the real-time clock: %m")));

	return (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;
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
