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
 * histogram (SupportRequestSelectivity).  A range the query builds,
 * tstzrange(a, b[, bounds]), reaches the arms as its parts,
 * uuidx_time_between(id, a, b, bounds, 7, false): the executor evaluates
 * an arm's arguments for every row, and the parts cost less to compute and
 * compare than a range does to build.
 *
 * Partition pruning reads comparison operators only, so where id is the
 * range partition key of a partitioned table the comparisons come as a
 * clause of their own, beside the arms:
 *
 *	 (id >= lower7 AND id <= upper7 OR id >= lower6 AND id <= upper6)
 *	 AND (uuidx_time_within(id, r, 7, true) OR ...)
 *
 * The comparisons prune and make the index scans (as index conditions they
 * are not checked again per row); the last argument of the arms, true,
 * tells the support function they are there: such an arm makes no index
 * conditions of its own, and its estimate is the share that remains once
 * the planner's estimate of the comparisons is counted.
 *
 * Whatever plan runs, every row passes through an arm, which is the
 * definition itself; the index conditions and the comparisons only leave
 * out rows it would reject.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"
#include "compat.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "port/pg_bswap.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
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
PG_FUNCTION_INFO_V1(uuidx_time_between);
PG_FUNCTION_INFO_V1(uuidx_time_bound);
PG_FUNCTION_INFO_V1(uuidx_time_range_support);
PG_FUNCTION_INFO_V1(uuidx_time_range_sel);

/* The SQL functions the planner's expressions call, by name. */
#define WITHIN_FUNCTION "uuidx_time_within"
#define BETWEEN_FUNCTION "uuidx_time_between"
#define BOUND_FUNCTION "uuidx_time_bound"

/*
 * A range as what it holds of each version: the interval [first, last] of
 * v6 timestamps (100-ns ticks) and of v7 timestamps (Unix milliseconds)
 * whose uuid_timestamp() lies in it.  "Lies in" is core's range
 * containment; since uuid_timestamp() is a whole number of microseconds
 * computed from the version's timestamp by a rounding-down division, the
 * timestamps that qualify are exactly one such interval.
 */
typedef struct TimeWindow
{
	bool		empty[2];		/* [0]: v6, [1]: v7 */
	uint64		first[2];
	uint64		last[2];
} TimeWindow;

#define WINDOW_INDEX(version) ((version) == 7 ? 1 : 0)

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
 * A timestamptz as Unix microseconds, clamped to +-WINDOW_LIMIT_US: about
 * 12,700 years either side of 1970, beyond the spans of v6 (1582-5236) and
 * v7 (1970-10889), so a clamped bound holds the same UUIDs, and the tick
 * arithmetic below cannot overflow (timestamptz reaches 294276 AD).
 */
#define WINDOW_LIMIT_US INT64CONST(400000000000000000)

static int64
window_unix_us(TimestampTz ts)
{
	if (ts > WINDOW_LIMIT_US)
		return WINDOW_LIMIT_US;
	if (ts < -WINDOW_LIMIT_US)
		return -WINDOW_LIMIT_US;
	return uuidx_timestamptz_to_unix_us(ts);
}

static void
range_window(const RangeType *r, TimeWindow *w)
{
	TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	RangeBound	lower,
				upper;
	bool		empty;
	bool		from_start,
				to_end;
	int64		first = 0,
				last = 0;

	w->empty[0] = w->empty[1] = true;
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
		first = window_unix_us(DatumGetTimestampTz(lower.val)) + (lower.inclusive ? 0 : 1);
	if (!to_end)
		last = window_unix_us(DatumGetTimestampTz(upper.val)) - (upper.inclusive ? 0 : 1);

	for (int version = 6; version <= 7; version++)
	{
		int64		lo,
					hi,
					max;

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
			 * uuid_timestamp() of a v6 is floor((ticks - offset) / 10) us;
			 * with first and last within WINDOW_LIMIT_US the products stay
			 * inside int64.
			 */
			max = UUIDX_V6_MAX_TICKS;
			lo = from_start ? 0 : first * 10 + UUIDX_GREGORIAN_OFFSET_TICKS;
			hi = to_end ? max : last * 10 + 9 + UUIDX_GREGORIAN_OFFSET_TICKS;
		}
		lo = Max(lo, 0);
		hi = Min(hi, max);
		w->empty[WINDOW_INDEX(version)] = lo > hi;
		w->first[WINDOW_INDEX(version)] = (uint64) lo;
		w->last[WINDOW_INDEX(version)] = (uint64) hi;
	}
}

