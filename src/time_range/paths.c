/*-------------------------------------------------------------------------
 *
 * paths.c
 *	  The cost of walking an index in key order to the keys of a time range.
 *
 * The planner costs an index scan that walks the key order (ORDER BY id
 * ... LIMIT n, the first rows of a cursor, MIN or MAX) as if the rows it
 * wants were spread evenly over the index: to return n rows, it expects to
 * read the index's keys in the proportion the rows it wants hold among all.
 * The keys of a time range lie together: the walk reads every key between
 * where its conditions start it and the range, then the range.  A planner
 * hook (set_rel_pathlist_hook) adds the cost of those keys, estimated from
 * id's histogram (selfuncs.c), to the startup cost of each such
 * index path, and of a Gather path above a partial one, so that the planner
 * walks the index where it meets the range soon, and sorts the rows of a
 * bitmap scan where it does not.  The rows themselves are what the clauses
 * make them; only the choice of plan depends on this.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "time_range/scan/scan.h"

#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_type_d.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

/*
 * The window of a restriction clause of this extension whose range the
 * planner can estimate (a constant, a stable expression, a parameter with
 * a value), with its id and the versions it accepts (a bit per version): an
 * operator or a span, an arm, or arms ORed.
 */
static bool
clause_window(PlannerInfo *root, Node *clause, Node **id, TimeWindow *w, int *versions)
{
	List	   *args;
	TimeClause	c;
	Oid			fn;

	if (is_orclause(clause))
	{
		ListCell   *lc;

		*versions = 0;
		foreach(lc, ((BoolExpr *) clause)->args)
		{
			int			arm_versions;

			if (!clause_window(root, lfirst(lc), id, w, &arm_versions))
				return false;
			*versions |= arm_versions;
		}
		return true;
	}
	if (IsA(clause, FuncExpr))
	{
		fn = ((FuncExpr *) clause)->funcid;
		args = ((FuncExpr *) clause)->args;
	}
	else if (IsA(clause, OpExpr))
	{
		fn = get_opcode(((OpExpr *) clause)->opno);
		args = ((OpExpr *) clause)->args;
	}
	else
		return false;
	/* (an arm beside comparisons for pruning checks only the version) */
	if (!uuidx_tr_read_clause(fn, args, &c) || c.pruned || !uuidx_tr_estimated_window(root, c.range, w))
		return false;
	*id = c.id;
	*versions = c.version == 0 ? (1 << 6) | (1 << 7) : 1 << c.version;
	return true;
}

/* Where the keys of a range lie in the key order: one interval per version. */
typedef struct KeyRegions
{
	int			n;
	pg_uuid_t	lower[2];
	pg_uuid_t	upper[2];
} KeyRegions;

/*
 * The bounds a path's index conditions on its first column set: [*lower,
 * *upper] narrowed.  False where the planner cannot estimate one of them
 * (a parameter of a join, say): where such a scan starts is not known.
 */
static bool
scan_bounds(PlannerInfo *root, IndexPath *path, pg_uuid_t *lower, pg_uuid_t *upper)
{
	IndexOptInfo *index = path->indexinfo;
	ListCell   *lc;

	memset(lower->data, 0x00, UUID_LEN);
	memset(upper->data, 0xFF, UUID_LEN);
	foreach(lc, path->indexclauses)
	{
		IndexClause *ic = (IndexClause *) lfirst(lc);
		ListCell   *lq;

		if (ic->indexcol != 0)
			continue;
		foreach(lq, ic->indexquals)
		{
			OpExpr	   *op = (OpExpr *) ((RestrictInfo *) lfirst(lq))->clause;
			bool		key_left;
			int			strategy;
			Node	   *value;
			const pg_uuid_t *bound;

			if (!IsA(op, OpExpr) || list_length(op->args) != 2)
				return false;
			key_left = match_index_to_operand(linitial(op->args), 0, index);
			strategy = get_op_opfamily_strategy(op->opno, index->opfamily[0]);
			value = estimate_expression_value(root, key_left ? lsecond(op->args) : linitial(op->args));
			if (!IsA(value, Const) || ((Const *) value)->constisnull ||
				((Const *) value)->consttype != UUIDOID)
				return false;
			bound = DatumGetUUIDP(((Const *) value)->constvalue);
			if (!key_left && strategy != BTEqualStrategyNumber)
				strategy = BTMaxStrategyNumber + 1 - strategy;	/* commuted */
			if ((strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber ||
				 strategy == BTEqualStrategyNumber) && memcmp(bound->data, lower->data, UUID_LEN) > 0)
				*lower = *bound;
			if ((strategy == BTLessStrategyNumber || strategy == BTLessEqualStrategyNumber ||
				 strategy == BTEqualStrategyNumber) && memcmp(bound->data, upper->data, UUID_LEN) < 0)
				*upper = *bound;
		}
	}
	return true;
}

