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

#include "compat.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_to_ulid);
PG_FUNCTION_INFO_V1(uuidx_ulid_to_uuid);

#define ULID_LEN UUIDX_BASE32_LEN

/* (typeid.c writes the same alphabet in lower case) */
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
	uuidx_base32_values(crockford_values, crockford, true);
	crockford_values['I'] = crockford_values['i'] = 1;
	crockford_values['L'] = crockford_values['l'] = 1;
	crockford_values['O'] = crockford_values['o'] = 0;
	crockford_values_filled = true;
}

Datum
uuidx_to_ulid(PG_FUNCTION_ARGS)
{
	char		out[ULID_LEN + 1];

	uuidx_base32_encode(PG_GETARG_UUID_P(0), crockford, true, out);
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

Datum
uuidx_ulid_to_uuid(PG_FUNCTION_ARGS)
{
	text	   *ulid = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(ulid);
	int			len = VARSIZE_ANY_EXHDR(ulid);
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int			chars;
	int			fault = 0;

	if (!crockford_values_filled)
		fill_crockford_values();

	/* 26 bytes of the alphabet, the first at most 7: 5 bits each */
	if (len == ULID_LEN && (fault = uuidx_base32_decode(s, crockford_values, true, uuid)) == 0)
		PG_RETURN_UUID_P(uuid);

	/*
	 * Not a ULID: say which rule it breaks, counting characters.  26 of them
	 * in more bytes hold one that is not ASCII, which the decoding of the
	 * first 26 bytes meets no later than any other fault.
	 */
	chars = len == ULID_LEN ? ULID_LEN : pg_mbstrlen_with_len(s, len);
	if (chars != ULID_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
				 errdetail("A ULID is 26 characters long, not %d.", chars)));
	if (len != ULID_LEN)
		fault = uuidx_base32_decode(s, crockford_values, true, uuid);
	if (fault > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
				 errdetail("Character %d is not in the ULID alphabet: Crockford's base32, 0-9 and A-Z without U (I and L read as 1, O as 0).",
						   pg_mbstrlen_with_len(s, fault - 1) + 1)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid ULID: \"%s\"", text_to_cstring(ulid)),
			 errdetail("Its first character is above 7: it would not fit in 128 bits.")));
	pg_unreachable();
}