/* The time of a v6 or v7 in the window's units: ticks, or Unix ms. */
static inline uint64
time_of(const pg_uuid_t *uuid, int version)
{
	return version == 7 ? uuidx_v7_unix_ms(uuid) : uuidx_v6_ticks(uuid);
}

/*
 * Is the UUID a v6 or v7 (version 0: either; else that one) whose time lies
 * in the window?
 */
static bool
in_window(const pg_uuid_t *uuid, const TimeWindow *w, int version)
{
	int			v = uuidx_version_of(uuid);
	int			i = WINDOW_INDEX(v);
	uint64		t;

	if ((v != 6 && v != 7) || (version != 0 && v != version) || w->empty[i])
		return false;
	t = time_of(uuid, v);
	return t >= w->first[i] && t <= w->last[i];
}

/*
 * The smallest (or, upper, largest) UUID of the version whose time lies in
 * the window; where none does, the max UUID (or the nil UUID), so that
 * id >= lower AND id <= upper holds for no id.
 */
static void
window_bound(const TimeWindow *w, int version, bool upper, pg_uuid_t *bound)
{
	int			i = WINDOW_INDEX(version);

	if (w->empty[i])
		memset(bound->data, upper ? 0x00 : 0xFF, UUID_LEN);
	else
		uuidx_layout_time_bound(bound, version, upper ? w->last[i] : w->first[i], upper);
}

/* The window of a range that is a non-NULL constant; false for anything else. */
static bool
const_window(Node *range, TimeWindow *w)
{
	if (!IsA(range, Const) || ((Const *) range)->constisnull)
		return false;
	range_window(DatumGetRangeTypeP(((Const *) range)->constvalue), w);
	return true;
}

/* The flags of a range constructor: [] [) (] or (). */
static bool
valid_bound_flags(const char *flags, size_t len)
{
	return len == 2 && (flags[0] == '[' || flags[0] == '(') &&
		(flags[1] == ']' || flags[1] == ')');
}

/*
 * The window of the range argument, kept in fn_extra: a query passes the
 * same range for every row, which is then decoded once.  A constant keeps
 * its value as long as the call site lives; anything else, parameters
 * included (PL/pgSQL keeps a call site for a whole transaction while its
 * variables change), is compared with the bytes the window was computed
 * from.
 */
typedef struct WindowCache
{
	TimeWindow	window;
	bool		stable;			/* the argument is a Const */
	Size		len;
	char		bytes[FLEXIBLE_ARRAY_MEMBER];
} WindowCache;

static bool
arg_is_const(FmgrInfo *flinfo, int argno)
{
	Node	   *expr = flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

static const TimeWindow *
window_arg(FunctionCallInfo fcinfo, int argno)
{
	WindowCache *cache = (WindowCache *) fcinfo->flinfo->fn_extra;
	struct varlena *packed;
	Size		len;

	if (cache != NULL && cache->stable)
		return &cache->window;
	packed = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(argno));
	len = VARSIZE_ANY_EXHDR(packed);
	if (cache == NULL || cache->len != len ||
		memcmp(cache->bytes, VARDATA_ANY(packed), len) != 0)
	{
		if (cache != NULL)
			pfree(cache);
		cache = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt,
								   offsetof(WindowCache, bytes) + len);
		range_window(PG_GETARG_RANGE_P(argno), &cache->window);
		cache->stable = arg_is_const(fcinfo->flinfo, argno);
		cache->len = len;
		memcpy(cache->bytes, VARDATA_ANY(packed), len);
		fcinfo->flinfo->fn_extra = cache;
	}
	return &cache->window;
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
	PG_RETURN_BOOL(in_window(PG_GETARG_UUID_P(0), window_arg(fcinfo, 1), 0));
}

Datum
uuidx_tstzrange_contains_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(in_window(PG_GETARG_UUID_P(1), window_arg(fcinfo, 0), 0));
}

/*
 * uuidx_time_within(id, r, version, bounded): id <@ r for one version, and
 * false for a version other than 6 or 7 (it never fails: LEAKPROOF).
 * bounded only informs the planner (see the head of this file).
 */
Datum
uuidx_time_within(PG_FUNCTION_ARGS)
{
	int32		version = PG_GETARG_INT32(2);

	if (version != 6 && version != 7)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(in_window(PG_GETARG_UUID_P(0), window_arg(fcinfo, 1), version));
}

