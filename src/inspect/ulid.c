/*-------------------------------------------------------------------------
 *
 * ulid.c
 *	  uuid_to_ulid(uuid) and ulid_to_uuid(text): the 128 bits of a UUID as
 *	  ULID text, 26 characters of Crockford's base32, and back.
 *
 * A ULID is a 48-bit millisecond time followed by 80 bits, the same 128
 * bits a v7 holds in the same order; so a v7 written as ULID text is a
 * ULID whose time any ULID library reads, and the bytes are kept both
 * ways, for any UUID.  26 characters of 5 bits are 130 bits: the first
 * character carries the top 3 bits only, so it is at most 7.  Decoding
 * takes either case and, as Crockford's base32 decodes, reads I and L as 1
 * and O as 0 (the ULID specification names Crockford's base32, and its
 * reference implementation's fixULIDBase32() does the same); U is not a
 * character of it.  Encoding writes the alphabet in upper case only.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "layout/layout.h"

#include "compat.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_to_ulid);
PG_FUNCTION_INFO_V1(uuidx_ulid_to_uuid);

#define ULID_LEN 26

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/*
 * The value of each byte that is a character of the alphabet or one of
 * Crockford's aliases, either case; -1 for every other byte (a byte of a
 * multibyte character is never ASCII).
 */
static int8 crockford_values[256];
static bool crockford_values_filled = false;

static void
fill_crockford_values(void)
{
	memset(crockford_values, -1, sizeof(crockford_values));
	for (int i = 0; i < 32; i++)
	{
		crockford_values[(unsigned char) crockford[i]] = i;
		crockford_values[(unsigned char) pg_ascii_tolower(crockford[i])] = i;
	}
	crockford_values['I'] = crockford_values['i'] = 1;
	crockford_values['L'] = crockford_values['l'] = 1;
	crockford_values['O'] = crockford_values['o'] = 0;
	crockford_values_filled = true;
}

Datum
uuidx_to_ulid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	char		out[ULID_LEN + 1];
	uint64		hi,
				lo;

	/*
	 * Character c holds the 5 bits that lie 5 * (25 - c) bits above the
	 * lowest; the first one's top 2 bits lie above the 128.
	 */
	hi = uuidx_get_be(uuid->data, 8);
	lo = uuidx_get_be(uuid->data + 8, 8);
	for (int c = 0; c < ULID_LEN; c++)
	{
		int			shift = 5 * (ULID_LEN - 1 - c);
		uint64		bits;

		if (shift >= 64)
			bits = hi >> (shift - 64);
		else if (shift == 0)
			bits = lo;
		else
			bits = (lo >> shift) | (hi << (64 - shift));
		out[c] = crockford[bits & 31];
	}
	out[ULID_LEN] = '\0';
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

Datum
uuidx_ulid_to_uuid(PG_FUNCTION_ARGS)
{
	text	   *ulid = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(ulid);
	int			len = VARSIZE_ANY_EXHDR(ulid);
	uint64		hi = 0,
				lo = 0;
	pg_uuid_t  *uuid;
	int			chars;

	if (!crockford_values_filled)
		fill_crockford_values();

	/* 26 bytes of the alphabet, the first at most 7: 5 bits each */
	if (len == ULID_LEN && crockford_values[(unsigned char) s[0]] >= 0 &&
		crockford_values[(unsigned char) s[0]] <= 7)
	{
		int			c;

		for (c = 0; c < ULID_LEN; c++)
		{
			int			value = crockford_values[(unsigned char) s[c]];

			if (value < 0)
				break;
			hi = (hi << 5) | (lo >> 59);
			lo = (lo << 5) | value;
		}
		if (c == ULID_LEN)
		{
			uuid = palloc(sizeof(pg_uuid_t));
			uuidx_put_be(uuid->data, hi, 8);
			uuidx_put_be(uuid->data + 8, lo, 8);
			PG_RETURN_UUID_P(uuid);
		}
	}

	/* Not a ULID: say which rule it breaks, counting characters. */
	chars = pg_mbstrlen_with_len(s, len);
	if (chars != ULID_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
				 errdetail("A ULID is 26 characters long, not %d.", chars)));
	for (int c = 0, at = 0; c < ULID_LEN; c++, at += pg_mblen(s + at))
	{
		int			value = pg_mblen(s + at) == 1 ? crockford_values[(unsigned char) s[at]] : -1;

		if (value < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
					 errdetail("Character %d is not in the ULID alphabet: Crockford's base32, 0-9 and A-Z without U (I and L read as 1, O as 0).",
							   c + 1)));
		if (c == 0 && value > 7)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
					 errdetail("Its first character is above 7: it would not fit in 128 bits.")));
	}
	pg_unreachable();
}
