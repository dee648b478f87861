/*-------------------------------------------------------------------------
 *
 * declared.c
 *	  What a table's CHECK constraints say of the UUIDs a column holds.
 *
 * The planner may narrow a time clause to the keys of the versions a
 * column can hold: a column declared CHECK (uuid_version(id) = 7) holds no
 * v6 keys, so id <@ r needs one index range, not two, and
 * uuid_timestamp(id), which also reads v1 keys (whose time has no key
 * range), becomes a question of v7 keys only.  A validated CHECK
 * constraint holds for a row unless it is false, so this file proves, with
 * the planner's own predicate_implied_by() in its weak form, claims that
 * hold unless false: uuid_version(id) <> 1 says the column holds no v1 key
 * (a UUID of another variant has no version: NULL, so not false);
 * uuid_version(id) = 7 says every key of the RFC variant is a v7, and with
 * uuid_variant(id) = 2 every key is one.  On PostgreSQL 17 and later,
 * core's uuid_extract_version(id) serves as uuid_version(id) does.
 *
 * Beside it, the functions of the column that the table's indexes hold
 * as expressions (CREATE INDEX ON t (uuid_timestamp(id))): a user who
 * indexed the form itself keeps the plans that index gives.
 *
 * A table under the column's (a partition, an inheritance child, at any
 * depth) that is foreign enforces none of the constraints it inherits: the
 * column then declares nothing.
 *
 * The answer is kept per backend until the relcache entry of the table, or
 * of a table under it, is invalidated, as adding, dropping or validating a
 * constraint, creating or dropping an index, or attaching a partition or
 * child does; the plan cache, which invalidates plans on the same event,
 * then replans.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "compat.h"
#include "access/stratnum.h"
#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_type_d.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/*
 * The functions found by uuidx_tr_same_extension_function() and
 * uuidx_tr_extension_function(), which the planner asks for in every clause it
 * builds, every partition and every form it plans: a few, kept until
 * pg_proc changes (a function created, dropped or moved to another schema
 * with its extension).  The name and the extension's are the callers'
 * string literals, compared by address; the argument types come with the
 * name and its count.
 */
#define EXT_FUNCTION_CACHE_SIZE 32
typedef struct ExtFunctionEntry
{
	Oid			ext_fn;
	const char *extension;		/* uuidx_tr_extension_function()'s, or NULL */
	const char *name;
	int			nargs;
	Oid			found;
} ExtFunctionEntry;
static ExtFunctionEntry ext_function_cache[EXT_FUNCTION_CACHE_SIZE];
static int	ext_function_cache_used = 0;
static bool ext_function_callback_registered = false;

static void
forget_ext_functions(Datum arg, int cacheid, uint32 hashvalue)
{
	ext_function_cache_used = 0;
}

/* The cache's entry for a lookup, or NULL. */
static ExtFunctionEntry *
cached_ext_function(Oid ext_fn, const char *extension, const char *name, int nargs)
{
	for (int i = 0; i < ext_function_cache_used; i++)
		if (ext_function_cache[i].ext_fn == ext_fn && ext_function_cache[i].extension == extension &&
			ext_function_cache[i].name == name && ext_function_cache[i].nargs == nargs)
			return &ext_function_cache[i];
	if (!ext_function_callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, forget_ext_functions, (Datum) 0);
		ext_function_callback_registered = true;
	}
	return NULL;
}

/* Keep what a lookup found. */
static Oid
remember_ext_function(Oid ext_fn, const char *extension, const char *name, int nargs, Oid found)
{
	if (ext_function_cache_used == EXT_FUNCTION_CACHE_SIZE)
		ext_function_cache_used = 0;
	ext_function_cache[ext_function_cache_used].ext_fn = ext_fn;
	ext_function_cache[ext_function_cache_used].extension = extension;
	ext_function_cache[ext_function_cache_used].name = name;
	ext_function_cache[ext_function_cache_used].nargs = nargs;
	ext_function_cache[ext_function_cache_used].found = found;
	ext_function_cache_used++;
	return found;
}

/*
 * The function of that name and arguments in a schema, where it is a
 * member of the extension ext; InvalidOid where there is none, or it is
 * another's (an extension in the same schema whose function uuidx left in
 * place, as TimescaleDB's uuid_timestamp(uuid)).
 */
