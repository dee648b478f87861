/*-------------------------------------------------------------------------
 *
 * support.c
 *	  What the planner makes of id <@ tstzrange and tstzrange @> id.
 *
 * The UUIDs of one version whose time lies in r fill one interval of the
 * uuid order (meaning.c); v6's interval and v7's lie in two places of
 * that order.  The support function (SupportRequestSimplify) rewrites the
 * operator into clauses that say the same thing and that an index can
 * serve, one arm per version:
 *
 *	 uuidx_time_within(id, r, 7, false) OR uuidx_time_within(id, r, 6, false)
 *
 * Each arm becomes the index conditions id >= lower AND id <= upper of its
 * version on any index of id whose operator family holds uuid's own >= and
 * <= (SupportRequestIndexCondition), without the side where r is open (a
 * condition every key of the version meets); the planner combines the two
 * scans in a BitmapOr, and scan/planner.c offers a scan that walks them
 * in key order, index-only where it can (scan/exec.c runs it).  A table whose validated CHECK
 * constraints say which versions a column holds (declared.c)
 * gets the arms of those versions only, and a constant r that holds no time
 * of a version none for it: one arm alone makes one index range, exact
 * where the constraints rule out every other version and variant.
 * uuidx_tr_make_clauses() (clauses.c) builds the clauses, for the
 * operator here and for the forms users write (forms.c), which
 * may ask for v7 keys only.
 *
 * A range the query builds, tstzrange(a, b[, bounds]), reaches the arms as
 * its parts, uuidx_time_between(id, a, b, bounds, 7, false): the executor
 * evaluates a clause's arguments for every row, and the parts cost less to
 * compute and compare than a range does to build.  The arms never fail, so
 * that they can be LEAKPROOF and serve an index under row-level security;
 * the range is checked by the constructor itself, in a clause of its own
 * that comes first, tstzrange(a, b, bounds) IS NOT NULL (with constant or
 * stable parts, a one-time filter).  (The span pieces of SQL 1.2,
 * uuidx_time_span and uuidx_time_span_between, are no longer made; they
 * keep their meaning: earlier_sql.c.)
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
 * no index conditions of its own, and its estimate is 1, the comparisons
 * carrying the planner's (estimated as bounds written by hand are, once for
 * each partition the query reads).  With one version, a key of it lies in
 * its key range exactly when its time lies in the window: the arm beside
 * the comparisons need only check the version, over every time, '(,)' (a
 * constant, cheap for every row); where the column's constraints say every
 * key is of that version (and of the RFC variant), the comparisons stand
 * alone, without an arm.
 *
 * How the planner costs a walk of the index to r: paths.c.
 * Whatever plan runs, every row passes through a clause that is the
 * definition itself, unless the index conditions are exactly it; the index
 * conditions and the comparisons only leave out rows it would reject.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "time_range/scan/scan.h"

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

/*
 * SupportRequestSimplify: id <@ r (or r @> id) into the clauses described
 * at the head of this file.
 */
