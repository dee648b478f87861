/*-------------------------------------------------------------------------
 *
 * siphash.c
 *	  SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input
 *	  PRF", 2012): a keyed pseudo-random function of a short message, with
 *	  a 128-bit key and a 64-bit result.  uuid_v7_mask() draws its pad from
 *	  it.  Written from the paper; the regression tests check it against the
 *	  paper's reference vectors.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "layout/layout.h"

#define ROTL(x, b) (uint64) (((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND(v0, v1, v2, v3) \
	do { \
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2; \
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0; \
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

/* Eight bytes as a little-endian number. */
static inline uint64
le64(const uint8 *p)
{
	uint64		v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * SipHash-2-4 of len bytes at m under a 16-byte key: two rounds per
 * message word, four to finish.
 */
uint64
uuidx_siphash24(const uint8 *key, const uint8 *m, size_t len)
{
	uint64		k0 = le64(key);
	uint64		k1 = le64(key + 8);
	uint64		v0 = k0 ^ UINT64CONST(0x736f6d6570736575);
	uint64		v1 = k1 ^ UINT64CONST(0x646f72616e646f6d);
	uint64		v2 = k0 ^ UINT64CONST(0x6c7967656e657261);
	uint64		v3 = k1 ^ UINT64CONST(0x7465646279746573);
	uint64		last = (uint64) len << 56;
	size_t		whole = len - len % 8;

	for (size_t i = 0; i < whole; i += 8)
	{
		uint64		w = le64(m + i);

		v3 ^= w;
		SIPROUND(v0, v1, v2, v3);
		SIPROUND(v0, v1, v2, v3);
		v0 ^= w;
	}

	/* The last word: the remaining bytes, and the length in its top byte. */
	for (size_t i = whole; i < len; i++)
		last |= (uint64) m[i] << (8 * (i - whole));
	v3 ^= last;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= last;

	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}
