/*-------------------------------------------------------------------------
 *
 * time_range_internal.h
 *	  Shared by the files of src/time_range/, from the top layer down (as
 *	  DEVELOPMENT.md's map lists them, which test/tools/code_map.t checks):
 *	  init.c; the planner's hooks (paths.c: the cost of walking an index
 *	  to a range, and the custom scan it offers; forms.c: the forms users
 *	  write, rewritten) and the support function (support.c); the ORDER BY
 *	  rewrite (form_order.c); what a call of a form is (form_calls.c); the
 *	  custom scan (scan/: planner.c, over conditions.c and exec.c); what
 *	  databases at an earlier SQL version reach (earlier_sql.c); the
 *	  estimates (selfuncs.c); the clauses the planner makes and reads
 *	  (clauses.c); what a column's constraints say (declared.c); what
 *	  TimescaleDB says of a table (hypertables.c) and what id <@ r means,
 *	  per row (meaning.c), which the executor runs.  Each layer calls only
 *	  those below it.  src/time_range/README follows a query through them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_TIME_RANGE_INTERNAL_H
#define UUIDX_TIME_RANGE_INTERNAL_H

#include "time_range/time_range.h"

#include "fmgr.h"
#include "layout/layout.h"
#include "nodes/pathnodes.h"
#include "utils/rangetypes.h"
#include "utils/relcache.h"
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
 *	 6	uuidx_time_between(id, a, b, bounds, version, pruned), and
 *		uuidx_time_compared(id, a, b, bounds, version, pruned) (SQL 1.3.1),
 *		the same for two comparisons whose times may cross
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
	bool		compared;		/* uuidx_time_compared: two comparisons, whose
								 * times may cross */
} TimeClause;

/* The versions whose keys carry a time, and those with a key range. */
#define UUIDX_TIME_VERSIONS ((1 << 1) | (1 << 6) | (1 << 7))
#define UUIDX_KEY_VERSIONS ((1 << 6) | (1 << 7))

/*
 * What a table's validated CHECK constraints say of a uuid column:
 * versions, the time-bearing versions (1, 6, 7; a bit each) its keys may
 * be of; only, the one version (6 or 7) every key of the RFC variant is
 * of, or 0; strong, that every key is of the RFC variant too.  And the
 * functions of one argument that an index of the table, or its partition
 * key, has as an expression of the column alone (uuid_timestamp(id),
 * say): at most
 * UUIDX_INDEXED_FNS of them; and whether the predicate of a partial index
 * reads the column.
 */
#define UUIDX_INDEXED_FNS 4
typedef struct UuidxDeclared
{
	int			versions;
	int			only;
	bool		strong;
	int			nindexed;
	Oid			indexed[UUIDX_INDEXED_FNS];
	bool		partial;		/* a partial index's predicate reads the
								 * column */
	bool		dimension;		/* a hypertable's uuid dimension
								 * (hypertables.c) */
} UuidxDeclared;

/* The column a time clause reads (declared.c). */
typedef struct TimeTarget
{
	Oid			relid;			/* its table, or InvalidOid */
	AttrNumber	attnum;
	bool		partition_key;	/* first key of the table's range partitioning */
} TimeTarget;

/* meaning.c: the meaning, and the operators' functions (forms.c knows them) */
extern Datum uuidx_contained_by_tstzrange(PG_FUNCTION_ARGS);
extern Datum uuidx_tstzrange_contains_uuid(PG_FUNCTION_ARGS);
extern void uuidx_tr_range_window(const RangeType *r, TimeWindow *w);
extern bool uuidx_tr_parts_window(bool lower_null, TimestampTz lower,
								  bool upper_null, TimestampTz upper,
								  const char *flags, size_t flags_len, TimeWindow *w);
extern void uuidx_tr_window_bound(const TimeWindow *w, int version, bool upper, pg_uuid_t *bound);
extern bool uuidx_tr_valid_bound_flags(const char *flags, size_t len);
extern void uuidx_tr_check_range_parts(bool lower_null, TimestampTz lower, bool upper_null,
									   TimestampTz upper, const char *flags, size_t flags_len);
extern const TimeWindow *uuidx_tr_window_arg(FunctionCallInfo fcinfo, int argno);
extern const TimeWindow *uuidx_tr_parts_arg(FunctionCallInfo fcinfo, int argno);

/* The time of a v6 or v7 in the window's units: ticks, or Unix ms. */
static inline uint64
uuidx_tr_window_time(const pg_uuid_t *uuid, int version)
{
	return version == 7 ? uuidx_get_v7_ms(uuid) : uuidx_get_v6_ticks(uuid);
}

/*
 * Is the UUID a v6 or v7 (version 0: either; else that one) whose time lies
 * in the window?  The definition of id <@ r, checked for every row a time
 * range reads.
 */
