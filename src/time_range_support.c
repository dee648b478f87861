/*-------------------------------------------------------------------------
 *
 * time_range_support.c
 *	  What the planner makes of id <@ tstzrange and tstzrange @> id.
 *
 * The UUIDs of one version whose time lies in r fill one interval of the
 * uuid order (time_range.c); v6's interval and v7's lie in two places of
 * that order.  The support function (SupportRequestSimplify) rewrites the
 * operator into clauses that say the same thing and that an index can
 * serve, one arm per version:
 *
 *	 uuidx_time_within(id, r, 7, false) OR uuidx_time_within(id, r, 6, false)
 *
 * Each arm becomes the index conditions id >= lower AND id <= upper of its
 * version on any index of id whose operator family holds uuid's own >= and
 * <= (SupportRequestIndexCondition); the planner combines the two scans in
 * a BitmapOr.  Where the query might walk id's index in key order (ORDER
 * BY id, LIMIT, MIN or MAX), a span stands beside the arms:
 *
 *	 uuidx_time_span(id, r, true) AND (uuidx_time_within(id, r, 7, false) OR ...)
 *
 * Its index conditions are one range that holds both versions' keys of r,
 * which an index scan walks in order; its estimate is 1, since the arms
 * carry the estimate (SupportRequestSelectivity).  A table whose CHECK
 * constraints say it holds only one version gets the span alone,
 * uuidx_time_span(id, r, false), with that version's range as its index
 * conditions, exact where the constraints rule out other variants too; so
 * does a constant r that holds times of one version only.
 *
 * A range the query builds, tstzrange(a, b[, bounds]), reaches the pieces
 * as its parts, uuidx_time_between(id, a, b, bounds, 7, false) and
 * uuidx_time_span_between(id, a, b, bounds, true): the executor evaluates
 * a clause's arguments for every row, and the parts cost less to compute
 * and compare than a range does to build.  Those pieces never fail, so
 * that they can be LEAKPROOF and serve an index under row-level security;
 * the range is checked by the constructor itself, in a clause of its own
 * that comes first, tstzrange(a, b, bounds) IS NOT NULL (with constant or
 * stable parts, a one-time filter).
 *
 * Partition pruning reads comparison operators only, so where id is the
 * range partition key of a partitioned table the comparisons come as a
 * clause of their own:
 *
 *	 (id >= lower7 AND id <= upper7 OR id >= lower6 AND id <= upper6)
 *	 AND (uuidx_time_within(id, r, 7, true) OR ...)
 *
 * The comparisons prune and make the bitmap scans; the last argument of the
 * arms, true, tells the support function they are there: such an arm makes
 * no index conditions of its own, and its estimate is the share that
 * remains once the planner's estimate of the comparisons is counted.
 *
 * How the planner costs a walk of the index to r: time_range_paths.c.
 * Whatever plan runs, every row passes through a clause that is the
 * definition itself, unless the index conditions are exactly it; the index
 * conditions and the comparisons only leave out rows it would reject.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range.h"

#include "compat.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "optimizer/tlist.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

PG_FUNCTION_INFO_V1(uuidx_time_range_support);

/* The SQL functions the planner's expressions call, by name. */
#define WITHIN_FUNCTION "uuidx_time_within"
#define BETWEEN_FUNCTION "uuidx_time_between"
#define SPAN_FUNCTION "uuidx_time_span"
#define SPAN_BETWEEN_FUNCTION "uuidx_time_span_between"
#define BOUND_FUNCTION "uuidx_time_bound"
#define VERSION_FUNCTION "uuid_version"
#define VARIANT_FUNCTION "uuid_variant"


/* The support function's OID, to know the clauses of this extension. */
static Oid	support_oid = InvalidOid;

/* The window of a range that is a non-NULL constant; false for anything else. */
static bool
const_window(Node *range, TimeWindow *w)
{
	if (!IsA(range, Const) || ((Const *) range)->constisnull)
		return false;
	uuidx_range_window(DatumGetRangeTypeP(((Const *) range)->constvalue), w);
	return true;
}

