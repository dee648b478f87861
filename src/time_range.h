/*-------------------------------------------------------------------------
 *
 * time_range.h
 *	  Shared by the four files of id <@ tstzrange: time_range.c (what it
 *	  means, per row), time_range_support.c (what the planner makes of it),
 *	  time_range_selfuncs.c (its estimates) and time_range_paths.c (the
 *	  cost of walking an index to it).  Dependencies run one way: the
 *	  planner's files use time_range.c, never the reverse.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_TIME_RANGE_H
#define UUIDX_TIME_RANGE_H

#include "uuidx.h"

#include "nodes/pathnodes.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"

/*
 * A range as what it holds of each version: the interval [first, last] of
 * v6 timestamps (100-ns ticks) and of v7 timestamps (Unix milliseconds)
 * whose uuid_timestamp() lies in it.  "Lies in" is core's range
 * containment; since uuid_timestamp() is a whole number of microseconds
 * computed from the version's timestamp by a rounding-down division, the
 * timestamps that qualify are exactly one such interval.
 */
typedef struct TimeWindow
{
	bool		empty[2];		/* [0]: v6, [1]: v7 */
	uint64		first[2];
	uint64		last[2];
} TimeWindow;

#define WINDOW_INDEX(version) ((version) == 7 ? 1 : 0)

/*
 * What a clause of the operators' functions or of the pieces asks, by the
 * number of its arguments:
 *	 2	id <@ r, r @> id			(the operators' functions)
 *	 3	uuidx_time_span(id, r, beside)
 *	 4	uuidx_time_within(id, r, version, pruned)
 *	 5	uuidx_time_span_between(id, a, b, bounds, beside)
 *	 6	uuidx_time_between(id, a, b, bounds, version, pruned)
 * For the pieces that take the range's parts, range is the expression
 * tstzrange(a, b, bounds).
 */
typedef struct TimeClause
{
	Node	   *id;
	Node	   *range;
	int			version;		/* 6 or 7 for an arm; 0 (either) otherwise */
	bool		beside;			/* a span with the arms beside it */
	bool		pruned;			/* an arm beside the comparisons for pruning */
} TimeClause;

/* time_range.c: the meaning */
extern void uuidx_range_window(const RangeType *r, TimeWindow *w);
extern bool uuidx_parts_window(bool lower_null, TimestampTz lower,
							   bool upper_null, TimestampTz upper,
							   const char *flags, size_t flags_len, TimeWindow *w);
extern uint64 uuidx_window_time(const pg_uuid_t *uuid, int version);
extern bool uuidx_in_window(const pg_uuid_t *uuid, const TimeWindow *w, int version);
extern void uuidx_window_bound(const TimeWindow *w, int version, bool upper, pg_uuid_t *bound);
extern bool uuidx_valid_bound_flags(const char *flags, size_t len);

/* time_range_selfuncs.c: estimates (version 0: either version) */
extern Selectivity uuidx_window_selectivity(PlannerInfo *root, VariableStatData *vardata,
											const TimeWindow *w, int version);
extern Selectivity uuidx_time_join_selectivity(PlannerInfo *root, Node *id, Node *range,
											   int version);
extern Selectivity uuidx_time_selectivity(PlannerInfo *root, Node *id, Node *range,
										  int version, int varRelid);
extern void uuidx_operator_sides(List *args, Node **id, Node **range);
extern double uuidx_key_share(PlannerInfo *root, VariableStatData *vardata,
							  const pg_uuid_t *from, const pg_uuid_t *to);

/* time_range_support.c */
extern bool uuidx_time_clause(Oid fn, List *args, TimeClause *c);

#endif							/* UUIDX_TIME_RANGE_H */