/*
 * uuidx_time_between(id, lower, upper, bounds, version, bounded): the same
 * as uuidx_time_within(id, tstzrange(lower, upper, bounds), version,
 * bounded).  The planner passes a range the query builds from timestamps
 * (tstzrange(now() - interval '1 hour', now())) this way, so that for each
 * row only the timestamps are computed and compared, not a range built.
 * Not strict, as the constructor is not: a NULL timestamp leaves that side
 * open.  The range is checked as the constructor checks it, before id is
 * looked at, so an invalid one fails as it would in the query as written.
 */
typedef struct BetweenCache
{
	bool		valid;			/* false while a range is being checked */
	bool		lower_null;
	bool		upper_null;
	TimestampTz lower;
	TimestampTz upper;
	char		bounds[2];
	TimeWindow	window;
} BetweenCache;

Datum
uuidx_time_between(PG_FUNCTION_ARGS)
{
	BetweenCache *cache = (BetweenCache *) fcinfo->flinfo->fn_extra;
	bool		lower_null = PG_ARGISNULL(1);
	bool		upper_null = PG_ARGISNULL(2);
	TimestampTz lower = lower_null ? 0 : PG_GETARG_TIMESTAMPTZ(1);
	TimestampTz upper = upper_null ? 0 : PG_GETARG_TIMESTAMPTZ(2);
	text	   *bounds_text;
	const char *bounds;
	int32		version;

	if (PG_ARGISNULL(3) || PG_ARGISNULL(4))
		PG_RETURN_NULL();
	bounds_text = PG_GETARG_TEXT_PP(3);
	bounds = VARDATA_ANY(bounds_text);
	if (cache == NULL || !cache->valid ||
		cache->lower_null != lower_null || cache->upper_null != upper_null ||
		(!lower_null && cache->lower != lower) || (!upper_null && cache->upper != upper) ||
		VARSIZE_ANY_EXHDR(bounds_text) != 2 || memcmp(cache->bounds, bounds, 2) != 0)
	{
		TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
		RangeBound	lb,
					ub;

		if (!valid_bound_flags(bounds, VARSIZE_ANY_EXHDR(bounds_text)))
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("invalid range bound flags"),
					 errhint("Valid values are \"[]\", \"[)\", \"(]\", and \"()\".")));
		if (cache == NULL)
		{
			cache = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(BetweenCache));
			fcinfo->flinfo->fn_extra = cache;
		}
		cache->valid = false;	/* until the range is known good */
		lb.val = TimestampTzGetDatum(lower);
		lb.infinite = lower_null;
		lb.inclusive = bounds[0] == '[';
		lb.lower = true;
		ub.val = TimestampTzGetDatum(upper);
		ub.infinite = upper_null;
		ub.inclusive = bounds[1] == ']';
		ub.lower = false;
		range_window(UUIDX_MAKE_RANGE(typcache, &lb, &ub), &cache->window);
		cache->lower_null = lower_null;
		cache->upper_null = upper_null;
		cache->lower = lower;
		cache->upper = upper;
		memcpy(cache->bounds, bounds, 2);
		cache->valid = true;
	}
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	version = PG_GETARG_INT32(4);
	if (version != 6 && version != 7)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(in_window(PG_GETARG_UUID_P(0), &cache->window, version));
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
	int			version = check_version(PG_GETARG_INT32(1));
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	window_bound(window_arg(fcinfo, 0), version, PG_GETARG_BOOL(2), result);
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

	TimeWindow	w;

	if (const_window(range, &w))
	{
		pg_uuid_t	bound;

		window_bound(&w, version, upper, &bound);
		return make_uuid_const(&bound);
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
		elog(ERROR, "missing operator %s(uuid,uuid) in operator family %u",
			 upper ? "<=" : ">=", opfamily);
	op = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) copyObject(id),
								  (Expr *) bound, InvalidOid, InvalidOid);
	set_opfuncid(op);
	return (Expr *) op;
}

/* id >= lower AND id <= upper for one version's UUIDs in the range */
static Expr *
bounds_clause(Oid opfamily, Oid sibling, Node *id, Node *range, int version)
{
	return make_andclause(list_make2(comparison(opfamily, id, bound_expr(sibling, range, version, false), false),
									 comparison(opfamily, id, bound_expr(sibling, range, version, true), true)));
}

