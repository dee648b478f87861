/*-------------------------------------------------------------------------
 *
 * meaning.c
 *	  id <@ tstzrange and tstzrange @> id: what they mean, and the SQL
 *	  functions the planner's rewrite of them calls at run time.
 *
 * id <@ r is true when id is a v6 or v7 whose time, as uuid_timestamp()
 * reads it, lies in r; false for any other UUID.  The UUIDs of one version
 * whose time lies in r fill one interval of the uuid order, from the
 * smallest UUID of its first time to the largest of its last
 * (uuidx_time_bound() builds both).  support.c turns the
 * operators into those intervals for the planner; everything here runs per
 * row or per scan and never depends on the planner.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "compat.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

PG_FUNCTION_INFO_V1(uuidx_contained_by_tstzrange);
PG_FUNCTION_INFO_V1(uuidx_tstzrange_contains_uuid);
PG_FUNCTION_INFO_V1(uuidx_time_within);
PG_FUNCTION_INFO_V1(uuidx_time_between);
PG_FUNCTION_INFO_V1(uuidx_time_compared);
PG_FUNCTION_INFO_V1(uuidx_time_bound);
PG_FUNCTION_INFO_V1(uuidx_time_bound_text_int4_bool);

/* Division rounding toward minus and plus infinity. */
static inline int64
floor_div(int64 a, int64 b)
{
	return a / b - ((a % b != 0 && a < 0) ? 1 : 0);
}

static inline int64
ceil_div(int64 a, int64 b)
{
	return a / b + ((a % b != 0 && a > 0) ? 1 : 0);
}

/*
 * A timestamptz as Unix microseconds, clamped to +-WINDOW_LIMIT_US: about
 * 12,700 years either side of 1970, beyond the spans of v6 (1582-5236) and
 * v7 (1970-10889), so a clamped bound holds the same UUIDs, and the tick
 * arithmetic below cannot overflow (timestamptz reaches 294276 AD).
 */
#define WINDOW_LIMIT_US INT64CONST(400000000000000000)

static int64
window_unix_us(TimestampTz ts)
{
	if (ts > WINDOW_LIMIT_US)
		return WINDOW_LIMIT_US;
	if (ts < -WINDOW_LIMIT_US)
		return -WINDOW_LIMIT_US;
	return uuidx_timestamptz_to_unix_us(ts);
}

/*
 * The window of a non-empty range, from its bounds.
 */
static void
bounds_window(const RangeBound *lower, const RangeBound *upper, TimeWindow *w)
{
	bool		from_start,
				to_end;
	int64		first = 0,
				last = 0;

	w->empty[0] = w->empty[1] = true;

	/*
	 * The first and last microsecond in the range (Unix time); an infinite
	 * bound, or a bound at -infinity or infinity, leaves the side open.
	 */
	from_start = lower->infinite || DatumGetTimestampTz(lower->val) == DT_NOBEGIN;
	to_end = upper->infinite || DatumGetTimestampTz(upper->val) == DT_NOEND;
	if ((!lower->infinite && DatumGetTimestampTz(lower->val) == DT_NOEND) ||
		(!upper->infinite && DatumGetTimestampTz(upper->val) == DT_NOBEGIN))
		return;
	if (!from_start)
		first = window_unix_us(DatumGetTimestampTz(lower->val)) + (lower->inclusive ? 0 : 1);
	if (!to_end)
		last = window_unix_us(DatumGetTimestampTz(upper->val)) - (upper->inclusive ? 0 : 1);

	for (int version = 6; version <= 7; version++)
	{
		int64		lo,
					hi,
					max;

		if (version == 7)
		{
			/* uuid_timestamp() of a v7 is its millisecond times 1000 */
			max = UUIDX_V7_MAX_MS;
			lo = from_start ? 0 : ceil_div(first, 1000);
			hi = to_end ? max : floor_div(last, 1000);
		}
		else
		{
			/*
			 * uuid_timestamp() of a v6 is floor((ticks - offset) / 10) us;
			 * with first and last within WINDOW_LIMIT_US the products stay
			 * inside int64.
			 */
			max = UUIDX_V6_MAX_TICKS;
			lo = from_start ? 0 : first * 10 + UUIDX_GREGORIAN_OFFSET_TICKS;
			hi = to_end ? max : last * 10 + 9 + UUIDX_GREGORIAN_OFFSET_TICKS;
		}
		lo = Max(lo, 0);
		hi = Min(hi, max);
		w->empty[WINDOW_INDEX(version)] = lo > hi;
		w->first[WINDOW_INDEX(version)] = (uint64) lo;
		w->last[WINDOW_INDEX(version)] = (uint64) hi;
	}
}

