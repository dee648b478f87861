/*-------------------------------------------------------------------------
 *
 * planner.c
 *	  The planner's side of the "uuidx time ranges" custom scan
 *	  (exec.c): where it is offered, its children and their cost, and its
 *	  plan; what it answers and what its children take are conditions.c's.
 *
 * The scan is offered for a table's B-tree indexes whose first column is
 * id in uuid's own order, where the window does not depend on another
 * table of the query, and not in a statement that locks or changes rows
 * (whose rechecks of concurrently updated rows it does not support).  Its
 * children are the planner's own index paths, one per version's key range,
 * index-only where the index returns every column the query needs; they
 * keep every clause of the query but those the scan answers from the key.
 * The planner chooses the scan, or not, by cost; where the windows hold few
 * rows, or the query wants the key's order with a fast start, the scan is
 * the only path of its conditions over the indexes it serves, and the
 * planner spends no time on its own there (scan_alone()).
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/scan/scan_internal.h"

#include "compat.h"
#include "utils/guc.h"
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

/* uuidx.enable_time_ranges_scan */
bool		uuidx_scan_enabled = true;

static Plan *plan_scan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
					   List *tlist, List *clauses, List *custom_plans);

static const CustomPathMethods path_methods = {
	.CustomName = UUIDX_SCAN_NAME,
	.PlanCustomPath = plan_scan,
};

/*
 * The index scans allowed for a table when the planner last made its index
 * paths, as the support function's calls saw them (uuidx_scan_answers_arm()
 * notes them): the scan's own paths follow them.  pg_hint_plan, through
 * PostgreSQL 18, sets enable_indexscan and enable_indexonlyscan for a
 * hinted table (NoIndexScan(t), SeqScan(t) ...) while it makes the table's
 * paths anew in its set_rel_pathlist hook, and sets them back before the
 * hooks it was called from go on: a hook that runs after it, as uuidx's
 * does where uuidx is loaded after pg_hint_plan, sees the settings the hint
 * replaced.  (From 19 it narrows the table's pgs_mask, read at any time.)
 * A note holds for the planning it was made in (uuidx_scan_planning_begin()
 * numbers each).
 */
static struct
{
	uint64		planning;
	Index		relid;
	bool		indexscan;
	bool		indexonly;
}			made_with;
static uint64 planning = 0;
static uint64 plannings = 0;

/* forms.c's planner hook: a planning begins; returns the one it is in. */
uint64
uuidx_scan_planning_begin(void)
{
	uint64		outer = planning;

	planning = ++plannings;
	return outer;
}

/* ... and ends, back in the one it was in (a planning within a planning). */
void
uuidx_scan_planning_end(uint64 outer)
{
	planning = outer;
}

static void
note_index_settings(RelOptInfo *rel)
{
	made_with.planning = planning;
	made_with.relid = rel->relid;
	made_with.indexscan = UUIDX_CONSIDER_INDEXSCAN(rel);
	made_with.indexonly = UUIDX_CONSIDER_INDEXONLY(rel);
}

/* Was the note made for rel in this planning? */
static bool
noted(RelOptInfo *rel)
{
	return planning != 0 && made_with.planning == planning && made_with.relid == rel->relid;
}

/* May the scan's children be index scans, or index-only scans, here? */
static bool
consider_indexscan(RelOptInfo *rel)
{
	return noted(rel) ? made_with.indexscan : UUIDX_CONSIDER_INDEXSCAN(rel);
}

static bool
consider_indexonly(RelOptInfo *rel)
{
	return noted(rel) ? made_with.indexonly : UUIDX_CONSIDER_INDEXONLY(rel);
}

/*
 * Can an index-only scan of the index return what the children need: the
 * columns of the target and of the clauses they check?
 */
static bool
index_returns_all(RelOptInfo *rel, IndexOptInfo *index, PathTarget *target,
				  const ScanShape *shape)
{
	Bitmapset  *needed = NULL;
	Bitmapset  *returned = NULL;
	ListCell   *lc;

	if (!consider_indexonly(rel))
		return false;
	pull_varattnos((Node *) target->exprs, rel->relid, &needed);
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst(lc);

		if (!rinfo->pseudoconstant && !uuidx_scan_answered((Node *) rinfo->clause, shape))
			pull_varattnos((Node *) rinfo->clause, rel->relid, &needed);
	}
	for (int i = 0; i < index->ncolumns; i++)
	{
		if (index->canreturn[i] && index->indexkeys[i] != 0)
			returned = bms_add_member(returned,
									  index->indexkeys[i] - FirstLowInvalidHeapAttributeNumber);
	}
	return bms_is_subset(needed, returned);
}