/*
 * The versions whose arm can match something: both, unless the range is a
 * constant that holds no time of one of them.  At least one is kept, so
 * that a NULL id still gives NULL.
 */
static int
arm_versions(Node *range, int *versions)
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
 * A tstzrange(lower, upper[, bounds]) call with constant bounds flags: its
 * arguments, for uuidx_time_between().
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

		if (!valid_bound_flags(flags, strlen(flags)))
			return false;		/* left to fail as written */
		*bounds = lthird(call->args);
	}
	else
		return false;
	*lower = linitial(call->args);
	*upper = lsecond(call->args);
	return true;
}

/*
 * One arm: uuidx_time_within(id, range, version, bounded), or, for a range
 * the query builds, uuidx_time_between(id, lower, upper, bounds, version,
 * bounded).
 */
static Node *
arm_call(Oid sibling, Node *id, Node *range, int version, bool bounded)
{
	static const Oid within_types[] = {UUIDOID, TSTZRANGEOID, INT4OID, BOOLOID};
	static const Oid between_types[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID, TEXTOID, INT4OID, BOOLOID};
	Node	   *lower,
			   *upper,
			   *bounds;

	if (range_constructor_args(range, &lower, &upper, &bounds))
		return (Node *) makeFuncExpr(sibling_function(sibling, BETWEEN_FUNCTION, 6, between_types),
									 BOOLOID,
									 lappend(list_make5(copyObject(id), copyObject(lower), copyObject(upper),
														copyObject(bounds), make_int4_const(version)),
											 make_bool_const(bounded)),
									 InvalidOid, DEFAULT_COLLATION_OID, COERCE_EXPLICIT_CALL);
	return (Node *) makeFuncExpr(sibling_function(sibling, WITHIN_FUNCTION, 4, within_types),
								 BOOLOID,
								 list_make4(copyObject(id), copyObject(range),
											make_int4_const(version), make_bool_const(bounded)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * An arm's parts: id, the range (rebuilt as an expression for
 * uuidx_time_between), version and bounded; false for another call.
 */
static bool
arm_parts(List *args, Node **id, Node **range, int *version, bool *bounded)
{
	Node	   *version_arg,
			   *bounded_arg;

	if (list_length(args) == 4)
	{
		*range = lsecond(args);
		version_arg = lthird(args);
		bounded_arg = lfourth(args);
	}
	else if (list_length(args) == 6)
	{
		*range = (Node *) makeFuncExpr(F_TSTZRANGE_TIMESTAMPTZ_TIMESTAMPTZ_TEXT, TSTZRANGEOID,
									   list_make3(lsecond(args), lthird(args), lfourth(args)),
									   InvalidOid, DEFAULT_COLLATION_OID, COERCE_EXPLICIT_CALL);
		version_arg = list_nth(args, 4);
		bounded_arg = list_nth(args, 5);
	}
	else
		return false;
	if (!IsA(version_arg, Const) || ((Const *) version_arg)->constisnull ||
		!IsA(bounded_arg, Const) || ((Const *) bounded_arg)->constisnull)
		return false;
	*id = linitial(args);
	*version = DatumGetInt32(((Const *) version_arg)->constvalue);
	*bounded = DatumGetBool(((Const *) bounded_arg)->constvalue);
	return *version == 6 || *version == 7;
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
 * The comparisons partition pruning reads: for each version's arm,
 * id >= lower AND id <= upper, ORed.
 */
static Node *
prune_clause(Oid sibling, Node *id, Node *range)
{
	Oid			opfamily = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	int			versions[2];
	int			n = arm_versions(range, versions);
	List	   *arms = NIL;

	for (int i = 0; i < n; i++)
		arms = lappend(arms, bounds_clause(opfamily, sibling, id, range, versions[i]));
	return n == 1 ? linitial(arms) : (Node *) make_orclause(arms);
}

/*
 * The two sides of id <@ r or r @> id, whichever order the arguments come
 * in.
 */
static void
operator_sides(List *args, Node **id, Node **range)
{
	bool		id_first = exprType(linitial(args)) == UUIDOID;

	*id = id_first ? linitial(args) : lsecond(args);
	*range = id_first ? lsecond(args) : linitial(args);
}

/*
 * SupportRequestSimplify: id <@ r (or r @> id) into one arm per version,
 * and on a range-partitioned table the comparisons for pruning beside them.
 */
static Node *
simplify(SupportRequestSimplify *req)
{
	FuncExpr   *call = req->fcall;
	Node	   *id,
			   *range;
	bool		bounded;
	int			versions[2];
	int			n;
	List	   *arms = NIL;
	Node	   *exact;

	if (list_length(call->args) != 2)
		return NULL;			/* the arms stay as they are */
	operator_sides(call->args, &id, &range);

	/*
	 * Only worth it where an index or a partition key can serve: id must read
	 * a column.  Both sides are evaluated once per arm, so neither may be
	 * volatile, nor hold a subquery (which would run once per copy).
	 */
	if (!contain_var_clause(id) ||
		contain_volatile_functions(id) || contain_volatile_functions(range) ||
		contain_subplans(id) || contain_subplans(range))
		return NULL;

	bounded = is_range_partition_key(req->root, id);
	n = arm_versions(range, versions);
	for (int i = 0; i < n; i++)
		arms = lappend(arms, arm_call(call->funcid, id, range, versions[i], bounded));
	exact = n == 1 ? linitial(arms) : (Node *) make_orclause(arms);
	if (!bounded)
		return exact;

	/*
	 * Two clauses, which the planner takes apart: the comparisons prune
	 * partitions and make the index scans (and, as the index conditions
	 * themselves, are not checked again per row), the arms check each row.
	 */
	return (Node *) make_andclause(list_make2(prune_clause(call->funcid, id, range), exact));
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
 * SupportRequestIndexCondition: an arm without comparisons of its own, on a
 * B-tree or BRIN index of id, gives id >= lower AND id <= upper.  Lossy:
 * the arm itself is checked on every row the index returns.
 */
static List *
index_condition(SupportRequestIndexCondition *req)
{
	FuncExpr   *call = (FuncExpr *) req->node;
	Node	   *id,
			   *range;
	int			version;
	bool		bounded;
	Oid			am;

	if (!IsA(call, FuncExpr) || req->indexarg != 0 ||
		!arm_parts(call->args, &id, &range, &version, &bounded) || bounded)
		return NIL;
	if (!is_pseudo_constant_for_index(req->root, range, req->index))
		return NIL;

	/* B-tree and BRIN (minmax) number their strategies alike */
	am = opfamily_method(req->opfamily);
	if ((am != BTREE_AM_OID && am != BRIN_AM_OID) ||
		!OidIsValid(get_opfamily_member(req->opfamily, UUIDOID, UUIDOID, BTGreaterEqualStrategyNumber)) ||
		!OidIsValid(get_opfamily_member(req->opfamily, UUIDOID, UUIDOID, BTLessEqualStrategyNumber)))
		return NIL;
	req->lossy = true;
	return list_make2(comparison(req->opfamily, id, bound_expr(req->funcid, range, version, false), false),
					  comparison(req->opfamily, id, bound_expr(req->funcid, range, version, true), true));
}

static uint64
first_eight_bytes(const pg_uuid_t *uuid)
{
	uint64		v;

	memcpy(&v, uuid->data, sizeof(v));
	return pg_ntoh64(v);
}

/* The time of a UUID of the version, in the window's units; false for others. */
static bool
version_time(const pg_uuid_t *uuid, int version, uint64 *t)
{
	if (uuidx_version_of(uuid) != version)
		return false;
	*t = time_of(uuid, version);
	return true;
}

/* The share of [t0, t1] that lies in [lo, hi], counting whole units. */
static double
time_share(uint64 t0, uint64 t1, uint64 lo, uint64 hi)
{
	uint64		from = Max(t0, lo);
	uint64		to = Min(t1, hi);

	if (from > to)
		return 0;
	return ((double) (to - from) + 1) / ((double) (t1 - t0) + 1);
}

/*
 * The share of histogram bin i, between bounds i and i + 1, that holds UUIDs
 * of the version with their time in the window [lower, upper].
 *
 * A bin whose two bounds are of the version is read on the first eight
 * bytes, taken as a number: they hold the time.  A bin with only one bound
 * of the version is where that version's keys begin or end in the uuid
 * order (the newest v7 keys, say, followed by v6 or v4 keys): reading it on
 * the bytes would spread its rows thinly over the gap to the other
 * version's keys.  Its rows of the version are taken to lie next to that
 * bound, over as much time as the neighbouring bin of the version covers,
 * since a bin holds as many rows as the next.  A bin with no bound of the
 * version is read on the bytes too.
 */
static double
bin_share(const Datum *values, int n, int i, const TimeWindow *w, int version,
		  const pg_uuid_t *lower, const pg_uuid_t *upper)
{
	const pg_uuid_t *a = DatumGetUUIDP(values[i]);
	const pg_uuid_t *b = DatumGetUUIDP(values[i + 1]);
	int			k = WINDOW_INDEX(version);
	uint64		ta,
				tb,
				ka,
				kb,
				from,
				to;
	bool		a_is = version_time(a, version, &ta);
	bool		b_is = version_time(b, version, &tb);

	if (a_is != b_is)
	{
		uint64		t = a_is ? ta : tb;
		int			j = a_is ? i - 1 : i + 1;	/* the neighbouring bin */
		uint64		width = 0,
					t0,
					t1;

		if (j >= 0 && j + 1 < n &&
			version_time(DatumGetUUIDP(values[j]), version, &t0) &&
			version_time(DatumGetUUIDP(values[j + 1]), version, &t1) && t1 >= t0)
			width = t1 - t0;
		if (a_is)
			return time_share(t, t + width < t ? PG_UINT64_MAX : t + width,
							  w->first[k], w->last[k]);
		return time_share(t > width ? t - width : 0, t, w->first[k], w->last[k]);
	}

	if (memcmp(upper->data, a->data, UUID_LEN) < 0 ||
		memcmp(lower->data, b->data, UUID_LEN) > 0)
		return 0;
	ka = first_eight_bytes(a);
	kb = first_eight_bytes(b);
	if (kb <= ka)
		return memcmp(lower->data, a->data, UUID_LEN) <= 0 &&
			memcmp(upper->data, b->data, UUID_LEN) >= 0 ? 1.0 : 0.5;
	from = Max(ka, first_eight_bytes(lower));
	to = Min(kb, first_eight_bytes(upper));
	if (from >= to)
		return 0;
	return (double) (to - from) / (double) (kb - ka);
}

/*
 * The share of rows whose id is a UUID of the version with its time in the
 * range, from id's statistics: the most common values that are, and the
 * part of the histogram between the version's bounds, bin by bin.
 */
static Selectivity
version_selectivity(VariableStatData *vardata, const RangeType *r, int version)
{
	Form_pg_statistic stats;
	AttStatsSlot sslot;
	TimeWindow	w;
	pg_uuid_t	lower,
				upper;
	double		mcv_match = 0,
				mcv_total = 0,
				hist = 0;

	range_window(r, &w);
	if (w.empty[WINDOW_INDEX(version)])
		return 0;
	window_bound(&w, version, false, &lower);
	window_bound(&w, version, true, &upper);
	if (!HeapTupleIsValid(vardata->statsTuple))
		return DEFAULT_RANGE_INEQ_SEL;
	stats = (Form_pg_statistic) GETSTRUCT(vardata->statsTuple);

	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV, InvalidOid,
						 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		for (int i = 0; i < sslot.nvalues; i++)
		{
			if (in_window(DatumGetUUIDP(sslot.values[i]), &w, version))
				mcv_match += sslot.numbers[i];
			mcv_total += sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
						 ATTSTATSSLOT_VALUES))
	{
		for (int i = 0; i + 1 < sslot.nvalues; i++)
			hist += bin_share(sslot.values, sslot.nvalues, i, &w, version, &lower, &upper);
		if (sslot.nvalues >= 2)
			hist /= sslot.nvalues - 1;
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
 * SupportRequestSelectivity, for a restriction.  An arm beside the
 * comparisons for pruning (bounded) is estimated as its share of what the
 * planner estimates for those comparisons, so that the two multiplied give
 * the arm's estimate, or the comparisons' where the planner estimates them
 * lower.
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
	if (list_length(req->args) == 2)
		operator_sides(req->args, &id, &range); /* the operators' functions */
	else if (!arm_parts(req->args, &id, &range, &version, &bounded))
		return false;

	sel = time_range_selectivity(req->root, id, range, version, req->varRelid);
	if (bounded)
	{
		Selectivity pruned = clause_selectivity(req->root,
												prune_clause(req->funcid, id, range),
												req->varRelid, JOIN_INNER, NULL);

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
	operator_sides(args, &id, &range);
	PG_RETURN_FLOAT8(time_range_selectivity(root, id, range, 0, varRelid));
}
