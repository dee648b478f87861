/*-------------------------------------------------------------------------
 *
 * time_range.c
 *	  id <@ tstzrange and tstzrange @> id, and what the planner makes of
 *	  them.
 *
 * id <@ r is true when id is a v6 or v7 whose time, as uuid_timestamp()
 * reads it, lies in r; false for any other UUID.  The UUIDs of one version
 * whose time lies in r fill one interval of the uuid order, from the
 * smallest UUID of its first time to the largest of its last
 * (uuidx_time_bound() builds both); v6's interval and v7's lie in two
 * places of that order.  So the support function (SupportRequestSimplify)
 * hands the planner one arm per version:
 *
 *	 uuidx_time_within(id, r, 7, false) OR uuidx_time_within(id, r, 6, false)
 *
 * Each arm becomes the index conditions id >= lower AND id <= upper on a
 * B-tree or BRIN index of id (SupportRequestIndexCondition; the planner
 * combines the two scans in a BitmapOr), and is estimated from id's
 * histogram (SupportRequestSelectivity).
 *
 * Partition pruning reads comparison operators only, so where id is the
 * range partition key of a partitioned table each arm carries the
 * comparisons itself:
 *
 *	 (id >= lower7 AND id <= upper7 AND uuidx_time_within(id, r, 7, true)) OR ...
 *
 * and the last argument, true, tells the support function that the
 * comparisons are there: such an arm makes no index conditions of its own,
 * and its estimate is the share that remains once the planner's estimate of
 * the comparisons is counted.
 *
 * Whatever plan runs, every row passes through uuidx_time_within(), which
 * is the definition itself; the index conditions and the comparisons only
 * leave out rows it would reject.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "port/pg_bswap.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rangetypes.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

PG_FUNCTION_INFO_V1(uuidx_contained_by_tstzrange);
PG_FUNCTION_INFO_V1(uuidx_tstzrange_contains_uuid);
PG_FUNCTION_INFO_V1(uuidx_time_within);
PG_FUNCTION_INFO_V1(uuidx_time_bound);
PG_FUNCTION_INFO_V1(uuidx_time_range_support);
PG_FUNCTION_INFO_V1(uuidx_time_range_sel);

/* The SQL functions the planner's expressions call, by name. */
#define WITHIN_FUNCTION "uuidx_time_within"
#define BOUND_FUNCTION "uuidx_time_bound"

/* The interval of one version's UUIDs whose time lies in a range. */
typedef struct TimeBounds
{
	bool		empty;			/* no time in the range fits the version */
	pg_uuid_t	lower;
	pg_uuid_t	upper;
} TimeBounds;

/*
 * Is the UUID a v6 or v7 (version 0: either; else that one) whose time
 * lies in the range?  The time is uuid_timestamp()'s, and "lies in" is
 * core's range_contains_elem.
 */
static bool
time_within(TypeCacheEntry *typcache, const pg_uuid_t *uuid,
			const RangeType *r, int version)
{
	TimestampTz ts;
	int			v = uuidx_version_of(uuid);

	if (v != 6 && v != 7)
		return false;
	if (version != 0 && v != version)
		return false;
	if (!uuidx_timestamp_of(uuid, false, &ts))
		return false;
	return range_contains_elem_internal(typcache, r, TimestampTzGetDatum(ts));
}

/* Division rounding toward minus and plus infinity. */
static inline int64
floor_div(int64 a, int64 b)
{
	return a / b - ((a % b != 0 && a < 0) ? 1 : 0);
}

static inline int64
ceil_div(int64 a, int64 b)
{
	return a / b + ((a % b != 0 && a > 0) ? 1 : 0);
}

/*
 * The interval of UUIDs of the version (6 or 7) whose time lies in r.
 */
