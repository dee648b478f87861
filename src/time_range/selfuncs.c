/*-------------------------------------------------------------------------
 *
 * selfuncs.c
 *	  Estimates for id <@ tstzrange: the share of rows whose id is a v6 or
 *	  v7 with its time in a range, for a restriction and for a join, and
 *	  the share of keys between two UUIDs (how far an index walks before
 *	  it meets the range).
 *
 * PostgreSQL cannot interpolate between two uuids, so its own estimate of
 * id >= a AND id <= b is one row for any range within a histogram bin.
 * The time bits can be interpolated: a v6 or v7 key begins with its time,
 * so the first eight bytes of a bin's bounds, read as a number, tell how
 * much of the bin a window of time covers.  Keys inserted since the last
 * ANALYZE lie past the histogram's last bound (a v7 key always grows);
 * they are estimated from the newest key in an index on id and the rate of
 * the histogram's last bin.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "compat.h"
#include "access/genam.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

PG_FUNCTION_INFO_V1(uuidx_time_range_sel);

/* The time of a UUID of the version, in the window's units; false for others. */
static bool
version_time(const pg_uuid_t *uuid, int version, uint64 *t)
{
	if (uuidx_get_version(uuid) != version)
		return false;
	*t = uuidx_tr_window_time(uuid, version);
	return true;
}

/* The share of [t0, t1] that lies in [lo, hi], counting whole units. */
static double
time_share(uint64 t0, uint64 t1, uint64 lo, uint64 hi)
{
	uint64		from = Max(t0, lo);
	uint64		to = Min(t1, hi);

	if (from > to)
		return 0;
	return ((double) (to - from) + 1) / ((double) (t1 - t0) + 1);
}

/*
 * The share of the bin [a, b] whose keys lie in [lower, upper], reading the
 * first eight bytes as a number.
 */
static double
byte_share(const pg_uuid_t *a, const pg_uuid_t *b,
		   const pg_uuid_t *lower, const pg_uuid_t *upper)
{
	uint64		ka,
				kb,
				from,
				to;

	if (memcmp(upper->data, a->data, UUID_LEN) < 0 ||
		memcmp(lower->data, b->data, UUID_LEN) > 0)
		return 0;
	ka = uuidx_get_be8(a);
	kb = uuidx_get_be8(b);
	if (kb <= ka)
		return memcmp(lower->data, a->data, UUID_LEN) <= 0 &&
			memcmp(upper->data, b->data, UUID_LEN) >= 0 ? 1.0 : 0.5;
	from = Max(ka, uuidx_get_be8(lower));
	to = Min(kb, uuidx_get_be8(upper));
	if (from >= to)
		return 0;
	return (double) (to - from) / (double) (kb - ka);
}

/*
 * The time span of histogram bin j if both its bounds are of the version;
 * false otherwise.
 */
static bool
bin_time_span(const Datum *values, int n, int j, int version, uint64 *t0, uint64 *t1)
{
	return j >= 0 && j + 1 < n &&
		version_time(DatumGetUUIDP(values[j]), version, t0) &&
		version_time(DatumGetUUIDP(values[j + 1]), version, t1) && *t1 >= *t0;
}

/*
 * The share of histogram bin i, between bounds i and i + 1, that holds UUIDs
 * of the version with their time in the window [lower, upper].
 *
 * A bin whose two bounds are of the version is read on the first eight
 * bytes, taken as a number: they hold the time.  A bin with only one bound
 * of the version is where that version's keys begin or end in the uuid
 * order (the newest v7 keys, say, followed by v6 or v4 keys): reading it on
 * the bytes would spread its rows thinly over the gap to the other
 * version's keys.  Its rows of the version are taken to lie next to that
 * bound, over as much time as the neighbouring bin of the version covers,
 * since a bin holds as many rows as the next.  Where no neighbouring bin
 * is of the version (a lone key of the version among others, as in a
 * table that has just begun to take v7 keys), nothing says how many of the
 * bin's rows are of the version, and the bin is read on the bytes like a
 * bin with no bound of the version.  But a bin between two keys of the
 * other version of the two (v6 for v7, v7 for v6) holds that version's
 * keys, which lie together in time order: none of the version.
 * (Otherwise a v7 window open towards the future would count every v6 key,
 * which sorts among the v7 keys of the centuries ahead.)  Nor does a bin of
 * no bound of the version beyond the first or the last bound of the version
 * (first_of_version, last_of_version; -1 where the histogram has none):
 * the version's keys lie together in time order there too, and a v4 or v8
 * key, or one of another variant, can lie anywhere in the uuid order (a
 * column that has moved from v4 to v7 keys holds v4 keys on both sides of
 * its v7 keys, all of which a v7 window open towards the future would
 * otherwise count).
 */