/*
 * Does the scan run alone over the index: is it the one index path there
 * of the conditions it answers?  The planner's own paths for an arm (a
 * BitmapOr of the arms of an OR, an index path with the arm as a filter)
 * each estimate the arm's bounds, with an evaluation of the window and a
 * descent of the index: a third of the planning of a last hour's count.
 * The scan reads the same key ranges in key order, index-only where it
 * can, and returns rows as it reads them.  The planner's own paths can do
 * better where they read many rows, which a bitmap visits in heap order
 * (and can combine with another index's) and a parallel scan shares out,
 * or where a join's parameter narrows a later column of the index.  So
 * the scan runs alone over an index of one key column, where index scans
 * and the scan itself (uuidx.enable_time_ranges_scan) are allowed, and
 * where the query wants the index's order with a fast
 * start (ORDER BY id LIMIT n, min(), max(); ordered: the index's order,
 * forward or backward, is of use) or the windows hold at most 1% of the
 * table's rows and 10,000 (the planner's own paths would then cost a third
 * of the planning to read a few hundred keys).
 */
#define SCAN_ALONE_ROWS 10000
#define SCAN_ALONE_SHARE 0.01

static bool
scan_alone(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index, const ScanShape *shape,
		   bool ordered)
{
	double		rows = rel->tuples;
	ListCell   *lc;

	if (!consider_indexscan(rel) || !uuidx_scan_enabled || index->nkeycolumns != 1)
		return false;
	if (rel->consider_startup && ordered)
		return true;
	foreach(lc, shape->conditions)
	{
		Selectivity sel = clause_selectivity(root, (Node *) ((Condition *) lfirst(lc))->rinfo,
											 0, JOIN_INNER, NULL);

		rows = Min(rows, sel * rel->tuples);
	}
	return rows <= Min(SCAN_ALONE_ROWS, SCAN_ALONE_SHARE * rel->tuples);
}

/*
 * The child of one version: an index path over that version's key range of
 * every condition's window.  Its cost is what the planner counts for such a
 * scan, less the clauses the scan answers from the key: a few comparisons
 * on the key's bytes, where the clauses were a function call each.
 */
static IndexPath *
child_path(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index, const ScanShape *shape,
		   int version, List *pathkeys, bool alone, bool indexonly, PathTarget *target)
{
	List	   *clauses = NIL;
	IndexPath  *path;
	Cost		answered = 0;
	double		keys_read;
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		Condition  *cond = lfirst(lc);
		List	   *quals = uuidx_scan_child_conditions(root, cond, shape->id, version, alone);
		QualCost	cost;

		if (cond->answered)
		{
			cost_qual_eval_node(&cost, (Node *) cond->clause, root);
			answered += cost.per_tuple;
		}
		if (quals != NIL)
		{
			IndexClause *ic = makeNode(IndexClause);

			ic->rinfo = make_simple_restrictinfo(root, cond->clause);
			ic->indexquals = quals;
			ic->lossy = true;
			ic->indexcol = 0;
			ic->indexcols = NIL;
			clauses = lappend(clauses, ic);
		}
	}
	clauses = list_concat(clauses, uuidx_scan_key_conditions(root, rel, index, shape));
	path = create_index_path(root, index, clauses, NIL, NIL, pathkeys, ForwardScanDirection, indexonly,
							 NULL, 1.0, false);
	path->path.pathtarget = target;
	keys_read = path->indexselectivity * rel->tuples;
	if (answered > 0)
		path->path.total_cost = Max(path->path.startup_cost,
									path->path.total_cost - answered * keys_read);
	return path;
}

/* May the query hold a scan that does not support rechecks of locked rows? */
static bool
statement_reads_only(PlannerInfo *root)
{
	for (PlannerInfo *r = root; r != NULL; r = r->parent_root)
	{
		if (r->parse->commandType != CMD_SELECT || r->parse->rowMarks != NIL ||
			r->rowMarks != NIL)
			return false;
	}
	return true;
}

/*
 * Would the planner's own index scan of the conditions check no row: one
 * version, on a column whose every key is of it, and conditions that make
 * index conditions of their own (not arms beside the comparisons for
 * partition pruning, which stay as filters)?  The scan has nothing to add
 * there.
 */
static bool
index_conditions_exact(PlannerInfo *root, RelOptInfo *rel, const ScanShape *shape)
{
	UuidxDeclared declared;
	ListCell   *lc;

	if (shape->nchildren != 1)
		return false;
	foreach(lc, shape->conditions)
	{
		if (((Condition *) lfirst(lc))->pruned)
			return false;
	}
	uuidx_tr_declared(((Condition *) linitial(shape->conditions))->fn,
					  planner_rt_fetch(rel->relid, root)->relid,
					  ((Var *) strip_implicit_coercions(shape->id))->varattno, &declared);
	return declared.strong && declared.only == shape->versions[0];
}

