/*-------------------------------------------------------------------------
 *
 * generators.h
 *	  The face of src/generators/: the SQL functions that make UUIDs
 *	  (generate.c: v6, v7 and v8 from the clock; name_v8.c: name-based v8;
 *	  pg_uuidv7_compat.c: pg_uuidv7's), over the order (src/order/) and
 *	  the layouts (src/layout/), and their random pool (random_pool.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_GENERATORS_H
#define UUIDX_GENERATORS_H

#include "uuidx.h"

#include "fmgr.h"

/* generate.c: _PG_init's, for uuidx.node_id and the random pool's setting */
extern void uuidx_generators_init(void);

/* pg_uuidv7_compat.c: a time form the time ranges recognize by its code */
extern Datum uuidx_v7_to_timestamptz(PG_FUNCTION_ARGS);

/* Within this folder. */

/* random_pool.c */
extern void uuidx_random_init(void);
extern void uuidx_random_bytes(void *dst, size_t len);

#endif							/* UUIDX_GENERATORS_H */