static double
bin_share(const Datum *values, int n, int i, const TimeWindow *w, int version,
		  const pg_uuid_t *lower, const pg_uuid_t *upper, int first_of_version, int last_of_version)
{
	const pg_uuid_t *a = DatumGetUUIDP(values[i]);
	const pg_uuid_t *b = DatumGetUUIDP(values[i + 1]);
	int			k = WINDOW_INDEX(version);
	uint64		ta = 0,
				tb = 0,
				t0,
				t1;
	bool		a_is = version_time(a, version, &ta);
	bool		b_is = version_time(b, version, &tb);
	int			other = version == 7 ? 6 : 7;

	if (uuidx_get_version(a) == other && uuidx_get_version(b) == other)
		return 0;
	if (!a_is && !b_is && first_of_version >= 0 &&
		(i + 1 < first_of_version || i > last_of_version))
		return 0;
	if (a_is != b_is && bin_time_span(values, n, a_is ? i - 1 : i + 1, version, &t0, &t1))
	{
		uint64		width = t1 - t0;

		if (a_is)
			return time_share(ta, ta + width < ta ? PG_UINT64_MAX : ta + width,
							  w->first[k], w->last[k]);
		return time_share(tb > width ? tb - width : 0, tb, w->first[k], w->last[k]);
	}
	return byte_share(a, b, lower, upper);
}

/*
 * The newest (greatest) key of id, from a B-tree index whose first column
 * is id in uuid's order: one descent to the end of the index, as
 * PostgreSQL's own estimates find a column's actual extremes.  The key is
 * read from the index alone, so it may belong to a row not yet committed
 * or recently deleted: good enough for an estimate.  False where no such
 * index exists or it holds no key.
 */
static bool
newest_key(PlannerInfo *root, VariableStatData *vardata, pg_uuid_t *key)
{
	RelOptInfo *rel = vardata->rel;
	Node	   *expr = vardata->var;
	Oid			uuid_opfamily = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	ListCell   *lc;

	if (rel == NULL || root == NULL || expr == NULL)
		return false;
	if (IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	if (!IsA(expr, Var) || ((Var *) expr)->varlevelsup != 0 ||
		planner_rt_fetch(rel->relid, root)->rtekind != RTE_RELATION ||
		planner_rt_fetch(rel->relid, root)->relkind != RELKIND_RELATION)
		return false;

	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);
		Relation	heap_rel;
		Relation	index_rel;
		IndexScanDesc scan;
		ScanKeyData not_null;
		bool		found = false;

		if (index->relam != BTREE_AM_OID || index->indpred != NIL || index->hypothetical ||
			index->indexkeys[0] != ((Var *) expr)->varattno ||
			index->opfamily[0] != uuid_opfamily)
			continue;

		/* The planner holds locks on the table and its indexes already. */
		heap_rel = table_open(planner_rt_fetch(rel->relid, root)->relid, NoLock);
		index_rel = index_open(index->indexoid, NoLock);
		ScanKeyEntryInitialize(&not_null, SK_ISNULL | SK_SEARCHNOTNULL, 1,
							   InvalidStrategy, InvalidOid, InvalidOid, InvalidOid, (Datum) 0);
		scan = UUIDX_INDEX_BEGINSCAN(heap_rel, index_rel, SnapshotAny, 1, 0);
		scan->xs_want_itup = true;
		index_rescan(scan, &not_null, 1, NULL, 0);
		if (index_getnext_tid(scan, index->reverse_sort[0] ? ForwardScanDirection
							  : BackwardScanDirection) != NULL && scan->xs_itup != NULL)
		{
			bool		isnull;
			Datum		d = index_getattr(scan->xs_itup, 1, scan->xs_itupdesc, &isnull);

			if (!isnull)
			{
				*key = *DatumGetUUIDP(d);
				found = true;
			}
		}
		index_endscan(scan);
		index_close(index_rel, NoLock);
		table_close(heap_rel, NoLock);
		return found;
	}
	return false;
}