static Oid
member_function(Oid ext, Oid schema, const char *name, int nargs, const Oid *argtypes)
{
	Oid			fn;

	if (!OidIsValid(ext) || !OidIsValid(schema))
		return InvalidOid;

	/*
	 * By the catalog's cache, not by name lookup: the planner reads the
	 * function for any user, who may lack USAGE on the extension's schema.
	 */
	fn = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
						 CStringGetDatum(name),
						 PointerGetDatum(buildoidvector(argtypes, nargs)),
						 ObjectIdGetDatum(schema));
	if (OidIsValid(fn) && getExtensionOfObject(ProcedureRelationId, fn) != ext)
		return InvalidOid;
	return fn;
}

/*
 * An SQL function of the extension, found in the schema of an ext_fn (a
 * function of the extension); InvalidOid when it does not exist (a
 * database whose extension is at an older SQL version than the library,
 * or where the schema had a function of that name before uuidx).
 */
Oid
uuidx_tr_same_extension_function(Oid ext_fn, const char *name, int nargs, const Oid *argtypes)
{
	ExtFunctionEntry *entry = cached_ext_function(ext_fn, NULL, name, nargs);

	if (entry != NULL)
		return entry->found;
	return remember_ext_function(ext_fn, NULL, name, nargs,
								 member_function(getExtensionOfObject(ProcedureRelationId, ext_fn),
												 get_func_namespace(ext_fn), name, nargs, argtypes));
}

/*
 * A function name(uuid) of an extension (uuidx, uuidx_core18 or
 * TimescaleDB), found in its schema: InvalidOid when the extension or its
 * function is not there.  For the forms and CHECKs of core's functions and
 * of the other extensions'.
 */
Oid
uuidx_tr_extension_function(const char *extension, const char *name)
{
	static const Oid argtypes[] = {UUIDOID};
	ExtFunctionEntry *entry = cached_ext_function(InvalidOid, extension, name, 1);
	Oid			ext;

	if (entry != NULL)
		return entry->found;
	ext = get_extension_oid(extension, true);
	return remember_ext_function(InvalidOid, extension, name, 1,
								 OidIsValid(ext) ?
								 member_function(ext, get_extension_schema(ext), name, 1, argtypes) :
								 InvalidOid);
}

/*
 * A claim function(column) <op> value, built as the parser builds the same
 * expression written in a CHECK constraint (smallint = integer for uuidx's
 * and core's functions, integer = integer for TimescaleDB's); op is
 * BTEqualStrategyNumber, or 0 for <>.
 */
static List *
claim(Oid fn, Node *column, int strategy, int32 value)
{
	Oid			result = get_func_rettype(fn);
	Oid			op = get_opfamily_member(INTEGER_BTREE_FAM_OID, result, INT4OID,
										 BTEqualStrategyNumber);
	Expr	   *expr;

	if (strategy == 0)
		op = get_negator(op);
	expr = make_opclause(op, BOOLOID, false,
						 (Expr *) makeFuncExpr(fn, result, list_make1(column), InvalidOid,
											   InvalidOid, COERCE_EXPLICIT_CALL),
						 (Expr *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
											Int32GetDatum(value), false, true),
						 InvalidOid, InvalidOid);
	set_opfuncid((OpExpr *) expr);
	return list_make1(expr);
}

/* What read_declared() finds, and the cache keeps. */
typedef struct DeclaredKey
{
	Oid			relid;
	AttrNumber	attnum;
	Oid			schema;			/* of the extension's functions */
} DeclaredKey;

typedef struct DeclaredEntry
{
	DeclaredKey key;
	UuidxDeclared declared;
	int			ndescendants;	/* the tables under it, whose invalidation */
	Oid		   *descendants;	/* invalidates the entry too */
} DeclaredEntry;