/*
 * An SQL function of the extension, found in the schema of a sibling;
 * InvalidOid when it does not exist (a database whose extension is at an
 * older SQL version than the library).
 */
static Oid
sibling_function(Oid sibling, const char *name, int nargs, const Oid *argtypes)
{
	char	   *schema = get_namespace_name(get_func_namespace(sibling));

	return LookupFuncName(list_make2(makeString(schema), makeString(pstrdup(name))),
						  nargs, argtypes, true);
}

static Node *
make_int4_const(int32 value)
{
	return (Node *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
							  Int32GetDatum(value), false, true);
}

static Node *
make_bool_const(bool value)
{
	return (Node *) makeBoolConst(value, false);
}

static Node *
make_uuid_const(const pg_uuid_t *uuid)
{
	pg_uuid_t  *copy = palloc(sizeof(pg_uuid_t));

	*copy = *uuid;
	return (Node *) makeConst(UUIDOID, -1, InvalidOid, UUID_LEN,
							  UUIDPGetDatum(copy), false, false);
}

/* A call, with the input collation the parser would give it. */
static Node *
make_call(Oid fn, Oid rettype, List *args)
{
	Oid			inputcollid = InvalidOid;
	ListCell   *lc;

	foreach(lc, args)
	{
		if (OidIsValid(exprCollation(lfirst(lc))))
			inputcollid = DEFAULT_COLLATION_OID;
	}
	return (Node *) makeFuncExpr(fn, rettype, args, InvalidOid, inputcollid,
								 COERCE_EXPLICIT_CALL);
}

/* tstzrange(lower, upper, bounds) */
static Node *
range_from_parts(Node *lower, Node *upper, Node *bounds)
{
	return make_call(F_TSTZRANGE_TIMESTAMPTZ_TIMESTAMPTZ_TEXT, TSTZRANGEOID,
					 list_make3(lower, upper, bounds));
}

/*
 * A tstzrange(lower, upper[, bounds]) call with constant bounds flags: its
 * arguments, for the pieces that take a range's parts.
 */
static bool
range_constructor_args(Node *range, Node **lower, Node **upper, Node **bounds)
{
	FuncExpr   *call = (FuncExpr *) range;

	if (!IsA(range, FuncExpr))
		return false;
	if (call->funcid == F_TSTZRANGE_TIMESTAMPTZ_TIMESTAMPTZ && list_length(call->args) == 2)
		*bounds = (Node *) makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
									 CStringGetTextDatum("[)"), false, false);
	else if (call->funcid == F_TSTZRANGE_TIMESTAMPTZ_TIMESTAMPTZ_TEXT && list_length(call->args) == 3 &&
			 IsA(lthird(call->args), Const) && !((Const *) lthird(call->args))->constisnull)
	{
		char	   *flags = TextDatumGetCString(((Const *) lthird(call->args))->constvalue);

		if (!uuidx_valid_bound_flags(flags, strlen(flags)))
			return false;		/* left to fail as written */
		*bounds = lthird(call->args);
	}
	else
		return false;
	*lower = linitial(call->args);
	*upper = lsecond(call->args);
	return true;
}

/* A constant boolean argument. */
static bool
bool_arg(Node *arg, bool *value)
{
	if (!IsA(arg, Const) || ((Const *) arg)->constisnull)
		return false;
	*value = DatumGetBool(((Const *) arg)->constvalue);
	return true;
}

/* What the clause with these arguments asks; false for anything else. */
static bool
time_clause(List *args, TimeClause *c)
{
	int			n = list_length(args);
	Node	   *version_arg = NULL;
	bool		flag = false;

	c->version = 0;
	c->beside = false;
	c->pruned = false;
	if (n == 2)
	{
		uuidx_operator_sides(args, &c->id, &c->range);
		return true;
	}
	if (n < 3 || n > 6)
		return false;
	c->id = linitial(args);
	if (n == 3 || n == 4)
		c->range = lsecond(args);
	else
		c->range = range_from_parts(lsecond(args), lthird(args), lfourth(args));
	if (!bool_arg(llast(args), &flag))
		return false;
	if (n == 3 || n == 5)
	{
		c->beside = flag;
		return true;
	}
	version_arg = list_nth(args, n - 2);
	if (!IsA(version_arg, Const) || ((Const *) version_arg)->constisnull)
		return false;
	c->version = DatumGetInt32(((Const *) version_arg)->constvalue);
	c->pruned = flag;
	return c->version == 6 || c->version == 7;
}