/*
 * The clock, in the window's units of the version, a minute ahead: the
 * newest key a generator hands out now, with room for its lead over the
 * clock.  Keys dated later than this and than every key the statistics
 * saw are outliers (a client's clock far ahead, a key shifted into the
 * future), not rows to expect at the rate of the present.
 */
static uint64
clock_time(int version)
{
	int64		unix_us = uuidx_timestamptz_to_unix_us(GetCurrentTimestamp()) + 60 * USECS_PER_SEC;

	if (version == 7)
		return (uint64) Min(unix_us / 1000, UUIDX_V7_MAX_MS);
	return Min(uuidx_unix_100ns_to_ticks(unix_us * 10), (uint64) UUIDX_V6_MAX_TICKS);
}

/*
 * The time of the newest key of the version among the values of a kind of
 * statistics slot (the most common values, the histogram); 0 if none.
 */
static uint64
newest_in_stats(VariableStatData *vardata, int kind, int version)
{
	AttStatsSlot sslot;
	uint64		newest = 0;
	uint64		t;

	if (get_attstatsslot(&sslot, vardata->statsTuple, kind, InvalidOid, ATTSTATSSLOT_VALUES))
	{
		for (int i = 0; i < sslot.nvalues; i++)
			if (version_time(DatumGetUUIDP(sslot.values[i]), version, &t))
				newest = Max(newest, t);
		free_attstatsslot(&sslot);
	}
	return newest;
}

/*
 * The rows of the table as its statistics counted them, and as the planner
 * counts them now (from the pages it has grown by since), for the keys
 * inserted since the last ANALYZE; both 1 (shares, not rows) where that is
 * not known.
 */
static void
table_rows(PlannerInfo *root, VariableStatData *vardata, double *counted, double *now)
{
	RelOptInfo *rel = vardata->rel;
	RangeTblEntry *rte;
	HeapTuple	tuple;

	*counted = *now = 1;
	if (root == NULL || rel == NULL || rel->reloptkind != RELOPT_BASEREL ||
		rel->rtekind != RTE_RELATION || rel->tuples <= 0)
		return;
	rte = planner_rt_fetch(rel->relid, root);
	if (rte->relkind != RELKIND_RELATION)
		return;
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
	if (!HeapTupleIsValid(tuple))
		return;
	if (((Form_pg_class) GETSTRUCT(tuple))->reltuples > 0)
	{
		*counted = ((Form_pg_class) GETSTRUCT(tuple))->reltuples;
		*now = Max(rel->tuples, *counted);
	}
	ReleaseSysCache(tuple);
}

/*
 * The rows, counted in histogram bins (as bin shares add up: each bin
 * holds one), whose key of the version lies past the histogram's last
 * bound and in the window: keys inserted since the statistics were taken,
 * up to the newest key in the index, or the clock where that is later
 * (see clock_time()).  Where the table has grown since (new_rows, in bins,
 * from its pages), that many rows are taken to have come at the rate of
 * the histogram's last bin, up to the newest key, or faster where they do
 * not fit between it and the last bound: a burst since ANALYZE counts
 * whole in a window that covers it, not at the rate of the past.  Where it
 * has not grown (old keys deleted as new ones come), the keys since the
 * last bound come at that rate, unless the newest key is dated beyond the
 * clock: then nothing says the keys before it are of the present.
 */
