/*-------------------------------------------------------------------------
 *
 * values.c
 *	  The value path: the next position of a generator, taken only once the
 *	  high-water mark covers it (state.c says how), and the end of a
 *	  generator's range.
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

/*
 * Right shift that leaves the clock part of a position: v6 positions are
 * all clock (100-ns ticks); v7 and v8 end in the 16-bit counter.
 */
static const int clock_shift[UUIDX_NUM_GENERATORS] = {
	[UUIDX_GEN_V6] = 0,
	[UUIDX_GEN_V7] = UUIDX_COUNTER_BITS,
	[UUIDX_GEN_V8] = UUIDX_COUNTER_BITS,
};

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
			 errmsg("the %s generator has reached the end of its timestamp range",
					uuidx_generator_name(gen)),
			 clock_beyond ?
			 errdetail("The clock is beyond the greatest time this UUID version can encode.") :
			 errdetail("The last value generated holds the greatest time this UUID version can encode."),
			 clock_beyond ?
			 errhint("Check the server's clock.") :
			 (uuidx_state != NULL && uuidx_state->persistent) ?
			 errhint("If the clock was wrong, correct it, stop the server and remove \"%s\" from the data directory.",
					 UUIDX_MARK_FILE) :
			 errhint("If the clock was wrong, correct it and open a new session.")));
}

/*
 * The next position of a generator: strictly greater than every position
 * it handed out before (in this server, or this backend when the state is
 * local), and equal to now_position whenever that is greater.  With a
 * persisted state the position is taken only once the mark covers it; if
 * the mark cannot be written, the ERROR leaves the state as it was.
 */
uint64
uuidx_next_position(UuidxGenerator gen, uint64 now_position)
{
	uint64		cur;
	uint64		next;
	int64		us = 0;			/* time of next, when the state is persisted */

	uuidx_state_ensure();

	cur = pg_atomic_read_u64(&uuidx_state->last[gen]);
	for (;;)
	{
		if (unlikely(cur >= uuidx_max_position(gen)))
			uuidx_range_end_error(gen, false);

		/*
		 * A clock that has moved on to a later tick (v6) or millisecond (v7,
		 * v8) starts there, with the freshly seeded counter; otherwise the
		 * counter of the last value counts on by one.
		 */
		if ((now_position >> clock_shift[gen]) > (cur >> clock_shift[gen]))
			next = now_position;
		else
			next = cur + 1;
		if (unlikely(next > uuidx_max_position(gen)))
			uuidx_range_end_error(gen, true);

		if (uuidx_state->persistent)
		{
			us = uuidx_position_unix_us(gen, next);
			if (unlikely(us > (int64) pg_atomic_read_u64(uuidx_mark_of(gen))) || uuidx_mark_write_pending())
			{
				uuidx_mark_cover(gen, us);
				cur = pg_atomic_read_u64(&uuidx_state->last[gen]);
				continue;
			}
		}
		if (pg_atomic_compare_exchange_u64(&uuidx_state->last[gen], &cur, next))
			break;
	}

	if (uuidx_state->persistent)
	{
		/* the setting turned on, or the node was promoted, meanwhile */
		if (unlikely(uuidx_mark_write_pending()))
			uuidx_mark_cover(gen, us);
		if (unlikely(us + UUIDX_MARK_AHEAD_US / 2 > (int64) pg_atomic_read_u64(uuidx_mark_of(gen))))
			uuidx_mark_renew_early(gen, us);
	}
	return next;
}
