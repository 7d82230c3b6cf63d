/* SPDX-License-Identifier: GPL-2.0-only */
/* The peer of the provider benchmark: an LTTng-UST tracepoint, 2 ints. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER fxtbench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(FXT_BENCH_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define FXT_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(fxtbench, event,
	TP_ARGS(int, a, int, b),
	TP_FIELDS(
		ctf_integer(int, a, a)
		ctf_integer(int, b, b)
	)
)

/* Never enabled by the session: the peer of a disabled call site. */
TRACEPOINT_EVENT(fxtbench, off,
	TP_ARGS(int, a, int, b),
	TP_FIELDS(
		ctf_integer(int, a, a)
		ctf_integer(int, b, b)
	)
)

#endif

#include <lttng/tracepoint-event.h>
