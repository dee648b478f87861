/*-------------------------------------------------------------------------
 *
 * random_pool.c
 *	  A per-process pool of bytes from the CSPRNG.
 *
 * pg_strong_random() costs far more per call than a generator may (OpenSSL
 * locks and looks up its DRBG on every call), so the bytes for several
 * hundred UUIDs are drawn at once.  The pool belongs to one process:
 * it is never filled in the postmaster (whose memory every backend
 * inherits), and it remembers the pid that filled it, so a process that
 * finds itself forked throws the inherited bytes away before using any,
 * and says so in the server log (which, the first rule holding, never
 * happens; t/005_fork_random.pl breaks that rule on purpose through
 * uuidx.debug_postmaster_random to show the second one working).
 *
 *-------------------------------------------------------------------------
 */
#include "generators/generators.h"

#include "miscadmin.h"
#include "utils/guc.h"

#define UUIDX_POOL_SIZE 8192

static uint8 pool[UUIDX_POOL_SIZE];
static size_t pool_used = UUIDX_POOL_SIZE;
static int	pool_owner_pid = 0;

static void
strong_random_or_error(void *dst, size_t len)
{
	if (unlikely(!pg_strong_random(dst, len)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values")));
}

/*
 * Fill dst with len bytes from the CSPRNG, through the pool.
 */
void
uuidx_random_bytes(void *dst, size_t len)
{
	Assert(len <= UUIDX_POOL_SIZE);

	/* The postmaster itself never keeps random bytes. */
	if (unlikely(!IsUnderPostmaster && IsPostmasterEnvironment))
	{
		strong_random_or_error(dst, len);
		return;
	}

	if (unlikely(pool_owner_pid != MyProcPid ||
				 pool_used + len > UUIDX_POOL_SIZE))
	{
		if (pool_owner_pid != 0 && pool_owner_pid != MyProcPid)
			ereport(LOG,
					(errmsg("discarding %zu random bytes inherited from process %d",
							UUIDX_POOL_SIZE - pool_used, pool_owner_pid),
					 errdetail("uuidx never uses random bytes drawn before its process was forked.")));
		strong_random_or_error(pool, UUIDX_POOL_SIZE);
		pool_owner_pid = MyProcPid;
		pool_used = 0;
	}

	memcpy(dst, pool + pool_used, len);
	pool_used += len;
}

/* Values of uuidx.debug_postmaster_random. */
#define UUIDX_DEBUG_RANDOM_OFF 0
#define UUIDX_DEBUG_RANDOM_DRAW 1
#define UUIDX_DEBUG_RANDOM_PREFILL 2

static int	debug_postmaster_random = UUIDX_DEBUG_RANDOM_OFF;

static const struct config_enum_entry debug_postmaster_random_options[] = {
	{"off", UUIDX_DEBUG_RANDOM_OFF, false},
	{"draw", UUIDX_DEBUG_RANDOM_DRAW, false},
	{"prefill", UUIDX_DEBUG_RANDOM_PREFILL, false},
	{NULL, 0, false}
};

/*
 * uuidx.debug_postmaster_random, for t/005_fork_random.pl only: acted on in
 * the postmaster while shared_preload_libraries is loaded.  "draw" takes
 * random bytes there the way any caller would, which must leave the pool
 * empty; "prefill" fills the pool there as if the postmaster rule were
 * broken, which every backend must notice and undo before using a byte.
 */
static void
debug_in_postmaster(int mode)
{
	uint8		buf[16];

	if (mode == UUIDX_DEBUG_RANDOM_DRAW)
		uuidx_random_bytes(buf, sizeof(buf));
	else if (mode == UUIDX_DEBUG_RANDOM_PREFILL)
	{
		strong_random_or_error(pool, UUIDX_POOL_SIZE);
		pool_owner_pid = MyProcPid;
		pool_used = 0;
	}
}

/*
 * _PG_init's (generate.c): the developer setting above.  It acts in the
 * postmaster, so it exists only when the library is preloaded: a
 * PGC_POSTMASTER setting cannot be defined later.
 */
void
uuidx_random_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomEnumVariable("uuidx.debug_postmaster_random",
							 "Test of process isolation: random bytes drawn in the postmaster at startup.",
							 "off (the default), draw (through the pool, as any caller) or prefill (the pool filled as if by mistake). Only for uuidx's tests.",
							 &debug_postmaster_random,
							 UUIDX_DEBUG_RANDOM_OFF,
							 debug_postmaster_random_options,
							 PGC_POSTMASTER,
							 GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL,
							 NULL, NULL, NULL);
	/* Under EXEC_BACKEND every child loads the library again. */
	if (!IsUnderPostmaster)
		debug_in_postmaster(debug_postmaster_random);
}
