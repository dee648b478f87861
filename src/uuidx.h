/*-------------------------------------------------------------------------
 *
 * uuidx.h
 *	  Declarations shared by the C files of the uuidx extension.
 *
 * Where each responsibility lives:
 *	  compat.h           differences between PostgreSQL majors, in one place
 *	  module.c           _PG_init, the uuidx.node_id setting
 *	  clock.c            reading the real-time clock; time unit conversions
 *	  random_pool.c      per-process CSPRNG pool
 *	  generator_state.c  shared (or backend-local) generator state, hooks,
 *	                     DSM registry, the high-water mark and its moves,
 *	                     uuidx_generator_state(), uuidx_generator_advance()
 *	  mark_file.c        the mark on disk (uuidx.hwm)
 *	  mark_wal.c         the mark in WAL: the custom WAL resource manager
 *	  mark_move.c        moves of the mark, its redo, the mark worker's rounds
 *	                     (generator_state.h: the state they share)
 *	  mark_worker.c      the background worker that keeps the mark ahead
 *	  layout.c           bit layouts of v1, v6, v7 and v8 (pure functions)
 *	  generate.c         SQL entry points of the generators
 *	  inspect.c          SQL entry points that take UUIDs apart and convert
 *	  name_v8.c          name-based v8 (SHA-224/256/384/512)
 *	  mask_v7.c          a v7 shown as a v4 that hides its time, and back
 *	  siphash.c          SipHash-2-4, the mask's keyed pseudo-random function
 *	  ulid.c             ULID text of a UUID, and back
 *	  minmax.c           min(uuid) and max(uuid) where the server lacks them
 *	  pg_uuidv7_compat.c pg_uuidv7's functions
 *	  time_range.c       uuid <@ tstzrange: what it means, per row
 *	  time_range_declared.c  what a uuid column's CHECK constraints say
 *	  time_range_support.c  what the planner makes of it: its support
 *	                     function (simplification, index conditions, estimates)
 *	  time_range_clauses.c  the clauses it makes
 *	  time_range_forms.c uuid_timestamp(id) >= t and the like, rewritten
 *	  time_range_selfuncs.c  its estimates
 *	  time_range_paths.c the cost of walking an index to a time range
 *	  time_range_scan.c  the "uuidx time ranges" custom scan, executor side
 *	  time_range_scan_plan.c  its planner's side
 *	                     (time_range.h joins the time_range files)
 *	  symbols_1_0.c      the entry point names SQL 1.0 uses
 *
 * Naming.  The C entry point of an SQL function is uuidx_ followed by the
 * SQL name without its leading uuid_ or uuidx_ (uuid_timestamp is
 * uuidx_timestamp); where a name is overloaded, each overload but the one
 * without arguments adds the types of the arguments after those all of them
 * share (uuid_generate_v8_name(uuid, uuid, text) is
 * uuidx_generate_v8_name_uuid_text).  Other extern functions never take such
 * a name: they are uuidx_layout_*, uuidx_*_of and the like.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_H
#define UUIDX_H

#include "postgres.h"

#include "access/xlogdefs.h"
#include "datatype/timestamp.h"
#include "port/pg_bswap.h"
#include "storage/latch.h"
#include "utils/uuid.h"

/* The generators whose state is kept; indexes into the state arrays. */
typedef enum UuidxGenerator
{
	UUIDX_GEN_V6 = 0,
	UUIDX_GEN_V7,
	UUIDX_GEN_V8,
	UUIDX_NUM_GENERATORS
} UuidxGenerator;

/* Where the generator state lives. */
typedef enum UuidxStorage
{
	UUIDX_STORAGE_NONE = 0,		/* not attached yet */
	UUIDX_STORAGE_PRELOAD,		/* main shared memory (preloaded) */
	UUIDX_STORAGE_DSM,			/* DSM registry (PostgreSQL 17+) */
	UUIDX_STORAGE_LOCAL			/* this backend only */
} UuidxStorage;

/*
 * Time constants.  "Unix microseconds" are microseconds since 1970-01-01
 * 00:00:00 UTC; "ticks" are the 100-ns intervals since 1582-10-15 00:00:00
 * UTC used by v1 and v6.
 */
