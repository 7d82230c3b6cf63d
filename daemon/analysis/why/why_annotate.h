/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracectl why --annotate: a copy of the archive with each critical
 * path drawn into it, for Perfetto UI to show as arrows. After the
 * archive's own records comes a provider section "fxtrace:why" (ticks
 * in ns, the archive's clock): on each hop's thread a complete event
 * "why" over the stretches it held the path up, an instant naming it
 * with its share, and a flow from each hop to the next.
 */
#ifndef FXT_WHY_ANNOTATE_H
#define FXT_WHY_ANNOTATE_H

#include <stdint.h>

#include "why_out.h"

#define WHY_ANNOTATE_PROVIDER "fxtrace:why"
/* Flow ids: this base | instance << 16 | hop, clear of small app ids. */
#define WHY_FLOW_ID_BASE 0x7768790000000000ull

/*
 * Copies the archive open as in_fd (from its start) to out_fd and
 * appends the paths of r's trees as provider provider_id (one the
 * archive does not use). 0 or -errno.
 */
int why_annotate(int in_fd, int out_fd, const struct why_report *r,
		 uint32_t provider_id);

#endif /* FXT_WHY_ANNOTATE_H */
