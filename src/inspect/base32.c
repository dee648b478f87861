/*-------------------------------------------------------------------------
 *
 * base32.c
 *	  A UUID's 128 bits as 26 characters of 5 bits, and back, for the text
 *	  forms that use them: ULID and TypeID (ulid.c, typeid.c: Crockford's
 *	  alphabet, the two spare bits of the 130 in front, so the first
 *	  character is at most 7) and base32hex (here: RFC 4648's "extended
 *	  hex" alphabet, 0-9 then A-V, the spare bits at the end, as
 *	  PostgreSQL 19's encode(id::bytea, 'base32hex') writes them before its
 *	  padding).  Both alphabets are in ASCII order, so under COLLATE "C"
 *	  the texts of one case sort as the UUIDs do.
 *
 *	  uuid_to_base32hex(uuid) and base32hex_to_uuid(text) are here.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "layout/layout.h"

#include "compat.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_to_base32hex);
PG_FUNCTION_INFO_V1(uuidx_base32hex_to_uuid);

static const char base32hex[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

/* base32hex's values, either case, as 19's decode() reads them */
static int8 base32hex_values[256];
static bool base32hex_values_filled = false;

/*
 * Fills values[] with each character of the 32-character alphabet's value
 * (and, where either_case, its lower case's too); -1 for every other byte.
 */
void
uuidx_base32_values(int8 *values, const char *alphabet, bool either_case)
{
	memset(values, -1, 256);
	for (int i = 0; i < 32; i++)
	{
		values[(unsigned char) alphabet[i]] = i;
		if (either_case)
			values[(unsigned char) pg_ascii_tolower(alphabet[i])] = i;
	}
}

/*
 * The 26 characters of uuid in alphabet, and a terminating zero, at out.
 * With spare_front the 130 bits are the UUID's with two zero bits above
 * (ULID), otherwise with two zero bits below (base32hex).
 */
void
uuidx_base32_encode(const pg_uuid_t *uuid, const char *alphabet,
					bool spare_front, char *out)
{
	uint64		hi = uuidx_get_be(uuid->data, 8);
	uint64		lo = uuidx_get_be(uuid->data + 8, 8);

	/*
	 * Character c holds the 5 bits that lie 5 * (25 - c) bits above the
	 * lowest of the 130, that is this many above the UUID's lowest, less 2
	 * where the spare bits are below.
	 */
	for (int c = 0; c < UUIDX_BASE32_LEN; c++)
	{
		int			shift = 5 * (UUIDX_BASE32_LEN - 1 - c) - (spare_front ? 0 : 2);
		uint64		bits;

		if (shift >= 64)
			bits = hi >> (shift - 64);
		else if (shift > 0)
			bits = (lo >> shift) | (hi << (64 - shift));
		else
			bits = lo << -shift;
		out[c] = alphabet[bits & 31];
	}
	out[UUIDX_BASE32_LEN] = '\0';
}

/*
 * Reads 26 characters at s, each's value in values[], into *uuid.  Returns
 * 0, or the position (from 1) of the first character that is not in the
 * alphabet, or -1 where the spare bits are not zero: with spare_front the
 * first character is above 7; otherwise the last one's low two bits are
 * set.
 */
int
uuidx_base32_decode(const char *s, const int8 *values, bool spare_front,
					pg_uuid_t *uuid)
{
	uint64		hi = 0,
				lo = 0;

	for (int c = 0; c < UUIDX_BASE32_LEN; c++)
	{
		int			value = values[(unsigned char) s[c]];
		int			width = 5;

		if (value < 0)
			return c + 1;
		if (c == 0 && spare_front && value > 7)
			return -1;
		if (c == UUIDX_BASE32_LEN - 1 && !spare_front)
		{
			if (value & 3)
				return -1;
			value >>= 2;
			width = 3;
		}
		hi = (hi << width) | (lo >> (64 - width));
		lo = (lo << width) | value;
	}
	uuidx_put_be(uuid->data, hi, 8);
	uuidx_put_be(uuid->data + 8, lo, 8);
	return 0;
}

Datum
uuidx_to_base32hex(PG_FUNCTION_ARGS)
{
	char		out[UUIDX_BASE32_LEN + 1];

	uuidx_base32_encode(PG_GETARG_UUID_P(0), base32hex, false, out);
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

/*
 * 26 characters of base32hex, either case, or the 32 that encode() writes,
 * ending in its padding "======"; the last character's spare bits zero, so
 * that no two texts but for their case read as one UUID.
 */
Datum
uuidx_base32hex_to_uuid(PG_FUNCTION_ARGS)
{
	text	   *in = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(in);
	int			len = VARSIZE_ANY_EXHDR(in);
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int			chars;
	int			fault;

	if (!base32hex_values_filled)
	{
		uuidx_base32_values(base32hex_values, base32hex, true);
		base32hex_values_filled = true;
	}

	/*
	 * 26 characters, or 32 ending in the padding; counted only where the
	 * bytes are not so (a character not ASCII is refused below).
	 */
	if (len == UUIDX_BASE32_LEN ||
		(len == UUIDX_BASE32_LEN + 6 && memcmp(s + UUIDX_BASE32_LEN, "======", 6) == 0))
		chars = len;
	else
		chars = pg_mbstrlen_with_len(s, len);
	if (chars == UUIDX_BASE32_LEN + 6 && memcmp(s + len - 6, "======", 6) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid base32hex UUID: \"%s\"", text_to_cstring(in)),
				 errdetail("Its last 6 characters are not the padding \"======\".")));
	/* (then s holds at least 26 bytes) */
	if (chars != UUIDX_BASE32_LEN && chars != UUIDX_BASE32_LEN + 6)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid base32hex UUID: \"%s\"", text_to_cstring(in)),
				 errdetail("A UUID in base32hex is 26 characters long, or 32 ending in \"======\", not %d.",
						   chars)));
	fault = uuidx_base32_decode(s, base32hex_values, false, uuid);
	if (fault > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid base32hex UUID: \"%s\"", text_to_cstring(in)),
				 errdetail("Character %d is not in the base32hex alphabet, 0-9 and A-V in either case.",
						   pg_mbstrlen_with_len(s, fault - 1) + 1)));
	if (fault < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid base32hex UUID: \"%s\"", text_to_cstring(in)),
				 errdetail("Its last character, \"%c\", sets bits past the 128 of a UUID.",
						   s[UUIDX_BASE32_LEN - 1]),
				 errhint("The last character of a UUID's base32hex is one of 0, 4, 8, C, G, K, O and S.")));
	PG_RETURN_UUID_P(uuid);
}