/* Is the expression the column attnum alone, maybe relabelled? */
static bool
is_column(Node *node, AttrNumber attnum)
{
	while (IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return IsA(node, Var) && ((Var *) node)->varattno == attnum;
}

/* An index's or partition key's expression: fn(column), noted. */
static void
note_indexed(Node *expr, AttrNumber attnum, UuidxDeclared *d)
{
	FuncExpr   *call = (FuncExpr *) expr;

	if (IsA(call, FuncExpr) && list_length(call->args) == 1 &&
		is_column(linitial(call->args), attnum) && d->nindexed < UUIDX_INDEXED_FNS)
		d->indexed[d->nindexed++] = call->funcid;
}

/*
 * The functions of one argument, the column, that the table's indexes or
 * its partition key hold as expressions, and whether a partial index's
 * predicate reads the column.  Read from pg_index, which needs no lock on
 * the indexes (the planner has locked none of them yet).
 */
static void
read_indexed(Relation rel, AttrNumber attnum, UuidxDeclared *d)
{
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	ListCell   *le;

	d->nindexed = 0;
	d->partial = false;
	foreach(lc, indexes)
	{
		HeapTuple	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		Datum		exprs;
		bool		isnull;

		if (!HeapTupleIsValid(tuple))
			continue;
		exprs = SysCacheGetAttr(INDEXRELID, tuple, Anum_pg_index_indpred, &isnull);
		if (!isnull)
		{
			Bitmapset  *attnos = NULL;

			pull_varattnos(stringToNode(TextDatumGetCString(exprs)), 1, &attnos);
			if (bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, attnos))
				d->partial = true;
		}
		exprs = SysCacheGetAttr(INDEXRELID, tuple, Anum_pg_index_indexprs, &isnull);
		if (!isnull)
		{
			char	   *string = TextDatumGetCString(exprs);

			foreach(le, (List *) stringToNode(string))
				note_indexed(lfirst(le), attnum, d);
		}
		ReleaseSysCache(tuple);
	}
	list_free(indexes);

	/*
	 * A partition key of the form: PostgreSQL prunes the partitions of the
	 * form as written, as it does with an index of it.
	 */
	if (rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE)
	{
		PartitionKey key = RelationGetPartitionKey(rel);

		foreach(le, key != NULL ? key->partexprs : NIL)
			note_indexed(lfirst(le), attnum, d);
	}
}

/* Does an index of the table hold fn(column)? */
bool
uuidx_tr_declared_indexed(const UuidxDeclared *d, Oid fn)
{
	for (int i = 0; i < d->nindexed; i++)
	{
		if (d->indexed[i] == fn)
			return true;
	}
	return false;
}

/*
 * Does every table under the table (partitions, inheritance children, at
 * any depth) enforce the constraints it inherits?  A foreign table does
 * not: a CHECK is copied onto a foreign partition or child unenforced, and
 * a query of the parent reads its rows.  The tables under it are returned
 * (in the cache's memory), so that a change to one of them (a foreign
 * table attached below a partition, say) invalidates what was read.  The
 * planner has locked the table, not yet those under it: pg_inherits and
 * the syscache are read without locks, and a table attached meanwhile
 * invalidates the parent, and with it the plan and this answer.
 */
static bool
descendants_enforce(Relation rel, int *ndescendants, Oid **descendants)
{
	List	   *all;
	bool		enforce = true;
	ListCell   *lc;

	*ndescendants = 0;
	*descendants = NULL;
	if (!rel->rd_rel->relhassubclass)
		return true;
	all = find_all_inheritors(RelationGetRelid(rel), NoLock, NULL);
	*descendants = MemoryContextAlloc(CacheMemoryContext, sizeof(Oid) * Max(1, list_length(all)));
	foreach(lc, all)
	{
		Oid			child = lfirst_oid(lc);

		if (child == RelationGetRelid(rel))
			continue;
		(*descendants)[(*ndescendants)++] = child;
		if (get_rel_relkind(child) == RELKIND_FOREIGN_TABLE)
			enforce = false;
	}
	list_free(all);
	return enforce;
}

/*
 * Read what the validated CHECK constraints of the table say of the column
 * (and the tables under it, for the cache's invalidation).
 */
