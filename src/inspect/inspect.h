/*-------------------------------------------------------------------------
 *
 * inspect.h
 *	  The face of src/inspect/: the SQL functions that take UUIDs apart and
 *	  convert them (inspect.c: fields, times, v1 and v6, bounds; ulid.c:
 *	  ULID text; mask_v7.c: a v7 shown as a v4; minmax.c: min and max),
 *	  over the layouts (src/layout/).
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_INSPECT_H
#define UUIDX_INSPECT_H

#include "uuidx.h"

#include "fmgr.h"

/* inspect.c: time forms the time ranges recognize by their code */
extern Datum uuidx_timestamp(PG_FUNCTION_ARGS);
extern Datum uuidx_core_extract_timestamp(PG_FUNCTION_ARGS);

/* Within this folder. */

/* siphash.c: SipHash-2-4, the mask's keyed pseudo-random function */
extern uint64 uuidx_siphash24(const uint8 *key, const uint8 *m, size_t len);

#endif							/* UUIDX_INSPECT_H */