/*
 * Is the table a partition whose conditions stand beside comparisons for
 * partition pruning?  There the arms check only the key's version, or the
 * comparisons' rows: the
 * comparisons, which the planner's own index scans walk (a bitmap of two
 * ranges, or one range in key order), make each version's key range,
 * estimated as bounds written by hand are, and the scan, which would cost
 * every partition planned its own paths, has nothing to add.
 */
static bool
partition_of_ranges(RelOptInfo *rel, const ScanShape *shape)
{
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		if (((Condition *) lfirst(lc))->pruned)
			return true;
	}
	return false;
}

/*
 * Does the table hold conditions the scan answers, in a statement where it
 * may run, with index scans or index-only scans allowed (enable_indexscan,
 * enable_indexonlyscan, as pg_hint_plan's hints set them for the table:
 * consider_indexscan())?  Not on a table another
 * extension has taken in hand, which marks it in fdw_private (a foreign
 * table's field, which the planner leaves empty for a table):
 * TimescaleDB's chunks, whose plans it rearranges, and which it excludes
 * from a scan only where each chunk's node is a plain scan of it.  The
 * planner's own index paths serve them, with the arms' index conditions.
 */
static bool
scan_offered(PlannerInfo *root, RelOptInfo *rel, ScanShape *shape)
{
	return rel->rtekind == RTE_RELATION && rel->fdw_private == NULL &&
		bms_is_empty(rel->lateral_relids) &&
		(consider_indexscan(rel) || consider_indexonly(rel)) && statement_reads_only(root) &&
		uuidx_scan_find_conditions(rel, shape) &&
		!index_conditions_exact(root, rel, shape) && !partition_of_ranges(rel, shape);
}

/*
 * May the scan run over this index: a B-tree whose first column is id in
 * uuid's own order, whose predicate, if any, the query implies?
 */
static bool
index_serves(IndexOptInfo *index, Node *id)
{
	Oid			uuid_family = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;

	return index->relam == BTREE_AM_OID && index->opfamily[0] == uuid_family &&
		index->amhasgettuple && (index->indpred == NIL || index->predOK) &&
		match_index_to_operand(id, 0, index);
}

/* The index's order of use to the query, forward and backward; NIL if not. */
static void
useful_pathkeys(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index, List **pathkeys)
{
	pathkeys[0] = truncate_useless_pathkeys(root, rel,
											build_index_pathkeys(root, index, ForwardScanDirection));
	pathkeys[1] = truncate_useless_pathkeys(root, rel,
											build_index_pathkeys(root, index, BackwardScanDirection));
}

/*
 * Does the scan answer this arm over this index alone, so that the arm
 * makes no index condition of the planner's own there?  The support
 * function asks it (support.c's index_condition()).
 */
bool
uuidx_scan_answers_arm(PlannerInfo *root, IndexOptInfo *index, Node *arm)
{
	RelOptInfo *rel = index->rel;
	ScanShape	shape;
	List	   *pathkeys[2];
	ListCell   *lc;

	note_index_settings(rel);
	if (!scan_offered(root, rel, &shape) || !index_serves(index, shape.id))
		return false;
	useful_pathkeys(root, rel, index, pathkeys);
	if (!scan_alone(root, rel, index, &shape, pathkeys[0] != NIL || pathkeys[1] != NIL))
		return false;
	foreach(lc, shape.conditions)
	{
		RestrictInfo *rinfo = ((Condition *) lfirst(lc))->rinfo;
		ListCell   *la;

		if (rinfo->orclause == NULL)
		{
			if (rinfo->clause == (Expr *) arm)
				return true;
			continue;
		}
		foreach(la, ((BoolExpr *) rinfo->orclause)->args)
		{
			if (((RestrictInfo *) lfirst(la))->clause == (Expr *) arm)
				return true;
		}
	}
	return false;
}

/* The custom scan's private list: the shape as plan_scan() needs it. */
static List *
shape_private(int order, const ScanShape *shape)
{
	List	   *nargs = NIL;
	List	   *exprs = NIL;
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		Condition  *cond = lfirst(lc);

		/* negative for two comparisons' parts, which may cross */
		nargs = lappend_int(nargs, cond->compared ? -list_length(cond->window_args)
							: list_length(cond->window_args));
		exprs = list_concat(exprs, cond->window_args);
	}
	return list_make4(makeInteger(order),
					  shape->nchildren == 2 ? list_make2_int(shape->versions[0], shape->versions[1])
					  : list_make1_int(shape->versions[0]),
					  nargs, exprs);
}