static Node *
simplify(SupportRequestSimplify *req)
{
	FuncExpr   *call = req->fcall;
	Node	   *id,
			   *range;
	TimeTarget	target;

	if (list_length(call->args) != 2)
		return NULL;			/* the pieces stay as they are */
	uuidx_tr_operator_sides(call->args, &id, &range);

	/*
	 * Only worth it where an index or a partition key can serve: id must read
	 * a column.  Both sides are evaluated once per clause, so neither may be
	 * volatile, nor hold a subquery (which would run once per copy).
	 */
	if (!contain_var_clause(id) ||
		contain_volatile_functions(id) || contain_volatile_functions(range) ||
		contain_subplans(id) || contain_subplans(range))
		return NULL;

	/*
	 * The planner also simplifies a table's CHECK constraints with the
	 * query's root before their Vars are renumbered, when its base relations
	 * are set up: what the constraints say of a column is then not to be
	 * trusted, since it may concern another table.  (Partition pruning's
	 * comparisons only repeat what the arms say.)
	 */
	uuidx_tr_target(req->root != NULL && req->root->parse != NULL ? req->root->parse->rtable : NIL,
					id, &target);
	if (req->root == NULL || req->root->simple_rel_array != NULL)
		target.relid = InvalidOid;
	return uuidx_tr_make_clauses(call->funcid, id, range, UUIDX_KEY_VERSIONS, &target, true, false);
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
 * SupportRequestIndexCondition: an arm gives its version's range (none
 * where the custom scan answers it over the index alone), a span (or the
 * operators' own functions) the range of both versions, or of the one
 * version the table's CHECK constraints allow.  Lossy, the clause itself
 * checked on every row the index returns, but where every key of the
 * column is of that one version.
 */
static List *
index_condition(SupportRequestIndexCondition *req)
{
	Node	   *node = req->node;
	List	   *args;
	TimeClause	c;
	int			versions[2];
	int			n;
	TimeTarget	target;
	UuidxDeclared declared;

	if (IsA(node, FuncExpr))
		args = ((FuncExpr *) node)->args;
	else if (IsA(node, OpExpr))
		args = ((OpExpr *) node)->args;
	else
		return NIL;
	if (!uuidx_tr_clause_parts(req->funcid, args, &c))
		return NIL;
	c.compared |= uuidx_tr_piece_by_hand(node);
	if (c.pruned ||
		list_nth(args, req->indexarg) != c.id ||
		!is_pseudo_constant_for_index(req->root, c.range, req->index) ||
		!family_has_uuid_order(req->opfamily) ||
		(c.version != 0 && uuidx_scan_answers_arm(req->root, req->index, node)))
		return NIL;

	uuidx_tr_target(req->root->parse->rtable, c.id, &target);
	target.relid = planner_rt_fetch(req->index->rel->relid, req->root)->relid;
	uuidx_tr_declared(req->funcid, target.relid, target.attnum, &declared);
	if (c.version != 0)
	{
		versions[0] = c.version;
		n = 1;
	}
	else
	{
		n = uuidx_tr_window_versions(c.range, UUIDX_KEY_VERSIONS, versions);
		if (declared.only != 0 && (n == 2 || versions[0] == declared.only))
		{
			/* only the declared version's keys can match */
			versions[0] = declared.only;
			n = 1;
		}
	}

	/*
	 * Exact where every key of the column is a key of the one version (of the
	 * RFC variant): the version's key range then holds exactly the keys whose
	 * time lies in the window.  Elsewhere keys of other versions and variants
	 * may lie among them, and each row is checked.
	 */
	req->lossy = !(n == 1 && declared.strong && declared.only == versions[0]);
	return uuidx_tr_bounds_list(req->funcid, c.id, c.range, versions, n, c.compared);
}

/*
 * SupportRequestSelectivity.  A span beside the arms counts 1: the arms
 * carry the estimate.  So does an arm beside the comparisons for partition
 * pruning: the comparisons carry the planner's own estimate of the key
 * ranges, as they would written by hand.  On a table partitioned by the
 * key that estimate is made for every partition the query may read; an
 * arm's of its own, from the key's histogram and the newest key in its
 * index, would make planning cost several times what it does for the
 * same bounds written by hand.
 */
static bool
selectivity(SupportRequestSelectivity *req)
{
	TimeClause	c;
	Selectivity sel;

	if (!uuidx_tr_clause_parts(req->funcid, req->args, &c))
		return false;
	if (c.beside || c.pruned)
		sel = 1.0;
	else if (req->is_join)
		sel = uuidx_tr_join_selectivity(req->root, c.id, c.range, c.version);
	else
		sel = uuidx_tr_selectivity(req->root, c.id, c.range, c.version, req->varRelid) /
			uuidx_tr_not_null_share(req->root, c.id);
	CLAMP_PROBABILITY(sel);
	req->selectivity = sel;
	return true;
}

Datum
uuidx_time_range_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	uuidx_tr_support_oid = fcinfo->flinfo->fn_oid;
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