/*
 * The versions whose keys can lie in the range: both, unless the range is
 * a constant that holds no time of one of them.  At least one is kept, so
 * that a NULL id still gives NULL.
 */
static int
window_versions(Node *range, int *versions)
{
	TimeWindow	w;
	bool		known = const_window(range, &w);
	int			n = 0;

	for (int version = 7; version >= 6; version--)
		if (!known || !w.empty[WINDOW_INDEX(version)])
			versions[n++] = version;
	if (n == 0)
		versions[n++] = 7;
	return n;
}

/*
 * The expression of one version's bound: a constant when the range is one,
 * else a call of uuidx_time_bound() to be evaluated when the scan starts.
 */
static Node *
bound_expr(Oid sibling, Node *range, int version, bool upper)
{
	static const Oid argtypes[] = {TSTZRANGEOID, INT4OID, BOOLOID};
	TimeWindow	w;
	Oid			fn;

	if (const_window(range, &w))
	{
		pg_uuid_t	bound;

		uuidx_window_bound(&w, version, upper, &bound);
		return make_uuid_const(&bound);
	}
	fn = sibling_function(sibling, BOUND_FUNCTION, 3, argtypes);
	if (!OidIsValid(fn))
		elog(ERROR, "function %s of extension uuidx is missing", BOUND_FUNCTION);
	return (Node *) makeFuncExpr(fn, UUIDOID,
								 list_make3(copyObject(range), make_int4_const(version),
											make_bool_const(upper)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * The lower (or upper) bound of the keys of the given versions whose time
 * lies in the range: one version's bound, or the least lower (greatest
 * upper) of two.
 */
static Node *
versions_bound(Oid sibling, Node *range, const int *versions, int n, bool upper)
{
	TimeWindow	w;
	MinMaxExpr *mm;

	if (n == 1)
		return bound_expr(sibling, range, versions[0], upper);
	if (const_window(range, &w))
	{
		pg_uuid_t	a,
					b;
		bool		a_first;

		uuidx_window_bound(&w, versions[0], upper, &a);
		uuidx_window_bound(&w, versions[1], upper, &b);
		a_first = memcmp(a.data, b.data, UUID_LEN) <= 0;
		return make_uuid_const(a_first != upper ? &a : &b);
	}
	mm = makeNode(MinMaxExpr);
	mm->minmaxtype = UUIDOID;
	mm->minmaxcollid = InvalidOid;
	mm->inputcollid = InvalidOid;
	mm->op = upper ? IS_GREATEST : IS_LEAST;
	mm->args = list_make2(bound_expr(sibling, range, versions[0], upper),
						  bound_expr(sibling, range, versions[1], upper));
	mm->location = -1;
	return (Node *) mm;
}

/*
 * id >= bound (upper false) or id <= bound (upper true), with uuid's own
 * operators (those of its default B-tree operator family).
 */
static Expr *
comparison(Node *id, Node *bound, bool upper)
{
	Oid			opfamily = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	Oid			opno = get_opfamily_member(opfamily, UUIDOID, UUIDOID,
										   upper ? BTLessEqualStrategyNumber
										   : BTGreaterEqualStrategyNumber);
	OpExpr	   *op;

	if (!OidIsValid(opno))
		elog(ERROR, "missing operator %s(uuid,uuid) in operator family %u",
			 upper ? "<=" : ">=", opfamily);
	op = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) copyObject(id),
								  (Expr *) bound, InvalidOid, InvalidOid);
	set_opfuncid(op);
	return (Expr *) op;
}

