/*-------------------------------------------------------------------------
 *
 * minmax.c
 *	  The transition functions of min(uuid) and max(uuid), which uuidx
 *	  creates where the server has none (PostgreSQL 15 to 18 have none).
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "layout/layout.h"

#include "fmgr.h"

PG_FUNCTION_INFO_V1(uuidx_smaller);
PG_FUNCTION_INFO_V1(uuidx_larger);

static int
uuid_order(const pg_uuid_t *a, const pg_uuid_t *b)
{
	return memcmp(a->data, b->data, UUID_LEN);
}

Datum
uuidx_smaller(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *a = PG_GETARG_UUID_P(0);
	pg_uuid_t  *b = PG_GETARG_UUID_P(1);

	PG_RETURN_UUID_P(uuid_order(a, b) <= 0 ? a : b);
}

Datum
uuidx_larger(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *a = PG_GETARG_UUID_P(0);
	pg_uuid_t  *b = PG_GETARG_UUID_P(1);

	PG_RETURN_UUID_P(uuid_order(a, b) >= 0 ? a : b);
}
