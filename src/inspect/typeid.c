/*-------------------------------------------------------------------------
 *
 * typeid.c
 *	  TypeID text (spec v0.3.0, github.com/jetify-com/typeid): a type's
 *	  prefix, "_", then the UUID's 128 bits as 26 characters of lower-case
 *	  Crockford base32 with two zero bits in front (so the first is at most
 *	  7), as "user_01h455vb4pex5vsknk084sn02q"; without a prefix, the 26
 *	  characters alone.  A prefix is at most 63 characters of a-z and "_",
 *	  its first and last a letter; the last "_" of a TypeID separates it.
 *
 *	  uuid_to_typeid(prefix, uuid), typeid_to_uuid(typeid [, prefix]) and
 *	  typeid_prefix(typeid).  Unlike ulid_to_uuid() these are as strict as
 *	  the spec: lower case only, no aliases (i, l, o), no hyphens.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "compat.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_to_typeid);
PG_FUNCTION_INFO_V1(uuidx_typeid_to_uuid);
PG_FUNCTION_INFO_V1(uuidx_typeid_to_uuid_text);
PG_FUNCTION_INFO_V1(uuidx_typeid_prefix);

#define TYPEID_PREFIX_MAX 63

static const char typeid_alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";

/* its characters' values, lower case only; -1 for every other byte */
static int8 typeid_values[256];
static bool typeid_values_filled = false;

/* A TypeID's parts: its prefix (len bytes, 0 for none) and its UUID. */
typedef struct TypeId
{
	const char *prefix;
	int			prefix_len;
	pg_uuid_t  *uuid;			/* palloc'd */
} TypeId;

/* The position (from 1) of the character at byte `at` of s. */
static int
char_at(const char *s, int at)
{
	return pg_mbstrlen_with_len(s, at) + 1;
}

/* The rules a TypeID or its prefix can break. */
typedef enum TypeIdFault
{
	TYPEID_OK,
	TYPEID_PREFIX_LONG,			/* arg: its characters */
	TYPEID_PREFIX_CHARACTER,	/* arg: the character's position */
	TYPEID_PREFIX_START,
	TYPEID_PREFIX_END,
	TYPEID_EMPTY_PREFIX,
	TYPEID_LENGTH,				/* arg: the characters of a TypeID without
								 * prefix */
	TYPEID_SUFFIX_LENGTH,		/* arg: the suffix's characters */
	TYPEID_SUFFIX_CHARACTER,	/* arg: the character's position in the suffix */
	TYPEID_SUFFIX_OVERFLOW		/* arg: the suffix's first character */
}			TypeIdFault;

/*
 * The rule the len bytes at p break as a TypeID prefix (none, where len is
 * 0), and *arg for its detail; TYPEID_OK if none.
 */
static TypeIdFault
prefix_fault(const char *p, int len, int *arg)
{
	/* (characters are counted only for an error: no more than bytes) */
	if (len > TYPEID_PREFIX_MAX && (*arg = pg_mbstrlen_with_len(p, len)) > TYPEID_PREFIX_MAX)
		return TYPEID_PREFIX_LONG;
	for (int at = 0; at < len; at++)
		if (!(p[at] >= 'a' && p[at] <= 'z') && p[at] != '_')
		{
			*arg = char_at(p, at);
			return TYPEID_PREFIX_CHARACTER;
		}
	if (len > 0 && p[0] == '_')
		return TYPEID_PREFIX_START;
	if (len > 0 && p[len - 1] == '_')
		return TYPEID_PREFIX_END;
	return TYPEID_OK;
}

/* The detail of an error, for the rule broken (inside an ereport()). */
static int
typeid_errdetail(TypeIdFault fault, int arg)
{
	switch (fault)
	{
		case TYPEID_PREFIX_LONG:
			return errdetail("A prefix is at most %d characters long, not %d.",
							 TYPEID_PREFIX_MAX, arg);
		case TYPEID_PREFIX_CHARACTER:
			return errdetail("Character %d of the prefix is not a lower-case letter a-z or \"_\".", arg);
		case TYPEID_PREFIX_START:
			return errdetail("A prefix starts with a letter, not \"_\".");
		case TYPEID_PREFIX_END:
			return errdetail("A prefix ends with a letter, not \"_\".");
		case TYPEID_EMPTY_PREFIX:
			return errdetail("It has a separator \"_\" but no prefix before it.");
		case TYPEID_LENGTH:
			return errdetail("A TypeID without a prefix is %d characters long, not %d.",
							 UUIDX_BASE32_LEN, arg);
		case TYPEID_SUFFIX_LENGTH:
			return errdetail("Its suffix, after the last \"_\", is %d characters long, not %d.",
							 arg, UUIDX_BASE32_LEN);
		case TYPEID_SUFFIX_CHARACTER:
			return errdetail("Character %d of its suffix is not in TypeID's alphabet: 0-9 and a-z without i, l, o and u, in lower case.",
							 arg);
		case TYPEID_SUFFIX_OVERFLOW:
			return errdetail("Its suffix starts with \"%c\", above 7: it would not fit in 128 bits.",
							 arg);
		case TYPEID_OK:
			break;
	}
	return 0;
}

