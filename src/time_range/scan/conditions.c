/*-------------------------------------------------------------------------
 *
 * conditions.c
 *	  What the "uuidx time ranges" custom scan answers, and what its
 *	  children take: the conditions of the query it answers from the key
 *	  (a time clause's arms), with the rules of row-level security and of
 *	  leaky functions that decide whether it may check one last, and the
 *	  index conditions of each child (its version's key range, the query's
 *	  other comparisons of the key).  planner.c builds the paths and the
 *	  plan from them.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/scan/scan_internal.h"

#include "compat.h"
#include "access/stratnum.h"
#include "access/sysattr.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

/* An arm: a call of a piece with one version; false for anything else. */
static bool
arm_of(Node *node, TimeClause *c, FuncExpr **call)
{
	if (!IsA(node, FuncExpr))
		return false;
	*call = (FuncExpr *) node;
	if (!uuidx_tr_read_clause((*call)->funcid, (*call)->args, c))
		return false;
	c->compared |= uuidx_tr_piece_by_hand(node);
	return c->version != 0;
}

/*
 * The bounds of a version's key range of the condition's window (id >=
 * lower, id <= upper, without an open side), made once per condition.
 */
static List *
condition_bounds(Condition *cond, Node *id, int version)
{
	int			i = WINDOW_INDEX(version);

	if (!cond->have_bounds[i])
	{
		cond->bounds[i] = uuidx_tr_version_bounds(cond->fn, id, cond->range, version, cond->compared);
		cond->have_bounds[i] = true;
	}
	return cond->bounds[i];
}

/* The condition a clause is, with its id; false for anything else. */
bool
uuidx_scan_condition_of(Node *clause, Condition *cond, Node **id)
{
	List	   *arms = is_orclause(clause) ? ((BoolExpr *) clause)->args : list_make1(clause);
	ListCell   *lc;

	cond->clause = (Expr *) clause;
	cond->versions = 0;
	cond->have_bounds[0] = cond->have_bounds[1] = false;
	foreach(lc, arms)
	{
		TimeClause	c;
		FuncExpr   *call;

		if (!arm_of(lfirst(lc), &c, &call))
			return false;
		if (cond->versions == 0)
		{
			*id = c.id;
			cond->pruned = c.pruned;
			cond->compared = c.compared;
			cond->fn = call->funcid;
			cond->range = c.range;
			cond->window_args = list_length(call->args) == 4 ?
				list_make1(lsecond(call->args)) :
				list_make3(lsecond(call->args), lthird(call->args), lfourth(call->args));
		}
		else if (!equal(c.id, *id) || !equal(c.range, cond->range) ||
				 (cond->versions & (1 << c.version)))
			return false;
		cond->versions |= 1 << c.version;
	}
	return true;
}

/*
 * May the scan check the condition after its children have run their
 * filters?  The planner evaluates a table's clauses in the order of their
 * security levels (a row-level security policy's conditions, and a
 * security_barrier view's, come before the query's own), letting only a
 * clause that cannot leak what it reads go before one of a lower level
 * (order_qual_clauses()).  The children check every clause the scan does
 * not answer, so none of them may be of a higher level than the condition
 * unless it is leakproof; where one is, the children check the condition
 * too, in its place among their filters, and the scan's check repeats it.
 */
static bool
may_check_last(RelOptInfo *rel, const Condition *cond)
{
	ListCell   *lc;

	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *other = lfirst(lc);

		if (!other->pseudoconstant && other->security_level > cond->rinfo->security_level &&
			!other->leakproof)
			return false;
	}
	return true;
}

/*
 * The conditions on one column among the table's restrictions: those on
 * the column of the first one found.  The column must be the table's, and
 * each window a value the scan can compute before its first row: nothing
 * of this or another table of the query (parameters are fine), nothing
 * volatile.
 */
