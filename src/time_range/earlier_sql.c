/*-------------------------------------------------------------------------
 *
 * earlier_sql.c
 *	  What the time ranges keep for databases at an earlier SQL version,
 *	  and for nothing else.
 *
 * A database keeps its SQL version until ALTER EXTENSION uuidx UPDATE, and
 * this library serves every version from 1.0 (symbols_1_0.c keeps SQL
 * 1.0's entry point names).  Here:
 *
 *	 - SQL 1.2's span pieces, uuidx_time_span(id, r, beside) and
 *	   uuidx_time_span_between(id, lower, upper, bounds, beside): the
 *	   planner of 1.2 rewrote id <@ r into one, which plans and views of
 *	   that time may hold.  Later versions still create them (uuidx.sql
 *	   says so) and no longer build them; clauses.c still reads them (3
 *	   and 5 arguments), so that such a clause keeps its index conditions.
 *	 - SQL 1.3's guarded window: two comparisons of times computed when
 *	   the query runs, where uuidx_time_compared() (SQL 1.3.1) is missing
 *	   (forms.c asks for it; test/t/008_upgrade.pl runs it at 1.3).
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "compat.h"
#include "access/stratnum.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

PG_FUNCTION_INFO_V1(uuidx_time_span);
PG_FUNCTION_INFO_V1(uuidx_time_span_between);

/*
 * uuidx_time_span(id, r, beside): id <@ r itself, as a clause the planner
 * answers from one index range that holds both versions' keys of r;
 * beside told the planner of 1.2 that the arms stand beside it.
 * uuidx_time_span_between(id, lower, upper, bounds, beside) is the same
 * with the range's parts, as uuidx_time_between.  Neither fails
 * (LEAKPROOF).
 */
Datum
uuidx_time_span(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuidx_tr_in_window(PG_GETARG_UUID_P(0), uuidx_tr_window_arg(fcinfo, 1), 0));
}

Datum
uuidx_time_span_between(PG_FUNCTION_ARGS)
{
	const TimeWindow *w = uuidx_tr_parts_arg(fcinfo, 1);

	if (w == NULL || PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_BOOL(uuidx_tr_in_window(PG_GETARG_UUID_P(0), w, 0));
}

/*
 * Two comparisons of times computed when the query runs may cross, and
 * then hold no row.  At SQL 1.3.1 their arms are uuidx_time_compared(),
 * whose key bounds are computed one side each and whose window, crossed,
 * holds no time.  At SQL 1.3 the window is guarded: *guard is lower <=
 * upper, a condition of no column (a one-time check before any row),
 * false or NULL where the two comparisons hold no row, and the window's
 * upper time, returned, is GREATEST(lower, upper), so that its key bounds,
 * computed from the range tstzrange(lower, upper), never raise the
 * constructor's error; crossed, the guard has rejected every row already.
 */
Node *
uuidx_tr_sql_1_3_window_upper(Node *lower, Node *upper, Node **guard)
{
	Oid			opfamily = lookup_type_cache(TIMESTAMPTZOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	Oid			le = get_opfamily_member(opfamily, TIMESTAMPTZOID, TIMESTAMPTZOID,
										 BTLessEqualStrategyNumber);
	OpExpr	   *op;

	if (!OidIsValid(le))
		elog(ERROR, "missing operator <=(timestamptz,timestamptz) in operator family %u", opfamily);
	op = (OpExpr *) make_opclause(le, BOOLOID, false, (Expr *) copyObject(lower),
								  (Expr *) copyObject(upper), InvalidOid, InvalidOid);
	set_opfuncid(op);
	*guard = (Node *) op;
	return uuidx_tr_minmax(TIMESTAMPTZOID, IS_GREATEST, copyObject(lower), copyObject(upper));
}
