/*-------------------------------------------------------------------------
 *
 * time_range.h
 *	  The face of src/time_range/: id <@ tstzrange, and the time forms
 *	  users write (uuid_timestamp(id) >= t and the like), answered from the
 *	  key's index where that is exact.  The other folders need only its
 *	  init; the SQL reaches the rest.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_TIME_RANGE_H
#define UUIDX_TIME_RANGE_H

#include "uuidx.h"

/*
 * init.c: _PG_init's: the setting uuidx.enable_time_ranges_scan, the
 * custom scan, and the planner hooks of the forms and of index walks.
 */
extern void uuidx_time_range_init(void);

#endif							/* UUIDX_TIME_RANGE_H */