void
uuidx_tr_range_window(const RangeType *r, TimeWindow *w)
{
	TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	RangeBound	lower,
				upper;
	bool		empty;

	range_deserialize(typcache, r, &lower, &upper, &empty);
	if (empty)
		w->empty[0] = w->empty[1] = true;
	else
		bounds_window(&lower, &upper, w);
}

/*
 * The window of tstzrange(lower, upper, flags), where a NULL timestamp
 * leaves its side open; false, without an error, where the constructor
 * would fail (invalid flags, lower above upper).  As the constructor, a
 * range whose bounds are equal is empty unless both are inclusive.
 */
bool
uuidx_tr_parts_window(bool lower_null, TimestampTz lower, bool upper_null, TimestampTz upper,
					  const char *flags, size_t flags_len, TimeWindow *w)
{
	RangeBound	lb,
				ub;

	if (!uuidx_tr_valid_bound_flags(flags, flags_len) ||
		(!lower_null && !upper_null && lower > upper))
		return false;
	lb.val = TimestampTzGetDatum(lower);
	lb.infinite = lower_null;
	lb.inclusive = flags[0] == '[';
	lb.lower = true;
	ub.val = TimestampTzGetDatum(upper);
	ub.infinite = upper_null;
	ub.inclusive = flags[1] == ']';
	ub.lower = false;
	if (!lower_null && !upper_null && lower == upper && !(lb.inclusive && ub.inclusive))
		w->empty[0] = w->empty[1] = true;
	else
		bounds_window(&lb, &ub, w);
	return true;
}

/*
 * The smallest (or, upper, largest) UUID of the version whose time lies in
 * the window; where none does, the max UUID (or the nil UUID), so that
 * id >= lower AND id <= upper holds for no id.
 */
void
uuidx_tr_window_bound(const TimeWindow *w, int version, bool upper, pg_uuid_t *bound)
{
	int			i = WINDOW_INDEX(version);

	if (w->empty[i])
		memset(bound->data, upper ? 0x00 : 0xFF, UUID_LEN);
	else
		uuidx_layout_time_bound(bound, version, upper ? w->last[i] : w->first[i], upper);
}

/*
 * Raise what tstzrange(lower, upper, flags) raises for these parts, in its
 * words: invalid flags, or a lower bound above the upper.
 */
void
uuidx_tr_check_range_parts(bool lower_null, TimestampTz lower, bool upper_null, TimestampTz upper,
						   const char *flags, size_t flags_len)
{
	if (!uuidx_tr_valid_bound_flags(flags, flags_len))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("invalid range bound flags"),
				 errhint("Valid values are \"[]\", \"[)\", \"(]\", and \"()\".")));
	if (!lower_null && !upper_null && lower > upper)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("range lower bound must be less than or equal to range upper bound")));
}

/* The flags of a range constructor: [] [) (] or (). */
bool
uuidx_tr_valid_bound_flags(const char *flags, size_t len)
{
	return len == 2 && (flags[0] == '[' || flags[0] == '(') &&
		(flags[1] == ']' || flags[1] == ')');
}

/*
 * The window of the range argument, kept in fn_extra: a query passes the
 * same range for every row, which is then decoded once.  A constant keeps
 * its value as long as the call site lives; anything else, parameters
 * included (PL/pgSQL keeps a call site for a whole transaction while its
 * variables change), is compared with the bytes the window was computed
 * from.
 */
typedef struct WindowCache
{
	TimeWindow	window;
	bool		stable;			/* the argument is a Const */
	Size		len;
	char		bytes[FLEXIBLE_ARRAY_MEMBER];
} WindowCache;