/* id >= lower AND id <= upper for the keys of the versions in the range */
static List *
bounds_list(Oid sibling, Node *id, Node *range, const int *versions, int n)
{
	return list_make2(comparison(id, versions_bound(sibling, range, versions, n, false), false),
					  comparison(id, versions_bound(sibling, range, versions, n, true), true));
}

/*
 * Is id a column of a table partitioned by range whose first key column
 * it is?  Then the arms carry comparisons for partition pruning.  (The
 * planner also simplifies a table's CHECK constraints with the query's
 * root before their Vars are renumbered; the answer may then concern
 * another table, which only changes the form, not the meaning, of the
 * result.)
 */
static bool
is_range_partition_key(PlannerInfo *root, Node *id)
{
	Var		   *var;
	RangeTblEntry *rte;
	Relation	rel;
	PartitionKey key;
	bool		result;

	if (root == NULL || root->parse == NULL)
		return false;
	if (IsA(id, RelabelType))
		id = (Node *) ((RelabelType *) id)->arg;
	if (!IsA(id, Var))
		return false;
	var = (Var *) id;
	if (var->varlevelsup != 0 || var->varno <= 0 ||
		var->varno > list_length(root->parse->rtable))
		return false;
	rte = rt_fetch(var->varno, root->parse->rtable);
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_PARTITIONED_TABLE)
		return false;

	/* the planner holds a lock on the table already */
	rel = table_open(rte->relid, NoLock);
	key = RelationGetPartitionKey(rel);
	result = key != NULL && key->strategy == PARTITION_STRATEGY_RANGE &&
		key->partattrs[0] == var->varattno;
	table_close(rel, NoLock);
	return result;
}

/*
 * A claim function(column) = value, built as the parser builds the same
 * expression written in a CHECK constraint (smallint = integer).
 */
static Expr *
claim_equals(Oid fn, Node *column, int32 value)
{
	Oid			eq = get_opfamily_member(INTEGER_BTREE_FAM_OID, INT2OID, INT4OID,
										 BTEqualStrategyNumber);
	Expr	   *claim = make_opclause(eq, BOOLOID, false,
									  (Expr *) make_call(fn, INT2OID, list_make1(column)),
									  (Expr *) make_int4_const(value), InvalidOid, InvalidOid);

	set_opfuncid((OpExpr *) claim);
	return claim;
}

/*
 * The one version (6 or 7) whose keys column attnum (id) of table relid
 * can hold, as the table's validated CHECK constraints say: uuid_version(id)
 * = 7, say, or on PostgreSQL 17 and later core's uuid_extract_version(id) =
 * 7; 0 where they say no such thing.  A CHECK constraint holds for a row
 * unless it is false, and uuid_version() is NULL for a UUID of another
 * variant, so such a column can still hold keys of other variants, which
 * the version's index range may take in; *strong is set when the
 * constraints also say uuid_variant(id) = 2, and every key is then of the
 * version.
 */
