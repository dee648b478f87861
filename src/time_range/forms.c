/*-------------------------------------------------------------------------
 *
 * forms.c
 *	  The time queries users write, turned into id <@ tstzrange's clauses.
 *
 * Users write uuid_timestamp(id) >= now() - interval '1 hour', or
 * pg_uuidv7's uuid_v7_to_timestamptz(id), or, on PostgreSQL 18 and later,
 * core's uuid_extract_timestamp(id) (uuidx_core18's before 18, which reads
 * what 18's does), compared with a time, or contained in
 * a range.  The planner cannot use id's index for any of them: the
 * comparison is core's timestamptz operator, which knows nothing of id.
 * A planner hook (planner_hook, before the planner proper) rewrites each
 * such comparison that stands as a condition of its own in a WHERE or a
 * JOIN ... ON, where NULL and false both reject a row, into the clauses
 * uuidx_tr_make_clauses() makes for id <@ r (support.c): the arms
 * that the index answers and partition pruning reads, with a range built
 * from the compared time, for the versions whose keys the function reads:
 *
 *	 uuid_v7_to_timestamptz(id) >= t    v7 keys                 any column
 *	 uuid_extract_timestamp(id) >= t    v1 and v7 keys (18)     v1 excluded
 *	 uuid_timestamp(id) >= t            v1, v6 and v7 keys      v1 excluded
 *
 * A v1 key's time is not at the front of its bytes, so its keys of a time
 * window fill no interval of the key order: a form that reads v1 keys is
 * rewritten only where the column's validated CHECK constraints exclude
 * them (declared.c), and is left as written elsewhere (on
 * PostgreSQL 17, core's function reads v1 keys only: always left).  The
 * rewrite is exact: the arms are true for exactly the keys of those
 * versions whose time the function reads into the window, and the
 * function is NULL for every other key.  A NULL time compares as NULL, so
 * the rewrite adds t IS NOT NULL (a one-time check where t is a constant
 * or stable expression).  A lower and an upper comparison of the same form
 * with times fixed for the scan among the conditions of one WHERE or ON
 * (BETWEEN is two) make one window, which the planner estimates as one, not
 * as two independent conditions (see window_pair()).
 *
 * ORDER BY uuid_timestamp(id) [DESC] (or another form), as the last sort
 * key or followed by id [DESC] (the key breaking the time's ties, as ORMs
 * write it), becomes ORDER BY id [DESC] on a column whose constraints say
 * every key is a v7 (or v6) of the RFC variant, or, on any column, where
 * the form reads v7 keys only and the WHERE compares it (so every row
 * returned has a v7 key): there the time only grows with the key, so the
 * key's order is one of the time's, and an index on id serves it.  Not
 * with DISTINCT, GROUP BY, grouping sets, aggregates, window functions,
 * set-returning functions in the select list, set operations or FETCH ...
 * WITH TIES, whose results depend on the sort key itself.
 *
 * Neither rewrite touches a form that an index of the table holds as an
 * expression (CREATE INDEX ON t (uuid_timestamp(id))): that index answers
 * the query as written; nor one that is the table's partition key
 * (PARTITION BY RANGE (uuid_timestamp(id))), by which PostgreSQL prunes the
 * partitions, at planning or when the query starts.  Nor are comparisons
 * rewritten that, as written, imply the predicate of a partial index on
 * the form (WHERE uuid_timestamp(id) >= '2026-11-01'), which PostgreSQL
 * then proves and uses (form_calls.c).  The ORDER BY rewrite is
 * form_order.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "time_range/scan/scan.h"

#include "compat.h"
#include "access/stratnum.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_type_d.h"
#include "commands/extension.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

static planner_hook_type prev_planner_hook = NULL;

/*
 * The versions of the form's keys that have a key range, or 0 where the
 * form may read keys that have none (v1) in this column, or where an index
 * of the table holds the form itself (which the query then keeps).
 */