/*
 * Offer the scan for each B-tree index of the table on id, unordered (or
 * forward) and backward where the query has a use for the order.
 */
void
uuidx_scan_paths(PlannerInfo *root, RelOptInfo *rel)
{
	ScanShape	shape;
	PathTarget *target;
	Node	   *key;
	List	   *pathkeys[2];
	IndexPath  *children[2];
	ListCell   *lc;

	if (!scan_offered(root, rel, &shape))
		return;

	/* the children return id beside what the table's target needs */
	key = strip_implicit_coercions(shape.id);
	target = copy_pathtarget(rel->reltarget);
	if (!list_member(target->exprs, key))
		add_column_to_pathtarget(target, (Expr *) key, 0);
	set_pathtarget_cost_width(root, target);

	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = lfirst(lc);
		bool		indexonly;
		bool		alone;

		if (!index_serves(index, shape.id))
			continue;
		indexonly = index_returns_all(rel, index, target, &shape);
		if (!indexonly && !consider_indexscan(rel))
			continue;			/* index-only scans alone are allowed */

		/*
		 * Forward, ordered where the query wants that order, and backward
		 * where it wants the other; unordered forward where it wants neither.
		 * The children are costed once: a walk costs the same either way.
		 */
		useful_pathkeys(root, rel, index, pathkeys);
		alone = scan_alone(root, rel, index, &shape, pathkeys[0] != NIL || pathkeys[1] != NIL);
		for (int i = 0; i < shape.nchildren; i++)
			children[i] = child_path(root, rel, index, &shape, shape.versions[i], pathkeys[0],
									 alone, indexonly, target);
		for (int d = 0; d < 2; d++)
		{
			CustomPath *path;
			int			order;

			if (d == 0 && pathkeys[0] == NIL && pathkeys[1] != NIL)
				continue;		/* the backward one serves */
			if (d == 1 && pathkeys[1] == NIL)
				break;			/* backward is of use only for its order */
			order = pathkeys[d] == NIL || shape.nchildren == 1 ? UUIDX_SCAN_UNORDERED :
				(d == 0) != index->reverse_sort[0] ? UUIDX_SCAN_ASC : UUIDX_SCAN_DESC;

			path = makeNode(CustomPath);
			path->path.pathtype = T_CustomScan;
			path->path.parent = rel;
			path->path.pathtarget = rel->reltarget;
			path->path.param_info = NULL;
			path->path.parallel_aware = false;
			path->path.parallel_safe = rel->consider_parallel;
			path->path.parallel_workers = 0;
			path->path.rows = rel->rows;
			path->path.pathkeys = pathkeys[d];
			path->path.startup_cost = 0;
			path->path.total_cost = 0;
			for (int i = 0; i < shape.nchildren; i++)
			{
				IndexPath  *child = children[i];

				if (d == 1)
				{
					child = makeNode(IndexPath);
					memcpy(child, children[i], sizeof(IndexPath));
					child->indexscandir = BackwardScanDirection;
					child->path.pathkeys = pathkeys[1];
				}
				path->custom_paths = lappend(path->custom_paths, child);
				/* merging needs every child's first row; else the first's */
				if (order != UUIDX_SCAN_UNORDERED || i == 0)
					path->path.startup_cost += child->path.startup_cost;
				path->path.total_cost += child->path.total_cost;
				UUIDX_ADD_DISABLED_NODES(&path->path, &child->path);
				path->path.parallel_safe &= child->path.parallel_safe;
			}
			if (!uuidx_scan_enabled)
				UUIDX_DISABLE_PATH(&path->path);
			path->flags = CUSTOMPATH_SUPPORT_PROJECTION;
			path->custom_private = list_make2(shape_private(order, &shape), shape.conditions);
			path->methods = &path_methods;
			add_path(rel, &path->path);
		}
	}
}

/*
 * A child plan without the Result nodes that check the query's one-time
 * conditions (pseudoconstant clauses): the planner puts the same check
 * above the scan itself, which runs no child when it fails.
 */
static Plan *
without_gating(Plan *plan)
{
	while (IsA(plan, Result) && plan->lefttree != NULL &&
		   ((Result *) plan)->resconstantqual != NULL)
		plan = plan->lefttree;
	return plan;
}

/*
 * The B-tree strategy of one of uuid's own comparison operators, by its
 * function (whatever the operator's name or schema), with the key on the
 * left; 0 for any other operator.
 */