static int
read_declared_version(Oid sibling, Oid relid, AttrNumber attnum, bool *strong)
{
	static const Oid argtypes[] = {UUIDOID};
	Oid			version_fns[2];
	int			nfns = 0;
	Oid			variant_fn;
	Relation	rel;
	TupleConstr *constr;
	List	   *checks = NIL;
	int			result = 0;

	*strong = false;
	version_fns[nfns] = sibling_function(sibling, VERSION_FUNCTION, 1, argtypes);
	if (OidIsValid(version_fns[nfns]))
		nfns++;
#ifdef UUIDX_CORE_EXTRACT_VERSION
	version_fns[nfns++] = UUIDX_CORE_EXTRACT_VERSION;
#endif
	variant_fn = sibling_function(sibling, VARIANT_FUNCTION, 1, argtypes);

	/* the planner holds a lock on the table already */
	rel = table_open(relid, NoLock);
	constr = rel->rd_att->constr;
	for (int i = 0; constr != NULL && i < constr->num_check; i++)
	{
		Node	   *check;

		if (!constr->check[i].ccvalid)
			continue;
		check = eval_const_expressions(NULL, stringToNode(constr->check[i].ccbin));
		checks = list_concat(checks, make_ands_implicit((Expr *) canonicalize_qual((Expr *) check, true)));
	}
	if (checks != NIL)
	{
		/* the column as the constraints read it: varno 1, coerced to uuid */
		Form_pg_attribute att = TupleDescAttr(rel->rd_att, attnum - 1);
		Node	   *column = (Node *) makeVar(1, att->attnum, att->atttypid, att->atttypmod,
											  att->attcollation, 0);

		if (att->atttypid != UUIDOID)
			column = (Node *) makeRelabelType((Expr *) column, UUIDOID, -1, InvalidOid,
											  COERCE_IMPLICIT_CAST);
		for (int version = 7; version >= 6 && result == 0; version--)
			for (int f = 0; f < nfns && result == 0; f++)
				if (predicate_implied_by(list_make1(claim_equals(version_fns[f], column, version)),
										 checks, true))
					result = version;
		*strong = result != 0 && OidIsValid(variant_fn) &&
			predicate_implied_by(list_make1(claim_equals(variant_fn, column, 2)), checks, true);
	}
	table_close(rel, NoLock);
	return result;
}

/*
 * What the CHECK constraints of a table say of a column is read once per
 * backend and kept until the table's relcache entry is invalidated, as
 * adding, dropping or validating a constraint does; planning a query on the
 * table then costs a hash lookup.
 */
typedef struct DeclaredKey
{
	Oid			relid;
	AttrNumber	attnum;
	Oid			sibling;
} DeclaredKey;

typedef struct DeclaredEntry
{
	DeclaredKey key;
	int			version;
	bool		strong;
} DeclaredEntry;

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
		if (!OidIsValid(relid) || entry->key.relid == relid)
			hash_search(declared_cache, &entry->key, HASH_REMOVE, NULL);
	}
}

/*
 * The one version (6 or 7) whose keys the column id of the table relid can
 * hold, as read_declared_version() finds it; 0 where the constraints do not
 * say, or id is not a column of the table.
 */
static int
declared_version(Oid sibling, Oid relid, Node *id, bool *strong)
{
	DeclaredKey key;
	DeclaredEntry *entry;

	*strong = false;
	if (IsA(id, RelabelType))
		id = (Node *) ((RelabelType *) id)->arg;
	if (!IsA(id, Var) || ((Var *) id)->varlevelsup != 0 || ((Var *) id)->varattno <= 0)
		return 0;

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
	key.attnum = ((Var *) id)->varattno;
	key.sibling = sibling;
	entry = hash_search(declared_cache, &key, HASH_FIND, NULL);
	if (entry == NULL)
	{
		bool		is_strong;
		int			version = read_declared_version(sibling, relid, key.attnum, &is_strong);

		/* reading the constraints may have invalidated entries: enter it now */
		entry = hash_search(declared_cache, &key, HASH_ENTER, NULL);
		entry->version = version;
		entry->strong = is_strong;
	}
	*strong = entry->strong;
	return entry->version;
}

/*
 * The table a column of the query reads, at the planner's first pass over
 * the query's expressions; InvalidOid otherwise.  The planner later
 * simplifies the CHECK constraints of its tables with the same root before
 * their Vars are renumbered (see is_range_partition_key), when its base
 * relations are set up: the answer is then not to be trusted, and none is
 * given.
 */
static Oid
query_table_of(PlannerInfo *root, Node *id)
{
	Var		   *var;
	RangeTblEntry *rte;

	if (root == NULL || root->parse == NULL || root->simple_rel_array != NULL)
		return InvalidOid;
	if (IsA(id, RelabelType))
		id = (Node *) ((RelabelType *) id)->arg;
	if (!IsA(id, Var))
		return InvalidOid;
	var = (Var *) id;
	if (var->varlevelsup != 0 || var->varno <= 0 ||
		var->varno > list_length(root->parse->rtable))
		return InvalidOid;
	rte = rt_fetch(var->varno, root->parse->rtable);
	return rte->rtekind == RTE_RELATION ? rte->relid : InvalidOid;
}