static bool
arg_is_const(FmgrInfo *flinfo, int argno)
{
	Node	   *expr = flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

const TimeWindow *
uuidx_tr_window_arg(FunctionCallInfo fcinfo, int argno)
{
	WindowCache *cache = (WindowCache *) fcinfo->flinfo->fn_extra;
	struct varlena *packed;
	Size		len;

	if (cache != NULL && cache->stable)
		return &cache->window;
	packed = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(argno));
	len = VARSIZE_ANY_EXHDR(packed);
	if (cache == NULL || cache->len != len ||
		memcmp(cache->bytes, VARDATA_ANY(packed), len) != 0)
	{
		if (cache != NULL)
			pfree(cache);
		cache = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt,
								   offsetof(WindowCache, bytes) + len);
		uuidx_tr_range_window(PG_GETARG_RANGE_P(argno), &cache->window);
		cache->stable = arg_is_const(fcinfo->flinfo, argno);
		cache->len = len;
		memcpy(cache->bytes, VARDATA_ANY(packed), len);
		fcinfo->flinfo->fn_extra = cache;
	}
	return &cache->window;
}

static int
check_version(int32 version)
{
	if (version != 6 && version != 7)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("UUID version %d has no time-ordered layout", version),
				 errhint("Use 6 or 7.")));
	return version;
}

Datum
uuidx_contained_by_tstzrange(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuidx_tr_in_window(PG_GETARG_UUID_P(0), uuidx_tr_window_arg(fcinfo, 1), 0));
}

Datum
uuidx_tstzrange_contains_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuidx_tr_in_window(PG_GETARG_UUID_P(1), uuidx_tr_window_arg(fcinfo, 0), 0));
}

/*
 * uuidx_time_within(id, r, version, bounded): id <@ r for one version, and
 * false for a version other than 6 or 7 (it never fails: LEAKPROOF).
 * bounded (the planner's "pruned") says that comparisons for partition
 * pruning stand beside the arm; only the planner reads it
 * (clauses.c's uuidx_tr_clause_parts(), for support.c, paths.c,
 * selfuncs.c and scan/conditions.c).
 */
Datum
uuidx_time_within(PG_FUNCTION_ARGS)
{
	int32		version = PG_GETARG_INT32(2);

	if (version != 6 && version != 7)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(uuidx_tr_in_window(PG_GETARG_UUID_P(0), uuidx_tr_window_arg(fcinfo, 1), version));
}

/*
 * The window of a range passed as its parts (lower, upper, flags) from
 * argument argno on, kept in fn_extra as uuidx_tr_window_arg() keeps a range: a
 * query passes the same parts for every row, decoded once.  NULL where
 * tstzrange(lower, upper, flags) would fail, or the flags are NULL.
 */
typedef struct PartsCache
{
	bool		valid;			/* the parts make a range */
	bool		lower_null;
	bool		upper_null;
	TimestampTz lower;
	TimestampTz upper;
	char		flags[2];
	TimeWindow	window;
} PartsCache;

const TimeWindow *
uuidx_tr_parts_arg(FunctionCallInfo fcinfo, int argno)
{
	PartsCache *cache = (PartsCache *) fcinfo->flinfo->fn_extra;
	bool		lower_null = PG_ARGISNULL(argno);
	bool		upper_null = PG_ARGISNULL(argno + 1);
	TimestampTz lower = lower_null ? 0 : PG_GETARG_TIMESTAMPTZ(argno);
	TimestampTz upper = upper_null ? 0 : PG_GETARG_TIMESTAMPTZ(argno + 1);
	text	   *flags_text;
	size_t		flags_len;
	const char *flags;

	if (PG_ARGISNULL(argno + 2))
		return NULL;
	flags_text = PG_GETARG_TEXT_PP(argno + 2);
	flags = VARDATA_ANY(flags_text);
	flags_len = VARSIZE_ANY_EXHDR(flags_text);
	if (cache == NULL || flags_len != 2 ||
		cache->lower_null != lower_null || cache->upper_null != upper_null ||
		(!lower_null && cache->lower != lower) || (!upper_null && cache->upper != upper) ||
		memcmp(cache->flags, flags, 2) != 0)
	{
		if (cache == NULL)
		{
			cache = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(PartsCache));
			fcinfo->flinfo->fn_extra = cache;
		}
		cache->valid = uuidx_tr_parts_window(lower_null, lower, upper_null, upper,
											 flags, flags_len, &cache->window);
		cache->lower_null = lower_null;
		cache->upper_null = upper_null;
		cache->lower = lower;
		cache->upper = upper;
		memset(cache->flags, 0, 2);
		memcpy(cache->flags, flags, Min(flags_len, 2));
	}
	return cache->valid ? &cache->window : NULL;
}

