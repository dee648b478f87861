/*-------------------------------------------------------------------------
 *
 * inspect.c
 *	  SQL entry points that take UUIDs apart (version, variant, timestamp,
 *	  clock_seq, node), convert v1 <-> v6, build v7 range bounds, and build
 *	  a v8 from its custom fields.
 *
 * Extraction never fails: a UUID whose version has no such field gives
 * NULL.  Conversion and the builders reject what they cannot represent,
 * naming the value they got.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "layout/layout.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/inet.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(uuidx_version);
PG_FUNCTION_INFO_V1(uuidx_variant);
PG_FUNCTION_INFO_V1(uuidx_timestamp);
PG_FUNCTION_INFO_V1(uuidx_timestamp_text);
PG_FUNCTION_INFO_V1(uuidx_core_extract_timestamp);
PG_FUNCTION_INFO_V1(uuidx_clock_seq);
PG_FUNCTION_INFO_V1(uuidx_node);
PG_FUNCTION_INFO_V1(uuidx_v8_node_id);
PG_FUNCTION_INFO_V1(uuidx_v1_to_v6);
PG_FUNCTION_INFO_V1(uuidx_v6_to_v1);
PG_FUNCTION_INFO_V1(uuidx_v7_lower_bound);
PG_FUNCTION_INFO_V1(uuidx_v7_upper_bound);
PG_FUNCTION_INFO_V1(uuidx_v8_from_parts);

Datum
uuidx_version(PG_FUNCTION_ARGS)
{
	int			version = uuidx_get_version(PG_GETARG_UUID_P(0));

	if (version < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT16((int16) version);
}

Datum
uuidx_variant(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT16((int16) uuidx_get_variant(PG_GETARG_UUID_P(0)));
}

/*
 * Creation time of v1, v6 (to the microsecond, rounded down) and v7 (to the
 * millisecond), as Unix microseconds; false for anything else.
 */
static bool
creation_time(const pg_uuid_t *uuid, int64 *unix_us)
{
	switch (uuidx_get_version(uuid))
	{
		case 1:
			*unix_us = uuidx_ticks_to_unix_us(uuidx_get_v1_ticks(uuid));
			return true;
		case 6:
			*unix_us = uuidx_ticks_to_unix_us(uuidx_get_v6_ticks(uuid));
			return true;
		case 7:
			*unix_us = (int64) uuidx_get_v7_ms(uuid) * 1000;
			return true;
	}
	return false;
}

Datum
uuidx_timestamp(PG_FUNCTION_ARGS)
{
	int64		unix_us;

	if (!creation_time(PG_GETARG_UUID_P(0), &unix_us))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(uuidx_unix_us_to_timestamptz(unix_us));
}

/*
 * uuid_extract_timestamp() of uuidx_core18, as PostgreSQL 18's reads: v1 and
 * v7 keys, NULL for every other version, v6 included.
 */
Datum
uuidx_core_extract_timestamp(PG_FUNCTION_ARGS)
{
	const pg_uuid_t *uuid = PG_GETARG_UUID_P(0);
	int			version = uuidx_get_version(uuid);
	int64		unix_us;

	if ((version != 1 && version != 7) || !creation_time(uuid, &unix_us))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(uuidx_unix_us_to_timestamptz(unix_us));
}

/*
 * uuid_timestamp(text): the same of the UUID the text spells, which is
 * read as the uuid type reads its input (and fails as it does).
 */
Datum
uuidx_timestamp_text(PG_FUNCTION_ARGS)
{
	Datum		uuid = DirectFunctionCall1(uuid_in, CStringGetDatum(text_to_cstring(PG_GETARG_TEXT_PP(0))));
	int64		unix_us;

	if (!creation_time(DatumGetUUIDP(uuid), &unix_us))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(uuidx_unix_us_to_timestamptz(unix_us));
}

static inline bool
has_clock_seq_and_node(const pg_uuid_t *uuid)
{
	int			version = uuidx_get_version(uuid);

	return version == 1 || version == 6;
}

Datum
uuidx_clock_seq(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if (!has_clock_seq_and_node(uuid))
		PG_RETURN_NULL();
	PG_RETURN_INT32(((uuid->data[8] & 0x3F) << 8) | uuid->data[9]);
}