static double
newer_bins(PlannerInfo *root, VariableStatData *vardata, const Datum *values, int n,
		   const TimeWindow *w, int version, uint64 cap, double new_rows)
{
	int			k = WINDOW_INDEX(version);
	uint64		t0,
				t1,
				t_newest,
				start,
				from,
				to;
	double		span;
	pg_uuid_t	newest;

	if (!bin_time_span(values, n, n - 2, version, &t0, &t1) || t1 == t0 ||
		!newest_key(root, vardata, &newest) ||
		!version_time(&newest, version, &t_newest))
		return 0;
	if (t_newest > cap && new_rows <= 0)
		return 0;				/* an outlier, and no rows known to be new */
	t_newest = Min(t_newest, cap);
	if (t_newest <= t1)
		return 0;
	start = t1;
	if (new_rows > 0)
	{
		span = new_rows * (double) (t1 - t0);
		if (span < (double) (t_newest - t1))
			start = t_newest - (uint64) span;
	}
	from = Max(start + 1, w->first[k]);
	to = Min(t_newest, w->last[k]);
	if (from > to)
		return 0;
	if (new_rows > 0)
		return new_rows * (((double) (to - from) + 1) / (double) (t_newest - start));
	return ((double) (to - from) + 1) / (double) (t1 - t0);
}

/*
 * uuidx's v8 keys begin with their Unix millisecond, as v7 keys do, and lie
 * among the v7 keys of their times: histogram bounds of v8 keys next to the
 * first or the last v7 bound, dated within the v7 keys' span before the
 * first (or after the last, up to cap), belong to the v7 keys' region, whose
 * bins hold v7 keys too.  (A v8 key of another layout, or a v4 key, carries
 * no such time but by chance.)  Widens [first, last] over them.
 */
static void
sharing_v7_range(const Datum *values, int n, uint64 cap, int *first, int *last)
{
	uint64		t_first = uuidx_get_v7_ms(DatumGetUUIDP(values[*first]));
	uint64		t_last = uuidx_get_v7_ms(DatumGetUUIDP(values[*last]));
	uint64		span = t_last - t_first;

	while (*last + 1 < n && uuidx_get_version(DatumGetUUIDP(values[*last + 1])) == 8)
	{
		uint64		t = uuidx_get_v7_ms(DatumGetUUIDP(values[*last + 1]));

		if (t < t_last || t > Max(cap, t_last + span))
			break;
		(*last)++;
	}
	while (*first > 0 && uuidx_get_version(DatumGetUUIDP(values[*first - 1])) == 8)
	{
		uint64		t = uuidx_get_v7_ms(DatumGetUUIDP(values[*first - 1]));

		if (t > t_first || t_first - t > span)
			break;
		(*first)--;
	}
}

/*
 * The share of rows whose id is a UUID of the version (0: either) with its
 * time in the window, from id's statistics: the most common values that
 * are, the part of the histogram between the version's bounds, bin by bin,
 * and the rows newer than the histogram.
 */
