/*-------------------------------------------------------------------------
 *
 * symbols_1_0.c
 *	  The C symbols that uuidx--1.0.sql names and 1.1 renamed.
 *
 * SQL 1.0 stays installable with this library (CREATE EXTENSION uuidx
 * VERSION '1.0', and every database not yet updated), and its functions
 * point at these names.  uuidx--1.0--1.1.sql re-points them at the names
 * of the naming scheme in uuidx.h; each name here is the new entry point
 * under its old name.  Nothing else may call them.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "fmgr.h"

#define UUIDX_1_0_SYMBOL(old_name, new_name) \
	extern Datum new_name(PG_FUNCTION_ARGS); \
	PG_FUNCTION_INFO_V1(old_name); \
	Datum \
	old_name(PG_FUNCTION_ARGS) \
	{ \
		return new_name(fcinfo); \
	}

UUIDX_1_0_SYMBOL(uuidx_generate_v7_shift, uuidx_generate_v7_interval)
UUIDX_1_0_SYMBOL(uuidx_generate_v6_node, uuidx_generate_v6_macaddr)
UUIDX_1_0_SYMBOL(uuidx_v8_name_text, uuidx_generate_v8_name_text)
UUIDX_1_0_SYMBOL(uuidx_v8_name_bytea, uuidx_generate_v8_name_bytea)
UUIDX_1_0_SYMBOL(uuidx_v8_hashspace_text, uuidx_generate_v8_name_uuid_text)
UUIDX_1_0_SYMBOL(uuidx_v8_hashspace_bytea, uuidx_generate_v8_name_uuid_bytea)
UUIDX_1_0_SYMBOL(uuidx_uuid_version, uuidx_version)
UUIDX_1_0_SYMBOL(uuidx_uuid_variant, uuidx_variant)
UUIDX_1_0_SYMBOL(uuidx_uuid_timestamp, uuidx_timestamp)
UUIDX_1_0_SYMBOL(uuidx_uuid_clock_seq, uuidx_clock_seq)
UUIDX_1_0_SYMBOL(uuidx_uuid_node, uuidx_node)
UUIDX_1_0_SYMBOL(uuidx_v1_to_v6_sql, uuidx_v1_to_v6)
UUIDX_1_0_SYMBOL(uuidx_v6_to_v1_sql, uuidx_v6_to_v1)
UUIDX_1_0_SYMBOL(uuidx_compat_v7_to_timestamptz, uuidx_v7_to_timestamptz)
UUIDX_1_0_SYMBOL(uuidx_compat_timestamptz_to_v7, uuidx_timestamptz_to_v7)