static inline bool
uuidx_tr_in_window(const pg_uuid_t *uuid, const TimeWindow *w, int version)
{
	int			v = uuidx_get_version(uuid);
	int			i = WINDOW_INDEX(v);
	uint64		t;

	if ((v != 6 && v != 7) || (version != 0 && v != version) || w->empty[i])
		return false;
	t = uuidx_tr_window_time(uuid, v);
	return t >= w->first[i] && t <= w->last[i];
}

/* earlier_sql.c: what databases at an earlier SQL version reach */
extern Node *uuidx_tr_sql_1_3_window_upper(Node *lower, Node *upper, Node **guard);

/* selfuncs.c: estimates (version 0: either version) */
extern Selectivity uuidx_tr_window_selectivity(PlannerInfo *root, VariableStatData *vardata,
											   const TimeWindow *w, int version);
extern Selectivity uuidx_tr_join_selectivity(PlannerInfo *root, Node *id, Node *range,
											 int version);
extern Selectivity uuidx_tr_selectivity(PlannerInfo *root, Node *id, Node *range,
										int version, int varRelid);
extern Selectivity uuidx_tr_not_null_share(PlannerInfo *root, Node *id);
extern double uuidx_tr_key_share(PlannerInfo *root, VariableStatData *vardata,
								 const pg_uuid_t *from, const pg_uuid_t *to);
extern Selectivity uuidx_tr_arm_selectivity(PlannerInfo *root, RestrictInfo *rinfo, int version);

/* hypertables.c: what TimescaleDB says of a table */
extern bool uuidx_tr_hypertable_uuid_dimension(Relation rel, AttrNumber attnum);

/* declared.c: what a column's constraints say */
extern Oid	uuidx_tr_same_extension_function(Oid ext_fn, const char *name, int nargs, const Oid *argtypes);
extern Oid	uuidx_tr_extension_function(const char *extension, const char *name);
extern void uuidx_tr_declared(Oid ext_fn, Oid relid, AttrNumber attnum, UuidxDeclared *d);
extern bool uuidx_tr_declared_indexed(const UuidxDeclared *d, Oid fn);
extern void uuidx_tr_target(List *rtable, Node *id, TimeTarget *t);

/* clauses.c: the clauses the planner makes, and what clauses say */
extern Oid	uuidx_tr_support_oid;
extern Node *uuidx_tr_timestamptz_null(void);
extern Node *uuidx_tr_range_from_parts(Node *lower, Node *upper, Node *bounds);
extern Node *uuidx_tr_minmax(Oid type, MinMaxOp op, Node *a, Node *b);
extern void uuidx_tr_operator_sides(List *args, Node **id, Node **range);
extern bool uuidx_tr_read_clause(Oid fn, List *args, TimeClause *c);
extern bool uuidx_tr_clause_parts(Oid fn, List *args, TimeClause *c);
extern bool uuidx_tr_piece_by_hand(Node *node);
extern int	uuidx_tr_window_versions(Node *range, int mask, int *versions);
extern List *uuidx_tr_bounds_list(Oid ext_fn, Node *id, Node *range, const int *versions, int n,
								  bool compared);
extern Node *uuidx_tr_make_clauses(Oid ext_fn, Node *id, Node *range, int mask,
								   const TimeTarget *target, bool check_range, bool compared);
extern List *uuidx_tr_version_bounds(Oid ext_fn, Node *id, Node *range, int version, bool compared);
extern Oid	uuidx_tr_parts_bound_function(Oid ext_fn);
extern Oid	uuidx_tr_compared_function(Oid ext_fn);
extern bool uuidx_tr_estimated_window(PlannerInfo *root, Node *range, TimeWindow *w);
extern void uuidx_tr_open_sides(Node *range, bool *lower_open, bool *upper_open);

/* A call of a form: which versions it reads, and a function of ours. */
typedef struct Form
{
	Node	   *id;				/* its argument */
	Oid			fn;				/* its function */
	int			versions;		/* a bit per version it reads */
	Oid			ext_fn;			/* a function of the extension */
} Form;

/* form_calls.c: what a call of a form is, and the partial indexes on one */
extern bool uuidx_tr_form_of(Node *node, Form *form);
extern bool uuidx_tr_partial_implied(Query *query, const Form *form, List *conds);

/* form_order.c: ORDER BY a form */
extern void uuidx_tr_rewrite_order(Query *query, Node *quals);

/* forms.c: the forms users write, rewritten; paths.c: index walks */
extern void uuidx_tr_forms_init(void);
extern void uuidx_tr_paths_init(void);

#endif							/* UUIDX_TIME_RANGE_INTERNAL_H */