#define UUIDX_UNIX_TO_PG_EPOCH_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC)
#define UUIDX_GREGORIAN_OFFSET_TICKS INT64CONST(0x01B21DD213814000)
#define UUIDX_V7_MAX_MS ((INT64CONST(1) << 48) - 1)
#define UUIDX_V6_MAX_TICKS ((INT64CONST(1) << 60) - 1)

/*
 * v7 and v8 keep a 64-bit "position": the 48-bit Unix millisecond followed
 * by a 16-bit counter.  A new millisecond seeds the counter with 15 random
 * bits (its top bit is a rollover guard), so at least 32,768 values fit in
 * every millisecond before the embedded time must run ahead of the clock.
 */
#define UUIDX_COUNTER_BITS 16
#define UUIDX_COUNTER_MASK ((UINT64CONST(1) << UUIDX_COUNTER_BITS) - 1)
#define UUIDX_COUNTER_SEED_MASK UINT64CONST(0x7FFF)

/* module.c */
extern int	uuidx_node_id_setting;

/* clock.c */
extern int64 uuidx_clock_unix_100ns(void);
extern int64 uuidx_unix_us_to_timestamptz(int64 unix_us);
extern int64 uuidx_timestamptz_to_unix_us(TimestampTz ts);
extern uint64 uuidx_unix_100ns_to_ticks(int64 unix_100ns);
extern int64 uuidx_ticks_to_unix_us(uint64 ticks);
extern int64 uuidx_timestamptz_to_v7_ms(TimestampTz ts, bool whole_last_ms,
										const char *what);

/* The last Unix microsecond a v6 value can hold (5236-03-31). */
static inline int64
uuidx_v6_max_unix_us(void)
{
	return uuidx_ticks_to_unix_us((uint64) UUIDX_V6_MAX_TICKS);
}

/* random_pool.c */
extern void uuidx_random_bytes(void *dst, size_t len);

/* Values of uuidx.debug_postmaster_random. */
#define UUIDX_DEBUG_RANDOM_OFF 0
#define UUIDX_DEBUG_RANDOM_DRAW 1
#define UUIDX_DEBUG_RANDOM_PREFILL 2
extern void uuidx_random_debug_in_postmaster(int mode);

/* generator_state.c */
extern void uuidx_state_install_hooks(void);
extern void uuidx_state_wal_wanted(bool wanted);
extern uint64 uuidx_next_position(UuidxGenerator gen, uint64 now_position);
extern void uuidx_range_end_error(UuidxGenerator gen, bool clock_beyond);

/* mark_move.c: the mark worker's rounds; mark_worker.c: the worker */
extern long uuidx_mark_worker_step(Latch *latch);
extern void uuidx_mark_worker_leave(void);
extern void uuidx_mark_worker_register(void);

/*
 * mark_file.c: the marks on disk.  The greatest mark, written or read, is
 * the last microsecond of the last millisecond v7 and v8 can encode; the
 * mark is moved this far ahead of use (microseconds): the reservation
 * that the mark worker renews before values need it (generator_state.c).
 */
#define UUIDX_MARK_FILE "uuidx.hwm"
#define UUIDX_MARK_MAX_US ((UUIDX_V7_MAX_MS + 1) * 1000 - 1)
#define UUIDX_MARK_AHEAD_US INT64CONST(1000000)
extern void uuidx_mark_file_read(int64 *mark, int64 *v6_mark);
extern bool uuidx_mark_file_write(int64 mark, int64 v6_mark, bool durable, int elevel);
extern bool uuidx_mark_file_sync(int elevel);

/*
 * mark_wal.c: the marks in WAL.  Redo hands a record's marks to the
 * function given at registration (generator_state.c's).
 */
typedef void (*UuidxMarkRedo) (int64 mark_us, int64 v6_mark_us);
extern bool uuidx_wal_log_mark_setting;
extern void uuidx_mark_wal_register(UuidxMarkRedo redo);
extern bool uuidx_mark_wal_active(bool wanted);
extern XLogRecPtr uuidx_mark_wal_log(int64 mark_us, int64 v6_mark_us);
extern bool uuidx_mark_wal_standbys_named(void);
extern bool uuidx_mark_wal_standbys_flushed(XLogRecPtr lsn);