/* A prefix given as an argument: an error where it breaks a rule. */
static void
check_prefix_argument(text *prefix)
{
	int			arg;
	TypeIdFault fault = prefix_fault(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix), &arg);

	if (fault != TYPEID_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid TypeID prefix: \"%s\"", text_to_cstring(prefix)),
				 typeid_errdetail(fault, arg)));
}

/* Reads the TypeID in, or raises an error that says which rule it breaks. */
static void
read_typeid(text *in, TypeId *id)
{
	const char *s = VARDATA_ANY(in);
	int			len = VARSIZE_ANY_EXHDR(in);
	const char *sep = NULL;
	const char *suffix;
	int			suffix_len;
	TypeIdFault fault = TYPEID_OK;
	int			arg = 0;
	int			at;

	/* the last "_" (a byte of a multibyte character is never ASCII) */
	for (at = len - 1; at >= 0 && sep == NULL; at--)
		if (s[at] == '_')
			sep = s + at;
	suffix = sep ? sep + 1 : s;
	suffix_len = len - (suffix - s);

	if (!typeid_values_filled)
	{
		uuidx_base32_values(typeid_values, typeid_alphabet, false);
		typeid_values_filled = true;
	}
	id->prefix = s;
	id->prefix_len = sep ? sep - s : 0;
	id->uuid = palloc(sizeof(pg_uuid_t));

	if (sep == s)
		fault = TYPEID_EMPTY_PREFIX;
	else if (id->prefix_len > 0)
		fault = prefix_fault(s, id->prefix_len, &arg);
	/* (26 bytes not all ASCII are refused below, by character) */
	if (fault == TYPEID_OK && suffix_len != UUIDX_BASE32_LEN &&
		(arg = pg_mbstrlen_with_len(suffix, suffix_len)) != UUIDX_BASE32_LEN)
		fault = sep ? TYPEID_SUFFIX_LENGTH : TYPEID_LENGTH;
	/* (now the suffix holds at least 26 bytes) */
	if (fault == TYPEID_OK &&
		(at = uuidx_base32_decode(suffix, typeid_values, true, id->uuid)) != 0)
	{
		fault = at > 0 ? TYPEID_SUFFIX_CHARACTER : TYPEID_SUFFIX_OVERFLOW;
		arg = at > 0 ? char_at(suffix, at - 1) : (unsigned char) suffix[0];
	}
	if (fault != TYPEID_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid TypeID: \"%s\"", text_to_cstring(in)),
				 typeid_errdetail(fault, arg)));
}

Datum
uuidx_to_typeid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);
	int			prefix_len = VARSIZE_ANY_EXHDR(prefix);
	text	   *out;
	char	   *p;

	check_prefix_argument(prefix);
	out = palloc(VARHDRSZ + prefix_len + 1 + UUIDX_BASE32_LEN + 1);
	p = VARDATA(out);
	if (prefix_len > 0)
	{
		memcpy(p, VARDATA_ANY(prefix), prefix_len);
		p += prefix_len;
		*p++ = '_';
	}
	/* (its terminating zero lies past the text) */
	uuidx_base32_encode(PG_GETARG_UUID_P(1), typeid_alphabet, true, p);
	SET_VARSIZE(out, p + UUIDX_BASE32_LEN - (char *) out);
	PG_RETURN_TEXT_P(out);
}

Datum
uuidx_typeid_to_uuid(PG_FUNCTION_ARGS)
{
	TypeId		id;

	read_typeid(PG_GETARG_TEXT_PP(0), &id);
	PG_RETURN_UUID_P(id.uuid);
}

/* The same, checking that the TypeID has the prefix expected. */
Datum
uuidx_typeid_to_uuid_text(PG_FUNCTION_ARGS)
{
	text	   *in = PG_GETARG_TEXT_PP(0);
	text	   *expected = PG_GETARG_TEXT_PP(1);
	TypeId		id;

	check_prefix_argument(expected);
	read_typeid(in, &id);
	if (id.prefix_len != (int) VARSIZE_ANY_EXHDR(expected) ||
		memcmp(id.prefix, VARDATA_ANY(expected), id.prefix_len) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 VARSIZE_ANY_EXHDR(expected) > 0 ?
				 errmsg("TypeID \"%s\" does not have the prefix \"%s\"",
						text_to_cstring(in), text_to_cstring(expected)) :
				 errmsg("TypeID \"%s\" has a prefix where none is expected",
						text_to_cstring(in)),
				 id.prefix_len > 0 ?
				 errdetail("Its prefix is \"%.*s\".", id.prefix_len, id.prefix) :
				 errdetail("It has no prefix.")));
	PG_RETURN_UUID_P(id.uuid);
}

Datum
uuidx_typeid_prefix(PG_FUNCTION_ARGS)
{
	TypeId		id;

	read_typeid(PG_GETARG_TEXT_PP(0), &id);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(id.prefix, id.prefix_len));
}
