/*-------------------------------------------------------------------------
 *
 * exec.c
 *	  One index scan per key range of a time window, walked one after the
 *	  other or merged in key order: the "uuidx time ranges" custom scan.
 *
 * A time window holds v7 keys in one interval of the uuid order and v6 keys
 * in another (meaning.c).  On a column that declares nothing, id <@ r
 * becomes two arms, uuidx_time_within(id, r, 7, false) OR
 * uuidx_time_within(id, r, 6, false), or uuidx_time_between() of the
 * range's parts where the query builds it (support.c), and the planner's own plans for an OR are a
 * BitmapOr, which reads the heap for every row and returns rows out of key
 * order: a count cannot be answered from the index alone, and ORDER BY id
 * LIMIT n sorts every row of the window.  This scan runs one index scan
 * per arm, each over its version's key range, and checks each row on the
 * key the index returns: the key must be of the arm's version, with its
 * time in the window (uuidx_tr_in_window, the definition itself).  The child
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
 * This file is the executor's side; planner.c offers the scan
 * to the planner and makes its plan.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/scan/scan_internal.h"

#include "compat.h"
#include "access/stratnum.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

static CustomScanMethods plan_methods;
static CustomExecMethods exec_methods;

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
	bool	   *compared;		/* of two comparisons, whose times may cross */
	List	   *window_states;	/* ExprStates of all conditions' arguments */
	TimeWindow *windows;		/* each condition's */
	List	   *limit_states;	/* the key's other comparisons' values */
	int		   *limit_strategies;	/* and their B-tree strategies */
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
	List	   *strategies = list_nth(cscan->custom_private, 4);
	int			nwindow_args;
	ListCell   *lc;

	state->order = intVal(linitial(cscan->custom_private));
	state->key_attno = intVal(lfourth(cscan->custom_private));
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
	state->compared = palloc(sizeof(bool) * state->nconditions);
	foreach(lc, nargs)
	{
		state->nargs[foreach_current_index(lc)] = abs(lfirst_int(lc));
		state->compared[foreach_current_index(lc)] = lfirst_int(lc) < 0;
	}
	state->windows = palloc(sizeof(TimeWindow) * state->nconditions);
	/* the conditions' arguments, then the key's other comparisons' values */
	nwindow_args = list_length(cscan->custom_exprs) - list_length(strategies);
	state->window_states = ExecInitExprList(list_truncate(list_copy(cscan->custom_exprs), nwindow_args),
											&node->ss.ps);
	state->limit_states = ExecInitExprList(list_copy_tail(cscan->custom_exprs, nwindow_args),
										   &node->ss.ps);
	state->limit_strategies = palloc(sizeof(int) * (list_length(strategies) + 1));
	foreach(lc, strategies)
		state->limit_strategies[foreach_current_index(lc)] = lfirst_int(lc);

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
 * nothing: a NULL range, NULL flags, or the crossed times of two
 * comparisons.  The parts of a range the query builds that the
 * constructor refuses raise its error, as the range in the query would.
 */
static bool
compute_windows(TimeScanState *state)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	ListCell   *lc = list_head(state->window_states);
	MemoryContext old;
	bool		result = true;

	/* what the arguments' values need (a detoasted range) goes with them */
	ResetExprContext(econtext);
	old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
	for (int c = 0; c < state->nconditions && result; c++)
	{
		Datum		values[3];
		bool		nulls[3];
		text	   *flags;

		for (int i = 0; i < state->nargs[c]; i++)
		{
			values[i] = ExecEvalExpr(lfirst(lc), econtext, &nulls[i]);
			lc = lnext(state->window_states, lc);
		}
		if (state->nargs[c] == 1)
		{
			result = !nulls[0];
			if (result)
				uuidx_tr_range_window(DatumGetRangeTypeP(values[0]), &state->windows[c]);
			continue;
		}
		result = !nulls[2];
		if (!result)
			continue;
		flags = DatumGetTextPP(values[2]);
		if (!state->compared[c])
			uuidx_tr_check_range_parts(nulls[0], nulls[0] ? 0 : DatumGetTimestampTz(values[0]),
									   nulls[1], nulls[1] ? 0 : DatumGetTimestampTz(values[1]),
									   VARDATA_ANY(flags), VARSIZE_ANY_EXHDR(flags));
		result = uuidx_tr_parts_window(nulls[0], nulls[0] ? 0 : DatumGetTimestampTz(values[0]),
									   nulls[1], nulls[1] ? 0 : DatumGetTimestampTz(values[1]),
									   VARDATA_ANY(flags), VARSIZE_ANY_EXHDR(flags),
									   &state->windows[c]);
	}
	MemoryContextSwitchTo(old);
	return result;
}

