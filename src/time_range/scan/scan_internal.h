/*-------------------------------------------------------------------------
 *
 * scan_internal.h
 *	  Shared by the files of the "uuidx time ranges" custom scan: the
 *	  planner's side (planner.c: where the scan is offered, its children,
 *	  its plan; conditions.c: what it answers and what its children take)
 *	  and the executor's (exec.c), which the plan joins.  Its plan's
 *	  custom_private is (order, the children's versions, each condition's
 *	  number of window arguments, negative for the parts of two
 *	  comparisons, the key's attribute number in the scan tuple, the
 *	  strategies of the key's other comparisons); custom_exprs are the
 *	  conditions' window arguments, one after the other, then the values
 *	  of those comparisons (planner.c's key_limits()).
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_SCAN_INTERNAL_H
#define UUIDX_SCAN_INTERNAL_H

#include "time_range/time_range_internal.h"
#include "time_range/scan/scan.h"

#define UUIDX_SCAN_NAME "uuidx time ranges"
#define UUIDX_SCAN_UNORDERED 0	/* one child after the other */
#define UUIDX_SCAN_ASC 1		/* merged, ascending uuid order */
#define UUIDX_SCAN_DESC 2		/* merged, descending uuid order */

/*
 * A condition of the query that the scan answers: an arm, or arms of
 * several versions ORed, each a uuidx_time_within() or uuidx_time_between()
 * of the same id and window.
 */
typedef struct Condition
{
	Expr	   *clause;			/* as it stands among the table's restrictions */
	Oid			fn;				/* an arm's function */
	Node	   *range;			/* as uuidx_tr_clause_parts() reads it */
	List	   *window_args;	/* the range, or its parts (lower, upper,
								 * bounds) */
	int			versions;		/* a bit per version */
	bool		pruned;			/* its arms stand beside comparisons for
								 * pruning */
	bool		compared;		/* of two comparisons, whose times may cross */
	RestrictInfo *rinfo;		/* the clause's, with its estimates */
	bool		answered;		/* the scan checks it, the children do not */
	List	   *bounds[2];		/* each version's key range (v6, v7), as
								 * condition_bounds() makes it */
	bool		have_bounds[2];
} Condition;

/* What the planner's side of the scan knows. */
typedef struct ScanShape
{
	Node	   *id;
	List	   *conditions;		/* of Condition */
	int			nchildren;
	int			versions[2];	/* of the children, v7 first */
} ScanShape;

/* planner.c: uuidx.enable_time_ranges_scan */
extern bool uuidx_scan_enabled;

/* conditions.c */
extern bool uuidx_scan_condition_of(Node *clause, Condition *cond, Node **id);
extern bool uuidx_scan_find_conditions(RelOptInfo *rel, ScanShape *shape);
extern bool uuidx_scan_answered(Node *clause, const ScanShape *shape);
extern List *uuidx_scan_child_conditions(PlannerInfo *root, Condition *cond, Node *id,
										 int version, bool alone);
extern RestrictInfo *uuidx_scan_key_comparison(PlannerInfo *root, RelOptInfo *rel,
											   IndexOptInfo *index, const ScanShape *shape,
											   RestrictInfo *rinfo, bool *lossy);
extern List *uuidx_scan_key_conditions(PlannerInfo *root, RelOptInfo *rel, IndexOptInfo *index,
									   const ScanShape *shape);

/* exec.c */
extern const struct CustomScanMethods *uuidx_scan_methods(void);
extern void uuidx_scan_register(void);

#endif							/* UUIDX_SCAN_INTERNAL_H */
