/*-------------------------------------------------------------------------
 *
 * module.c
 *	  Module initialisation: the magic block, the uuidx.node_id setting, and
 *	  the shared-memory hooks when the library is preloaded.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidx.h"

#include "compat.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

UUIDX_MODULE_MAGIC;

/* uuidx.node_id: -1 (unset) or 0..65535; see uuidx_layout_v8_time(). */
int			uuidx_node_id = -1;

void		_PG_init(void);

void
_PG_init(void)
{
	/*
	 * PGC_SUSET: the node id decides whether v8 values from different
	 * servers can collide, so only a superuser or the server configuration
	 * may set it.
	 */
	DefineCustomIntVariable("uuidx.node_id",
							"Node id written into uuid_generate_v8() values.",
							"-1 (the default) leaves the node bits random. Give each server that writes to the same tables its own id from 0 to 65535.",
							&uuidx_node_id,
							-1, -1, 65535,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("uuidx");

	if (process_shared_preload_libraries_in_progress)
		uuidx_state_install_hooks();
}