/* layout.c */
extern void uuidx_layout_v7(pg_uuid_t *uuid, uint64 position, const uint8 *rand8);
extern void uuidx_layout_v6(pg_uuid_t *uuid, uint64 ticks,
							const uint8 *clock_seq_node8, const uint8 *node6);
extern void uuidx_layout_v8_time(pg_uuid_t *uuid, uint64 position,
								 int node_id, const uint8 *rand8);
extern void uuidx_layout_v8_parts(pg_uuid_t *uuid, uint64 custom_a,
								  uint32 custom_b, uint64 custom_c);
extern void uuidx_layout_time_bound(pg_uuid_t *uuid, int version, uint64 time,
									bool upper);
extern void uuidx_set_version_variant(pg_uuid_t *uuid, int version);
extern uint64 uuidx_get_v1_ticks(const pg_uuid_t *uuid);
extern uint32 uuidx_get_v8_node(const pg_uuid_t *uuid);
extern void uuidx_layout_v1_to_v6(const pg_uuid_t *in, pg_uuid_t *out);
extern void uuidx_layout_v6_to_v1(const pg_uuid_t *in, pg_uuid_t *out);

/*
 * Big-endian fields of a UUID's bytes (layout.c, ulid.c): the low `len`
 * bytes of v written at dst, and `len` bytes read from src.
 */
static inline void
uuidx_put_be(uint8 *dst, uint64 v, int len)
{
	for (int i = len - 1; i >= 0; i--)
	{
		dst[i] = (uint8) v;
		v >>= 8;
	}
}

static inline uint64
uuidx_get_be(const uint8 *src, int len)
{
	uint64		v = 0;

	for (int i = 0; i < len; i++)
		v = (v << 8) | src[i];
	return v;
}

/*
 * Fields every version shares, and the timestamps of v6 and v7 (inline:
 * a time range checks them for every row it reads).
 *
 * The variant per RFC 9562 Table 1, as the number its significant bits
 * spell: 0 (0b0, NCS), 2 (0b10, RFC 9562), 6 (0b110, Microsoft), 7 (0b111,
 * reserved for the future).
 */
static inline int
uuidx_get_variant(const pg_uuid_t *uuid)
{
	uint8		b = uuid->data[8];

	if ((b & 0x80) == 0)
		return 0;
	if ((b & 0x40) == 0)
		return 2;
	if ((b & 0x20) == 0)
		return 6;
	return 7;
}

/*
 * The version nibble, or -1 when the variant is not RFC 9562's: other
 * variants have no version field there.
 */
static inline int
uuidx_get_version(const pg_uuid_t *uuid)
{
	if ((uuid->data[8] & 0xC0) != 0x80)
		return -1;
	return uuid->data[6] >> 4;
}

/* The first eight bytes of a UUID, big-endian, as a number. */
static inline uint64
uuidx_get_be8(const pg_uuid_t *uuid)
{
	uint64		v;

	memcpy(&v, uuid->data, sizeof(v));
	return pg_ntoh64(v);
}

/* The 60-bit timestamp of a v6: the 48 high bits, then 12 low bits. */
static inline uint64
uuidx_get_v6_ticks(const pg_uuid_t *uuid)
{
	uint64		v = uuidx_get_be8(uuid);

	return ((v >> 16) << 12) | (v & 0x0FFF);
}

/* The 48-bit Unix millisecond of a v7. */
static inline uint64
uuidx_get_v7_ms(const pg_uuid_t *uuid)
{
	return uuidx_get_be8(uuid) >> 16;
}

/* siphash.c */
extern uint64 uuidx_siphash24(const uint8 *key, const uint8 *m, size_t len);

/* time_range_paths.c */
extern void uuidx_time_range_install_hook(void);

/* time_range_scan_plan.c: uuidx.enable_time_ranges_scan */
extern bool uuidx_enable_time_ranges_scan;

#endif							/* UUIDX_H */