static int
form_key_versions(Query *query, const Form *form, TimeTarget *target)
{
	UuidxDeclared declared;
	int			versions = form->versions;

	uuidx_tr_target(query->rtable, form->id, target);
	if (OidIsValid(target->relid))
	{
		uuidx_tr_declared(form->ext_fn, target->relid, target->attnum, &declared);
		if (uuidx_tr_declared_indexed(&declared, form->fn))
			return 0;
		versions &= declared.versions;
	}
	if (versions & (1 << 1))
		return 0;
	return versions & UUIDX_KEY_VERSIONS;
}

static Node *
bounds_text(const char *flags)
{
	return (Node *) makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
							  CStringGetTextDatum(flags), false, false);
}

/* tstzrange(lower, upper, flags) */
static Node *
range_of(Node *lower, Node *upper, const char *flags)
{
	return uuidx_tr_range_from_parts(lower, upper, bounds_text(flags));
}

/*
 * The strategy of a comparison f(id) op t with f on the left (op commuted
 * otherwise), or 0 for an operator that is not one of timestamptz's.
 */
static int
comparison_strategy(Oid opfuncid, bool form_left)
{
	int			strategy;

	switch (opfuncid)
	{
		case F_TIMESTAMPTZ_LT:
			strategy = BTLessStrategyNumber;
			break;
		case F_TIMESTAMPTZ_LE:
			strategy = BTLessEqualStrategyNumber;
			break;
		case F_TIMESTAMPTZ_EQ:
			strategy = BTEqualStrategyNumber;
			break;
		case F_TIMESTAMPTZ_GE:
			strategy = BTGreaterEqualStrategyNumber;
			break;
		case F_TIMESTAMPTZ_GT:
			strategy = BTGreaterStrategyNumber;
			break;
		default:
			return 0;
	}
	if (!form_left && strategy != BTEqualStrategyNumber)
		strategy = BTMaxStrategyNumber + 1 - strategy;
	return strategy;
}

/*
 * Is the time never NULL?  A constant that is not, a current time (now(),
 * CURRENT_TIMESTAMP ...), and such times moved by an interval, truncated or
 * cast from a date: a few functions that return a value for every
 * argument, or fail.  Anything else may be NULL.
 */
static bool
never_null(Node *node)
{
	List	   *args;
	Oid			fn;
	ListCell   *lc;

	if (IsA(node, Const))
		return !((Const *) node)->constisnull;
	if (IsA(node, SQLValueFunction))
	{
		Oid			type = ((SQLValueFunction *) node)->type;

		return type == TIMESTAMPTZOID || type == TIMESTAMPOID || type == DATEOID;
	}
	if (IsA(node, RelabelType))
		return never_null((Node *) ((RelabelType *) node)->arg);
	if (IsA(node, FuncExpr))
	{
		fn = ((FuncExpr *) node)->funcid;
		args = ((FuncExpr *) node)->args;
	}
	else if (IsA(node, OpExpr))
	{
		set_opfuncid((OpExpr *) node);
		fn = ((OpExpr *) node)->opfuncid;
		args = ((OpExpr *) node)->args;
	}
	else
		return false;
	switch (fn)
	{
		case F_NOW:
		case F_STATEMENT_TIMESTAMP:
		case F_TRANSACTION_TIMESTAMP:
		case F_TIMESTAMPTZ_MI_INTERVAL:
		case F_TIMESTAMPTZ_PL_INTERVAL:
		case F_DATE_TRUNC_TEXT_TIMESTAMPTZ:
		case F_DATE_TRUNC_TEXT_TIMESTAMPTZ_TEXT:
		case F_TIMESTAMPTZ_DATE:
			break;
		default:
			return false;
	}
	foreach(lc, args)
	{
		if (!never_null(lfirst(lc)))
			return false;
	}
	return true;
}

