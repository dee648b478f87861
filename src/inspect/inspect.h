/*-------------------------------------------------------------------------
 *
 * inspect.h
 *	  The face of src/inspect/: the SQL functions that take UUIDs apart and
 *	  convert them (inspect.c: fields, times, v1 and v6, bounds; ulid.c:
 *	  ULID text; typeid.c: TypeID text; base32.c: the 5-bit alphabets and
 *	  base32hex; bytea.c: 19's casts to and from bytea; mask_v7.c: a v7
 *	  shown as a v4; minmax.c: min and max), over the layouts
 *	  (src/layout/).
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

/* bytea.c: where core has the bytea casts, a binary upgrade's hook */
extern void uuidx_inspect_init(void);

/* Within this folder. */

/* base32.c: 128 bits as 26 characters of 5 bits (ULID, TypeID, base32hex) */
#define UUIDX_BASE32_LEN 26
extern void uuidx_base32_values(int8 *values, const char *alphabet, bool either_case);
extern void uuidx_base32_encode(const pg_uuid_t *uuid, const char *alphabet,
								bool spare_front, char *out);
extern int	uuidx_base32_decode(const char *s, const int8 *values, bool spare_front,
								pg_uuid_t *uuid);

/* siphash.c: SipHash-2-4, the mask's keyed pseudo-random function */
extern uint64 uuidx_siphash24(const uint8 *key, const uint8 *m, size_t len);

#endif							/* UUIDX_INSPECT_H */
