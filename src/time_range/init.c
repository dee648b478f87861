/*-------------------------------------------------------------------------
 *
 * init.c
 *	  The time ranges' part of _PG_init: the custom scan, with its setting
 *	  (scan/planner.c), the planner hook that rewrites the forms users write
 *	  (forms.c), and the one that costs index walks to a time range and
 *	  offers the scan (paths.c).
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "time_range/scan/scan.h"

void
uuidx_time_range_init(void)
{
	uuidx_scan_init();
	uuidx_tr_forms_init();
	uuidx_tr_paths_init();
}
