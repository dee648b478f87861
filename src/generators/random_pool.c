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
#include "uuidx.h"

#include "miscadmin.h"

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

/*
 * uuidx.debug_postmaster_random, for t/005_fork_random.pl only: called in
 * the postmaster while shared_preload_libraries is loaded.  "draw" takes
 * random bytes there the way any caller would, which must leave the pool
 * empty; "prefill" fills the pool there as if the postmaster rule were
 * broken, which every backend must notice and undo before using a byte.
 */
void
uuidx_random_debug_in_postmaster(int mode)
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
