/*-------------------------------------------------------------------------
 *
 * mask_v7.c
 *	  uuid_v7_mask(id, key) and uuid_v7_unmask(masked, key): a v7 shown as a
 *	  version 4 UUID that does not reveal its time, and the way back.
 *
 * A v7 holds 48 bits of time, the version, 12 + 62 other bits (counter and
 * random bits: different for every value) and the variant.  The mask keeps
 * those 74 bits, sets version 4, and XORs the time with 48 bits drawn from
 * SipHash-2-4 of the 74 bits under the key.  The result is a valid RFC
 * 9562 version 4 UUID; without the key its first 48 bits are a pad no one
 * can compute, so they say nothing of the time, and consecutive v7 values
 * give masks in no order.  Unmasking computes the same pad from the same
 * kept bits and XORs it away.  Nothing can tell a wrong key: it unmasks to
 * another v7.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "layout/layout.h"

#include "compat.h"
#include "fmgr.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_v7_mask);
PG_FUNCTION_INFO_V1(uuidx_v7_unmask);

#define UUIDX_MASK_KEY_LEN 16

/* The key's 16 bytes, or an error. */
static const uint8 *
mask_key(bytea *key)
{
	int			len = VARSIZE_ANY_EXHDR(key);

	if (len != UUIDX_MASK_KEY_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("mask key must be %d bytes long, got %d", UUIDX_MASK_KEY_LEN, len),
				 errhint("Draw the key once, for example as uuid_send(gen_random_uuid()), and keep it.")));
	return (const uint8 *) VARDATA_ANY(key);
}

/*
 * The UUID with its first 48 bits XORed with the pad the key draws from
 * its 74 kept bits, and the given version.
 */
static pg_uuid_t *
apply_pad(const pg_uuid_t *in, const uint8 *key, int version)
{
	pg_uuid_t  *out = palloc(sizeof(pg_uuid_t));
	uint8		kept[10];
	uint64		pad;

	/* the kept bits, with the version and variant bits left out */
	kept[0] = in->data[6] & 0x0F;
	kept[1] = in->data[7];
	kept[2] = in->data[8] & 0x3F;
	memcpy(&kept[3], &in->data[9], 7);
	pad = uuidx_siphash24(key, kept, sizeof(kept)) >> 16;

	*out = *in;
	for (int i = 5; i >= 0; i--)
	{
		out->data[i] ^= (uint8) pad;
		pad >>= 8;
	}
	uuidx_set_version_variant(out, version);
	return out;
}

/* An error for a UUID not of the version a function takes. */
static void
version_error(const pg_uuid_t *uuid, int expected)
{
	int			version = uuidx_get_version(uuid);
	char	   *text = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid)));

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("UUID %s is not of version %d", text, expected),
			 version < 0 ?
			 errdetail("It is of variant %d, which has no versions.", uuidx_get_variant(uuid)) :
			 errdetail("It is of version %d.", version)));
}

Datum
uuidx_v7_mask(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	const uint8 *key = mask_key(PG_GETARG_BYTEA_PP(1));

	if (uuidx_get_version(id) != 7)
		version_error(id, 7);
	PG_RETURN_UUID_P(apply_pad(id, key, 4));
}

Datum
uuidx_v7_unmask(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *masked = PG_GETARG_UUID_P(0);
	const uint8 *key = mask_key(PG_GETARG_BYTEA_PP(1));

	if (uuidx_get_version(masked) != 4)
		version_error(masked, 4);
	PG_RETURN_UUID_P(apply_pad(masked, key, 7));
}