Selectivity
uuidx_tr_window_selectivity(PlannerInfo *root, VariableStatData *vardata,
							const TimeWindow *w, int version)
{
	Form_pg_statistic stats;
	AttStatsSlot sslot;
	TimeWindow	window = *w;
	int			k = WINDOW_INDEX(version);
	pg_uuid_t	lower,
				upper;
	double		mcv_match = 0,
				mcv_total = 0,
				bins = 0,
				counted_rows,
				rows_now;
	uint64		cap;
	Selectivity sel;

	if (version == 0)
		return uuidx_tr_window_selectivity(root, vardata, w, 6) +
			uuidx_tr_window_selectivity(root, vardata, w, 7);
	if (w->empty[k])
		return 0;
	if (!HeapTupleIsValid(vardata->statsTuple))
		return DEFAULT_RANGE_INEQ_SEL;
	stats = (Form_pg_statistic) GETSTRUCT(vardata->statsTuple);

	/*
	 * No key of the version is expected beyond the clock (clock_time()) and
	 * the newest key of the version the statistics saw: the window ends
	 * there, for its estimate.
	 */
	cap = Max(clock_time(version),
			  Max(newest_in_stats(vardata, STATISTIC_KIND_MCV, version),
				  newest_in_stats(vardata, STATISTIC_KIND_HISTOGRAM, version)));
	if (window.first[k] > cap)
		return 0;
	window.last[k] = Min(window.last[k], cap);
	uuidx_tr_window_bound(&window, version, false, &lower);
	uuidx_tr_window_bound(&window, version, true, &upper);

	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV, InvalidOid,
						 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		for (int i = 0; i < sslot.nvalues; i++)
		{
			if (uuidx_tr_in_window(DatumGetUUIDP(sslot.values[i]), &window, version))
				mcv_match += sslot.numbers[i];
			mcv_total += sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}
	table_rows(root, vardata, &counted_rows, &rows_now);
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
						 ATTSTATSSLOT_VALUES))
	{
		int			first_of_version = -1;
		int			last_of_version = -1;
		int			of_version = 0;
		double		new_bins = 0;

		for (int i = 0; i < sslot.nvalues; i++)
			if (uuidx_get_version(DatumGetUUIDP(sslot.values[i])) == version)
			{
				if (first_of_version < 0)
					first_of_version = i;
				last_of_version = i;
				of_version++;
			}
		if (version == 7 && of_version > 0)
			sharing_v7_range(sslot.values, sslot.nvalues, cap, &first_of_version, &last_of_version);
		for (int i = 0; i + 1 < sslot.nvalues; i++)
			bins += bin_share(sslot.values, sslot.nvalues, i, &window, version, &lower, &upper,
							  first_of_version, last_of_version);
		/* the rows the table has grown by, in bins of the histogram's rows */
		if (sslot.nvalues >= 2 && rows_now > counted_rows &&
			1.0 - stats->stanullfrac - mcv_total > 0.001)
			new_bins = (rows_now - counted_rows) /
				(counted_rows * (1.0 - stats->stanullfrac - mcv_total) / (sslot.nvalues - 1));
		bins += newer_bins(root, vardata, sslot.values, sslot.nvalues, &window, version, cap,
						   new_bins);

		/*
		 * Keys of other versions may share the version's key range: uuidx's
		 * v8 keys begin with the millisecond as v7 keys do, and sort among
		 * them.  The bins count every key in the range; the version's share
		 * of the bounds from its first to its last is its share of them (1
		 * where only its keys lie there, none where no bound is of it: a v8
		 * column's).
		 */
		if (of_version == 0)
			bins = 0;
		else
			bins *= (double) of_version / (last_of_version - first_of_version + 1);
		if (sslot.nvalues >= 2)
			bins /= sslot.nvalues - 1;
		free_attstatsslot(&sslot);
	}
	sel = (mcv_match + bins * Max(0.0, 1.0 - stats->stanullfrac - mcv_total)) * counted_rows / rows_now;
	CLAMP_PROBABILITY(sel);
	return sel;
}

/*
 * The share of rows whose id lies in [from, to], from id's histogram read
 * on the bytes (the most common values are left out: a key column has
 * none).  For the rows an index walks past.
 */
double
uuidx_tr_key_share(PlannerInfo *root, VariableStatData *vardata,
				   const pg_uuid_t *from, const pg_uuid_t *to)
{
	AttStatsSlot sslot;
	double		share = 0;

	if (memcmp(from->data, to->data, UUID_LEN) > 0)
		return 0;
	if (!HeapTupleIsValid(vardata->statsTuple) ||
		!get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
						  ATTSTATSSLOT_VALUES))
		return 0.5;				/* nothing known: half the index */
	for (int i = 0; i + 1 < sslot.nvalues; i++)
		share += byte_share(DatumGetUUIDP(sslot.values[i]), DatumGetUUIDP(sslot.values[i + 1]),
							from, to);
	if (sslot.nvalues >= 2)
		share /= sslot.nvalues - 1;
	free_attstatsslot(&sslot);
	return share;
}

/*
 * A join: id <@ r with r from another table.  The share is the mean, over
 * the ranges the other side holds, of the share of id in each.  Those
 * ranges come from the other side's statistics: a tstzrange column's
 * histogram of bounds (each entry a range from the i-th lower bound to the
 * i-th upper), or, for tstzrange(a, b[, flags]), the histograms of a and
 * b, paired quantile by quantile.  Otherwise a default.
 */