Datum
uuidx_node(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	macaddr    *mac;

	if (!has_clock_seq_and_node(uuid))
		PG_RETURN_NULL();
	mac = palloc(sizeof(macaddr));
	mac->a = uuid->data[10];
	mac->b = uuid->data[11];
	mac->c = uuid->data[12];
	mac->d = uuid->data[13];
	mac->e = uuid->data[14];
	mac->f = uuid->data[15];
	PG_RETURN_MACADDR_P(mac);
}

/*
 * The node id field of uuidx's time-ordered v8 (bits 70-85), for any v8:
 * another v8 layout has its own bits there, which this reads all the same.
 */
Datum
uuidx_v8_node_id(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if (uuidx_get_version(uuid) != 8)
		PG_RETURN_NULL();
	PG_RETURN_INT32((int32) uuidx_get_v8_node(uuid));
}

/*
 * Shared by both conversions: the input must be of version `from`, and a
 * value already of version `to` comes back unchanged.  Returns true when
 * the input is to be converted.
 */
static bool
check_convertible(pg_uuid_t *uuid, int from, int to)
{
	int			variant = uuidx_get_variant(uuid);
	int			version = uuidx_get_version(uuid);
	char	   *text;

	if (version == to)
		return false;
	if (version == from)
		return true;

	text = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid)));

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("UUID %s is not of version %d", text, from),
			 version < 0 ?
			 errdetail("It is of variant %d, which has no versions.", variant) :
			 errdetail("It is of version %d, variant %d.", version, variant),
			 errhint("Select the values to convert with uuid_version(id) = %d.", from)));
	return false;				/* not reached */
}

Datum
uuidx_v1_to_v6(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *in = PG_GETARG_UUID_P(0);
	pg_uuid_t  *out;

	if (!check_convertible(in, 1, 6))
		PG_RETURN_UUID_P(in);
	out = palloc(sizeof(pg_uuid_t));
	uuidx_layout_v1_to_v6(in, out);
	PG_RETURN_UUID_P(out);
}

Datum
uuidx_v6_to_v1(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *in = PG_GETARG_UUID_P(0);
	pg_uuid_t  *out;

	if (!check_convertible(in, 6, 1))
		PG_RETURN_UUID_P(in);
	out = palloc(sizeof(pg_uuid_t));
	uuidx_layout_v6_to_v1(in, out);
	PG_RETURN_UUID_P(out);
}

/*
 * The smallest (all other bits 0) or largest (all other bits 1) v7 of the
 * millisecond of ts.
 */
static pg_uuid_t *
v7_bound(TimestampTz ts, bool upper)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	uuidx_layout_time_bound(uuid, 7, (uint64) uuidx_timestamptz_to_v7_ms(ts, true, "the bound"), upper);
	return uuid;
}

Datum
uuidx_v7_lower_bound(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(v7_bound(PG_GETARG_TIMESTAMPTZ(0), false));
}

Datum
uuidx_v7_upper_bound(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(v7_bound(PG_GETARG_TIMESTAMPTZ(0), true));
}

static void
check_part(const char *name, int64 value, int bits)
{
	int64		max = (INT64CONST(1) << bits) - 1;

	if (value < 0 || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s must be between 0 and " INT64_FORMAT " (%d bits), got " INT64_FORMAT,
						name, max, bits, value)));
}

/*
 * uuid_v8_from_parts(custom_a bigint, custom_b integer, custom_c bigint):
 * 48, 12 and 62 bits around the version and variant.
 */
Datum
uuidx_v8_from_parts(PG_FUNCTION_ARGS)
{
	int64		a = PG_GETARG_INT64(0);
	int32		b = PG_GETARG_INT32(1);
	int64		c = PG_GETARG_INT64(2);
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	check_part("custom_a", a, 48);
	check_part("custom_b", b, 12);
	check_part("custom_c", c, 62);
	uuidx_layout_v8_parts(uuid, (uint64) a, (uint32) b, (uint64) c);
	PG_RETURN_UUID_P(uuid);
}
