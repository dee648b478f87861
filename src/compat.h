/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  The differences between the PostgreSQL majors uuidx supports (15 to
 *	  18, and 19 as REL_19_STABLE stands: built and tested only where a 19
 *	  can be had) are handled here, but for two that each concern one
 *	  function and stay beside it: order/mark.c names its wait event from
 *	  17 on (WaitEventExtensionNew), and order/worker.c walks the
 *	  postmaster's worker list, a dlist from 18 on.  Headers that a later
 *	  major no longer includes indirectly are included where they are used,
 *	  in every major.
 *
 *	  Where a new major can break uuidx without a compiler's warning: two
 *	  files read core's private headers.  order/mark_wal.c reads
 *	  replication/walsender_private.h (WalSndCtl->lsn[], the position the
 *	  synchronous standbys have flushed, which the mark's record waits
 *	  for), and order/worker.c reads postmaster/bgworker_internals.h
 *	  (BackgroundWorkerList, to see whether the mark worker was registered).
 *	  Check both structures' fields against each new major.
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDX_COMPAT_H
#define UUIDX_COMPAT_H

#include "utils/timestamp.h"

#if PG_VERSION_NUM < 150000
#error "uuidx requires PostgreSQL 15 or later"
#endif

/* PostgreSQL 16 moved the varlena macros out of postgres.h. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/* The release, from the Makefile's UUIDX_VERSION. */
#ifndef UUIDX_VERSION
#error "UUIDX_VERSION is not defined: build with the Makefile"
#endif

/* PostgreSQL 18 lets a module report its name and version. */
#if PG_VERSION_NUM >= 180000
#define UUIDX_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "uuidx", .version = UUIDX_VERSION)
#else
#define UUIDX_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * PostgreSQL 19's initdb has the explicit casts uuid -> bytea and back,
 * which uuidx makes on earlier majors (inspect/bytea.c).
 */
#if PG_VERSION_NUM >= 190000
#define UUIDX_CORE_HAS_BYTEA_CASTS 1
#endif

/* PostgreSQL 17 added the DSM registry: shared state without preloading. */
#if PG_VERSION_NUM >= 170000
#define UUIDX_HAVE_DSM_REGISTRY 1
#include "storage/dsm_registry.h"
#endif

/*
 * PostgreSQL 19 passes an argument to GetNamedDSMSegment()'s init callback
 * (commit 48d4a1423d, "Allow passing a pointer to GetNamedDSMSegment()'s
 * init callback.").
 */
#if PG_VERSION_NUM >= 190000
#define UUIDX_DSM_INIT_ARGS void *ptr, void *arg
#define UUIDX_GET_NAMED_DSM_SEGMENT(name, size, init, found) \
	GetNamedDSMSegment(name, size, init, found, NULL)
#else
#define UUIDX_DSM_INIT_ARGS void *ptr
#define UUIDX_GET_NAMED_DSM_SEGMENT(name, size, init, found) \
	GetNamedDSMSegment(name, size, init, found)
#endif

/*
 * PostgreSQL 19 keeps the names of LWLock tranches in shared memory: a new
 * tranche id is allocated with its name, and LWLockRegisterTranche() is
 * gone (commit 38b602b028, "Move dynamically-allocated LWLock tranche
 * names to shared memory."; LWLockInitialize() refuses an unregistered id).
 */
#if PG_VERSION_NUM >= 190000
#define UUIDX_NEW_TRANCHE_ID(name) LWLockNewTrancheId(name)
#define UUIDX_REGISTER_TRANCHE(id, name) ((void) 0)
#else
#define UUIDX_NEW_TRANCHE_ID(name) LWLockNewTrancheId()
#define UUIDX_REGISTER_TRANCHE(id, name) LWLockRegisterTranche(id, name)
#endif

/*
 * PostgreSQL 19 passes the EXPLAIN state, if any, to planner_hook and
 * standard_planner() (commit c83ac02ec7, "Add ExplainState argument to
 * pg_plan_query() and planner().").
 */
#if PG_VERSION_NUM >= 190000
#define UUIDX_PLANNER_PARAMS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams, ExplainState *es
#define UUIDX_PLANNER_ARGS parse, query_string, cursorOptions, boundParams, es
#else
#define UUIDX_PLANNER_PARAMS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams
#define UUIDX_PLANNER_ARGS parse, query_string, cursorOptions, boundParams
#endif

/* PostgreSQL 17 added infinite intervals. */
#if PG_VERSION_NUM >= 170000
#define UUIDX_INTERVAL_IS_INFINITE(i) INTERVAL_NOT_FINITE(i)
#else
#define UUIDX_INTERVAL_IS_INFINITE(i) false
#endif