Selectivity
uuidx_tr_join_selectivity(PlannerInfo *root, Node *id, Node *range, int version)
{
	VariableStatData iddata;
	VariableStatData rdata;
	AttStatsSlot sslot;
	double		sum = 0;
	int			count = 0;
	double		present = 1.0;
	FuncExpr   *ctor = IsA(range, FuncExpr) ? (FuncExpr *) range : NULL;

	examine_variable(root, id, 0, &iddata);
	if (ctor != NULL &&
		(ctor->funcid == F_TSTZRANGE_TIMESTAMPTZ_TIMESTAMPTZ ||
		 ctor->funcid == F_TSTZRANGE_TIMESTAMPTZ_TIMESTAMPTZ_TEXT))
	{
		VariableStatData adata;
		VariableStatData bdata;
		AttStatsSlot aslot;
		AttStatsSlot bslot;
		char		flags[3] = "[)";
		Node	   *flag_arg = list_length(ctor->args) == 3 ? lthird(ctor->args) : NULL;

		if (flag_arg != NULL)
		{
			if (!IsA(flag_arg, Const) || ((Const *) flag_arg)->constisnull)
				flag_arg = NULL;
			else
				strlcpy(flags, TextDatumGetCString(((Const *) flag_arg)->constvalue), sizeof(flags));
		}
		examine_variable(root, linitial(ctor->args), 0, &adata);
		examine_variable(root, lsecond(ctor->args), 0, &bdata);
		if ((list_length(ctor->args) == 2 || flag_arg != NULL) &&
			uuidx_tr_valid_bound_flags(flags, strlen(flags)) &&
			HeapTupleIsValid(adata.statsTuple) && HeapTupleIsValid(bdata.statsTuple) &&
			get_attstatsslot(&aslot, adata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
							 ATTSTATSSLOT_VALUES))
		{
			if (get_attstatsslot(&bslot, bdata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
								 ATTSTATSSLOT_VALUES))
			{
				int			n = Min(aslot.nvalues, bslot.nvalues);

				for (int i = 0; n >= 2 && i < n; i++)
				{
					TimestampTz a = DatumGetTimestampTz(aslot.values[(int64) i * (aslot.nvalues - 1) / (n - 1)]);
					TimestampTz b = DatumGetTimestampTz(bslot.values[(int64) i * (bslot.nvalues - 1) / (n - 1)]);
					TimeWindow	w;

					if (uuidx_tr_parts_window(false, a, false, b, flags, 2, &w))
					{
						sum += uuidx_tr_window_selectivity(root, &iddata, &w, version);
						count++;
					}
				}
				free_attstatsslot(&bslot);
			}
			free_attstatsslot(&aslot);
		}
		ReleaseVariableStats(adata);
		ReleaseVariableStats(bdata);
	}
	else
	{
		examine_variable(root, range, 0, &rdata);
		if (HeapTupleIsValid(rdata.statsTuple))
		{
			Form_pg_statistic stats = (Form_pg_statistic) GETSTRUCT(rdata.statsTuple);

			present = 1.0 - stats->stanullfrac;
			if (get_attstatsslot(&sslot, rdata.statsTuple, STATISTIC_KIND_RANGE_LENGTH_HISTOGRAM,
								 InvalidOid, ATTSTATSSLOT_NUMBERS))
			{
				if (sslot.nnumbers > 0)
					present *= 1.0 - sslot.numbers[0];	/* the empty ranges */
				free_attstatsslot(&sslot);
			}
			if (get_attstatsslot(&sslot, rdata.statsTuple, STATISTIC_KIND_BOUNDS_HISTOGRAM,
								 InvalidOid, ATTSTATSSLOT_VALUES))
			{
				for (int i = 0; i < sslot.nvalues; i++)
				{
					TimeWindow	w;

					uuidx_tr_range_window(DatumGetRangeTypeP(sslot.values[i]), &w);
					sum += uuidx_tr_window_selectivity(root, &iddata, &w, version);
					count++;
				}
				free_attstatsslot(&sslot);
			}
		}
		ReleaseVariableStats(rdata);
	}
	ReleaseVariableStats(iddata);

	if (count == 0)
		return version == 0 ? 2 * DEFAULT_RANGE_INEQ_SEL : DEFAULT_RANGE_INEQ_SEL;
	return present * sum / count;
}

/*
 * Where id IS NOT NULL stands among the restrictions of id's table (the
 * rewrite of a time condition adds one to keep the query strict in the key,
 * forms.c), the planner multiplies its estimate, the share of
 * keys not NULL, with an arm's, which counts only keys not NULL already:
 * that share, by which an arm's estimate is divided.  1 where there is no
 * such restriction.
 */
