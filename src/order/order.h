/*-------------------------------------------------------------------------
 *
 * order.h
 *	  The face of src/order/: the order of every generator's values across
 *	  the server.  Each generator keeps a position (v6: 100-ns ticks; v7
 *	  and v8: Unix millisecond << 16 | counter, layout.h) that only grows;
 *	  the generators (src/generators/) take their next one here, and it is
 *	  handed out only where the high-water mark covers it (state.c says
 *	  what the mark is and how it moves).
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_ORDER_H
#define UUIDX_ORDER_H

#include "uuidx.h"

/* The generators whose state is kept; indexes into the state's arrays. */
typedef enum UuidxGenerator
{
	UUIDX_GEN_V6 = 0,
	UUIDX_GEN_V7,
	UUIDX_GEN_V8,
	UUIDX_NUM_GENERATORS
} UuidxGenerator;

/* order.c: _PG_init's, for the setting and, preloaded, the server's parts */
extern void uuidx_order_init(void);

/* values.c: the next position of a generator, and the end of its range */
extern uint64 uuidx_next_position(UuidxGenerator gen, uint64 now_position);
extern void uuidx_range_end_error(UuidxGenerator gen, bool clock_beyond);

#endif							/* UUIDX_ORDER_H */