/*
 * uuidx_time_between(id, lower, upper, bounds, version, bounded): the same
 * as uuidx_time_within(id, tstzrange(lower, upper, bounds), version,
 * bounded).  The planner passes a range the query builds from timestamps
 * (tstzrange(now() - interval '1 hour', now())) this way, so that for each
 * row only the timestamps are computed and compared, not a range built.
 * Not strict, as the constructor is not: a NULL timestamp leaves that side
 * open.  It never fails (LEAKPROOF): where the constructor would, it gives
 * NULL, and the planner checks the range with the constructor itself,
 * before any row (see support.c).
 */
Datum
uuidx_time_between(PG_FUNCTION_ARGS)
{
	const TimeWindow *w = uuidx_tr_parts_arg(fcinfo, 1);
	int32		version;

	if (w == NULL || PG_ARGISNULL(0) || PG_ARGISNULL(4))
		PG_RETURN_NULL();
	version = PG_GETARG_INT32(4);
	if (version != 6 && version != 7)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(uuidx_tr_in_window(PG_GETARG_UUID_P(0), w, version));
}

/*
 * uuidx_time_compared(id, lower, upper, bounds, version, bounded) (SQL
 * 1.3.1): the same as uuidx_time_between(), for the rewrite of two
 * comparisons of a time form, f(id) >= lower AND f(id) < upper, into one
 * window (forms.c).  Its times may cross, where the comparisons
 * hold no row: the planner computes its key bounds one side each, and the
 * scan takes crossed times for a window of no time, where those of a range
 * the query builds raise the constructor's error.
 */
Datum
uuidx_time_compared(PG_FUNCTION_ARGS)
{
	return uuidx_time_between(fcinfo);
}

/*
 * uuidx_time_bound(r, version, upper): the smallest (or largest) UUID of
 * the version whose time lies in r.  Where no time of the version lies in
 * r, the lower bound is the max UUID and the upper the nil UUID, so that
 * id >= lower AND id <= upper holds for no id.
 */
Datum
uuidx_time_bound(PG_FUNCTION_ARGS)
{
	int			version = check_version(PG_GETARG_INT32(1));
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	uuidx_tr_window_bound(uuidx_tr_window_arg(fcinfo, 0), version, PG_GETARG_BOOL(2), result);
	PG_RETURN_UUID_P(result);
}

/*
 * uuidx_time_bound(lower, upper, bounds, version, largest): the same as
 * uuidx_time_bound(tstzrange(lower, upper, bounds), version, largest),
 * with the range's parts (SQL 1.3.1): no range is built, so that the
 * planner, which evaluates a bound for every partition it plans and every
 * estimate it makes, pays less for it.  A NULL part leaves its side open;
 * parts the constructor refuses raise its errors, with its words, as the
 * range in the query would (the bounds of two comparisons, which hold no
 * row where their times cross, are computed one side each: no such parts).
 * NULL bounds flags, version or largest give NULL.
 */
Datum
uuidx_time_bound_text_int4_bool(PG_FUNCTION_ARGS)
{
	bool		lower_null = PG_ARGISNULL(0);
	bool		upper_null = PG_ARGISNULL(1);
	TimestampTz lower = lower_null ? 0 : PG_GETARG_TIMESTAMPTZ(0);
	TimestampTz upper = upper_null ? 0 : PG_GETARG_TIMESTAMPTZ(1);
	text	   *flags;
	int			version;
	TimeWindow	w;
	pg_uuid_t  *result;

	if (PG_ARGISNULL(2) || PG_ARGISNULL(3) || PG_ARGISNULL(4))
		PG_RETURN_NULL();
	version = check_version(PG_GETARG_INT32(3));
	flags = PG_GETARG_TEXT_PP(2);
	uuidx_tr_check_range_parts(lower_null, lower, upper_null, upper,
							   VARDATA_ANY(flags), VARSIZE_ANY_EXHDR(flags));
	uuidx_tr_parts_window(lower_null, lower, upper_null, upper,
						  VARDATA_ANY(flags), VARSIZE_ANY_EXHDR(flags), &w);
	result = palloc(sizeof(pg_uuid_t));
	uuidx_tr_window_bound(&w, version, PG_GETARG_BOOL(4), result);
	PG_RETURN_UUID_P(result);
}