static void
time_bounds(const RangeType *r, int version, TimeBounds *b)
{
	TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	RangeBound	lower,
				upper;
	bool		empty;
	bool		from_start,
				to_end;
	int64		first = 0,
				last = 0;
	int64		lo,
				hi,
				max;

	b->empty = true;
	range_deserialize(typcache, r, &lower, &upper, &empty);
	if (empty)
		return;

	/*
	 * The first and last microsecond in the range (Unix time); an infinite
	 * bound, or a bound at -infinity or infinity, leaves the side open.
	 */
	from_start = lower.infinite || DatumGetTimestampTz(lower.val) == DT_NOBEGIN;
	to_end = upper.infinite || DatumGetTimestampTz(upper.val) == DT_NOEND;
	if ((!lower.infinite && DatumGetTimestampTz(lower.val) == DT_NOEND) ||
		(!upper.infinite && DatumGetTimestampTz(upper.val) == DT_NOBEGIN))
		return;
	if (!from_start)
		first = uuidx_timestamptz_to_unix_us(DatumGetTimestampTz(lower.val)) +
			(lower.inclusive ? 0 : 1);
	if (!to_end)
		last = uuidx_timestamptz_to_unix_us(DatumGetTimestampTz(upper.val)) -
			(upper.inclusive ? 0 : 1);

	if (version == 7)
	{
		/* uuid_timestamp() of a v7 is its millisecond times 1000 */
		max = UUIDX_V7_MAX_MS;
		lo = from_start ? 0 : ceil_div(first, 1000);
		hi = to_end ? max : floor_div(last, 1000);
	}
	else
	{
		/*
		 * uuid_timestamp() of a v6 is floor((ticks - offset) / 10) us; the
		 * products stay far inside int64 for any finite timestamptz.
		 */
		max = UUIDX_V6_MAX_TICKS;
		lo = from_start ? 0 : first * 10 + UUIDX_GREGORIAN_OFFSET_TICKS;
		hi = to_end ? max : last * 10 + 9 + UUIDX_GREGORIAN_OFFSET_TICKS;
	}
	lo = Max(lo, 0);
	hi = Min(hi, max);
	if (lo > hi)
		return;
	uuidx_layout_time_bound(&b->lower, version, (uint64) lo, false);
	uuidx_layout_time_bound(&b->upper, version, (uint64) hi, true);
	b->empty = false;
}

static int
check_version(int32 version)
{
	if (version != 6 && version != 7)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("UUID version %d has no time-ordered layout", version),
				 errhint("Use 6 or 7.")));
	return version;
}

Datum
uuidx_contained_by_tstzrange(PG_FUNCTION_ARGS)
{
	RangeType  *r = PG_GETARG_RANGE_P(1);

	PG_RETURN_BOOL(time_within(range_get_typcache(fcinfo, RangeTypeGetOid(r)),
							   PG_GETARG_UUID_P(0), r, 0));
}

Datum
uuidx_tstzrange_contains_uuid(PG_FUNCTION_ARGS)
{
	RangeType  *r = PG_GETARG_RANGE_P(0);

	PG_RETURN_BOOL(time_within(range_get_typcache(fcinfo, RangeTypeGetOid(r)),
							   PG_GETARG_UUID_P(1), r, 0));
}

/*
 * uuidx_time_within(id, r, version, bounded): id <@ r for one version, and
 * false for a version other than 6 or 7 (it never fails: LEAKPROOF).
 * bounded only informs the planner (see the head of this file).
 */
Datum
uuidx_time_within(PG_FUNCTION_ARGS)
{
	RangeType  *r = PG_GETARG_RANGE_P(1);
	int32		version = PG_GETARG_INT32(2);

	if (version != 6 && version != 7)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(time_within(range_get_typcache(fcinfo, RangeTypeGetOid(r)),
							   PG_GETARG_UUID_P(0), r, version));
}

/*
 * uuidx_time_bound(r, version, upper): the smallest (or largest) UUID of
 * the version whose time lies in r.  Where no time of the version lies in
 * r, the lower bound is the max UUID and the upper the nil UUID, so that
 * id >= lower AND id <= upper holds for no id.
 */
Datum
uuidx_time_bound(PG_FUNCTION_ARGS)
{
	TimeBounds	b;
	bool		upper = PG_GETARG_BOOL(2);
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	time_bounds(PG_GETARG_RANGE_P(0), check_version(PG_GETARG_INT32(1)), &b);
	if (b.empty)
		memset(result->data, upper ? 0x00 : 0xFF, UUID_LEN);
	else
		*result = upper ? b.upper : b.lower;
	PG_RETURN_UUID_P(result);
}

/*
 * Planner support.
 */

