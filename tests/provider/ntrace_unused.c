// SPDX-License-Identifier: GPL-2.0-only
/*
 * Built with FXT_NTRACE and warnings as errors (compile only): values
 * that only the macros use must not become unused variables.
 */
#include <fxt/provider.h>

#include "ntrace_unused.h"

void ntrace_every_macro(int n, const char *peer)
{
	uint64_t start = fxt_now(), id = (uint64_t)n;
	static const char blob[] = "0123";
	int scope = TRACE_SCOPE_PROCESS, value = n * 2;

	TRACE_INSTANT("cat", "i", (enum fxt_scope)scope,
		      TRACE_ARG_I32("v", value));
	TRACE_COUNTER("cat", "c", id, TRACE_ARG_I32("v", value));
	TRACE_DURATION_BEGIN("cat", "b", TRACE_ARG_STR("peer", peer));
	TRACE_DURATION_END("cat", "b");
	TRACE_COMPLETE("cat", "x", start, start + 1);
	TRACE_ASYNC_BEGIN("cat", "a", id);
	TRACE_FLOW_END("cat", "f", id);
	TRACE_INSTANT_AT("cat", "i", start, TRACE_SCOPE_THREAD);
	TRACE_DURATION_END_AT("cat", "e", start);
	TRACE_BLOB("cat", "blob", FXT_BLOB_DATA, blob, sizeof(blob) - 1);
	TRACE_LOGF("cat", "%s", peer);
	TRACE_KERNEL_OBJECT("cat", id, FXT_ZX_OBJ_THREAD, peer);
	{
		TRACE_DURATION("cat", "d", TRACE_ARG_I32("v", value));
	}
	/* Names chosen at run time, used by the macros only. */
	{
		const char *cat = peer + 1, *name = peer + 2, *arg = peer + 3;
		const char *scoped = peer + 4, *enabled = peer + 5;

		if (TRACE_ENABLED(TRACE_DYN(enabled)))
			TRACE_INSTANT(TRACE_DYN(cat), TRACE_DYN(name),
				      TRACE_SCOPE_THREAD,
				      TRACE_ARG_I32(TRACE_DYN(arg), value));
		TRACE_DURATION(TRACE_DYN(cat), TRACE_DYN(scoped));
	}
}