/* t IS NOT NULL */
static Node *
not_null(Node *t)
{
	NullTest   *test = makeNode(NullTest);

	test->arg = (Expr *) copyObject(t);
	test->nulltesttype = IS_NOT_NULL;
	test->argisrow = false;
	test->location = -1;
	return (Node *) test;
}

/*
 * Must the rewrite say id IS NOT NULL beside its clauses, so that the query
 * stays strict in the key?  The arms of a range the query builds are not
 * strict functions (a NULL part leaves a side open), and PostgreSQL reads
 * strictness to turn an outer join whose nullable side a condition rejects
 * into an inner join (reduce_outer_joins()), and to prove that a partial
 * index's predicate, id IS NOT NULL say, holds (predtest.c), as the
 * comparison written did both.  It is said for a column of a relation that
 * an outer join under the condition (nulled: their range table indexes)
 * may fill with NULLs, for a column of a subquery or view, and for a
 * column of a table that may hold NULLs and that a
 * partial index's predicate reads; not elsewhere, where it would only cost
 * a check per row and an index condition.  The test changes no result: the
 * condition stands alone in a WHERE or ON, where NULL and false both
 * reject the row, and it is NULL for a NULL key.  ext_fn is a function of
 * the extension.
 */
static bool
needs_not_null(Query *query, Var *var, Relids nulled, Oid ext_fn)
{
	TimeTarget	target;
	UuidxDeclared declared;
	HeapTuple	tuple;
	bool		not_null = false;

	if (bms_is_member(var->varno, nulled) ||
		rt_fetch(var->varno, query->rtable)->rtekind != RTE_RELATION)
		return true;			/* (a view's column: its outer joins unseen) */
	uuidx_tr_target(query->rtable, (Node *) var, &target);
	if (!OidIsValid(target.relid))
		return false;
	uuidx_tr_declared(ext_fn, target.relid, target.attnum, &declared);
	if (!declared.partial)
		return false;
	tuple = SearchSysCache2(ATTNUM, ObjectIdGetDatum(target.relid), Int16GetDatum(target.attnum));
	if (HeapTupleIsValid(tuple))
	{
		not_null = ((Form_pg_attribute) GETSTRUCT(tuple))->attnotnull;
		ReleaseSysCache(tuple);
	}
	return !not_null;
}

/*
 * The key of id <@ r or r @> id, the operators' own (whose support function
 * rewrites them later): the column, or NULL for anything else.
 */
static Var *
containment_key(Node *cond)
{
	OpExpr	   *op = (OpExpr *) cond;
	FmgrInfo	flinfo;
	Node	   *key;

	if (!IsA(cond, OpExpr) || list_length(op->args) != 2)
		return NULL;
	set_opfuncid(op);
	if (op->opfuncid < FirstNormalObjectId)
		return NULL;
	if (exprType(linitial(op->args)) == TSTZRANGEOID)
		key = lsecond(op->args);
	else if (exprType(lsecond(op->args)) == TSTZRANGEOID)
		key = linitial(op->args);
	else
		return NULL;
	key = strip_implicit_coercions(key);
	if (!IsA(key, Var) || ((Var *) key)->varlevelsup != 0)
		return NULL;
	fmgr_info(op->opfuncid, &flinfo);
	if (flinfo.fn_addr != uuidx_contained_by_tstzrange &&
		flinfo.fn_addr != uuidx_tstzrange_contains_uuid)
		return NULL;
	return (Var *) key;
}

/*
 * A condition that may be rewritten: f(id) op t or t op f(id) (strategy
 * with f on the left), or f(id) <@ r, r @> f(id) (strategy 0, other the
 * range).
 */
typedef struct Comparison
{
	Form		form;
	Node	   *other;
	int			strategy;
} Comparison;

