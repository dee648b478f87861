/*-------------------------------------------------------------------------
 *
 * clauses.c
 *	  The clauses the planner makes of a time window on a key: the arms of
 *	  each version, the key bounds beside them, the checks of the range a
 *	  query builds, and what a clause of this extension asks.  What they
 *	  are and why is told at the head of support.c, whose
 *	  support function makes them of id <@ r; forms.c makes them
 *	  of the forms users write.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

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

/* How the planner's pieces are marked (uuidx_tr_piece_by_hand()). */
#define PIECE_FORMAT COERCE_SQL_SYNTAX

/* The SQL functions the planner's expressions call, by name. */
#define WITHIN_FUNCTION "uuidx_time_within"
#define BETWEEN_FUNCTION "uuidx_time_between"
#define COMPARED_FUNCTION "uuidx_time_compared"
#define BOUND_FUNCTION "uuidx_time_bound"

/* The support function's OID, to know the clauses of this extension. */
Oid			uuidx_tr_support_oid = InvalidOid;

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

/* A NULL timestamptz: an open side of a range. */
Node *
uuidx_tr_timestamptz_null(void)
{
	return (Node *) makeNullConst(TIMESTAMPTZOID, -1, InvalidOid);
}

/* tstzrange(lower, upper, bounds) */
Node *
uuidx_tr_range_from_parts(Node *lower, Node *upper, Node *bounds)
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

		if (!uuidx_tr_valid_bound_flags(flags, strlen(flags)))
			return false;		/* left to fail as written */
		*bounds = lthird(call->args);
	}
	else
		return false;
	*lower = linitial(call->args);
	*upper = lsecond(call->args);
	return true;
}

/* A timestamptz constant's value; is_null for NULL.  False for others. */
static bool
const_timestamp(Node *node, bool *is_null, TimestampTz *value)
{
	if (!IsA(node, Const))
		return false;
	*is_null = ((Const *) node)->constisnull;
	*value = *is_null ? 0 : DatumGetTimestampTz(((Const *) node)->constvalue);
	return true;
}

/*
 * The window of a range known when planning: a non-NULL constant, or a
 * constructor of constants that makes a range; false for anything else.
 */
static bool
known_window(Node *range, TimeWindow *w)
{
	Node	   *lower,
			   *upper,
			   *bounds;
	bool		lower_null,
				upper_null;
	TimestampTz lower_value,
				upper_value;
	char	   *flags;

	if (IsA(range, Const))
	{
		if (((Const *) range)->constisnull)
			return false;
		uuidx_tr_range_window(DatumGetRangeTypeP(((Const *) range)->constvalue), w);
		return true;
	}
	if (!range_constructor_args(range, &lower, &upper, &bounds) ||
		!const_timestamp(lower, &lower_null, &lower_value) ||
		!const_timestamp(upper, &upper_null, &upper_value))
		return false;
	flags = TextDatumGetCString(((Const *) bounds)->constvalue);
	return uuidx_tr_parts_window(lower_null, lower_value, upper_null, upper_value,
								 flags, strlen(flags), w);
}

/*
 * The window of a range as the planner estimates it: a constant, a
 * parameter with a value, or a stable expression evaluated now.  A range
 * the query builds is estimated from its parts, without building it: parts
 * that cross, which the constructor would refuse when the query runs, hold
 * no time here (the query then raises the constructor's error, or, for
 * two comparisons the rewrite made into one window, returns no row).
 * False where the planner cannot tell.
 */
bool
uuidx_tr_estimated_window(PlannerInfo *root, Node *range, TimeWindow *w)
{
	Node	   *lower,
			   *upper,
			   *bounds;
	bool		lower_null,
				upper_null;
	TimestampTz lower_value,
				upper_value;

	if (range_constructor_args(range, &lower, &upper, &bounds))
	{
		char	   *flags;

		if (!const_timestamp(estimate_expression_value(root, lower), &lower_null, &lower_value) ||
			!const_timestamp(estimate_expression_value(root, upper), &upper_null, &upper_value))
			return false;
		flags = TextDatumGetCString(((Const *) bounds)->constvalue);
		if (!uuidx_tr_parts_window(lower_null, lower_value, upper_null, upper_value,
								   flags, strlen(flags), w))
			w->empty[0] = w->empty[1] = true;
		return true;
	}
	range = estimate_expression_value(root, range);
	if (!IsA(range, Const) || ((Const *) range)->constisnull)
		return false;
	uuidx_tr_range_window(DatumGetRangeTypeP(((Const *) range)->constvalue), w);
	return true;
}