static void
read_declared(Oid ext_fn, Oid relid, AttrNumber attnum, UuidxDeclared *d,
			  int *ndescendants, Oid **descendants)
{
	static const Oid argtypes[] = {UUIDOID};
	static const int time_versions[] = {1, 6, 7};
	Oid			version_fns[4];
	int			nfns = 0;
	Oid			variant_fn;
	Relation	rel;
	TupleConstr *constr;
	List	   *checks = NIL;

	d->versions = UUIDX_TIME_VERSIONS;
	d->only = 0;
	d->strong = false;
	d->nindexed = 0;
	d->dimension = false;
	version_fns[nfns] = uuidx_tr_same_extension_function(ext_fn, "uuid_version", 1, argtypes);
	if (OidIsValid(version_fns[nfns]))
		nfns++;
#ifdef UUIDX_CORE_EXTRACT_VERSION
	version_fns[nfns++] = UUIDX_CORE_EXTRACT_VERSION;
#endif
	/* code written for 18, on 15-17: uuidx_core18's uuid_extract_version() */
	version_fns[nfns] = uuidx_tr_extension_function("uuidx_core18", "uuid_extract_version");
	if (OidIsValid(version_fns[nfns]))
		nfns++;
	/* TimescaleDB's (2.23 and later), which reads what uuidx's does */
	version_fns[nfns] = uuidx_tr_extension_function("timescaledb", "uuid_version");
	if (OidIsValid(version_fns[nfns]) && get_func_rettype(version_fns[nfns]) == INT4OID)
		nfns++;
	variant_fn = uuidx_tr_same_extension_function(ext_fn, "uuid_variant", 1, argtypes);

	/*
	 * The planner holds a lock on the table already.  A foreign table's
	 * constraints are not enforced, nor those a foreign table under it
	 * inherits, and a NO INHERIT one says nothing of the rows of the table's
	 * children, which a query of the table reads: none declares anything.
	 */
	rel = table_open(relid, NoLock);
	read_indexed(rel, attnum, d);
	constr = rel->rd_rel->relkind == RELKIND_FOREIGN_TABLE ? NULL : rel->rd_att->constr;
	if (!descendants_enforce(rel, ndescendants, descendants))
		constr = NULL;
	for (int i = 0; constr != NULL && i < constr->num_check; i++)
	{
		Node	   *check;

		if (!constr->check[i].ccvalid || constr->check[i].ccnoinherit)
			continue;
		check = eval_const_expressions(NULL, stringToNode(constr->check[i].ccbin));
		checks = list_concat(checks, make_ands_implicit((Expr *) canonicalize_qual((Expr *) check, true)));
	}
	if (checks != NIL && attnum > 0 && attnum <= RelationGetNumberOfAttributes(rel))
	{
		/* the column as the constraints read it: varno 1, coerced to uuid */
		Form_pg_attribute att = TupleDescAttr(rel->rd_att, attnum - 1);
		Node	   *column = (Node *) makeVar(1, att->attnum, att->atttypid, att->atttypmod,
											  att->attcollation, 0);

		if (att->atttypid != UUIDOID)
			column = (Node *) makeRelabelType((Expr *) column, UUIDOID, -1, InvalidOid,
											  COERCE_IMPLICIT_CAST);
		for (int i = 0; i < (int) lengthof(time_versions); i++)
		{
			int			v = time_versions[i];

			for (int f = 0; f < nfns; f++)
			{
				if (v != 1 && d->only == 0 &&
					predicate_implied_by(claim(version_fns[f], column, BTEqualStrategyNumber, v),
										 checks, true))
					d->only = v;
				if ((d->versions & (1 << v)) &&
					predicate_implied_by(claim(version_fns[f], column, 0, v), checks, true))
					d->versions &= ~(1 << v);
			}
		}
		if (d->only != 0)
			d->versions &= 1 << d->only;
		d->strong = d->only != 0 && OidIsValid(variant_fn) &&
			predicate_implied_by(claim(variant_fn, column, BTEqualStrategyNumber, 2), checks, true);
	}

	/*
	 * A hypertable's uuid dimension: the time clauses carry comparisons
	 * TimescaleDB excludes chunks by.  (It takes only v7 keys in an INSERT,
	 * but an UPDATE that keeps a row in its chunk writes any key: the column
	 * declares nothing.)
	 */
	d->dimension = rel->rd_rel->relkind == RELKIND_RELATION &&
		uuidx_tr_hypertable_uuid_dimension(rel, attnum);
	table_close(rel, NoLock);
}

static HTAB *declared_cache = NULL;