/* Is the condition a comparison that may be rewritten? */
static bool
comparison_of(Node *cond, Comparison *c)
{
	OpExpr	   *op = (OpExpr *) cond;
	bool		form_left;
	Node	   *key;

	if (!IsA(cond, OpExpr) || list_length(op->args) != 2)
		return false;
	form_left = uuidx_tr_form_of(linitial(op->args), &c->form);
	if (!form_left && !uuidx_tr_form_of(lsecond(op->args), &c->form))
		return false;
	c->other = form_left ? lsecond(op->args) : linitial(op->args);

	/*
	 * The time (or range) is evaluated as the query evaluates it: it may not
	 * be volatile, nor hold a subquery, nor read the column's own table.  An
	 * equality with another table's column stays as written: it is a hash or
	 * merge join's condition (and a FULL JOIN needs one).  A NULL constant is
	 * never true: left to the planner.
	 */
	key = strip_implicit_coercions(c->form.id);
	set_opfuncid(op);
	if (!IsA(key, Var) || ((Var *) key)->varlevelsup != 0 ||
		contain_volatile_functions(c->other) || checkExprHasSubLink(c->other) ||
		bms_is_member(((Var *) key)->varno, pull_varnos_of_level(NULL, c->other, 0)) ||
		(op->opfuncid == F_TIMESTAMPTZ_EQ && contain_vars_of_level(c->other, 0)) ||
		(IsA(c->other, Const) && ((Const *) c->other)->constisnull))
		return false;
	if ((op->opfuncid == F_ELEM_CONTAINED_BY_RANGE && form_left) ||
		(op->opfuncid == F_RANGE_CONTAINS_ELEM && !form_left))
	{
		c->strategy = 0;
		return exprType(c->other) == TSTZRANGEOID;
	}
	c->strategy = comparison_strategy(op->opfuncid, form_left);
	return c->strategy != 0;
}

static bool
is_lower(const Comparison *c)
{
	return c->strategy == BTGreaterStrategyNumber || c->strategy == BTGreaterEqualStrategyNumber;
}

static bool
is_upper(const Comparison *c)
{
	return c->strategy == BTLessStrategyNumber || c->strategy == BTLessEqualStrategyNumber;
}

/*
 * May a lower and an upper comparison of the same form make one window?
 * Their times must be fixed for the scan: constants, or expressions of no
 * column (now() - interval '40 days', a parameter).  Constants must have
 * lower <= upper: such a window's key bounds are computed here, and
 * crossed times are no window the range constructor accepts.  Other times
 * may cross when the query runs; the rewrite then guards the window (see
 * rewrite_comparison()).  Times of another table stay two comparisons (a
 * join's).
 */
static bool
window_pair(const Comparison *a, const Comparison *b)
{
	const Comparison *lower = is_lower(a) ? a : b;
	const Comparison *upper = is_lower(a) ? b : a;

	if (a->form.fn != b->form.fn || !(is_lower(lower) && is_upper(upper)) ||
		exprType(lower->other) != TIMESTAMPTZOID || exprType(upper->other) != TIMESTAMPTZOID ||
		contain_var_clause(lower->other) || contain_var_clause(upper->other) ||
		!equal(a->form.id, b->form.id))
		return false;
	if (!IsA(lower->other, Const) || !IsA(upper->other, Const))
		return true;
	return DatumGetTimestampTz(((Const *) lower->other)->constvalue) <=
		DatumGetTimestampTz(((Const *) upper->other)->constvalue);
}

/*
 * The rewrite of a comparison, or of a lower and an upper one of the same
 * form (f(id) >= a AND f(id) < b: one window, estimated as one; see
 * window_pair()), or NULL where it stays as written.  A NULL time compares
 * as NULL, so the rewrite adds t IS NOT NULL for a time that may be one.
 */
