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
 * takes either case; the letters I, L, O and U are not in the alphabet.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "compat.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_to_ulid);
PG_FUNCTION_INFO_V1(uuidx_ulid_to_uuid);

#define ULID_LEN 26

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* The value of a character of the alphabet, either case; -1 otherwise. */
static int
crockford_value(char c)
{
	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	for (int i = 0; i < 32; i++)
		if (crockford[i] == c)
			return i;
	return -1;
}

Datum
uuidx_to_ulid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	char		text[ULID_LEN + 1];

	/* 5 bits per character; the first one's top 2 bits lie before bit 0 */
	for (int c = 0; c < ULID_LEN; c++)
	{
		int			first = 128 - 5 * (ULID_LEN - c);	/* its first bit, from the top */
		int			value = 0;

		for (int pos = first; pos < first + 5; pos++)
		{
			value <<= 1;
			if (pos >= 0 && (uuid->data[pos / 8] & (0x80 >> (pos % 8))))
				value |= 1;
		}
		text[c] = crockford[value];
	}
	text[ULID_LEN] = '\0';
	PG_RETURN_TEXT_P(cstring_to_text(text));
}

Datum
uuidx_ulid_to_uuid(PG_FUNCTION_ARGS)
{
	text	   *ulid = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(ulid);
	int			len = VARSIZE_ANY_EXHDR(ulid);
	int			chars = pg_mbstrlen_with_len(s, len);
	pg_uuid_t  *uuid;

	if (chars != ULID_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
				 errdetail("A ULID is 26 characters long, not %d.", chars)));

	uuid = palloc0(sizeof(pg_uuid_t));
	for (int c = 0, at = 0; c < ULID_LEN; c++, at += pg_mblen(s + at))
	{
		int			value = pg_mblen(s + at) == 1 ? crockford_value(s[at]) : -1;
		int			first = 128 - 5 * (ULID_LEN - c);

		if (value < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
					 errdetail("Character %d is not in the ULID alphabet (Crockford's base32, without I, L, O and U).",
							   c + 1)));
		if (c == 0 && value > 7)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
					 errdetail("Its first character is above 7: it would not fit in 128 bits.")));
		for (int pos = first + 4; pos >= first && pos >= 0; pos--, value >>= 1)
			if (value & 1)
				uuid->data[pos / 8] |= 0x80 >> (pos % 8);
	}
	PG_RETURN_UUID_P(uuid);
}