static void
forget_declared(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	DeclaredEntry *entry;

	if (declared_cache == NULL)
		return;
	hash_seq_init(&status, declared_cache);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		bool		forget = !OidIsValid(relid) || entry->key.relid == relid;

		for (int i = 0; i < entry->ndescendants && !forget; i++)
			forget = entry->descendants[i] == relid;
		if (!forget)
			continue;
		if (entry->descendants != NULL)
			pfree(entry->descendants);
		hash_search(declared_cache, &entry->key, HASH_REMOVE, NULL);
	}
}

/*
 * What the constraints of table relid say of its column attnum, found
 * through ext_fn, a function of the extension; nothing (every version)
 * for attnum 0 or below.
 */
void
uuidx_tr_declared(Oid ext_fn, Oid relid, AttrNumber attnum, UuidxDeclared *d)
{
	DeclaredKey key;
	DeclaredEntry *entry;

	if (attnum <= 0 || !OidIsValid(relid))
	{
		d->versions = UUIDX_TIME_VERSIONS;
		d->only = 0;
		d->strong = false;
		d->nindexed = 0;
		d->partial = false;
		d->dimension = false;
		return;
	}
	if (declared_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(DeclaredKey);
		ctl.entrysize = sizeof(DeclaredEntry);
		ctl.hcxt = CacheMemoryContext;
		declared_cache = hash_create("uuidx declared versions", 16, &ctl,
									 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterRelcacheCallback(forget_declared, (Datum) 0);
	}
	memset(&key, 0, sizeof(key));
	key.relid = relid;
	key.attnum = attnum;
	key.schema = get_func_namespace(ext_fn);
	entry = hash_search(declared_cache, &key, HASH_FIND, NULL);
	if (entry == NULL)
	{
		UuidxDeclared found;
		int			ndescendants;
		Oid		   *descendants;
		bool		existed;

		read_declared(ext_fn, relid, attnum, &found, &ndescendants, &descendants);
		/* reading the constraints may have invalidated entries: enter it now */
		entry = hash_search(declared_cache, &key, HASH_ENTER, &existed);
		if (existed && entry->descendants != NULL)
			pfree(entry->descendants);
		entry->declared = found;
		entry->ndescendants = ndescendants;
		entry->descendants = descendants;
	}
	*d = entry->declared;
}

/*
 * The column a time clause reads, in a query's range table: its table and
 * attribute number, through the output columns of subqueries (a view), and
 * whether it is the first key column of the table's range partitioning.
 * relid is InvalidOid where id is not, in the end, a column of a table.
 * What the table's constraints say of the column holds for every value the
 * clause can meet, since a subquery's output column holds the column's
 * values or NULL.
 */
void
uuidx_tr_target(List *rtable, Node *id, TimeTarget *t)
{
	Var		   *var;
	RangeTblEntry *rte;

	t->relid = InvalidOid;
	t->attnum = 0;
	t->partition_key = false;
	while (IsA(id, RelabelType))
		id = (Node *) ((RelabelType *) id)->arg;
	if (!IsA(id, Var) || ((Var *) id)->varlevelsup != 0)
		return;
	var = (Var *) id;
	t->attnum = var->varattno;
	if (var->varno <= 0 || var->varno > list_length(rtable) || var->varattno <= 0)
		return;
	rte = rt_fetch(var->varno, rtable);
	if (rte->rtekind == RTE_SUBQUERY && rte->subquery != NULL &&
		rte->subquery->setOperations == NULL)
	{
		TargetEntry *tle = get_tle_by_resno(rte->subquery->targetList, var->varattno);

		if (tle != NULL && !tle->resjunk)
			uuidx_tr_target(rte->subquery->rtable, (Node *) tle->expr, t);
		else
			t->attnum = 0;
		return;
	}
	if (rte->rtekind != RTE_RELATION)
		return;
	t->relid = rte->relid;
	if (rte->relkind == RELKIND_PARTITIONED_TABLE)
	{
		/* the planner holds a lock on the table already */
		Relation	rel = table_open(rte->relid, NoLock);
		PartitionKey key = RelationGetPartitionKey(rel);

		t->partition_key = key != NULL && key->strategy == PARTITION_STRATEGY_RANGE &&
			key->partattrs[0] == var->varattno;
		table_close(rel, NoLock);
	}
}