static Node *
rewrite_comparison(Query *query, const Comparison *c, const Comparison *partner, Relids nulled)
{
	const Comparison *lower = NULL;
	const Comparison *upper = NULL;
	Node	   *range;
	Node	   *clauses;
	TimeTarget	target;
	int			versions;
	List	   *checks = NIL;
	Node	   *guard = NULL;
	bool		compared = false;
	char		flags[3] = "[)";

	if (c->strategy == 0)
		range = c->other;
	else if (c->strategy == BTEqualStrategyNumber)
	{
		range = range_of(c->other, copyObject(c->other), "[]");
		lower = c;				/* its one time, checked once */
	}
	else
	{
		lower = is_lower(c) ? c : partner;
		upper = is_lower(c) ? partner : c;
		if (lower != NULL)
			flags[0] = lower->strategy == BTGreaterEqualStrategyNumber ? '[' : '(';
		if (upper != NULL)
			flags[1] = upper->strategy == BTLessEqualStrategyNumber ? ']' : ')';
		compared = lower != NULL && upper != NULL &&
			!(IsA(lower->other, Const) && IsA(upper->other, Const));
		if (compared && !OidIsValid(uuidx_tr_compared_function(c->form.ext_fn)))
		{
			/* SQL 1.3: no uuidx_time_compared(), whose times may cross */
			compared = false;
			range = range_of(lower->other,
							 uuidx_tr_sql_1_3_window_upper(lower->other, upper->other, &guard), flags);
		}
		else
			range = range_of(lower ? lower->other : uuidx_tr_timestamptz_null(),
							 upper ? upper->other : uuidx_tr_timestamptz_null(), flags);
	}
	versions = form_key_versions(query, &c->form, &target);
	if (versions == 0)
		return NULL;
	clauses = uuidx_tr_make_clauses(c->form.ext_fn, c->form.id, range, versions, &target,
									c->strategy == 0, compared);
	if (clauses == NULL)
		return NULL;
	if (lower != NULL && !never_null(lower->other))
		checks = lappend(checks, not_null(lower->other));
	if (upper != NULL && !never_null(upper->other))
		checks = lappend(checks, not_null(upper->other));
	if (guard != NULL)
		checks = lappend(checks, guard);
	if (needs_not_null(query, (Var *) strip_implicit_coercions(c->form.id), nulled, c->form.ext_fn))
		checks = lappend(checks, not_null(strip_implicit_coercions(c->form.id)));
	if (checks == NIL)
		return clauses;
	return (Node *) make_andclause(lappend(checks, clauses));
}

/* The conjuncts of an AND tree, in order. */
static List *
conjuncts(Node *quals, List *list)
{
	ListCell   *lc;

	if (!is_andclause(quals))
		return lappend(list, quals);
	foreach(lc, ((BoolExpr *) quals)->args)
		list = conjuncts(lfirst(lc), list);
	return list;
}

/*
 * Each comparison of an AND tree rewritten, a lower one with an upper one
 * of the same form where both stand; anything else as it is.
 */
static Node *
rewrite_conditions(Query *query, Node *quals, Relids nulled)
{
	List	   *conds;
	List	   *result = NIL;
	Comparison *cmps;
	bool	   *usable;
	bool	   *taken;
	int			n;

	if (quals == NULL)
		return NULL;
	conds = conjuncts(quals, NIL);
	n = list_length(conds);
	cmps = palloc(sizeof(Comparison) * n);
	usable = palloc(sizeof(bool) * n);
	taken = palloc0(sizeof(bool) * n);
	for (int i = 0; i < n; i++)
		usable[i] = comparison_of(list_nth(conds, i), &cmps[i]) &&
			!uuidx_tr_partial_implied(query, &cmps[i].form, conds);
	for (int i = 0; i < n; i++)
	{
		int			partner = -1;
		Node	   *rewritten = NULL;

		if (taken[i])
			continue;			/* rewritten with an earlier one */
		for (int j = i + 1; usable[i] && j < n && partner < 0; j++)
		{
			if (usable[j] && !taken[j] && window_pair(&cmps[i], &cmps[j]))
				partner = j;
		}
		if (usable[i])
			rewritten = rewrite_comparison(query, &cmps[i], partner >= 0 ? &cmps[partner] : NULL,
										   nulled);
		if (rewritten == NULL)
		{
			/* id <@ r is left to its support function; strict all the same */
			Node	   *cond = list_nth(conds, i);
			Var		   *key = containment_key(cond);

			rewritten = cond;
			if (key != NULL && needs_not_null(query, key, nulled, ((OpExpr *) cond)->opfuncid))
				result = lappend(result, not_null((Node *) key));
		}
		else if (partner >= 0)
			taken[partner] = true;
		result = lappend(result, rewritten);
	}
	return list_length(result) == 1 ? linitial(result) : (Node *) make_andclause(result);
}

