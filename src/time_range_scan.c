/*-------------------------------------------------------------------------
 *
 * time_range_scan.c
 *	  One index scan per key range of a time window, walked one after the
 *	  other or merged in key order: the "uuidx time ranges" custom scan.
 *
 * A time window holds v7 keys in one interval of the uuid order and v6 keys
 * in another (time_range.c).  On a column that declares nothing, id <@ r
 * becomes two arms, uuidx_time_within(id, r, 7) OR ...(id, r, 6)
 * (time_range_support.c), and the planner's own plans for an OR are a
 * BitmapOr, which reads the heap for every row and returns rows out of key
 * order: a count cannot be answered from the index alone, and ORDER BY id
 * LIMIT n sorts every row of the window.  This scan runs one index scan
 * per arm, each over its version's key range, and checks each row on the
 * key the index returns: the key must be of the arm's version, with its
 * time in the window (uuidx_in_window, the definition itself).  The child
 * scans are ordinary index or index-only scans of the table, so the
 * visibility map lets them skip the heap as for any other query, and every
 * other clause of the query is checked by them as usual.
 *
 * Why the rows come in key order.  Each child returns its rows in the
 * index's order, forward or backward.  Where the query wants that order,
 * the scan merges the children: it keeps the next row of each and returns
 * the one whose key comes first, as MergeAppend does.  For the windows
 * users ask for, the v7 interval lies wholly before the v6 one and the
 * merge takes the first child to its end before it returns a row of the
 * second; a window open towards the future has intervals that overlap
 * (a v7 key of the year 3000 sorts among today's v6 keys), and the merge
 * then interleaves them, still in order.  No row comes twice: a row passes
 * only the child of its own version.  Where the query wants no order, the
 * children run one after the other.
 *
 * The scan is offered for a table's B-tree indexes whose first column is
 * id in uuid's own order, where the window does not depend on another
 * table of the query, and not in a statement that locks or changes rows
 * (whose rechecks of concurrently updated rows it does not support).  The
 * planner chooses it, or not, by cost.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range.h"

#include "compat.h"
#include "access/sysattr.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#define SCAN_NAME "uuidx time ranges"

/* How the children's rows are combined. */
#define ORDER_NONE 0			/* one child after the other */
#define ORDER_ASC 1				/* merged, ascending uuid order */
#define ORDER_DESC 2			/* merged, descending uuid order */

/*
 * A condition of the query that the scan answers: an arm, or arms of
 * several versions ORed, each a uuidx_time_within() or uuidx_time_between()
 * of the same id and window.
 */
typedef struct Condition
{
	Expr	   *clause;			/* as it stands among the table's restrictions */
	Oid			fn;				/* an arm's function */
	Node	   *range;			/* as time_clause() builds it */
	List	   *window_args;	/* the range, or its parts (lower, upper,
								 * bounds) */
	int			versions;		/* a bit per version */
	bool		pruned;			/* its arms stand beside comparisons for
								 * pruning */
} Condition;

/* What the planner's side of the scan knows. */
typedef struct ScanShape
{
	Node	   *id;
	List	   *conditions;		/* of Condition */
	int			nchildren;
	int			versions[2];	/* of the children, v7 first */
} ScanShape;

static CustomPathMethods path_methods;
static CustomScanMethods plan_methods;
static CustomExecMethods exec_methods;

/* An arm: a call of a piece with one version; false for anything else. */
static bool
arm_of(Node *node, TimeClause *c, FuncExpr **call)
{
	if (!IsA(node, FuncExpr))
		return false;
	*call = (FuncExpr *) node;
	return uuidx_time_clause((*call)->funcid, (*call)->args, c) && c->version != 0;
}

