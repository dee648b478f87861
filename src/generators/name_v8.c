/*-------------------------------------------------------------------------
 *
 * name_v8.c
 *	  Name-based UUIDv8 with SHA-2, through PostgreSQL's cryptohash API.
 *
 * Two forms:
 *	  - RFC 9562 Appendix B.2: SHA-256 over namespace || name;
 *	  - rfc4122bis-12 hashspaces: hash over hashspace || namespace || name,
 *		the hash function being the one the hashspace id names.
 * The first 128 bits of the digest are kept, then version 8 and the RFC
 * 9562 variant are written over their bits.  A text name is hashed as its
 * UTF-8 bytes, whatever the database encoding, so a name gives the same
 * UUID in every database and in other systems.
 *
 *-------------------------------------------------------------------------
 */
#include "generators/generators.h"

#include "layout/layout.h"

#include "compat.h"
#include "common/cryptohash.h"
#include "common/sha2.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uuidx_generate_v8_name_text);
PG_FUNCTION_INFO_V1(uuidx_generate_v8_name_bytea);
PG_FUNCTION_INFO_V1(uuidx_generate_v8_name_uuid_text);
PG_FUNCTION_INFO_V1(uuidx_generate_v8_name_uuid_bytea);

typedef struct Hashspace
{
	uint8		id[16];
	pg_cryptohash_type type;
} Hashspace;

/* The rfc4122bis-12 hashspace ids whose hash PostgreSQL provides. */
static const Hashspace hashspaces[] = {
	/* SHA2_224 59031ca3-fbdb-47fb-9f6c-0f30e2e83145 */
	{{0x59, 0x03, 0x1c, 0xa3, 0xfb, 0xdb, 0x47, 0xfb, 0x9f, 0x6c, 0x0f, 0x30, 0xe2, 0xe8, 0x31, 0x45}, PG_SHA224},
	/* SHA2_256 3fb32780-953c-4464-9cfd-e85dbbe9843d */
	{{0x3f, 0xb3, 0x27, 0x80, 0x95, 0x3c, 0x44, 0x64, 0x9c, 0xfd, 0xe8, 0x5d, 0xbb, 0xe9, 0x84, 0x3d}, PG_SHA256},
	/* SHA2_384 e6800581-f333-484b-8778-601ff2b58da8 */
	{{0xe6, 0x80, 0x05, 0x81, 0xf3, 0x33, 0x48, 0x4b, 0x87, 0x78, 0x60, 0x1f, 0xf2, 0xb5, 0x8d, 0xa8}, PG_SHA384},
	/* SHA2_512 0fde22f2-e7ba-4fd1-9753-9c2ea88fa3f9 */
	{{0x0f, 0xde, 0x22, 0xf2, 0xe7, 0xba, 0x4f, 0xd1, 0x97, 0x53, 0x9c, 0x2e, 0xa8, 0x8f, 0xa3, 0xf9}, PG_SHA512},
};

/*
 * Hash the pieces in order with the given function and shape the first
 * 16 bytes of the digest into a v8.
 */
static pg_uuid_t *
hash_to_v8(pg_cryptohash_type type, const void *const *pieces,
		   const size_t *lengths, int npieces)
{
	uint8		digest[PG_SHA512_DIGEST_LENGTH];
	pg_cryptohash_ctx *ctx = pg_cryptohash_create(type);
	pg_uuid_t  *uuid;

	if (ctx == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	if (pg_cryptohash_init(ctx) < 0)
		goto fail;
	for (int i = 0; i < npieces; i++)
		if (pg_cryptohash_update(ctx, pieces[i], lengths[i]) < 0)
			goto fail;
	if (pg_cryptohash_final(ctx, digest, sizeof(digest)) < 0)
		goto fail;
	pg_cryptohash_free(ctx);

	uuid = palloc(sizeof(pg_uuid_t));
	memcpy(uuid->data, digest, sizeof(uuid->data));
	uuidx_set_version_variant(uuid, 8);
	return uuid;

fail:
	{
		const char *detail = pg_cryptohash_error(ctx);

		pg_cryptohash_free(ctx);
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute the hash of a name-based UUIDv8: %s",
						detail)));
	}
	return NULL;				/* not reached */
}

static pg_uuid_t *
name_v8(pg_uuid_t *ns, const char *name, size_t len)
{
	const void *pieces[2] = {ns->data, name};
	size_t		lengths[2] = {sizeof(ns->data), len};

	return hash_to_v8(PG_SHA256, pieces, lengths, 2);
}

static pg_uuid_t *
hashspace_v8(pg_uuid_t *hashspace, pg_uuid_t *ns, const char *name, size_t len)
{
	const void *pieces[3] = {hashspace->data, ns->data, name};
	size_t		lengths[3] = {sizeof(hashspace->data), sizeof(ns->data), len};

	for (size_t i = 0; i < lengthof(hashspaces); i++)
		if (memcmp(hashspaces[i].id, hashspace->data, 16) == 0)
			return hash_to_v8(hashspaces[i].type, pieces, lengths, 3);

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unsupported hashspace %s",
					DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(hashspace)))),
			 errdetail("The supported hashspaces are those of SHA2_224, SHA2_256, SHA2_384 and SHA2_512 in rfc4122bis-12.")));
	return NULL;				/* not reached */
}

/*
 * The UTF-8 bytes of a text name; *len is set to their count.
 *
 * A SQL_ASCII database gives text no encoding, so its bytes are hashed as
 * they are if they are valid UTF-8, and are an error otherwise: hashing
 * them as some other encoding would give a UUID no other database derives
 * from the same name.
 */
static const char *
utf8_name(text *name, size_t *len)
{
	int			in_len = VARSIZE_ANY_EXHDR(name);
	const char *utf8;

	if (GetDatabaseEncoding() == PG_SQL_ASCII &&
		!pg_verify_mbstr(PG_UTF8, VARDATA_ANY(name), in_len, true))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("name is not valid UTF-8"),
				 errdetail("The database encoding is SQL_ASCII, and the name's %d bytes are not valid UTF-8.",
						   in_len),
				 errhint("Pass the name's UTF-8 bytes as bytea.")));
	utf8 = pg_server_to_any(VARDATA_ANY(name), in_len, PG_UTF8);

	*len = (utf8 == VARDATA_ANY(name)) ? (size_t) in_len : strlen(utf8);
	return utf8;
}

Datum
uuidx_generate_v8_name_text(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *name = utf8_name(PG_GETARG_TEXT_PP(1), &len);

	PG_RETURN_UUID_P(name_v8(PG_GETARG_UUID_P(0), name, len));
}

Datum
uuidx_generate_v8_name_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *name = PG_GETARG_BYTEA_PP(1);

	PG_RETURN_UUID_P(name_v8(PG_GETARG_UUID_P(0),
							 VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)));
}

Datum
uuidx_generate_v8_name_uuid_text(PG_FUNCTION_ARGS)
{
	size_t		len;
	const char *name = utf8_name(PG_GETARG_TEXT_PP(2), &len);

	PG_RETURN_UUID_P(hashspace_v8(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1), name, len));
}

Datum
uuidx_generate_v8_name_uuid_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *name = PG_GETARG_BYTEA_PP(2);

	PG_RETURN_UUID_P(hashspace_v8(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1),
								  VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)));
}