/*
 * PostgreSQL 16 exported get_extension_schema() (commands/extension.h);
 * 15's is static: the same, read from pg_extension by its index.
 */
#if PG_VERSION_NUM < 160000
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_extension.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

static inline Oid
get_extension_schema(Oid ext)
{
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			result = InvalidOid;

	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ext));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		result = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return result;
}
#endif

/*
 * PostgreSQL 17 added uuid_extract_version() and uuid_extract_timestamp(),
 * which reads v1 keys; 18 taught the latter to read v7 keys too, and the
 * development branch that becomes 20 v6 keys (commit 451871b740, of
 * 2026-08-04).  The versions it reads decide which keys a rewrite of
 * uuid_extract_timestamp(id) must keep (time_range/forms.c), so they are
 * the build's major's; test/sql/core_extract_pg17.sql checks them against
 * the function's results on every major that has it.  uuidx_core18's reads
 * what 18's does, on every major.
 */
#define UUIDX_CORE18_EXTRACT_TIMESTAMP_VERSIONS ((1 << 1) | (1 << 7))
#if PG_VERSION_NUM >= 170000
#include "utils/fmgroids.h"
#define UUIDX_CORE_EXTRACT_VERSION F_UUID_EXTRACT_VERSION
#define UUIDX_CORE_EXTRACT_TIMESTAMP F_UUID_EXTRACT_TIMESTAMP
#if PG_VERSION_NUM >= 200000
#define UUIDX_CORE_EXTRACT_TIMESTAMP_VERSIONS ((1 << 1) | (1 << 6) | (1 << 7))
#elif PG_VERSION_NUM >= 180000
#define UUIDX_CORE_EXTRACT_TIMESTAMP_VERSIONS UUIDX_CORE18_EXTRACT_TIMESTAMP_VERSIONS
#else
#define UUIDX_CORE_EXTRACT_TIMESTAMP_VERSIONS (1 << 1)
#endif
#endif

/*
 * PostgreSQL 18 gave index_beginscan() an instrumentation argument, and 19
 * a trailing flags argument (commit dcd8cc1c85, "Thread flags through
 * begin-scan APIs"; SO_NONE is in access/tableam.h).
 */
#if PG_VERSION_NUM >= 190000
#include "access/tableam.h"
#define UUIDX_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, norderbys, SO_NONE)
#elif PG_VERSION_NUM >= 180000
#define UUIDX_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, norderbys)
#else
#define UUIDX_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, nkeys, norderbys)
#endif

/*
 * PostgreSQL 18 counts the disabled nodes of a path (enable_indexscan =
 * off and the like) beside its cost; earlier majors add disable_cost to
 * the cost itself, which a path over children inherits with their costs.
 * UUIDX_DISABLE_PATH marks a path of ours disabled either way.
 */
#if PG_VERSION_NUM >= 180000
#define UUIDX_ADD_DISABLED_NODES(path, child) ((path)->disabled_nodes += (child)->disabled_nodes)
#define UUIDX_DISABLE_PATH(path) ((path)->disabled_nodes++)
#else
#define UUIDX_ADD_DISABLED_NODES(path, child) ((void) 0)
#define UUIDX_DISABLE_PATH(path) \
	((path)->startup_cost += disable_cost, (path)->total_cost += disable_cost)
#endif

/* PostgreSQL 18 moved EXPLAIN's output functions to explain_format.h. */
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif

/*
 * PostgreSQL 19 lets a plugin narrow a relation's path strategies
 * (RelOptInfo.pgs_mask, commit 4020b370f2); enable_indexonlyscan and
 * enable_indexscan only seed it.
 */
#if PG_VERSION_NUM >= 190000
#define UUIDX_CONSIDER_INDEXONLY(rel) (((rel)->pgs_mask & PGS_CONSIDER_INDEXONLY) != 0)
#define UUIDX_CONSIDER_INDEXSCAN(rel) (((rel)->pgs_mask & PGS_INDEXSCAN) != 0)
#else
#define UUIDX_CONSIDER_INDEXONLY(rel) enable_indexonlyscan
#define UUIDX_CONSIDER_INDEXSCAN(rel) enable_indexscan
#endif

/*
 * PostgreSQL 18 renamed the startup process's interrupt handling
 * (HandleStartupProcInterrupts() to ProcessStartupProcInterrupts()).
 */
#if PG_VERSION_NUM >= 180000
#define UUIDX_STARTUP_PROC_INTERRUPTS() ProcessStartupProcInterrupts()
#else
#define UUIDX_STARTUP_PROC_INTERRUPTS() HandleStartupProcInterrupts()
#endif

#endif							/* UUIDX_COMPAT_H */