/*
 * Does the key's comparison (strategy, with value) exclude every key in
 * [lower, upper]?
 */
static bool
limit_excludes(int strategy, const pg_uuid_t *value, const pg_uuid_t *lower, const pg_uuid_t *upper)
{
	int			below = memcmp(lower->data, value->data, UUID_LEN);
	int			above = memcmp(upper->data, value->data, UUID_LEN);

	switch (strategy)
	{
		case BTLessStrategyNumber:
			return below >= 0;
		case BTLessEqualStrategyNumber:
			return below > 0;
		case BTEqualStrategyNumber:
			return below > 0 || above < 0;
		case BTGreaterEqualStrategyNumber:
			return above < 0;
		case BTGreaterStrategyNumber:
			return above <= 0;
	}
	return false;
}

/*
 * The children that the key's other comparisons (a keyset page's
 * id < $1, which every child checks too) leave nothing to return: those
 * whose key range, the keys of their version in every window, lies beyond
 * a value.  They are marked done, and their index scans never start: on a
 * column that declares nothing, each page of v7 keys would otherwise
 * descend the index for v6 keys as well.  A NULL value holds no key.
 */
static void
apply_limits(TimeScanState *state)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	pg_uuid_t	lower[2],
				upper[2];
	MemoryContext old;
	ListCell   *lc;

	if (state->limit_states == NIL)
		return;
	for (int i = 0; i < state->nchildren; i++)
	{
		memset(lower[i].data, 0, UUID_LEN);
		memset(upper[i].data, 0xFF, UUID_LEN);
		for (int c = 0; c < state->nconditions; c++)
		{
			pg_uuid_t	bound;

			uuidx_tr_window_bound(&state->windows[c], state->versions[i], false, &bound);
			if (memcmp(bound.data, lower[i].data, UUID_LEN) > 0)
				lower[i] = bound;
			uuidx_tr_window_bound(&state->windows[c], state->versions[i], true, &bound);
			if (memcmp(bound.data, upper[i].data, UUID_LEN) < 0)
				upper[i] = bound;
		}
	}
	old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
	foreach(lc, state->limit_states)
	{
		bool		isnull;
		Datum		value = ExecEvalExpr(lfirst(lc), econtext, &isnull);

		for (int i = 0; i < state->nchildren; i++)
			state->done[i] |= isnull ||
				limit_excludes(state->limit_strategies[foreach_current_index(lc)],
							   DatumGetUUIDP(value), &lower[i], &upper[i]);
	}
	MemoryContextSwitchTo(old);
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
			if (!uuidx_tr_in_window(key, &state->windows[c], state->versions[i]))
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
		if (!state->empty)
			apply_limits(state);
	}
	if (state->empty)
		return NULL;

	if (state->order == UUIDX_SCAN_UNORDERED)
	{
		while (state->current < state->nchildren)
		{
			slot = state->done[state->current] ? NULL : next_of_child(state, state->current);
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
			 (state->order == UUIDX_SCAN_ASC)))
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
	appendStringInfoString(&ranges, state->order == UUIDX_SCAN_UNORDERED ? ", one after the other"
						   : ", merged in key order");
	ExplainPropertyText("Key Ranges", ranges.data, es);
}

/* The plan's methods, for the planner's side. */
const CustomScanMethods *
uuidx_scan_methods(void)
{
	return &plan_methods;
}

void
uuidx_scan_register(void)
{
	plan_methods.CustomName = UUIDX_SCAN_NAME;
	plan_methods.CreateCustomScanState = create_scan_state;

	exec_methods.CustomName = UUIDX_SCAN_NAME;
	exec_methods.BeginCustomScan = begin_scan;
	exec_methods.ExecCustomScan = exec_scan;
	exec_methods.EndCustomScan = end_scan;
	exec_methods.ReScanCustomScan = rescan;
	exec_methods.ExplainCustomScan = explain_scan;

	RegisterCustomScanMethods(&plan_methods);
}
