/*-------------------------------------------------------------------------
 *
 * layout.c
 *	  Bit layouts of UUID versions 1, 6, 7 and 8 (RFC 9562 section 5), as
 *	  pure functions over 16 bytes in network order.
 *
 * Octets are numbered 0 to 15; the version is the high nibble of octet 6,
 * the variant the high bits of octet 8.
 *
 *-------------------------------------------------------------------------
 */
#include "layout/layout.h"

/*
 * Set the version nibble and the RFC 9562 variant (0b10).
 */
void
uuidx_set_version_variant(pg_uuid_t *uuid, int version)
{
	uuid->data[6] = (uint8) ((uuid->data[6] & 0x0F) | (version << 4));
	uuid->data[8] = (uint8) ((uuid->data[8] & 0x3F) | 0x80);
}

/*
 * v7: 48-bit Unix ms | ver | 12 high counter bits | var | 4 low counter
 * bits | 58 random bits.  rand8 supplies 8 random bytes.
 */
void
uuidx_layout_v7(pg_uuid_t *uuid, uint64 position, const uint8 *rand8)
{
	uint64		ms = position >> UUIDX_COUNTER_BITS;
	uint32		counter = (uint32) (position & UUIDX_COUNTER_MASK);

	uuidx_put_be(uuid->data, ms, 6);
	uuid->data[6] = (uint8) (0x70 | (counter >> 12));
	uuid->data[7] = (uint8) (counter >> 4);
	uuid->data[8] = (uint8) (0x80 | ((counter & 0x0F) << 2) | (rand8[0] & 0x03));
	memcpy(&uuid->data[9], rand8 + 1, 7);
}

/*
 * v6: the 60-bit timestamp, most significant bits first, then clock_seq
 * and node (RFC 9562 section 5.6).  csn supplies the 2 bytes of clock_seq;
 * node6 the 6 bytes of the node.
 */
void
uuidx_layout_v6(pg_uuid_t *uuid, uint64 ticks, const uint8 *csn,
				const uint8 *node6)
{
	uuidx_put_be(uuid->data, ticks >> 12, 6);
	uuid->data[6] = (uint8) (0x60 | ((ticks >> 8) & 0x0F));
	uuid->data[7] = (uint8) ticks;
	uuid->data[8] = (uint8) (0x80 | (csn[0] & 0x3F));
	uuid->data[9] = csn[1];
	memcpy(&uuid->data[10], node6, 6);
}

/*
 * The smallest (upper false) or largest (upper true) UUID of a version (6
 * or 7) and a time (100-ns ticks for v6, Unix milliseconds for v7): all
 * bits after the time, version and variant 0, or all 1.
 */
void
uuidx_layout_time_bound(pg_uuid_t *uuid, int version, uint64 time, bool upper)
{
	uint8		fill[8];

	memset(fill, upper ? 0xFF : 0x00, sizeof(fill));
	if (version == 7)
		uuidx_layout_v7(uuid, (time << UUIDX_COUNTER_BITS) | (upper ? UUIDX_COUNTER_MASK : 0), fill);
	else
		uuidx_layout_v6(uuid, time, fill, fill);
}

/*
 * uuidx's time-ordered v8 (documented bit by bit in the README):
 *	 bits   0-47  Unix milliseconds
 *	 bits  48-51  version 8
 *	 bits  52-63  counter, high 12 bits
 *	 bits  64-65  variant 0b10
 *	 bits  66-69  counter, low 4 bits
 *	 bits  70-85  node id (uuidx.node_id), or random when it is unset (-1)
 *	 bits 86-127  random
 */
void
uuidx_layout_v8_time(pg_uuid_t *uuid, uint64 position, int node_id,
					 const uint8 *rand8)
{
	uint64		ms = position >> UUIDX_COUNTER_BITS;
	uint32		counter = (uint32) (position & UUIDX_COUNTER_MASK);
	uint32		node = node_id >= 0 ? (uint32) node_id
		: (((uint32) rand8[6] << 8) | rand8[7]);
	uint64		low;

	uuidx_put_be(uuid->data, ms, 6);
	uuid->data[6] = (uint8) (0x80 | (counter >> 12));
	uuid->data[7] = (uint8) (counter >> 4);

	/* The last 64 bits: var(2) counter(4) node(16) random(42). */
	low = (UINT64CONST(2) << 62)
		| ((uint64) (counter & 0x0F) << 58)
		| ((uint64) (node & 0xFFFF) << 42)
		| (uuidx_get_be(rand8, 6) & ((UINT64CONST(1) << 42) - 1));
	uuidx_put_be(&uuid->data[8], low, 8);
}

/*
 * v8 from its three custom fields (RFC 9562 section 5.8): 48, 12 and 62
 * bits.  The caller has checked their ranges.
 */
void
uuidx_layout_v8_parts(pg_uuid_t *uuid, uint64 custom_a, uint32 custom_b,
					  uint64 custom_c)
{
	uuidx_put_be(uuid->data, custom_a, 6);
	uuid->data[6] = (uint8) (0x80 | (custom_b >> 8));
	uuid->data[7] = (uint8) custom_b;
	uuidx_put_be(&uuid->data[8], (UINT64CONST(2) << 62) | custom_c, 8);
}

/*
 * The 60-bit timestamp of a v1 value: time_low, time_mid, time_high.
 */
uint64
uuidx_get_v1_ticks(const pg_uuid_t *uuid)
{
	uint64		time_low = uuidx_get_be(uuid->data, 4);
	uint64		time_mid = uuidx_get_be(uuid->data + 4, 2);
	uint64		time_high = uuidx_get_be(uuid->data + 6, 2) & 0x0FFF;

	return (time_high << 48) | (time_mid << 32) | time_low;
}

/*
 * The node id field of uuidx_layout_v8_time: bits 70-85.
 */
uint32
uuidx_get_v8_node(const pg_uuid_t *uuid)
{
	return (uint32) ((uuidx_get_be(&uuid->data[8], 8) >> 42) & 0xFFFF);
}

/*
 * Reorder a v1 timestamp into v6; octets 8-15 (variant, clock_seq, node)
 * are kept as they are (the caller has checked the variant is RFC 9562's).
 */
void
uuidx_layout_v1_to_v6(const pg_uuid_t *in, pg_uuid_t *out)
{
	uuidx_layout_v6(out, uuidx_get_v1_ticks(in), in->data + 8, in->data + 10);
}

/*
 * The way back: a v6 timestamp reordered into v1.
 */
void
uuidx_layout_v6_to_v1(const pg_uuid_t *in, pg_uuid_t *out)
{
	uint64		ticks = uuidx_get_v6_ticks(in);

	memcpy(out->data + 8, in->data + 8, 8);
	uuidx_put_be(out->data, ticks & 0xFFFFFFFF, 4);
	uuidx_put_be(out->data + 4, (ticks >> 32) & 0xFFFF, 2);
	uuidx_put_be(out->data + 6, 0x1000 | ((ticks >> 48) & 0x0FFF), 2);
}