/* An SQL function of the extension, found in the schema of a sibling. */
static Oid
sibling_function(Oid sibling, const char *name, int nargs, const Oid *argtypes)
{
	char	   *schema = get_namespace_name(get_func_namespace(sibling));

	return LookupFuncName(list_make2(makeString(schema), makeString(pstrdup(name))),
						  nargs, argtypes, false);
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

/*
 * The expression of a bound: a constant when the range is one, else a call
 * of uuidx_time_bound() to be evaluated when the plan runs.
 */
static Node *
bound_expr(Oid sibling, Node *range, int version, bool upper)
{
	static const Oid argtypes[] = {TSTZRANGEOID, INT4OID, BOOLOID};
	Oid			fn;

	if (IsA(range, Const) && !((Const *) range)->constisnull)
	{
		TimeBounds	b;
		pg_uuid_t	empty;

		time_bounds(DatumGetRangeTypeP(((Const *) range)->constvalue), version, &b);
		if (b.empty)
		{
			memset(empty.data, upper ? 0x00 : 0xFF, UUID_LEN);
			return make_uuid_const(&empty);
		}
		return make_uuid_const(upper ? &b.upper : &b.lower);
	}
	fn = sibling_function(sibling, BOUND_FUNCTION, 3, argtypes);
	return (Node *) makeFuncExpr(fn, UUIDOID,
								 list_make3(copyObject(range),
											make_int4_const(version),
											make_bool_const(upper)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/* id >= lower (upper false) or id <= upper (upper true), with uuid's B-tree operators */
static Expr *
comparison(Oid opfamily, Node *id, Node *bound, bool upper)
{
	Oid			opno = get_opfamily_member(opfamily, UUIDOID, UUIDOID,
										   upper ? BTLessEqualStrategyNumber
										   : BTGreaterEqualStrategyNumber);
	OpExpr	   *op;

	if (!OidIsValid(opno))
		return NULL;
	op = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) copyObject(id),
								  (Expr *) bound, InvalidOid, InvalidOid);
	set_opfuncid(op);
	return (Expr *) op;
}

/* Does the range, a constant, hold no time of the version? */
static bool
known_empty(Node *range, int version)
{
	TimeBounds	b;

	if (!IsA(range, Const) || ((Const *) range)->constisnull)
		return false;
	time_bounds(DatumGetRangeTypeP(((Const *) range)->constvalue), version, &b);
	return b.empty;
}

/*
 * Is id a column of a table partitioned by range whose first key column
 * it is?  Then the arms carry comparisons for partition pruning.
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
 * SupportRequestSimplify: id <@ r (or r @> id) into one arm per version.
 */
static Node *
simplify(SupportRequestSimplify *req)
{
	FuncExpr   *call = req->fcall;
	static const Oid within_types[] = {UUIDOID, TSTZRANGEOID, INT4OID, BOOLOID};
	static const int versions[] = {7, 6};
	Node	   *id,
			   *range;
	Oid			within;
	bool		bounded;
	List	   *arms = NIL;

	if (list_length(call->args) != 2)
		return NULL;			/* uuidx_time_within() stays as it is */
	if (exprType(linitial(call->args)) == UUIDOID)
	{
		id = linitial(call->args);
		range = lsecond(call->args);
	}
	else
	{
		range = linitial(call->args);
		id = lsecond(call->args);
	}

	/*
	 * Only worth it where an index or a partition key can serve: id must
	 * read a column.  Both sides are evaluated once per arm, so neither may
	 * be volatile.
	 */
	if (!contain_var_clause(id) ||
		contain_volatile_functions(id) || contain_volatile_functions(range))
		return NULL;

	within = sibling_function(call->funcid, WITHIN_FUNCTION, 4, within_types);
	bounded = is_range_partition_key(req->root, id);

	for (int i = 0; i < (int) lengthof(versions); i++)
	{
		int			version = versions[i];
		Node	   *arm;

		/* An arm that can match nothing is left out, unless it is the last. */
		if (known_empty(range, version) &&
			(arms != NIL || !known_empty(range, versions[lengthof(versions) - 1])))
			continue;

		arm = (Node *) makeFuncExpr(within, BOOLOID,
									list_make4(copyObject(id), copyObject(range),
											   make_int4_const(version),
											   make_bool_const(bounded)),
									InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
		if (bounded)
		{
			Oid			opfamily = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;

			arm = (Node *) make_andclause(list_make3(comparison(opfamily, id, bound_expr(call->funcid, range, version, false), false),
													 comparison(opfamily, id, bound_expr(call->funcid, range, version, true), true),
													 arm));
		}
		arms = lappend(arms, arm);
	}
	return list_length(arms) == 1 ? linitial(arms) : (Node *) make_orclause(arms);
}

static Oid
opfamily_method(Oid opfamily)
{
	HeapTuple	tuple = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamily));
	Oid			method;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for operator family %u", opfamily);
	method = ((Form_pg_opfamily) GETSTRUCT(tuple))->opfmethod;
	ReleaseSysCache(tuple);
	return method;
}

/*
 * SupportRequestIndexCondition: an unbounded arm on a B-tree or BRIN index
 * of id gives id >= lower AND id <= upper.  Lossy: the arm itself is
 * checked on every row the index returns.
 */
static List *
index_condition(SupportRequestIndexCondition *req)
{
	FuncExpr   *call = (FuncExpr *) req->node;
	Node	   *id,
			   *range,
			   *version_arg,
			   *bounded_arg;
	Oid			am;
	Expr	   *ge,
			   *le;

	if (!IsA(call, FuncExpr) || list_length(call->args) != 4 || req->indexarg != 0)
		return NIL;
	id = linitial(call->args);
	range = lsecond(call->args);
	version_arg = lthird(call->args);
	bounded_arg = lfourth(call->args);
	if (!IsA(version_arg, Const) || ((Const *) version_arg)->constisnull ||
		!IsA(bounded_arg, Const) || ((Const *) bounded_arg)->constisnull ||
		DatumGetBool(((Const *) bounded_arg)->constvalue))
		return NIL;
	if (!is_pseudo_constant_for_index(req->root, range, req->index))
		return NIL;

	/* B-tree and BRIN (minmax) number their strategies alike */
	am = opfamily_method(req->opfamily);
	if (am != BTREE_AM_OID && am != BRIN_AM_OID)
		return NIL;
	ge = comparison(req->opfamily, id,
					bound_expr(req->funcid, range,
							   DatumGetInt32(((Const *) version_arg)->constvalue), false),
					false);
	le = comparison(req->opfamily, id,
					bound_expr(req->funcid, range,
							   DatumGetInt32(((Const *) version_arg)->constvalue), true),
					true);
	if (ge == NULL || le == NULL)
		return NIL;
	req->lossy = true;
	return list_make2(ge, le);
}

static uint64
first_eight_bytes(const pg_uuid_t *uuid)
{
	uint64		v;

	memcpy(&v, uuid->data, sizeof(v));
	return pg_ntoh64(v);
}

/*
 * Where x falls among the histogram's bounds, as a fractional bound index
 * in [0, n - 1].  Within a bin the position is interpolated on the first
 * eight bytes, read as a number, which hold the time of v6, v7 and v8.
 */
static double
histogram_position(const Datum *values, int n, const pg_uuid_t *x)
{
	int			lo = 0,
				hi = n - 1;
	uint64		a,
				b,
				v;

	if (memcmp(x->data, DatumGetUUIDP(values[0])->data, UUID_LEN) <= 0)
		return 0;
	if (memcmp(x->data, DatumGetUUIDP(values[n - 1])->data, UUID_LEN) >= 0)
		return n - 1;
	/* values[lo] < x < values[hi] */
	while (hi - lo > 1)
	{
		int			mid = (lo + hi) / 2;
		int			c = memcmp(x->data, DatumGetUUIDP(values[mid])->data, UUID_LEN);

		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid;
	}
	a = first_eight_bytes(DatumGetUUIDP(values[lo]));
	b = first_eight_bytes(DatumGetUUIDP(values[hi]));
	v = first_eight_bytes(x);
	if (b <= a)
		return lo + 0.5;
	return lo + (double) (v - a) / (double) (b - a);
}

/*
 * The share of rows whose id is a UUID of the version with its time in the
 * range, from id's statistics: the most common values that are, and the
 * part of the histogram between the version's bounds.
 */
static Selectivity
version_selectivity(VariableStatData *vardata, const RangeType *r, int version)
{
	TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	Form_pg_statistic stats;
	AttStatsSlot sslot;
	TimeBounds	b;
	double		mcv_match = 0,
				mcv_total = 0,
				hist = 0;

	time_bounds(r, version, &b);
	if (b.empty)
		return 0;
	if (!HeapTupleIsValid(vardata->statsTuple))
		return DEFAULT_RANGE_INEQ_SEL;
	stats = (Form_pg_statistic) GETSTRUCT(vardata->statsTuple);

	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV, InvalidOid,
						 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		for (int i = 0; i < sslot.nvalues; i++)
		{
			if (time_within(typcache, DatumGetUUIDP(sslot.values[i]), r, version))
				mcv_match += sslot.numbers[i];
			mcv_total += sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
						 ATTSTATSSLOT_VALUES))
	{
		if (sslot.nvalues >= 2)
			hist = (histogram_position(sslot.values, sslot.nvalues, &b.upper) -
					histogram_position(sslot.values, sslot.nvalues, &b.lower)) /
				(sslot.nvalues - 1);
		free_attstatsslot(&sslot);
	}
	return mcv_match + hist * Max(0.0, 1.0 - stats->stanullfrac - mcv_total);
}