/*
 * The share of the keys a walk of the index path reads before the first
 * key of the regions, from where its conditions start it, in its
 * direction; every key it reads where no region meets its conditions.
 * -1 for a path that does not walk id's key order.
 */
static double
walk_before_range(PlannerInfo *root, VariableStatData *vardata, Node *id,
				  IndexPath *path, const KeyRegions *regions)
{
	IndexOptInfo *index = path->indexinfo;
	Oid			uuid_family = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	pg_uuid_t	lower,
				upper;
	bool		ascending;
	bool		found = false;
	pg_uuid_t	meet;

	if (index->relam != BTREE_AM_OID || index->opfamily[0] != uuid_family ||
		!match_index_to_operand(id, 0, index))
		return -1;
	ascending = ScanDirectionIsBackward(path->indexscandir) == index->reverse_sort[0];
	if (!scan_bounds(root, path, &lower, &upper))
		return -1;
	for (int i = 0; i < regions->n; i++)
	{
		const pg_uuid_t *from = memcmp(regions->lower[i].data, lower.data, UUID_LEN) > 0 ?
			&regions->lower[i] : &lower;
		const pg_uuid_t *to = memcmp(regions->upper[i].data, upper.data, UUID_LEN) < 0 ?
			&regions->upper[i] : &upper;

		if (memcmp(from->data, to->data, UUID_LEN) > 0)
			continue;			/* the walk never meets this region */
		if (!found || (ascending ? memcmp(from->data, meet.data, UUID_LEN) < 0
					   : memcmp(to->data, meet.data, UUID_LEN) > 0))
			meet = ascending ? *from : *to;
		found = true;
	}
	if (!found)
		return uuidx_tr_key_share(root, vardata, &lower, &upper);
	return ascending ? uuidx_tr_key_share(root, vardata, &lower, &meet)
		: uuidx_tr_key_share(root, vardata, &meet, &upper);
}

/*
 * Add to an index path's startup cost what its walk reads before it meets
 * the range, at the path's own cost per key read.  Returns what it added.
 */
static Cost
charge_walk(PlannerInfo *root, RelOptInfo *rel, VariableStatData *vardata, Node *id,
			Path *path, const KeyRegions *regions)
{
	IndexPath  *ipath = (IndexPath *) path;
	double		share;
	double		read;
	Cost		added;

	if (!IsA(path, IndexPath))
		return 0;
	share = walk_before_range(root, vardata, id, ipath, regions);
	if (share <= 0)
		return 0;
	read = Max(1.0, ipath->indexselectivity * rel->tuples);
	added = Min(share * rel->tuples, read) * (path->total_cost - path->startup_cost) / read;
	path->startup_cost += added;
	return added;
}

/*
 * The rows whose key of the version lies in the window of the restriction:
 * the planner's estimate for its arm of that version where it made one,
 * else from id's statistics.
 */
static double
region_rows(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *rinfo,
			VariableStatData *vardata, const TimeWindow *w, int version)
{
	Selectivity sel = uuidx_tr_arm_selectivity(root, rinfo, version);

	if (sel < 0)
		sel = uuidx_tr_window_selectivity(root, vardata, w, version);
	return sel * rel->tuples;
}

/*
 * set_rel_pathlist_hook: on a table with an id <@ r whose range the
 * planner can estimate, charge the index paths that walk id's key order
 * what they read before the range (see the head of this file), and a
 * Gather path above a partial one what that one was charged.
 */
