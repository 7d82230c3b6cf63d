// SPDX-License-Identifier: GPL-2.0-only
/* The clock readings a merge trusts: see merge_clock.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include "fxt_saturate.h"
#include "merge_clock.h"
#include "merge_input.h"

struct clock_field {
	const char *name;
	uint64_t value;
	bool zero_ok;
};

/* A reading no running host writes: 0, or -ERANGE said. */
static int check_reading(const struct merge_host *h, const char *at,
			 const struct fxt_clock_reading *r,
			 struct fxt_merge_problem *problem)
{
	const struct clock_field f[] = {
		{ FXT_CLOCK_ARG_BOOTTIME, r->boottime, false },
		{ FXT_CLOCK_ARG_MONOTONIC, r->monotonic, false },
		{ FXT_CLOCK_ARG_REALTIME, r->realtime, false },
		{ FXT_CLOCK_ARG_ERROR_NS, r->error_ns, true },
	};
	unsigned int i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].value == UINT64_MAX || (!f[i].value && !f[i].zero_ok))
			return merge_problem(problem, -ERANGE, h->index, false,
					     0, "impossible clock reading at %s: %s = %" PRIu64 " ns",
					     at, f[i].name, f[i].value);
	}
	if (r->error_ns > MERGE_CLOCK_ERROR_MAX_NS)
		return merge_problem(problem, -ERANGE, h->index, false, 0,
				     "impossible clock reading at %s: error_ns = %" PRIu64 " ns, over %llu s",
				     at, r->error_ns,
				     MERGE_CLOCK_ERROR_MAX_NS / 1000000000ull);
	return 0;
}

/*
 * BOOTTIME and MONOTONIC never go back. REALTIME does when it is set
 * back during the trace: refused all the same, as a merge cannot tell
 * which of the trace's times the step came before.
 */
static int check_order(const struct merge_host *h, const char *name,
		       uint64_t start, uint64_t stop,
		       struct fxt_merge_problem *problem)
{
	if (stop >= start)
		return 0;
	return merge_problem(problem, -ERANGE, h->index, false, 0,
			     "clock readings reversed: %s at stop (%" PRIu64 " ns) is before %s at start (%" PRIu64 " ns)",
			     name, stop, name, start);
}

/*
 * REALTIME against BOOTTIME between the readings. Each clock was read
 * within error_ns of its reading's BOOTTIME, so a difference inside the
 * two errors is no drift: refusing it would refuse every short trace
 * (40 ns of error over 20 us is 2000 ppm), so only what lies beyond
 * them is held to MERGE_CLOCK_DRIFT_MAX_PPM. More than that is not a
 * clock's drift but REALTIME set during the trace (or made-up
 * readings): the line through the readings would misplace every time.
 */
static int check_drift(const struct merge_host *h,
		       struct fxt_merge_problem *problem)
{
	const struct fxt_clock_reading *a = &h->hc.start, *b = &h->hc.stop;
	uint64_t db = b->boottime - a->boottime;
	uint64_t dr = b->realtime - a->realtime;
	uint64_t gap = dr > db ? dr - db : db - dr;
	uint64_t allowed =
		fxt_sat_add(a->error_ns + b->error_ns,
			    db / (1000000 / MERGE_CLOCK_DRIFT_MAX_PPM));

	if (gap <= allowed)
		return 0;
	return merge_problem(problem, -ERANGE, h->index, false, 0,
			     "clock readings %.0f ppm apart: REALTIME ran %" PRIu64 " ns %s than BOOTTIME over %" PRIu64 " ns, beyond %u ppm and the readings' error (was the wall clock set during the trace?)",
			     (double)gap / (double)db * 1e6, gap,
			     dr > db ? "more" : "less", db,
			     MERGE_CLOCK_DRIFT_MAX_PPM);
}

int merge_clock_check(const struct merge_host *h,
		      struct fxt_merge_problem *problem)
{
	const struct fxt_host_clock *hc = &h->hc;
	const struct fxt_clock_reading *a = &hc->start, *b = &hc->stop;

	if (hc->has_start && check_reading(h, FXT_CLOCK_AT_START, a, problem))
		return -ERANGE;
	if (hc->has_stop && check_reading(h, FXT_CLOCK_AT_STOP, b, problem))
		return -ERANGE;
	if (!hc->has_start || !hc->has_stop)
		return 0;
	if (check_order(h, FXT_CLOCK_ARG_BOOTTIME, a->boottime, b->boottime,
			problem) ||
	    check_order(h, FXT_CLOCK_ARG_MONOTONIC, a->monotonic, b->monotonic,
			problem) ||
	    check_order(h, FXT_CLOCK_ARG_REALTIME, a->realtime, b->realtime,
			problem))
		return -ERANGE;
	if (b->boottime == a->boottime)
		return 0;
	return check_drift(h, problem);
}