/* Is this expression, under relabelling, id? */
static bool
same_column(Node *a, Node *b)
{
	while (IsA(a, RelabelType))
		a = (Node *) ((RelabelType *) a)->arg;
	while (IsA(b, RelabelType))
		b = (Node *) ((RelabelType *) b)->arg;
	return equal(a, b);
}

/* Is any Aggref below node not a MIN or MAX aggregate (one with a sort operator)? */
static bool
has_other_aggregate(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
	{
		HeapTuple	tuple = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(((Aggref *) node)->aggfnoid));
		bool		min_max;

		if (!HeapTupleIsValid(tuple))
			return true;
		min_max = OidIsValid(((Form_pg_aggregate) GETSTRUCT(tuple))->aggsortop);
		ReleaseSysCache(tuple);
		return !min_max;
	}
	return expression_tree_walker(node, has_other_aggregate, context);
}

/*
 * Might a plan of the query walk id's index in key order to its benefit?
 * With ORDER BY id (first), with LIMIT or OFFSET and no ORDER BY, or with
 * MIN and MAX aggregates only, which the planner answers from an index.
 * Only then does the span stand beside the arms: elsewhere the arms' bitmap
 * scans serve, and the planner would only add the span's conditions to
 * theirs.
 */
static bool
may_walk_keys(PlannerInfo *root, Node *id)
{
	Query	   *parse = root != NULL ? root->parse : NULL;

	if (parse == NULL)
		return false;
	if (parse->sortClause != NIL)
		return same_column(get_sortgroupclause_expr(linitial(parse->sortClause), parse->targetList), id);
	if (parse->limitCount != NULL || parse->limitOffset != NULL)
		return true;
	return parse->hasAggs && parse->groupClause == NIL &&
		!has_other_aggregate((Node *) parse->targetList, NULL) &&
		!has_other_aggregate(parse->havingQual, NULL);
}

/*
 * A piece: uuidx_time_within(id, range, version, pruned) or
 * uuidx_time_span(id, range, beside), or, where the query builds the range
 * from its parts, uuidx_time_between / uuidx_time_span_between with the
 * parts.  version 0 makes the span.  InvalidOid functions (an older SQL
 * version) make NULL.
 */
static Node *
piece_call(Oid sibling, Node *id, Node *range, int version, bool flag)
{
	static const Oid within_types[] = {UUIDOID, TSTZRANGEOID, INT4OID, BOOLOID};
	static const Oid between_types[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID, TEXTOID, INT4OID, BOOLOID};
	static const Oid span_types[] = {UUIDOID, TSTZRANGEOID, BOOLOID};
	static const Oid span_between_types[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID, TEXTOID, BOOLOID};
	Node	   *lower,
			   *upper,
			   *bounds;
	List	   *args;
	Oid			fn;

	if (range_constructor_args(range, &lower, &upper, &bounds))
	{
		args = list_make4(copyObject(id), copyObject(lower), copyObject(upper), copyObject(bounds));
		if (version != 0)
			args = lappend(args, make_int4_const(version));
		fn = version != 0 ? sibling_function(sibling, BETWEEN_FUNCTION, 6, between_types)
			: sibling_function(sibling, SPAN_BETWEEN_FUNCTION, 5, span_between_types);
	}
	else
	{
		args = list_make2(copyObject(id), copyObject(range));
		if (version != 0)
			args = lappend(args, make_int4_const(version));
		fn = version != 0 ? sibling_function(sibling, WITHIN_FUNCTION, 4, within_types)
			: sibling_function(sibling, SPAN_FUNCTION, 3, span_types);
	}
	if (!OidIsValid(fn))
		return NULL;
	return make_call(fn, BOOLOID, lappend(args, make_bool_const(flag)));
}

/*
 * The clause that checks a range the query builds, as the constructor
 * does: tstzrange(a, b, bounds) IS NOT NULL is true, or fails as the range
 * would in the query as written.  NULL for a range given whole.
 */
