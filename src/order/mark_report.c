/*-------------------------------------------------------------------------
 *
 * mark_report.c
 *	  Paced reports of the mark's retried writes, across the server.
 *
 * mark.c writes the mark (mark_file.c) for a value, early, in the worker
 * and in redo; a failure that is retried is reported through these, which
 * keep the pace in the shared state (state.c).
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

/*
 * Reports of failed writes that are retried.  A write that must succeed
 * for a value (a value beyond the mark) reports its failure at ERROR every
 * time; an early move of the mark and the worker's moves and syncs are
 * retried instead (a value's early move 100 ms later at most, the worker's
 * a second later), and a disk that stays full or read-only would make each
 * retry a WARNING, as often as values come.  So their failures are
 * reported at most once per UUIDX_MARK_REPORT_US across the server: the
 * first at once, each later one as a WARNING only where no report came in
 * the interval before it, with the count of the failures logged at DEBUG1
 * meanwhile in its context; and the first write that succeeds after a
 * report says so, in the log, without starting the interval anew.  (A
 * value beyond the mark fails its statement with the failing call's ERROR
 * every time, as any statement on a full disk does.)
 */
#define UUIDX_MARK_REPORT_US (INT64CONST(10) * USECS_PER_SEC)

/* Context of a report that follows unreported failures. */
static void
unreported_context(void *arg)
{
	errcontext("failed attempts since the last report: %u (each logged at DEBUG1; a retried write's failure is reported at most every %d seconds)",
			   *(uint32 *) arg, (int) (UUIDX_MARK_REPORT_US / USECS_PER_SEC));
}

/*
 * Before a retried write: the level to report its failure at, WARNING where
 * a report is due, DEBUG1 otherwise; the count of unreported failures goes
 * into the report's context.
 */
int
uuidx_mark_report_begin(UuidxMarkReport *report)
{
	int64		now = uuidx_clock_monotonic_us();

	report->due = (int64) pg_atomic_read_u64(&uuidx_state->report_after_us) <= now;
	report->earlier = report->due ? pg_atomic_read_u32(&uuidx_state->unreported_failures) : 0;
	report->pushed = report->earlier > 0;
	if (report->pushed)
	{
		report->context.callback = unreported_context;
		report->context.arg = &report->earlier;
		report->context.previous = error_context_stack;
		error_context_stack = &report->context;
	}
	return report->due ? WARNING : DEBUG1;
}

/*
 * After it: a failure reported starts the interval, one not reported is
 * counted; a success after a report says so and ends the interval, so that
 * the next failure is reported at once.
 */
void
uuidx_mark_report_end(UuidxMarkReport *report, bool succeeded)
{
	if (report->pushed)
		error_context_stack = report->context.previous;
	if (succeeded)
	{
		/* (the interval goes on: a disk that comes and goes logs no more) */
		if (pg_atomic_exchange_u32(&uuidx_state->failure_reported, 0) != 0)
		{
			uint32		failed = pg_atomic_exchange_u32(&uuidx_state->unreported_failures, 0);

			ereport(LOG,
					(errmsg("the high-water mark file \"%s\" could be written again", UUIDX_MARK_FILE),
					 errdetail_plural("%u retried write failed after the last reported failure.",
									  "%u retried writes failed after the last reported failure.",
									  failed, failed)));
		}
	}
	else if (report->due)
	{
		pg_atomic_write_u64(&uuidx_state->report_after_us,
							(uint64) (uuidx_clock_monotonic_us() + UUIDX_MARK_REPORT_US));
		pg_atomic_fetch_sub_u32(&uuidx_state->unreported_failures, report->earlier);
		pg_atomic_write_u32(&uuidx_state->failure_reported, 1);
	}
	else
		pg_atomic_fetch_add_u32(&uuidx_state->unreported_failures, 1);
}