bool
uuidx_scan_find_conditions(RelOptInfo *rel, ScanShape *shape)
{
	ListCell   *lc;
	int			versions = UUIDX_KEY_VERSIONS;

	shape->id = NULL;
	shape->conditions = NIL;
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst(lc);
		Condition  *cond = palloc(sizeof(Condition));
		Node	   *id;

		cond->rinfo = rinfo;
		if (rinfo->pseudoconstant || !uuidx_scan_condition_of((Node *) rinfo->clause, cond, &id) ||
			(shape->id != NULL && !equal(id, shape->id)) ||
			contain_var_clause((Node *) cond->window_args) ||
			contain_volatile_functions((Node *) cond->window_args))
			continue;
		if (shape->id == NULL)
		{
			if (!IsA(strip_implicit_coercions(id), Var) ||
				!bms_equal(pull_varnos_of_level(NULL, id, 0), rel->relids))
				continue;
			shape->id = id;
		}
		shape->conditions = lappend(shape->conditions, cond);
		versions &= cond->versions;
	}
	shape->nchildren = 0;
	if (shape->conditions == NIL)
		return false;
	for (int version = 7; version >= 6; version--)
		if (versions & (1 << version))
			shape->versions[shape->nchildren++] = version;
	foreach(lc, shape->conditions)
		((Condition *) lfirst(lc))->answered = may_check_last(rel, lfirst(lc));
	return shape->nchildren > 0;
}

/*
 * Is this clause one the scan answers itself, so that the children need
 * not check it?  The very clause of a condition it answers, not one equal
 * to it: a row-level security policy's condition may be written alike,
 * and stays the children's to check in its place (may_check_last()).
 */
bool
uuidx_scan_answered(Node *clause, const ScanShape *shape)
{
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		Condition  *cond = lfirst(lc);

		if (cond->answered && (Node *) cond->clause == clause)
			return true;
	}
	return false;
}

/*
 * The index conditions of one version's key range of a condition's window.
 * Where the scan runs alone, they carry the arm's estimate for their rows:
 * the planner then costs the child without estimating the bounds again,
 * each with an evaluation of the window and a descent of the index to its
 * end (the windows users ask for lie past the histogram), which was a fifth
 * of the planning of a last hour's count.  Not where the range is open
 * towards the other version's keys (a v7 range open above, a v6 range open
 * below): it then holds them too, and the child reads them all, which the
 * planner's estimate of the bounds counts and the arm's does not.  Nor
 * beside the planner's own paths of the arm: those estimate the same
 * bounds as uuid comparisons, and the planner must compare like with like.
 * The planner estimates a pair of bounds as the sum of the two, less 1,
 * plus the share of NULLs: the lower bound carries the arm's share, the
 * upper 1 less that of NULLs.
 */
List *
uuidx_scan_child_conditions(PlannerInfo *root, Condition *cond, Node *id, int version, bool alone)
{
	List	   *bounds = condition_bounds(cond, id, version);
	Selectivity sel = alone ? uuidx_tr_arm_selectivity(root, cond->rinfo, version) : -1;
	List	   *quals = NIL;
	bool		lower_open,
				upper_open;
	ListCell   *lc;

	uuidx_tr_open_sides(cond->range, &lower_open, &upper_open);
	if (version == 7 ? upper_open : lower_open)
		sel = -1;
	if (sel == DEFAULT_INEQ_SEL)
		sel = -1;				/* which the planner would take for no
								 * estimate */
	/* of all rows, where the arm's counts among those whose id is not NULL */
	if (sel > 0)
		sel *= uuidx_tr_not_null_share(root, id);
	foreach(lc, bounds)
	{
		RestrictInfo *qual = make_simple_restrictinfo(root, (Expr *) lfirst(lc));

		if (sel >= 0)
			qual->norm_selec = foreach_current_index(lc) == 0 ? sel :
				1.0 - nulltestsel(root, IS_NULL, id, 0, JOIN_INNER, NULL);
		quals = lappend(quals, qual);
	}
	return quals;
}

/*
 * A row comparison whose first column is the key and whose first value is
 * fixed for the scan, (id, x) < ($1, $2) of a keyset page (or the other
 * way round): the comparison of the key it implies, id <= $1 (id >= $1 for
 * > and >=), as PostgreSQL makes of one whose first column alone an index
 * holds.  Lossy: the row comparison is checked on each row the index
 * returns.  NULL otherwise.
 */