static Node *
range_check(Node *range)
{
	Node	   *lower,
			   *upper,
			   *bounds;
	NullTest   *test;

	if (!range_constructor_args(range, &lower, &upper, &bounds))
		return NULL;
	test = makeNode(NullTest);
	test->arg = (Expr *) range_from_parts(copyObject(lower), copyObject(upper), copyObject(bounds));
	test->nulltesttype = IS_NOT_NULL;
	test->argisrow = false;
	test->location = -1;
	return (Node *) test;
}

/* Clauses ANDed, or the one clause. */
static Node *
and_of(List *clauses)
{
	return list_length(clauses) == 1 ? linitial(clauses) : (Node *) make_andclause(clauses);
}

/*
 * SupportRequestSimplify: id <@ r (or r @> id) into the clauses described
 * at the head of this file.
 */
static Node *
simplify(SupportRequestSimplify *req)
{
	FuncExpr   *call = req->fcall;
	Oid			sibling = call->funcid;
	Node	   *id,
			   *range;
	Node	   *check;
	Node	   *span;
	bool		pruning;
	bool		single;
	bool		strong;
	int			versions[2];
	int			n;
	List	   *clauses = NIL;
	List	   *arms = NIL;
	Oid			table;

	if (list_length(call->args) != 2)
		return NULL;			/* the pieces stay as they are */
	uuidx_operator_sides(call->args, &id, &range);

	/*
	 * Only worth it where an index or a partition key can serve: id must read
	 * a column.  Both sides are evaluated once per clause, so neither may be
	 * volatile, nor hold a subquery (which would run once per copy).
	 */
	if (!contain_var_clause(id) ||
		contain_volatile_functions(id) || contain_volatile_functions(range) ||
		contain_subplans(id) || contain_subplans(range))
		return NULL;

	pruning = is_range_partition_key(req->root, id);
	n = window_versions(range, versions);
	table = query_table_of(req->root, id);
	single = n == 1 ||
		(!pruning && OidIsValid(table) && declared_version(sibling, table, id, &strong) != 0);

	check = range_check(range);
	if (check != NULL)
		clauses = lappend(clauses, check);
	if (pruning)
	{
		/* the comparisons pruning reads, one pair per version, ORed */
		List	   *pairs = NIL;

		for (int i = 0; i < n; i++)
			pairs = lappend(pairs, make_andclause(bounds_list(sibling, id, range, &versions[i], 1)));
		clauses = lappend(clauses, n == 1 ? linitial(pairs) : make_orclause(pairs));
	}

	/*
	 * The span: alone where one version can be there, else beside the arms. A
	 * database still at SQL 1.1 has no span: there the arms stand alone, as
	 * 1.1 made them.
	 */
	span = piece_call(sibling, id, range, 0, !single || pruning);
	if (span != NULL && (single ? !pruning : may_walk_keys(req->root, id)))
		clauses = lappend(clauses, span);
	if (!single || pruning || span == NULL)
	{
		for (int i = 0; i < n; i++)
			arms = lappend(arms, piece_call(sibling, id, range, versions[i], pruning));
		clauses = lappend(clauses, n == 1 ? linitial(arms) : (Node *) make_orclause(arms));
	}
	return and_of(clauses);
}

/*
 * Does the index column, in this operator family, order uuids as uuid's
 * own operators do?  Only then are id >= lower AND id <= upper conditions
 * it answers right: uuid's own >= and <= must be members of the family, of
 * any access method.  A family that orders uuids otherwise (a reversed
 * B-tree class, say) with other operators gets no conditions.
 */
static bool
family_has_uuid_order(Oid opfamily)
{
	Oid			uuid_family = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;

	for (int upper = 0; upper <= 1; upper++)
	{
		Oid			opno = get_opfamily_member(uuid_family, UUIDOID, UUIDOID,
											   upper ? BTLessEqualStrategyNumber
											   : BTGreaterEqualStrategyNumber);

		if (!OidIsValid(opno) || !op_in_opfamily(opno, opfamily))
			return false;
	}
	return true;
}

