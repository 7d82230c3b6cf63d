/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The samples of a profile_ingest as one Perfetto Trace stream, cut in
 * blob records of blob type 3 named "perfetto" (Perfetto's FXT importer
 * appends their payloads and parses the result as a Trace): one packet
 * sequence, interned mappings, frames (named) and callstacks (root
 * first), then a PerfSample per on-CPU sample and a StackSample weighted
 * by the blocked time per off-CPU sample. Timestamps are left on the
 * FXT file's clock (CLOCK_BOOTTIME ns).
 *
 * Field numbers: include/fxt/perfetto.h.
 */
#ifndef FXT_PROFILE_PERFETTO_H
#define FXT_PROFILE_PERFETTO_H

#include <fxt/perfetto.h>

#include "profile_ingest.h"

#define PF_SEQUENCE_ID 1
/* The kernel's mapping: Perfetto's "magical" /kernel, no address. */
#define PF_KERNEL_MAPPING_IID 1
#define PF_OFFCPU_SOURCE "fxtrace.offcpu"
#define PF_OFFCPU_COUNTER "off-cpu"

struct profile_ingest;

/*
 * Writes the blobs; names[frame id - 1] names each frame (NULL: its
 * kernel name, or basename(mapping)+0xADDR).
 */
int profile_perfetto_write(const struct profile_ingest *p,
			   const char *const *names, profile_emit_fn emit,
			   void *ctx);

#endif /* FXT_PROFILE_PERFETTO_H */
