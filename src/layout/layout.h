/*-------------------------------------------------------------------------
 *
 * layout.h
 *	  The face of src/layout/: the bit layouts of UUID versions 1, 6, 7 and
 *	  8 (layout.c), and the clock and the time units they encode (clock.c).
 *	  Pure functions and constants, which every other folder uses and which
 *	  use none of them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_LAYOUT_H
#define UUIDX_LAYOUT_H

#include "uuidx.h"

#include "datatype/timestamp.h"
#include "port/pg_bswap.h"

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

/* clock.c */
extern int64 uuidx_clock_unix_us(void);
extern int64 uuidx_clock_monotonic_us(void);
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

#endif							/* UUIDX_LAYOUT_H */