static int
uuid_strategy(Oid opno)
{
	switch (get_opcode(opno))
	{
		case F_UUID_LT:
			return BTLessStrategyNumber;
		case F_UUID_LE:
			return BTLessEqualStrategyNumber;
		case F_UUID_EQ:
			return BTEqualStrategyNumber;
		case F_UUID_GE:
			return BTGreaterEqualStrategyNumber;
		case F_UUID_GT:
			return BTGreaterStrategyNumber;
		default:
			return 0;
	}
}

/*
 * The query's other comparisons of the key with a value fixed for the scan
 * (a keyset page's id < $1), which the children take as index conditions
 * (uuidx_scan_key_conditions(), so each child evaluates the values when it starts):
 * their strategies, and the values, of those by uuid's own operators and
 * without subqueries.  The scan evaluates the values once per run, and
 * skips a child whose key range they exclude without starting its index
 * scan (a column that declares nothing has a child for v6 keys, which a
 * page of v7 keys never reaches).
 */
static void
key_limits(PlannerInfo *root, RelOptInfo *rel, const ScanShape *shape, Oid indexid,
		   List **strategies, List **values)
{
	IndexOptInfo *index = NULL;
	ListCell   *lc;

	foreach(lc, rel->indexlist)
	{
		if (((IndexOptInfo *) lfirst(lc))->indexoid == indexid)
			index = lfirst(lc);
	}
	if (index == NULL)
		return;
	foreach(lc, rel->baserestrictinfo)
	{
		bool		lossy;
		RestrictInfo *qual = uuidx_scan_key_comparison(root, rel, index, shape, lfirst(lc), &lossy);
		OpExpr	   *op;

		if (qual == NULL)
			continue;
		op = (OpExpr *) qual->clause;
		if (uuid_strategy(op->opno) == 0 || contain_subplans(lsecond(op->args)))
			continue;
		*strategies = lappend_int(*strategies, uuid_strategy(op->opno));
		*values = lappend(*values, copyObject(lsecond(op->args)));
	}
}

/*
 * PlanCustomPath: the children check every clause of the query but those
 * the scan answers from the key (uuidx_scan_answered()), and return the target
 * with id, which is the scan tuple.
 */
static Plan *
plan_scan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
		  List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *private = linitial(best_path->custom_private);
	ScanShape	shape;
	Condition  *first;
	TargetEntry *key_tle;
	List	   *strategies = NIL;
	List	   *limits = NIL;
	Plan	   *child;
	ListCell   *lc;

	shape.conditions = lsecond(best_path->custom_private);
	first = linitial(shape.conditions);
	uuidx_scan_condition_of((Node *) first->clause, first, &shape.id);

	foreach(lc, custom_plans)
	{
		Scan	   *scan = (Scan *) without_gating(lfirst(lc));
		List	   *kept = NIL;
		ListCell   *lq;

		lfirst(lc) = scan;
		foreach(lq, scan->plan.qual)
		{
			if (!uuidx_scan_answered(lfirst(lq), &shape))
				kept = lappend(kept, lfirst(lq));
		}
		scan->plan.qual = kept;
	}

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = NIL;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_scan_tlist = copyObject(((Plan *) linitial(custom_plans))->targetlist);
	key_tle = tlist_member((Expr *) strip_implicit_coercions(shape.id), cscan->custom_scan_tlist);
	if (key_tle == NULL)
		elog(ERROR, UUIDX_SCAN_NAME " scan lost its key column");
	child = linitial(custom_plans);
	key_limits(root, rel, &shape, IsA(child, IndexOnlyScan) ? ((IndexOnlyScan *) child)->indexid :
			   IsA(child, IndexScan) ? ((IndexScan *) child)->indexid : InvalidOid,
			   &strategies, &limits);
	cscan->custom_exprs = list_concat(copyObject(llast(private)), limits);
	cscan->custom_private = list_make5(linitial(private), lsecond(private), lthird(private),
									   makeInteger(key_tle->resno), strategies);
	cscan->methods = uuidx_scan_methods();
	return &cscan->scan.plan;
}

/*
 * init.c's: the scan's setting, and its methods, which a plan names.  As
 * PostgreSQL's enable_* settings: off, the planner still may, but avoids
 * the scan wherever another plan exists.
 */
void
uuidx_scan_init(void)
{
	DefineCustomBoolVariable("uuidx.enable_time_ranges_scan",
							 "Enables the planner's use of the \"uuidx time ranges\" scan.",
							 NULL,
							 &uuidx_scan_enabled,
							 true,
							 PGC_USERSET,
							 GUC_EXPLAIN,
							 NULL, NULL, NULL);
	uuidx_scan_register();
}