static RestrictInfo *
row_key_comparison(PlannerInfo *root, IndexOptInfo *index, RowCompareExpr *rc)
{
	Node	   *key = linitial(rc->largs);
	Node	   *value = linitial(rc->rargs);
	Oid			opno = linitial_oid(rc->opnos);
	Oid			lefttype,
				righttype;
	int			strategy;
	Expr	   *op;

	if (!match_index_to_operand(key, 0, index) ||
		!is_pseudo_constant_for_index(root, value, index))
	{
		key = linitial(rc->rargs);
		value = linitial(rc->largs);
		opno = get_commutator(opno);
		if (!OidIsValid(opno) || !match_index_to_operand(key, 0, index) ||
			!is_pseudo_constant_for_index(root, value, index))
			return NULL;
	}
	switch (get_op_opfamily_strategy(opno, index->opfamily[0]))
	{
		case BTLessStrategyNumber:
		case BTLessEqualStrategyNumber:
			strategy = BTLessEqualStrategyNumber;
			break;
		case BTGreaterStrategyNumber:
		case BTGreaterEqualStrategyNumber:
			strategy = BTGreaterEqualStrategyNumber;
			break;
		default:
			return NULL;
	}
	op_input_types(opno, &lefttype, &righttype);
	opno = get_opfamily_member(index->opfamily[0], lefttype, righttype, strategy);
	if (!OidIsValid(opno))
		return NULL;
	op = make_opclause(opno, BOOLOID, false, (Expr *) copyObject(key), (Expr *) copyObject(value),
					   InvalidOid, InvalidOid);
	set_opfuncid((OpExpr *) op);
	return make_simple_restrictinfo(root, op);
}

/*
 * rinfo, where it compares the key with a value fixed for the scan by an
 * operator of the index's family, as a clause with the key on the left
 * (commuted where the key stands on the right); for a row comparison led by
 * the key, the comparison of the key it implies, with lossy set
 * (row_key_comparison()); NULL otherwise.  Only clauses the planner would
 * let an index check before the table's other clauses
 * (restriction_is_securely_promotable()), and none the scan answers.
 */
RestrictInfo *
uuidx_scan_key_comparison(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index, const ScanShape *shape,
						  RestrictInfo *rinfo, bool *lossy)
{
	OpExpr	   *op = (OpExpr *) rinfo->clause;

	*lossy = false;
	if (rinfo->pseudoconstant || !restriction_is_securely_promotable(rinfo, rel))
		return NULL;
	if (IsA(op, RowCompareExpr))
	{
		*lossy = true;
		return row_key_comparison(root, index, (RowCompareExpr *) op);
	}
	if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
		uuidx_scan_answered((Node *) op, shape))
		return NULL;
	if (match_index_to_operand(linitial(op->args), 0, index) &&
		op_in_opfamily(op->opno, index->opfamily[0]) &&
		is_pseudo_constant_for_index(root, lsecond(op->args), index))
		return rinfo;
	if (match_index_to_operand(lsecond(op->args), 0, index) &&
		is_pseudo_constant_for_index(root, linitial(op->args), index))
	{
		Oid			commuted = get_commutator(op->opno);

		if (OidIsValid(commuted) && op_in_opfamily(commuted, index->opfamily[0]))
			return commute_restrictinfo(rinfo, commuted);
	}
	return NULL;
}

/*
 * The query's other conditions on the key that the index can answer as it
 * walks, id < $1 of a keyset page say: comparisons of the key with a value
 * fixed for the scan, by an operator of the index's family (commuted where
 * the key stands on the right), and row comparisons led by the key, (id, x)
 * < ($1, $2), as the comparison of the key they imply.  Each child takes them as index conditions,
 * so that it starts and stops where they say instead of checking them on
 * every row of its range (uuidx_scan_key_comparison()).
 */
List *
uuidx_scan_key_conditions(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index, const ScanShape *shape)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, rel->baserestrictinfo)
	{
		bool		lossy;
		RestrictInfo *qual = uuidx_scan_key_comparison(root, rel, index, shape, lfirst(lc), &lossy);
		IndexClause *ic;

		if (qual == NULL)
			continue;
		ic = makeNode(IndexClause);
		ic->rinfo = lfirst(lc);
		ic->indexquals = list_make1(qual);
		ic->lossy = lossy;
		ic->indexcol = 0;
		ic->indexcols = NIL;
		result = lappend(result, ic);
	}
	return result;
}