/*
 * The estimate for id <@ r with version 0, else for one version's arm.
 */
static Selectivity
time_range_selectivity(PlannerInfo *root, Node *id, Node *range, int version,
					   int varRelid)
{
	VariableStatData vardata;
	Selectivity sel;

	range = estimate_expression_value(root, range);
	if (!IsA(range, Const))
		return version == 0 ? 2 * DEFAULT_RANGE_INEQ_SEL : DEFAULT_RANGE_INEQ_SEL;
	if (((Const *) range)->constisnull)
		return 0;

	examine_variable(root, id, varRelid, &vardata);
	if (version != 0)
		sel = version_selectivity(&vardata, DatumGetRangeTypeP(((Const *) range)->constvalue), version);
	else
	{
		Selectivity s6 = version_selectivity(&vardata, DatumGetRangeTypeP(((Const *) range)->constvalue), 6);
		Selectivity s7 = version_selectivity(&vardata, DatumGetRangeTypeP(((Const *) range)->constvalue), 7);

		sel = s6 + s7 - s6 * s7;
	}
	ReleaseVariableStats(vardata);
	CLAMP_PROBABILITY(sel);
	return sel;
}

/*
 * SupportRequestSelectivity, for a restriction.  An arm with comparisons
 * (bounded) is estimated as the share of what the planner estimates for
 * the comparisons, so that the two multiplied give the arm's estimate, or
 * the comparisons' where the planner estimates them lower.
 */