static void
charge_walks(PlannerInfo *root, RelOptInfo *rel, Index rti, RangeTblEntry *rte)
{
	Node	   *id = NULL;
	TimeWindow	w;
	int			versions = 0;
	KeyRegions	regions;
	VariableStatData vardata;
	RestrictInfo *rinfo = NULL;
	ListCell   *lc;
	Cost	   *charged;


	/*
	 * Where the planner does not care about fast-start plans for this table
	 * (the query wants all rows: no LIMIT, cursor, MIN or MAX, nor a
	 * semi-join that stops at the first), startup costs choose nothing.
	 */
	if (!rel->consider_startup && !rel->consider_param_startup)
		return;
	foreach(lc, rel->baserestrictinfo)
	{
		rinfo = lfirst(lc);
		if (clause_window(root, (Node *) rinfo->clause, &id, &w, &versions))
			break;
		rinfo = NULL;			/* (an OR may have set id and failed) */
	}
	if (rinfo == NULL)
		return;

	examine_variable(root, id, 0, &vardata);
	regions.n = 0;
	for (int version = 7; version >= 6; version--)
		if ((versions & (1 << version)) && !w.empty[WINDOW_INDEX(version)] &&
			region_rows(root, rel, rinfo, &vardata, &w, version) >= 1)
		{
			uuidx_tr_window_bound(&w, version, false, &regions.lower[regions.n]);
			uuidx_tr_window_bound(&w, version, true, &regions.upper[regions.n]);
			regions.n++;
		}

	charged = palloc0(sizeof(Cost) * Max(1, list_length(rel->partial_pathlist)));
	foreach(lc, rel->partial_pathlist)
		charged[foreach_current_index(lc)] = charge_walk(root, rel, &vardata, id, lfirst(lc), &regions);
	foreach(lc, rel->pathlist)
	{
		Path	   *path = lfirst(lc);
		Path	   *sub = IsA(path, GatherPath) ? ((GatherPath *) path)->subpath
			: IsA(path, GatherMergePath) ? ((GatherMergePath *) path)->subpath : NULL;
		ListCell   *lp;

		if (sub == NULL)
			charge_walk(root, rel, &vardata, id, path, &regions);
		else
		{
			foreach(lp, rel->partial_pathlist)
			{
				if (lfirst(lp) == sub)
					path->startup_cost = Min(path->total_cost,
											 path->startup_cost + charged[foreach_current_index(lp)]);
			}
		}
	}
	pfree(charged);
	ReleaseVariableStats(vardata);
}

/* Is every path of the list one of PostgreSQL's own scans of rel's table? */
static bool
own_scans(List *paths, RelOptInfo *rel)
{
	ListCell   *lc;

	foreach(lc, paths)
	{
		Path	   *path = lfirst(lc);

		if (path->parent != rel)
			return false;
		switch (path->pathtype)
		{
			case T_SeqScan:
			case T_SampleScan:
			case T_IndexScan:
			case T_IndexOnlyScan:
			case T_BitmapHeapScan:
			case T_TidScan:
			case T_TidRangeScan:
				break;
			default:
				return false;
		}
	}
	return true;
}

/*
 * Does PostgreSQL read this relation's rows as it planned them: a table
 * (not a parent whose children are planned in its place), every path of
 * which is one of PostgreSQL's own scans of it?  An extension that supplies
 * a relation's rows otherwise replaces its paths before this hook sees
 * them: TimescaleDB expands a hypertable's chunks itself, where the root,
 * planned as a table, holds no rows, and gives the root an Append of the
 * chunks (or a scan of its own that finds them as it goes), calling the
 * other extensions' hooks afterwards, in either order of
 * shared_preload_libraries.  uuidx plans no path over such a relation;
 * the children another extension plans are planned as the tables they
 * are, each through this hook.
 */
static bool
rows_read_as_planned(RelOptInfo *rel, RangeTblEntry *rte)
{
	return rel->rtekind == RTE_RELATION && !rte->inh &&
		(rte->relkind == RELKIND_RELATION || rte->relkind == RELKIND_MATVIEW) &&
		own_scans(rel->pathlist, rel) && own_scans(rel->partial_pathlist, rel);
}

/*
 * set_rel_pathlist_hook: charge the walks of the paths the planner made,
 * then offer the scan (scan/planner.c), which makes no such walk; only where
 * PostgreSQL reads the rows as planned (rows_read_as_planned()).
 */
static void
time_range_paths(PlannerInfo *root, RelOptInfo *rel, Index rti, RangeTblEntry *rte)
{
	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);

	/*
	 * The hook runs for a relation the planner has proven empty too (its
	 * conditions contradict each other, or its constraints exclude them): it
	 * has no paths to charge, and wants none (the planner has not counted its
	 * pages among the query's).
	 */
	if (IS_DUMMY_REL(rel) || !rows_read_as_planned(rel, rte))
		return;
	charge_walks(root, rel, rti, rte);
	uuidx_scan_paths(root, rel);
}

/* init.c's: the hook. */
void
uuidx_tr_paths_init(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = time_range_paths;
}
