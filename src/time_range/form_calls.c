/*-------------------------------------------------------------------------
 *
 * form_calls.c
 *	  What a call of a time form is (uuid_timestamp(id),
 *	  uuid_v7_to_timestamptz(id), core's uuid_extract_timestamp(id) and
 *	  uuidx_core18's), and whether the conditions of a query, as written,
 *	  prove the predicate of a partial index on one: forms.c and
 *	  form_order.c rewrite the forms, where these say they may.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "generators/generators.h"
#include "inspect/inspect.h"

#include "compat.h"
#include "access/table.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type_d.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/*
 * A form of another's function (core's uuid_extract_timestamp(),
 * uuidx_core18's, TimescaleDB's uuid_timestamp()), which reads these
 * versions: its ext_fn is uuidx's uuid_v7_to_timestamptz(), where uuidx
 * is (a name no other extension of a schema takes from it).
 */
static bool
others_form(Form *form, int versions)
{
	form->versions = versions;
	form->ext_fn = uuidx_tr_extension_function("uuidx", "uuid_v7_to_timestamptz");
	return OidIsValid(form->ext_fn);
}

/*
 * Is node a call of uuid_timestamp, uuid_v7_to_timestamptz, core's, or
 * TimescaleDB's uuid_timestamp() (2.23 and later: the millisecond of a v7
 * of the RFC variant, NULL for any other UUID, as uuid_v7_to_timestamptz)?
 */
bool
uuidx_tr_form_of(Node *node, Form *form)
{
	FuncExpr   *call = (FuncExpr *) node;
	FmgrInfo	flinfo;
	Oid			argtype;

	if (!IsA(node, FuncExpr) || call->funcresulttype != TIMESTAMPTZOID ||
		list_length(call->args) != 1)
		return false;
	argtype = exprType(linitial(call->args));
	if (argtype != UUIDOID && getBaseType(argtype) != UUIDOID)
		return false;
	form->id = linitial(call->args);
	form->fn = call->funcid;
#ifdef UUIDX_CORE_EXTRACT_TIMESTAMP
	if (call->funcid == UUIDX_CORE_EXTRACT_TIMESTAMP)
		return others_form(form, UUIDX_CORE_EXTRACT_TIMESTAMP_VERSIONS);
#endif
	if (call->funcid < FirstNormalObjectId)
		return false;
	if (call->funcid == uuidx_tr_extension_function("timescaledb", "uuid_timestamp"))
		return others_form(form, 1 << 7);
	fmgr_info(call->funcid, &flinfo);
	form->ext_fn = call->funcid;
	if (flinfo.fn_addr == uuidx_timestamp)
		form->versions = UUIDX_TIME_VERSIONS;
	else if (flinfo.fn_addr == uuidx_v7_to_timestamptz)
		form->versions = 1 << 7;
	else if (flinfo.fn_addr == uuidx_core_extract_timestamp)
		return others_form(form, UUIDX_CORE18_EXTRACT_TIMESTAMP_VERSIONS);
	else
		return false;
	return true;
}

/* Does the expression call the form's function on the key (varno, attnum)? */
static bool
reads_form(Node *node, void *context)
{
	const Var  *key = (const Var *) ((void **) context)[0];
	const Form *form = (const Form *) ((void **) context)[1];

	if (node == NULL)
		return false;
	if (IsA(node, FuncExpr) && ((FuncExpr *) node)->funcid == form->fn &&
		list_length(((FuncExpr *) node)->args) == 1)
	{
		Node	   *arg = strip_implicit_coercions(linitial(((FuncExpr *) node)->args));

		if (IsA(arg, Var) && ((Var *) arg)->varno == key->varno &&
			((Var *) arg)->varattno == key->varattno && ((Var *) arg)->varlevelsup == 0)
			return true;
	}
	return expression_tree_walker(node, reads_form, context);
}

/*
 * Do the conditions, as written, imply the predicate of a partial index of
 * the form's table that reads the form (CREATE INDEX ... WHERE
 * uuid_timestamp(id) >= '2026-11-01')?  PostgreSQL proves such a
 * predicate from the comparisons of the form (uuid_timestamp(id) >=
 * '2026-11-20' implies it), not from their rewrite, whose arms are calls
 * of a function: those comparisons stay as written, and the planner uses
 * the index as it would without uuidx.  The predicates are read from
 * pg_index (the planner locks the indexes later) and tried as the planner
 * tries them.
 */
bool
uuidx_tr_partial_implied(Query *query, const Form *form, List *conds)
{
	Var		   *key = (Var *) strip_implicit_coercions(form->id);
	void	   *context[2] = {key, (void *) form};
	RangeTblEntry *rte;
	UuidxDeclared declared;
	Relation	rel;
	List	   *indexes;
	List	   *folded = NIL;
	ListCell   *lc;
	bool		implied = false;

	if (!IsA(key, Var) || key->varlevelsup != 0 || key->varno <= 0 ||
		key->varno > list_length(query->rtable))
		return false;
	rte = rt_fetch(key->varno, query->rtable);
	if (rte->rtekind != RTE_RELATION)
		return false;
	uuidx_tr_declared(form->ext_fn, rte->relid, key->varattno, &declared);
	if (!declared.partial)
		return false;
	rel = table_open(rte->relid, NoLock);
	indexes = RelationGetIndexList(rel);
	foreach(lc, indexes)
	{
		HeapTuple	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		Datum		pred;
		bool		isnull;

		if (!HeapTupleIsValid(tuple))
			continue;
		pred = SysCacheGetAttr(INDEXRELID, tuple, Anum_pg_index_indpred, &isnull);
		if (!isnull)
		{
			Node	   *expr = eval_const_expressions(NULL, stringToNode(TextDatumGetCString(pred)));
			List	   *preds = make_ands_implicit(canonicalize_qual((Expr *) expr, false));

			ChangeVarNodes((Node *) preds, 1, key->varno, 0);
			if (reads_form((Node *) preds, context))
			{
				/* the conditions folded as the planner folds them, once */
				if (folded == NIL)
					folded = (List *) eval_const_expressions(NULL, (Node *) conds);
				implied = predicate_implied_by(preds, folded, false);
			}
		}
		ReleaseSysCache(tuple);
		if (implied)
			break;
	}
	list_free(indexes);
	table_close(rel, NoLock);
	return implied;
}
