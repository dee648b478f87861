/*-------------------------------------------------------------------------
 *
 * scan.h
 *	  The face of src/time_range/scan/, the "uuidx time ranges" custom scan
 *	  (one index range per version, merged in key order where asked) to
 *	  the rest of src/time_range/: its init, the paths it offers for a
 *	  table (paths.c's hook), and whether it answers an arm over an index
 *	  (support.c, which then makes no index condition of it).
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_SCAN_H
#define UUIDX_SCAN_H

#include "uuidx.h"

#include "nodes/pathnodes.h"

/* planner.c */
extern void uuidx_scan_init(void);
extern void uuidx_scan_paths(PlannerInfo *root, RelOptInfo *rel);
extern bool uuidx_scan_answers_arm(PlannerInfo *root, IndexOptInfo *index, Node *arm);
extern uint64 uuidx_scan_planning_begin(void);
extern void uuidx_scan_planning_end(uint64 outer);

#endif							/* UUIDX_SCAN_H */