/* The condition a clause is, with its id; false for anything else. */
static bool
condition_of(Node *clause, Condition *cond, Node **id)
{
	List	   *arms = is_orclause(clause) ? ((BoolExpr *) clause)->args : list_make1(clause);
	ListCell   *lc;

	cond->clause = (Expr *) clause;
	cond->versions = 0;
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
 * The conditions on one column among the table's restrictions: those on
 * the column of the first one found.  The column must be the table's, and
 * each window a value the scan can compute before its first row: nothing
 * of this or another table of the query (parameters are fine), nothing
 * volatile.
 */
static bool
find_conditions(RelOptInfo *rel, ScanShape *shape)
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

		if (rinfo->pseudoconstant || !condition_of((Node *) rinfo->clause, cond, &id) ||
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
	return shape->nchildren > 0;
}

/*
 * Is this a clause the scan answers itself, so that the children need not
 * check it: a condition, or the comparisons for partition pruning made
 * beside one?
 */
static bool
answered_by_scan(Node *clause, const ScanShape *shape)
{
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		Condition  *cond = lfirst(lc);
		List	   *pairs = NIL;
		bool		all = true;

		if (equal(clause, cond->clause))
			return true;
		for (int version = 7; version >= 6 && all; version--)
		{
			List	   *pair;

			if (!(cond->versions & (1 << version)))
				continue;
			pair = uuidx_version_bounds(cond->fn, shape->id, cond->range, version);
			all = pair != NIL;
			pairs = lappend(pairs, list_length(pair) == 1 ? linitial(pair) : make_andclause(pair));
		}
		if (all && equal(clause, list_length(pairs) == 1 ? linitial(pairs) : make_orclause(pairs)))
			return true;
	}
	return false;
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

	if (!enable_indexonlyscan)
		return false;
	pull_varattnos((Node *) target->exprs, rel->relid, &needed);
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst(lc);

		if (!rinfo->pseudoconstant && !answered_by_scan((Node *) rinfo->clause, shape))
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
 * The child of one version: an index path over that version's key range of
 * every condition's window.  Its cost is what the planner counts for such a
 * scan, less the clauses the scan answers from the key: a few comparisons
 * on the key's bytes, where the clauses were a function call each.
 */
static IndexPath *
child_path(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index, const ScanShape *shape,
		   int version, List *pathkeys, ScanDirection dir, bool indexonly, PathTarget *target)
{
	List	   *clauses = NIL;
	IndexPath  *path;
	Cost		answered = 0;
	double		keys_read;
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		Condition  *cond = lfirst(lc);
		List	   *bounds = uuidx_version_bounds(cond->fn, shape->id, cond->range, version);
		QualCost	cost;
		ListCell   *lb;

		cost_qual_eval_node(&cost, (Node *) cond->clause, root);
		answered += cost.per_tuple;
		if (bounds != NIL)
		{
			IndexClause *ic = makeNode(IndexClause);

			ic->rinfo = make_simple_restrictinfo(root, cond->clause);
			ic->indexquals = NIL;
			foreach(lb, bounds)
				ic->indexquals = lappend(ic->indexquals,
										 make_simple_restrictinfo(root, (Expr *) lfirst(lb)));
			ic->lossy = true;
			ic->indexcol = 0;
			ic->indexcols = NIL;
			clauses = lappend(clauses, ic);
		}
	}
	path = create_index_path(root, index, clauses, NIL, NIL, pathkeys, dir, indexonly,
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
	uuidx_declared(((Condition *) linitial(shape->conditions))->fn,
				   planner_rt_fetch(rel->relid, root)->relid,
				   ((Var *) strip_implicit_coercions(shape->id))->varattno, &declared);
	return declared.strong && declared.only == shape->versions[0];
}

/* The custom scan's private list: the shape as plan_scan() needs it. */
static List *
shape_private(int order, const ScanShape *shape)
{
	List	   *nargs = NIL;
	List	   *masks = NIL;
	List	   *exprs = NIL;
	ListCell   *lc;

	foreach(lc, shape->conditions)
	{
		Condition  *cond = lfirst(lc);

		nargs = lappend_int(nargs, list_length(cond->window_args));
		masks = lappend_int(masks, cond->versions);
		exprs = list_concat(exprs, cond->window_args);
	}
	return list_make5(makeInteger(order),
					  shape->nchildren == 2 ? list_make2_int(shape->versions[0], shape->versions[1])
					  : list_make1_int(shape->versions[0]),
					  nargs, masks, exprs);
}

/*
 * Offer the scan for each B-tree index of the table on id, unordered (or
 * forward) and backward where the query has a use for the order.
 */
void
uuidx_time_scan_paths(PlannerInfo *root, RelOptInfo *rel)
{
	ScanShape	shape;
	PathTarget *target;
	Oid			uuid_family;
	Node	   *key;
	List	   *pathkeys[2];
	IndexPath  *children[2];
	ListCell   *lc;

	if (rel->rtekind != RTE_RELATION || !bms_is_empty(rel->lateral_relids) ||
		!statement_reads_only(root) || !find_conditions(rel, &shape) ||
		index_conditions_exact(root, rel, &shape))
		return;

	/* the children return id beside what the table's target needs */
	key = strip_implicit_coercions(shape.id);
	target = copy_pathtarget(rel->reltarget);
	if (!list_member(target->exprs, key))
		add_column_to_pathtarget(target, (Expr *) key, 0);
	set_pathtarget_cost_width(root, target);

	uuid_family = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = lfirst(lc);
		bool		indexonly;

		if (index->relam != BTREE_AM_OID || index->opfamily[0] != uuid_family ||
			!index->amhasgettuple || (index->indpred != NIL && !index->predOK) ||
			!match_index_to_operand(shape.id, 0, index))
			continue;
		indexonly = index_returns_all(rel, index, target, &shape);

		/*
		 * Forward, ordered where the query wants that order, and backward
		 * where it wants the other; unordered forward where it wants neither.
		 * The children are costed once: a walk costs the same either way.
		 */
		pathkeys[0] = truncate_useless_pathkeys(root, rel,
												build_index_pathkeys(root, index, ForwardScanDirection));
		pathkeys[1] = truncate_useless_pathkeys(root, rel,
												build_index_pathkeys(root, index, BackwardScanDirection));
		for (int i = 0; i < shape.nchildren; i++)
			children[i] = child_path(root, rel, index, &shape, shape.versions[i], pathkeys[0],
									 ForwardScanDirection, indexonly, target);
		for (int d = 0; d < 2; d++)
		{
			CustomPath *path;
			int			order;

			if (d == 0 && pathkeys[0] == NIL && pathkeys[1] != NIL)
				continue;		/* the backward one serves */
			if (d == 1 && pathkeys[1] == NIL)
				break;			/* backward is of use only for its order */
			order = pathkeys[d] == NIL || shape.nchildren == 1 ? ORDER_NONE :
				(d == 0) != index->reverse_sort[0] ? ORDER_ASC : ORDER_DESC;

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
				if (order != ORDER_NONE || i == 0)
					path->path.startup_cost += child->path.startup_cost;
				path->path.total_cost += child->path.total_cost;
				UUIDX_ADD_DISABLED_NODES(&path->path, &child->path);
				path->path.parallel_safe &= child->path.parallel_safe;
			}
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
 * PlanCustomPath: the children check every clause of the query but those
 * the scan answers from the key (answered_by_scan), and return the target
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
	ListCell   *lc;

	shape.conditions = lsecond(best_path->custom_private);
	first = linitial(shape.conditions);
	condition_of((Node *) first->clause, first, &shape.id);

	foreach(lc, custom_plans)
	{
		Scan	   *scan = (Scan *) without_gating(lfirst(lc));
		List	   *kept = NIL;
		ListCell   *lq;

		lfirst(lc) = scan;
		foreach(lq, scan->plan.qual)
		{
			if (!answered_by_scan(lfirst(lq), &shape))
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
		elog(ERROR, SCAN_NAME " scan lost its key column");
	cscan->custom_exprs = copyObject(llast(private));
	cscan->custom_private = list_make5(linitial(private), lsecond(private), lthird(private),
									   lfourth(private), makeInteger(key_tle->resno));
	cscan->methods = &plan_methods;
	return &cscan->scan.plan;
}

/* The executor's state. */
typedef struct TimeScanState
{
	CustomScanState css;
	int			order;
	int			nchildren;
	PlanState **children;
	int			versions[2];	/* of each child */
	TupleTableSlot *heads[2];	/* each child's next row, when merging */
	bool		done[2];
	int			current;		/* the child running, when not merging */
	AttrNumber	key_attno;
	int			nconditions;
	int		   *nargs;			/* each condition's window arguments: 1 or 3 */
	List	   *window_states;	/* ExprStates of all conditions' arguments */
	TimeWindow *windows;		/* each condition's */
	bool		simple_projection;	/* of columns only: allocates nothing */
	bool		started;
	bool		empty;			/* a condition holds nothing */
} TimeScanState;

static Node *
create_scan_state(CustomScan *cscan)
{
	TimeScanState *state = (TimeScanState *) newNode(sizeof(TimeScanState), T_CustomScanState);

	state->css.methods = &exec_methods;
	return (Node *) state;
}

static void
begin_scan(CustomScanState *node, EState *estate, int eflags)
{
	TimeScanState *state = (TimeScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *versions = lsecond(cscan->custom_private);
	List	   *nargs = lthird(cscan->custom_private);
	ListCell   *lc;

	state->order = intVal(linitial(cscan->custom_private));
	state->key_attno = intVal(list_nth(cscan->custom_private, 4));
	state->nchildren = list_length(cscan->custom_plans);
	state->children = palloc0(sizeof(PlanState *) * state->nchildren);
	foreach(lc, cscan->custom_plans)
	{
		int			i = foreach_current_index(lc);

		state->children[i] = ExecInitNode(lfirst(lc), estate, eflags);
		node->custom_ps = lappend(node->custom_ps, state->children[i]);
		state->versions[i] = list_nth_int(versions, i);
	}
	state->nconditions = list_length(nargs);
	state->nargs = palloc(sizeof(int) * state->nconditions);
	foreach(lc, nargs)
		state->nargs[foreach_current_index(lc)] = lfirst_int(lc);
	state->windows = palloc(sizeof(TimeWindow) * state->nconditions);
	state->window_states = ExecInitExprList(cscan->custom_exprs, &node->ss.ps);

	/*
	 * The scan tuple is the slot of whichever child returned the row, of its
	 * own kind (a buffer heap tuple for an index scan, a virtual one for an
	 * index-only scan): the projection must not assume one kind, and the
	 * result is that slot itself where nothing is projected.
	 */
	node->ss.ps.scanopsfixed = false;
	node->ss.ps.resultopsfixed = false;
	ExecAssignScanProjectionInfoWithVarno(&node->ss, INDEX_VAR);
	state->simple_projection = true;
	foreach(lc, cscan->scan.plan.targetlist)
	{
		if (!IsA(((TargetEntry *) lfirst(lc))->expr, Var))
			state->simple_projection = false;
	}
}

/*
 * Compute the conditions' windows, once per scan; false where one holds
 * nothing: a NULL range, or parts the constructor would refuse (the arms
 * are NULL for every row then).
 */
static bool
compute_windows(TimeScanState *state)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	ListCell   *lc = list_head(state->window_states);

	ResetExprContext(econtext);
	for (int c = 0; c < state->nconditions; c++)
	{
		Datum		values[3];
		bool		nulls[3];
		text	   *flags;

		for (int i = 0; i < state->nargs[c]; i++)
		{
			values[i] = ExecEvalExprSwitchContext(lfirst(lc), econtext, &nulls[i]);
			lc = lnext(state->window_states, lc);
		}
		if (state->nargs[c] == 1)
		{
			if (nulls[0])
				return false;
			uuidx_range_window(DatumGetRangeTypeP(values[0]), &state->windows[c]);
			continue;
		}
		if (nulls[2])
			return false;
		flags = DatumGetTextPP(values[2]);
		if (!uuidx_parts_window(nulls[0], nulls[0] ? 0 : DatumGetTimestampTz(values[0]),
								nulls[1], nulls[1] ? 0 : DatumGetTimestampTz(values[1]),
								VARDATA_ANY(flags), VARSIZE_ANY_EXHDR(flags),
								&state->windows[c]))
			return false;
	}
	return true;
}

/*
 * The next row of child i that passes the conditions, checked on its key
 * (the definition of each arm of the child's version), or NULL at its end.
 */
static TupleTableSlot *
next_of_child(TimeScanState *state, int i)
{
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(state->children[i]);
		bool		isnull;
		pg_uuid_t  *key;
		int			c;

		if (TupIsNull(slot))
			return NULL;
		key = DatumGetUUIDP(slot_getattr(slot, state->key_attno, &isnull));
		if (isnull)
			continue;
		for (c = 0; c < state->nconditions; c++)
			if (!uuidx_in_window(key, &state->windows[c], state->versions[i]))
				break;
		if (c == state->nconditions)
			return slot;
	}
}

static int
key_compare(TimeScanState *state, TupleTableSlot *a, TupleTableSlot *b)
{
	bool		isnull;
	pg_uuid_t  *ka = DatumGetUUIDP(slot_getattr(a, state->key_attno, &isnull));
	pg_uuid_t  *kb = DatumGetUUIDP(slot_getattr(b, state->key_attno, &isnull));

	return memcmp(ka->data, kb->data, UUID_LEN);
}

/* The next row, in order where merging; NULL at the end. */
static TupleTableSlot *
next_row(TimeScanState *state)
{
	int			pick = -1;
	TupleTableSlot *slot;

	if (!state->started)
	{
		state->started = true;
		state->empty = !compute_windows(state);
		state->current = 0;
		for (int i = 0; i < state->nchildren; i++)
		{
			state->heads[i] = NULL;
			state->done[i] = state->empty;
		}
	}
	if (state->empty)
		return NULL;

	if (state->order == ORDER_NONE)
	{
		while (state->current < state->nchildren)
		{
			slot = next_of_child(state, state->current);
			if (slot != NULL)
				return slot;
			state->current++;
		}
		return NULL;
	}

	for (int i = 0; i < state->nchildren; i++)
	{
		if (state->heads[i] == NULL && !state->done[i])
		{
			state->heads[i] = next_of_child(state, i);
			state->done[i] = state->heads[i] == NULL;
		}
		if (state->heads[i] != NULL &&
			(pick < 0 || (key_compare(state, state->heads[i], state->heads[pick]) < 0) ==
			 (state->order == ORDER_ASC)))
			pick = i;
	}
	if (pick < 0)
		return NULL;
	/* taken: the child is asked for its next row on the next call */
	slot = state->heads[pick];
	state->heads[pick] = NULL;
	return slot;
}

/*
 * The scan has no quals of its own and no relation (so no rechecks of
 * concurrently updated rows, which ExecScan would run: the scan is not
 * offered in statements that lock or change rows): a row is the child's
 * slot, projected where the target asks.
 */
static TupleTableSlot *
exec_scan(CustomScanState *node)
{
	TupleTableSlot *slot = next_row((TimeScanState *) node);
	ProjectionInfo *projection = node->ss.ps.ps_ProjInfo;
	ExprContext *econtext = node->ss.ps.ps_ExprContext;

	if (slot == NULL || projection == NULL)
		return slot;
	if (!((TimeScanState *) node)->simple_projection)
		ResetExprContext(econtext);
	econtext->ecxt_scantuple = slot;
	return ExecProject(projection);
}

static void
end_scan(CustomScanState *node)
{
	TimeScanState *state = (TimeScanState *) node;

	for (int i = 0; i < state->nchildren; i++)
		ExecEndNode(state->children[i]);
}

static void
rescan(CustomScanState *node)
{
	TimeScanState *state = (TimeScanState *) node;

	for (int i = 0; i < state->nchildren; i++)
	{
		if (node->ss.ps.chgParam != NULL)
			UpdateChangedParamSet(state->children[i], node->ss.ps.chgParam);
		if (state->children[i]->chgParam == NULL)
			ExecReScan(state->children[i]);
	}
	state->started = false;
}

static void
explain_scan(CustomScanState *node, List *ancestors, ExplainState *es)
{
	TimeScanState *state = (TimeScanState *) node;
	StringInfoData ranges;

	initStringInfo(&ranges);
	for (int i = 0; i < state->nchildren; i++)
		appendStringInfo(&ranges, "%sv%d", i > 0 ? ", " : "", state->versions[i]);
	appendStringInfoString(&ranges, state->order == ORDER_NONE ? ", one after the other"
						   : ", merged in key order");
	ExplainPropertyText("Key Ranges", ranges.data, es);
}

void
uuidx_time_scan_register(void)
{
	path_methods.CustomName = SCAN_NAME;
	path_methods.PlanCustomPath = plan_scan;

	plan_methods.CustomName = SCAN_NAME;
	plan_methods.CreateCustomScanState = create_scan_state;

	exec_methods.CustomName = SCAN_NAME;
	exec_methods.BeginCustomScan = begin_scan;
	exec_methods.ExecCustomScan = exec_scan;
	exec_methods.EndCustomScan = end_scan;
	exec_methods.ReScanCustomScan = rescan;
	exec_methods.ExplainCustomScan = explain_scan;

	RegisterCustomScanMethods(&plan_methods);
}
