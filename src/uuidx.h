/*-------------------------------------------------------------------------
 *
 * uuidx.h
 *	  What every C file of the uuidx extension includes first.
 *
 * The code is in a folder per subsystem, each behind a header that is its
 * face to the others, and, where its files share more among themselves,
 * an internal header beside it (DEVELOPMENT.md has the map).  Calls run
 * one way, down this list; a folder uses the faces of those below it only:
 *	  module.c, symbols_1_0.c  _PG_init, one init per subsystem; SQL 1.0's names
 *	  time_range/        id <@ tstzrange and the time forms users write:
 *	                     what they mean, what the planner makes of them, and
 *	                     (time_range/scan/) the "uuidx time ranges" custom scan
 *	  generators/        the SQL generators (v6, v7, v8, name-based v8,
 *	                     pg_uuidv7's), their random pool and their setting
 *	  inspect/           taking UUIDs apart, converting them (v1 and v6; ULID,
 *	                     TypeID and base32hex text; 19's bytea casts), the
 *	                     v7 mask, min and max
 *	  order/             the order across the server: the generators' shared
 *	                     state, the high-water mark (its moves, file, WAL and
 *	                     worker), and the SQL that moves or shows them
 *	  layout/            the versions' bit layouts, the clock and time units
 *	  compat.h           differences between PostgreSQL majors, in one place
 *
 * Naming.  The C entry point of an SQL function is uuidx_ followed by the
 * SQL name without its leading uuid_ or uuidx_ (uuid_timestamp is
 * uuidx_timestamp); where a name is overloaded, each overload but the one
 * without arguments adds the types of the arguments after those all of them
 * share (uuid_generate_v8_name(uuid, uuid, text) is
 * uuidx_generate_v8_name_uuid_text).  Other extern functions never take such
 * a name: they carry their subsystem's prefix (uuidx_layout_, uuidx_clock_,
 * uuidx_random_, uuidx_state_, uuidx_mark_, uuidx_tr_, uuidx_scan_) or read
 * as uuidx_get_*, uuidx_*_of and the like.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_H
#define UUIDX_H

#include "postgres.h"

#include "utils/uuid.h"

#endif							/* UUIDX_H */
