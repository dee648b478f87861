/*-------------------------------------------------------------------------
 *
 * form_order.c
 *	  ORDER BY a time form, as the last sort key or followed by the key
 *	  itself, into ORDER BY the key, on a column whose every key is of one
 *	  version whose time grows with the key, or where the form reads v7 keys
 *	  only and the WHERE compares it (see the head of forms.c).
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "catalog/pg_type_d.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "parser/parse_oper.h"
#include "utils/fmgroids.h"

/*
 * Is the sort key after the form's (next) the form's key
 * itself, in the same order: ORDER BY f(id) DESC, id DESC, as ORMs write
 * it, the key breaking ties of the time?  The time only grows with the
 * key, so the two keys order rows as the key alone does.
 */
static bool
key_follows(Query *query, const Form *form, const SortGroupClause *sort,
			const SortGroupClause *next, Oid lt, Oid gt, Oid time_lt)
{
	TargetEntry *tle;

	tle = get_sortgroupclause_tle((SortGroupClause *) next, query->targetList);
	return equal(strip_implicit_coercions((Node *) tle->expr),
				 strip_implicit_coercions(form->id)) &&
		next->sortop == (sort->sortop == time_lt ? lt : gt) &&
		next->nulls_first == sort->nulls_first;
}

/*
 * Does every row the query returns have a v7 key of the RFC variant, as
 * the form reads it: is the form, which is NULL for any other key, an
 * argument of a comparison of timestamptz (strict: NULL rejects the row)
 * among the conditions of its WHERE, as written?
 */
static bool
where_compares_form(Node *quals, const Form *form)
{
	ListCell   *lc;

	if (quals == NULL || form->versions != 1 << 7)
		return false;
	foreach(lc, make_ands_implicit((Expr *) quals))
	{
		OpExpr	   *op = lfirst(lc);
		ListCell   *la;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2)
			continue;
		set_opfuncid(op);
		switch (op->opfuncid)
		{
			case F_TIMESTAMPTZ_LT:
			case F_TIMESTAMPTZ_LE:
			case F_TIMESTAMPTZ_EQ:
			case F_TIMESTAMPTZ_GE:
			case F_TIMESTAMPTZ_GT:
				break;
			default:
				continue;
		}
		foreach(la, op->args)
		{
			Form		other;

			if (uuidx_tr_form_of(lfirst(la), &other) && other.versions == 1 << 7 &&
				equal(strip_implicit_coercions(other.id), strip_implicit_coercions(form->id)))
				return true;
		}
	}
	return false;
}

/*
 * ORDER BY f(id) [DESC] as the last sort key, or followed by id in the same
 * order, into ORDER BY id [DESC], where every key of the column is of the
 * one version f reads whose time grows with the key (see the head of this
 * file), or where f reads v7 keys only and the query's WHERE, as written
 * (quals), compares f(id): it returns only rows whose key is a v7.
 */
void
uuidx_tr_rewrite_order(Query *query, Node *quals)
{
	SortGroupClause *sort;
	TargetEntry *tle;
	TargetEntry *key;
	Form		form;
	TimeTarget	target;
	UuidxDeclared declared;
	Oid			lt,
				gt,
				eq;
	Oid			time_lt,
				time_gt;
	Index		ref = 0;
	ListCell   *lc;

	if (query->commandType != CMD_SELECT ||
		query->sortClause == NIL || query->groupClause != NIL || query->distinctClause != NIL ||
		query->hasWindowFuncs || query->hasTargetSRFs || query->setOperations != NULL ||
		query->hasAggs || query->groupingSets != NIL || query->limitOption == LIMIT_OPTION_WITH_TIES)
		return;
	get_sort_group_operators(TIMESTAMPTZOID, true, false, true, &time_lt, NULL, &time_gt, NULL);
	get_sort_group_operators(UUIDOID, true, true, true, &lt, &eq, &gt, NULL);

	/* the last key, or the one before it where that is the key itself */
	sort = llast(query->sortClause);
	if (list_length(query->sortClause) >= 2)
	{
		SortGroupClause *before = list_nth(query->sortClause, list_length(query->sortClause) - 2);

		tle = get_sortgroupclause_tle(before, query->targetList);
		if (uuidx_tr_form_of((Node *) tle->expr, &form) &&
			key_follows(query, &form, before, sort, lt, gt, time_lt))
			sort = before;		/* the key after it stays, a tie never left */
	}
	tle = get_sortgroupclause_tle(sort, query->targetList);
	if (!uuidx_tr_form_of((Node *) tle->expr, &form))
		return;
	uuidx_tr_target(query->rtable, form.id, &target);
	if (!OidIsValid(target.relid))
		return;
	uuidx_tr_declared(form.ext_fn, target.relid, target.attnum, &declared);
	if (!(declared.strong && (form.versions & (1 << declared.only))) &&
		!where_compares_form(quals, &form))
		return;
	if (uuidx_tr_declared_indexed(&declared, form.fn))
		return;

	if (sort->sortop != time_lt && sort->sortop != time_gt)
		return;					/* USING some other operator */

	foreach(lc, query->targetList)
		ref = Max(ref, ((TargetEntry *) lfirst(lc))->ressortgroupref);
	key = makeTargetEntry((Expr *) copyObject(form.id), list_length(query->targetList) + 1,
						  NULL, true);
	key->ressortgroupref = ref + 1;
	query->targetList = lappend(query->targetList, key);
	sort->tleSortGroupRef = key->ressortgroupref;
	sort->sortop = sort->sortop == time_lt ? lt : gt;
	sort->eqop = eq;
	sort->hashable = true;
}