static bool
selectivity(SupportRequestSelectivity *req)
{
	Node	   *id,
			   *range;
	int			version = 0;
	bool		bounded = false;
	Selectivity sel;

	if (req->is_join)
		return false;
	if (list_length(req->args) == 4)
	{
		Node	   *version_arg = lthird(req->args);
		Node	   *bounded_arg = lfourth(req->args);

		if (!IsA(version_arg, Const) || ((Const *) version_arg)->constisnull ||
			!IsA(bounded_arg, Const) || ((Const *) bounded_arg)->constisnull)
			return false;
		version = DatumGetInt32(((Const *) version_arg)->constvalue);
		bounded = DatumGetBool(((Const *) bounded_arg)->constvalue);
		if (version != 6 && version != 7)
			return false;
	}
	if (exprType(linitial(req->args)) == UUIDOID)
	{
		id = linitial(req->args);
		range = lsecond(req->args);
	}
	else
	{
		range = linitial(req->args);
		id = lsecond(req->args);
	}

	sel = time_range_selectivity(req->root, id, range, version, req->varRelid);
	if (bounded)
	{
		Oid			opfamily = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
		List	   *comparisons = list_make2(comparison(opfamily, id, bound_expr(req->funcid, range, version, false), false),
											 comparison(opfamily, id, bound_expr(req->funcid, range, version, true), true));
		Selectivity pair = clauselist_selectivity(req->root, comparisons, req->varRelid,
												  JOIN_INNER, NULL);

		sel = pair > sel ? sel / pair : 1.0;
	}
	CLAMP_PROBABILITY(sel);
	req->selectivity = sel;
	return true;
}

Datum
uuidx_time_range_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

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
 * The operators' restriction estimator, for the cases the support function
 * left as they were (a volatile side).
 */
Datum
uuidx_time_range_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	Node	   *id,
			   *range;

	if (list_length(args) != 2)
		PG_RETURN_FLOAT8(2 * DEFAULT_RANGE_INEQ_SEL);
	if (exprType(linitial(args)) == UUIDOID)
	{
		id = linitial(args);
		range = lsecond(args);
	}
	else
	{
		range = linitial(args);
		id = lsecond(args);
	}
	PG_RETURN_FLOAT8(time_range_selectivity(root, id, range, 0, varRelid));
}
