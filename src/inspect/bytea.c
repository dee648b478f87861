/*-------------------------------------------------------------------------
 *
 * bytea.c
 *	  uuidx_uuid_to_bytea(uuid) and uuidx_bytea_to_uuid(bytea): PostgreSQL
 *	  19's explicit casts between uuid and bytea, with its semantics and
 *	  errors, for 15 to 18.
 *
 * On a major whose initdb has them, uuidx's script creates these functions
 * but not the casts, and core's serve.  A database that pg_upgrade carries
 * from 18 (uuidx's casts) to 19 (core's) would then fail: the schema dump
 * of a binary upgrade holds every member of an extension, and its
 * "CREATE CAST (uuid AS bytea)" finds core's.  So on such a major, during
 * a binary upgrade only, uuidx's library (loaded by then: it was
 * preloaded, and the dump created the functions the casts name) leaves out
 * the dump's CREATE CAST of a pair core already has, and the "ALTER
 * EXTENSION uuidx ADD CAST" that follows it, which would otherwise make
 * core's cast a member of uuidx, dropped with it.  Views that used uuidx's
 * casts are restored from their text ("id::bytea") onto core's.
 *
 *-------------------------------------------------------------------------
 */
#include "inspect/inspect.h"

#include "access/htup_details.h"
#include "catalog/pg_cast.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "compat.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parse_func.h"
#include "parser/parse_type.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(uuidx_uuid_to_bytea);
PG_FUNCTION_INFO_V1(uuidx_bytea_to_uuid);

Datum
uuidx_uuid_to_bytea(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	bytea	   *out = palloc(VARHDRSZ + UUID_LEN);

	SET_VARSIZE(out, VARHDRSZ + UUID_LEN);
	memcpy(VARDATA(out), uuid->data, UUID_LEN);
	PG_RETURN_BYTEA_P(out);
}

Datum
uuidx_bytea_to_uuid(PG_FUNCTION_ARGS)
{
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	pg_uuid_t  *uuid;

	/* 19's error, word for word */
	if (VARSIZE_ANY_EXHDR(in) != UUID_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid input length for type %s", "uuid"),
				 errdetail("Expected %d bytes, got %d.", UUID_LEN,
						   (int) VARSIZE_ANY_EXHDR(in))));
	uuid = palloc(sizeof(pg_uuid_t));
	memcpy(uuid->data, VARDATA_ANY(in), UUID_LEN);
	PG_RETURN_UUID_P(uuid);
}

#ifdef UUIDX_CORE_HAS_BYTEA_CASTS

static ProcessUtility_hook_type prev_process_utility = NULL;

/*
 * Whether source to target is uuid to bytea or back, and core's cast, made
 * by initdb, is in the catalog.
 */
static bool
core_has_cast(Oid source, Oid target)
{
	HeapTuple	tuple;
	bool		core;

	if (!((source == UUIDOID && target == BYTEAOID) ||
		  (source == BYTEAOID && target == UUIDOID)))
		return false;
	tuple = SearchSysCache2(CASTSOURCETARGET, ObjectIdGetDatum(source),
							ObjectIdGetDatum(target));
	if (!HeapTupleIsValid(tuple))
		return false;
	core = ((Form_pg_cast) GETSTRUCT(tuple))->oid < FirstNormalObjectId;
	ReleaseSysCache(tuple);
	return core;
}

/*
 * Whether the dump's statement is one of uuidx's casts that core has; then
 * *source and *target are its types.
 */
static bool
uuidx_cast_core_has(Node *stmt, Oid *source, Oid *target)
{
	Oid			uuidx = get_extension_oid("uuidx", true);

	if (!OidIsValid(uuidx))
		return false;
	if (IsA(stmt, CreateCastStmt))
	{
		CreateCastStmt *cast = (CreateCastStmt *) stmt;
		Oid			func;

		if (cast->func == NULL)
			return false;
		*source = typenameTypeId(NULL, cast->sourcetype);
		*target = typenameTypeId(NULL, cast->targettype);
		if (!core_has_cast(*source, *target))
			return false;
		func = LookupFuncWithArgs(OBJECT_FUNCTION, cast->func, true);
		return OidIsValid(func) &&
			getExtensionOfObject(ProcedureRelationId, func) == uuidx;
	}
	if (IsA(stmt, AlterExtensionContentsStmt))
	{
		AlterExtensionContentsStmt *add = (AlterExtensionContentsStmt *) stmt;
		List	   *types;

		if (add->action <= 0 || add->objtype != OBJECT_CAST ||
			strcmp(add->extname, "uuidx") != 0)
			return false;
		types = castNode(List, add->object);
		*source = typenameTypeId(NULL, linitial_node(TypeName, types));
		*target = typenameTypeId(NULL, lsecond_node(TypeName, types));
		return core_has_cast(*source, *target);
	}
	return false;
}

static void
uuidx_process_utility(PlannedStmt *pstmt, const char *queryString,
					  bool readOnlyTree, ProcessUtilityContext context,
					  ParamListInfo params, QueryEnvironment *queryEnv,
					  DestReceiver *dest, QueryCompletion *qc)
{
	Oid			source,
				target;

	if (IsBinaryUpgrade &&
		uuidx_cast_core_has(pstmt->utilityStmt, &source, &target))
	{
		/* (in the server's log: the dump's session hides notices) */
		ereport(LOG,
				(errmsg("uuidx's cast from %s to %s is left out: this server's own serves",
						format_type_be(source), format_type_be(target))));
		return;
	}
	if (prev_process_utility)
		prev_process_utility(pstmt, queryString, readOnlyTree, context,
							 params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
}
#endif

void
uuidx_inspect_init(void)
{
#ifdef UUIDX_CORE_HAS_BYTEA_CASTS
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = uuidx_process_utility;
#endif
}