/*
 * The conditions of WHERE and JOIN ... ON in a join tree, rewritten; returns
 * the range table indexes of the relations under the node that an outer
 * join at or under it may fill with NULLs (and sets rels to all those under
 * it).  An ON clause sees the NULLs of the outer joins under its join, not
 * its join's own; a WHERE those of every join in its FROM.
 */
static Relids
rewrite_jointree(Query *query, Node *node, Relids *rels)
{
	Relids		nulled = NULL;

	*rels = NULL;
	if (node == NULL)
		return NULL;
	if (IsA(node, RangeTblRef))
		*rels = bms_make_singleton(((RangeTblRef *) node)->rtindex);
	else if (IsA(node, FromExpr))
	{
		FromExpr   *from = (FromExpr *) node;
		ListCell   *lc;

		foreach(lc, from->fromlist)
		{
			Relids		item_rels;

			nulled = bms_join(nulled, rewrite_jointree(query, lfirst(lc), &item_rels));
			*rels = bms_join(*rels, item_rels);
		}
		from->quals = rewrite_conditions(query, from->quals, nulled);
	}
	else if (IsA(node, JoinExpr))
	{
		JoinExpr   *join = (JoinExpr *) node;
		Relids		left,
					right;

		nulled = bms_join(rewrite_jointree(query, join->larg, &left),
						  rewrite_jointree(query, join->rarg, &right));
		join->quals = rewrite_conditions(query, join->quals, nulled);
		if (join->jointype == JOIN_LEFT || join->jointype == JOIN_FULL || join->jointype == JOIN_ANTI)
			nulled = bms_union(nulled, right);
		if (join->jointype == JOIN_RIGHT || join->jointype == JOIN_FULL)
			nulled = bms_union(nulled, left);
		*rels = bms_add_member(bms_join(left, right), join->rtindex);
	}
	return nulled;
}

/* Rewrite a query and every query inside it. */
static bool
rewrite_queries(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;

		if (query->commandType != CMD_UTILITY)
		{
			Relids		rels;
			Node	   *written = query->sortClause != NIL && query->jointree != NULL ?
				copyObject(query->jointree->quals) : NULL;

			rewrite_jointree(query, (Node *) query->jointree, &rels);
			uuidx_tr_rewrite_order(query, written);
		}
		return query_tree_walker(query, rewrite_queries, context, 0);
	}
	return expression_tree_walker(node, rewrite_queries, context);
}

/*
 * The planner hook: the forms rewritten, then the planner, in a planning
 * of its own for the scan's notes (scan/planner.c), given back on an ERROR
 * too.
 */
static PlannedStmt *
forms_planner(UUIDX_PLANNER_PARAMS)
{
	PlannedStmt *volatile result = NULL;
	uint64		outer;

	rewrite_queries((Node *) parse, NULL);
	outer = uuidx_scan_planning_begin();
	PG_TRY();
	{
		if (prev_planner_hook)
			result = prev_planner_hook(UUIDX_PLANNER_ARGS);
		else
			result = standard_planner(UUIDX_PLANNER_ARGS);
	}
	PG_FINALLY();
	{
		uuidx_scan_planning_end(outer);
	}
	PG_END_TRY();
	return result;
}

void
uuidx_tr_forms_init(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = forms_planner;
}