/*
 * SupportRequestIndexCondition: an arm gives its version's range, a span
 * (or the operators' own functions) the range of both versions, or of the
 * one version the table's CHECK constraints allow.  Lossy: the clause
 * itself is checked on every row the index returns.
 */
static List *
index_condition(SupportRequestIndexCondition *req)
{
	Node	   *node = req->node;
	List	   *args;
	TimeClause	c;
	int			versions[2];
	int			n;
	int			declared;
	bool		strong;

	if (IsA(node, FuncExpr))
		args = ((FuncExpr *) node)->args;
	else if (IsA(node, OpExpr))
		args = ((OpExpr *) node)->args;
	else
		return NIL;
	if (!time_clause(args, &c) || c.pruned ||
		list_nth(args, req->indexarg) != c.id ||
		!is_pseudo_constant_for_index(req->root, c.range, req->index) ||
		!family_has_uuid_order(req->opfamily))
		return NIL;

	req->lossy = true;
	if (c.version != 0)
	{
		versions[0] = c.version;
		n = 1;
	}
	else
	{
		n = window_versions(c.range, versions);
		declared = declared_version(req->funcid,
									planner_rt_fetch(req->index->rel->relid, req->root)->relid,
									c.id, &strong);
		if (declared != 0 && (n == 2 || versions[0] == declared))
		{
			/* only the declared version's keys can match */
			versions[0] = declared;
			n = 1;
			req->lossy = !strong;
		}
	}
	return bounds_list(req->funcid, c.id, c.range, versions, n);
}

/*
 * SupportRequestSelectivity.  A span beside the arms counts 1: the arms
 * carry the estimate.  An arm beside the comparisons for pruning is
 * estimated as its share of what the planner estimates for those
 * comparisons, so that the two multiplied give the arm's estimate, or the
 * comparisons' where the planner estimates them lower.
 */
static bool
selectivity(SupportRequestSelectivity *req)
{
	TimeClause	c;
	Selectivity sel;

	if (!time_clause(req->args, &c))
		return false;
	if (c.beside)
		sel = 1.0;
	else if (req->is_join)
		sel = uuidx_time_join_selectivity(req->root, c.id, c.range, c.version);
	else
		sel = uuidx_time_selectivity(req->root, c.id, c.range, c.version, req->varRelid);
	if (c.pruned)
	{
		int			versions[2];
		int			n = window_versions(c.range, versions);
		List	   *pairs = NIL;
		Selectivity pruned;

		for (int i = 0; i < n; i++)
			pairs = lappend(pairs, make_andclause(bounds_list(req->funcid, c.id, c.range, &versions[i], 1)));
		pruned = clause_selectivity(req->root, n == 1 ? linitial(pairs) : (Node *) make_orclause(pairs),
									req->varRelid, req->jointype, req->sjinfo);
		sel = pruned > sel ? sel / pruned : 1.0;
	}
	CLAMP_PROBABILITY(sel);
	req->selectivity = sel;
	return true;
}

Datum
uuidx_time_range_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	support_oid = fcinfo->flinfo->fn_oid;
	if (IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(simplify((SupportRequestSimplify *) rawreq));
	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		List	   *conditions = index_condition((SupportRequestIndexCondition *) rawreq);

		if (conditions != NIL)
			PG_RETURN_POINTER(conditions);
	}
	if (IsA(rawreq, SupportRequestSelectivity) &&
		selectivity((SupportRequestSelectivity *) rawreq))
		PG_RETURN_POINTER(rawreq);
	PG_RETURN_POINTER(NULL);
}

/*
 * What a call of fn with these arguments asks, when fn is one of the
 * operators' functions or the pieces (a function this support function
 * serves); false for anything else.
 */
bool
uuidx_time_clause(Oid fn, List *args, TimeClause *c)
{
	return OidIsValid(support_oid) && get_func_support(fn) == support_oid &&
		time_clause(args, c);
}