/*
 * Which sides of the range are open, as far as the planner can tell: a
 * missing or infinite bound of a constant, or a NULL or infinite constant
 * part of a constructor.  The keys of every version then reach the end of
 * its key space on that side, and an index condition there would hold
 * for every key of the version.
 */
void
uuidx_tr_open_sides(Node *range, bool *lower_open, bool *upper_open)
{
	Node	   *lower,
			   *upper,
			   *bounds;
	bool		is_null;
	TimestampTz value;

	*lower_open = *upper_open = false;
	if (IsA(range, Const) && !((Const *) range)->constisnull)
	{
		TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
		RangeBound	lb,
					ub;
		bool		empty;

		range_deserialize(typcache, DatumGetRangeTypeP(((Const *) range)->constvalue),
						  &lb, &ub, &empty);
		*lower_open = !empty && (lb.infinite || DatumGetTimestampTz(lb.val) == DT_NOBEGIN);
		*upper_open = !empty && (ub.infinite || DatumGetTimestampTz(ub.val) == DT_NOEND);
	}
	else if (range_constructor_args(range, &lower, &upper, &bounds))
	{
		*lower_open = const_timestamp(lower, &is_null, &value) && (is_null || value == DT_NOBEGIN);
		*upper_open = const_timestamp(upper, &is_null, &value) && (is_null || value == DT_NOEND);
	}
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

static const Oid parts_arm_types[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID, TEXTOID, INT4OID, BOOLOID};

/* uuidx_time_compared() of SQL 1.3.1; InvalidOid at an earlier version. */
Oid
uuidx_tr_compared_function(Oid ext_fn)
{
	return uuidx_tr_same_extension_function(ext_fn, COMPARED_FUNCTION, 6, parts_arm_types);
}

/*
 * What a call of fn (a function this support function serves) with these
 * arguments asks; false for anything else.
 */
bool
uuidx_tr_clause_parts(Oid fn, List *args, TimeClause *c)
{
	int			n = list_length(args);
	Node	   *version_arg = NULL;
	bool		flag = false;

	c->version = 0;
	c->beside = false;
	c->pruned = false;
	c->compared = n == 6 && fn == uuidx_tr_compared_function(fn);
	if (n == 2)
	{
		uuidx_tr_operator_sides(args, &c->id, &c->range);
		return true;
	}
	if (n < 3 || n > 6)
		return false;
	c->id = linitial(args);
	if (n == 3 || n == 4)
		c->range = lsecond(args);
	else
	{
		Node	   *lower,
				   *upper,
				   *bounds;

		/*
		 * The planner's clauses pass valid bounds flags, a constant.  Others
		 * (written by hand) give NULL for every row where the constructor
		 * would fail: nothing to derive from them, which would fail.
		 */
		c->range = uuidx_tr_range_from_parts(lsecond(args), lthird(args), lfourth(args));
		if (!range_constructor_args(c->range, &lower, &upper, &bounds))
			return false;
	}
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
 * The versions, of those in the mask (a bit per version), whose keys can
 * lie in the range: all, unless the range is known when planning and holds
 * no time of one of them.  At least one is kept, so that a NULL id still
 * gives NULL.
 */
int
uuidx_tr_window_versions(Node *range, int mask, int *versions)
{
	TimeWindow	w;
	bool		known = known_window(range, &w);
	int			n = 0;

	for (int version = 7; version >= 6; version--)
		if ((mask & (1 << version)) && (!known || !w.empty[WINDOW_INDEX(version)]))
			versions[n++] = version;
	if (n == 0)
		versions[n++] = (mask & (1 << 7)) || !(mask & (1 << 6)) ? 7 : 6;
	return n;
}

/*
 * uuidx_time_bound(lower, upper, bounds, version, largest) of SQL 1.3.1,
 * or InvalidOid in a database at an earlier SQL version.
 */
Oid
uuidx_tr_parts_bound_function(Oid ext_fn)
{
	static const Oid argtypes[] = {TIMESTAMPTZOID, TIMESTAMPTZOID, TEXTOID, INT4OID, BOOLOID};

	return uuidx_tr_same_extension_function(ext_fn, BOUND_FUNCTION, 5, argtypes);
}

/*
 * The expression of one version's bound: a constant when the range is one,
 * else a call of uuidx_time_bound() to be evaluated when the scan starts:
 * of the range's parts where the query builds it (and SQL 1.3.1 has that
 * function), of the range itself otherwise.
 */
static Node *
bound_expr(Oid ext_fn, Node *range, int version, bool upper)
{
	static const Oid argtypes[] = {TSTZRANGEOID, INT4OID, BOOLOID};
	TimeWindow	w;
	Oid			fn;
	Node	   *lower_part,
			   *upper_part,
			   *flags;

	if (known_window(range, &w))
	{
		pg_uuid_t	bound;

		uuidx_tr_window_bound(&w, version, upper, &bound);
		return make_uuid_const(&bound);
	}
	fn = uuidx_tr_parts_bound_function(ext_fn);
	if (OidIsValid(fn) && range_constructor_args(range, &lower_part, &upper_part, &flags))
		return make_call(fn, UUIDOID,
						 list_make5(copyObject(lower_part), copyObject(upper_part), copyObject(flags),
									make_int4_const(version), make_bool_const(upper)));
	fn = uuidx_tr_same_extension_function(ext_fn, BOUND_FUNCTION, 3, argtypes);
	if (!OidIsValid(fn))
		elog(ERROR, "function %s of extension uuidx is missing", BOUND_FUNCTION);
	return (Node *) makeFuncExpr(fn, UUIDOID,
								 list_make3(copyObject(range), make_int4_const(version),
											make_bool_const(upper)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * LEAST (op IS_LEAST) or GREATEST of a and b, of a type with a default
 * B-tree class and no collation (uuid, timestamptz).
 */
Node *
uuidx_tr_minmax(Oid type, MinMaxOp op, Node *a, Node *b)
{
	MinMaxExpr *mm = makeNode(MinMaxExpr);

	mm->minmaxtype = type;
	mm->minmaxcollid = InvalidOid;
	mm->inputcollid = InvalidOid;
	mm->op = op;
	mm->args = list_make2(a, b);
	mm->location = -1;
	return (Node *) mm;
}

/*
 * The lower (or upper) bound of the keys of the given versions whose time
 * lies in the range: one version's bound, or the least lower (greatest
 * upper) of two.
 */
static Node *
versions_bound(Oid ext_fn, Node *range, const int *versions, int n, bool upper)
{
	TimeWindow	w;

	if (n == 1)
		return bound_expr(ext_fn, range, versions[0], upper);
	if (known_window(range, &w))
	{
		pg_uuid_t	a,
					b;
		bool		a_first;

		uuidx_tr_window_bound(&w, versions[0], upper, &a);
		uuidx_tr_window_bound(&w, versions[1], upper, &b);
		a_first = memcmp(a.data, b.data, UUID_LEN) <= 0;
		return make_uuid_const(a_first != upper ? &a : &b);
	}
	return uuidx_tr_minmax(UUIDOID, upper ? IS_GREATEST : IS_LEAST,
						   bound_expr(ext_fn, range, versions[0], upper),
						   bound_expr(ext_fn, range, versions[1], upper));
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

/*
 * id >= lower AND id <= upper for the keys of the versions in the range,
 * without the side where the range is open: there the condition would hold
 * for every key of the versions, and only cost an estimate.  NIL when both
 * are open.
 */
List *
uuidx_tr_bounds_list(Oid ext_fn, Node *id, Node *range, const int *versions, int n, bool compared)
{
	bool		lower_open,
				upper_open;
	List	   *result = NIL;
	Node	   *lower,
			   *upper,
			   *bounds;
	Node	   *lower_range = range;
	Node	   *upper_range = range;

	/*
	 * Two comparisons' times may cross, where they hold no row: each bound is
	 * then of its own side, open on the other, which never crosses; of
	 * crossed times the lower bound comes after the upper, and the range of
	 * keys holds none.  (A range the query builds raises, as built.)
	 */
	if (compared && range_constructor_args(range, &lower, &upper, &bounds))
	{
		lower_range = uuidx_tr_range_from_parts(lower, uuidx_tr_timestamptz_null(), bounds);
		upper_range = uuidx_tr_range_from_parts(uuidx_tr_timestamptz_null(), upper, bounds);
	}
	uuidx_tr_open_sides(range, &lower_open, &upper_open);
	if (!lower_open)
		result = lappend(result, comparison(id, versions_bound(ext_fn, lower_range, versions, n, false), false));
	if (!upper_open)
		result = lappend(result, comparison(id, versions_bound(ext_fn, upper_range, versions, n, true), true));
	return result;
}

/* The index conditions of one version's keys in the range (see uuidx_tr_bounds_list()). */
List *
uuidx_tr_version_bounds(Oid ext_fn, Node *id, Node *range, int version, bool compared)
{
	return uuidx_tr_bounds_list(ext_fn, id, range, &version, 1, compared);
}

/*
 * An arm: uuidx_time_within(id, range, version, pruned), or, where the
 * query builds the range from its parts, uuidx_time_between(id, lower,
 * upper, bounds, version, pruned).  NULL where the extension's SQL objects
 * lack the function.
 */
static Node *
make_arm(Oid ext_fn, Node *id, Node *range, int version, bool pruned, bool compared)
{
	static const Oid within_types[] = {UUIDOID, TSTZRANGEOID, INT4OID, BOOLOID};
	Node	   *lower,
			   *upper,
			   *bounds;
	List	   *args;
	Oid			fn;
	FuncExpr   *call;

	if (range_constructor_args(range, &lower, &upper, &bounds))
	{
		args = list_make4(copyObject(id), copyObject(lower), copyObject(upper), copyObject(bounds));
		fn = compared ? uuidx_tr_compared_function(ext_fn) :
			uuidx_tr_same_extension_function(ext_fn, BETWEEN_FUNCTION, 6, parts_arm_types);
	}
	else
	{
		args = list_make2(copyObject(id), copyObject(range));
		fn = uuidx_tr_same_extension_function(ext_fn, WITHIN_FUNCTION, 4, within_types);
	}
	if (!OidIsValid(fn))
		return NULL;
	args = lappend(args, make_int4_const(version));
	call = (FuncExpr *) make_call(fn, BOOLOID, lappend(args, make_bool_const(pruned)));
	call->funcformat = PIECE_FORMAT;
	return (Node *) call;
}

/*
 * Is the node a piece that takes a range's parts written by hand, not one
 * the planner made?  The planner marks its own with a call form the parser
 * gives only to the SQL standard's special syntaxes of core's functions
 * (PIECE_FORMAT), which EXPLAIN prints as any call, equal() ignores, and
 * copies and parallel workers' plans keep.  The parts of a piece written by
 * hand may cross, where it gives NULL for every row: its key bounds are
 * computed one side each, as those of two comparisons are, and never raise
 * the range constructor's error, which those of a range the query builds
 * raise as the range in the query would.
 */
bool
uuidx_tr_piece_by_hand(Node *node)
{
	return IsA(node, FuncExpr) && list_length(((FuncExpr *) node)->args) >= 5 &&
		((FuncExpr *) node)->funcformat != PIECE_FORMAT;
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
	test->arg = (Expr *) uuidx_tr_range_from_parts(copyObject(lower), copyObject(upper), copyObject(bounds));
	test->nulltesttype = IS_NOT_NULL;
	test->argisrow = false;
	test->location = -1;
	return (Node *) test;
}

/* The range of every time, '(,)'. */
static Node *
every_time(void)
{
	Datum		range = OidInputFunctionCall(F_RANGE_IN, "(,)", TSTZRANGEOID, -1);

	return (Node *) makeConst(TSTZRANGEOID, -1, InvalidOid, -1, range, false, false);
}

/*
 * The comparisons of a TimescaleDB uuid dimension (hypertables.c), their
 * bounds kept within the v7 keys, from the least to the greatest:
 * TimescaleDB refuses, at planning, a constant compared with the column
 * that is no v7 key (where the comparison stands among the query's
 * conditions, not inside an OR), and a window that holds no v7 time
 * (before 1970, after 10889, empty) has the max or the nil UUID for a
 * bound.  The comparisons then hold for the least or the greatest v7 key,
 * outside the window, which the arm beside them checks: no key range is
 * exact there, as no v7 key lies below the least.
 */
static List *
v7_keys_bounds(List *comparisons)
{
	static const pg_uuid_t least = {{0, 0, 0, 0, 0, 0, 0x70, 0, 0x80, 0, 0, 0, 0, 0, 0, 0}};
	static const pg_uuid_t greatest = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff,
	0xbf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	ListCell   *lc;

	foreach(lc, comparisons)
	{
		OpExpr	   *op = lfirst(lc);

		lsecond(op->args) = uuidx_tr_minmax(UUIDOID, IS_LEAST,
											uuidx_tr_minmax(UUIDOID, IS_GREATEST, lsecond(op->args),
															make_uuid_const(&least)),
											make_uuid_const(&greatest));
	}
	return comparisons;
}

/* Clauses ANDed, or the one clause. */
static Node *
and_of(List *clauses)
{
	return list_length(clauses) == 1 ? linitial(clauses) : (Node *) make_andclause(clauses);
}

/*
 * The versions of the mask (a bit per version) that the column can hold,
 * as its table's constraints say (declared); the mask itself where they
 * say nothing of them, or the table is not known.
 */
static int
column_versions(Oid ext_fn, const TimeTarget *target, int mask, UuidxDeclared *declared)
{
	uuidx_tr_declared(ext_fn, OidIsValid(target->relid) ? target->relid : InvalidOid,
					  target->attnum, declared);
	return (mask & declared->versions) != 0 ? mask & declared->versions : mask;
}

/*
 * The clauses that say that id is a key of a version in the mask (a bit
 * per version, 6 and 7) whose time lies in the range, as described at the
 * head of support.c: the range's check (with check_range, for a range the
 * query builds), the comparisons for partition pruning where id is the
 * partition key, and one arm per version, ORed.  The versions are those of
 * the mask that the column can hold, as its table's constraints say, and
 * that the range, where it is known, holds times of.  NULL where the
 * extension's SQL objects lack the pieces.
 */
Node *
uuidx_tr_make_clauses(Oid ext_fn, Node *id, Node *range, int mask,
					  const TimeTarget *target, bool check_range, bool compared)
{
	int			versions[2];
	int			n;
	bool		pruned = false;
	Node	   *check;
	Node	   *lower,
			   *upper,
			   *bounds;
	List	   *clauses = NIL;
	List	   *arms = NIL;
	UuidxDeclared declared;

	/*
	 * A range the query builds takes one form, tstzrange(lower, upper,
	 * bounds), in every clause made from it, as the arms read it back
	 * (uuidx_tr_clause_parts()): so the clauses made for the arms are equal
	 * to these.
	 */
	if (range_constructor_args(range, &lower, &upper, &bounds))
		range = uuidx_tr_range_from_parts(lower, upper, bounds);
	n = uuidx_tr_window_versions(range, column_versions(ext_fn, target, mask, &declared), versions);
	check = check_range ? range_check(range) : NULL;
	if (check != NULL)
		clauses = lappend(clauses, check);
	if (target->partition_key || declared.dimension)
	{
		List	   *pairs = NIL;

		pruned = true;
		for (int i = 0; i < n && pruned; i++)
		{
			List	   *pair = uuidx_tr_bounds_list(ext_fn, id, range, &versions[i], 1, compared);

			if (pair == NIL)
				pruned = false; /* a version's keys all qualify: nothing to
								 * prune */
			else if (declared.dimension && versions[i] == 7)
				pair = v7_keys_bounds(pair);
			else if (declared.dimension && n == 1)
				pruned = false; /* v6 keys alone, before 1970: TimescaleDB
								 * refuses their comparisons */
			pairs = lappend(pairs, and_of(pair));
		}
		if (pruned && n == 1 && !declared.dimension)
		{
			/*
			 * One version: a key of it lies in its key range exactly when its
			 * time lies in the window, so beside the comparisons the arm need
			 * only check that the key is of the version, over every time (a
			 * constant, cheap for every row of every partition); not at all
			 * where the column's constraints say every key is of it.  (Not on
			 * a TimescaleDB dimension, whose comparisons v7_keys_bounds()
			 * keeps within the v7 keys: they are not exact.)
			 */
			clauses = lappend(clauses, linitial(pairs));
			if (!(declared.strong && declared.only == versions[0]))
			{
				Node	   *arm = make_arm(ext_fn, id, every_time(), versions[0], true, false);

				if (arm == NULL)
					return NULL;
				clauses = lappend(clauses, arm);
			}
			return and_of(clauses);
		}
		if (pruned)
			clauses = lappend(clauses, n == 1 ? linitial(pairs) : (Node *) make_orclause(pairs));
	}
	for (int i = 0; i < n; i++)
	{
		Node	   *arm = make_arm(ext_fn, id, range, versions[i], pruned, compared);

		if (arm == NULL)
			return NULL;
		arms = lappend(arms, arm);
	}
	clauses = lappend(clauses, n == 1 ? linitial(arms) : (Node *) make_orclause(arms));
	return and_of(clauses);
}

/*
 * The two sides of id <@ r or r @> id, whichever order the arguments come
 * in.
 */
void
uuidx_tr_operator_sides(List *args, Node **id, Node **range)
{
	bool		id_first = exprType(linitial(args)) == UUIDOID ||
		getBaseType(exprType(linitial(args))) == UUIDOID;

	*id = id_first ? linitial(args) : lsecond(args);
	*range = id_first ? lsecond(args) : linitial(args);
}

/*
 * What a call of fn with these arguments asks, when fn is one of the
 * operators' functions or the pieces (a function this support function
 * serves); false for anything else.
 */
bool
uuidx_tr_read_clause(Oid fn, List *args, TimeClause *c)
{
	return OidIsValid(uuidx_tr_support_oid) && get_func_support(fn) == uuidx_tr_support_oid &&
		uuidx_tr_clause_parts(fn, args, c);
}