Selectivity
uuidx_tr_not_null_share(PlannerInfo *root, Node *id)
{
	Node	   *key = strip_implicit_coercions(id);
	RelOptInfo *rel;
	ListCell   *lc;

	if (!IsA(key, Var) || ((Var *) key)->varlevelsup != 0 || root == NULL ||
		root->simple_rel_array == NULL || ((Var *) key)->varno <= 0 ||
		((Var *) key)->varno >= root->simple_rel_array_size ||
		(rel = root->simple_rel_array[((Var *) key)->varno]) == NULL)
		return 1.0;
	foreach(lc, rel->baserestrictinfo)
	{
		NullTest   *test = (NullTest *) ((RestrictInfo *) lfirst(lc))->clause;

		if (IsA(test, NullTest) && test->nulltesttype == IS_NOT_NULL && !test->argisrow &&
			equal(strip_implicit_coercions((Node *) test->arg), key))
		{
			Selectivity share = nulltestsel(root, IS_NOT_NULL, key, 0, JOIN_INNER, NULL);

			return share > 0 ? share : 1.0;
		}
	}
	return 1.0;
}

/*
 * A restriction: the share of rows whose id is a UUID of the version (0:
 * either) with its time in the range, where the range is known when
 * planning (a constant, or a stable expression or parameter the planner
 * can estimate); else a default.
 */
Selectivity
uuidx_tr_selectivity(PlannerInfo *root, Node *id, Node *range, int version,
					 int varRelid)
{
	VariableStatData vardata;
	TimeWindow	w;
	Selectivity sel;

	if (!uuidx_tr_estimated_window(root, range, &w))
	{
		Node	   *estimated = estimate_expression_value(root, range);

		if (IsA(estimated, Const))
			return 0;			/* NULL */
		/* a parameterized scan: the range comes from another table */
		if (contain_var_clause(range))
			return uuidx_tr_join_selectivity(root, id, range, version);
		return version == 0 ? 2 * DEFAULT_RANGE_INEQ_SEL : DEFAULT_RANGE_INEQ_SEL;
	}
	examine_variable(root, id, varRelid, &vardata);
	sel = uuidx_tr_window_selectivity(root, &vardata, &w, version);
	ReleaseVariableStats(vardata);
	return sel;
}

/*
 * The operators' restriction estimator, for the cases the support function
 * left as they were (a volatile side, a key that reads no column, a
 * subplan on either side: support.c's simplify()).
 */
Datum
uuidx_time_range_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	Node	   *id,
			   *range;

	if (list_length(args) != 2)
		PG_RETURN_FLOAT8(2 * DEFAULT_RANGE_INEQ_SEL);
	uuidx_tr_operator_sides(args, &id, &range);
	PG_RETURN_FLOAT8(uuidx_tr_selectivity(root, id, range, 0, varRelid));
}

/*
 * The planner's estimate of the share of rows the arm of the version of a
 * restriction holds (the restriction an arm, or arms ORed): the arm's own
 * estimate, from id's histogram by time, where the planner's own
 * estimate of uuid comparisons cannot interpolate between two keys; -1
 * where there is no such arm, or it stands beside comparisons for pruning
 * (it then carries only its share of theirs).
 */
Selectivity
uuidx_tr_arm_selectivity(PlannerInfo *root, RestrictInfo *rinfo, int version)
{
	List	   *arms = rinfo->orclause != NULL ?
		((BoolExpr *) rinfo->orclause)->args : list_make1(rinfo);
	ListCell   *lc;

	foreach(lc, arms)
	{
		RestrictInfo *arm = lfirst(lc);
		TimeClause	c;

		if (IsA(arm->clause, FuncExpr) &&
			uuidx_tr_read_clause(((FuncExpr *) arm->clause)->funcid, ((FuncExpr *) arm->clause)->args, &c) &&
			c.version == version)
			return c.pruned ? -1 : clause_selectivity(root, (Node *) arm, 0, JOIN_INNER, NULL);
	}
	return -1;
}
