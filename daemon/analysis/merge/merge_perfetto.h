/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An input's Perfetto blobs (blob type 3, include/fxt/stacks.h) in the
 * merged archive. Perfetto appends the payloads of every such blob of a
 * file and reads them as one Trace, so each input's stream is rewritten
 * packet by packet, as merge_host.h renames its records:
 *
 * - TracePacket.timestamp onto the output's clock (merge_clock());
 * - trusted_packet_sequence_id: host index << MERGE_PERFETTO_SEQ_BITS |
 *   the input's, so that each input's interned data (mappings, frames,
 *   callstacks: ids scoped by their sequence) stays its own, untouched;
 * - PerfSample cpu, pid and tid, StackSample's TaskContext pid and tid:
 *   as the input's CPUs and koids (pids and tids are uint32 in these
 *   protos: the koid's low 32 bits, all Perfetto keeps of FXT's too);
 * - every other field copied byte for byte.
 *
 * A packet spans blobs; the input's bytes are kept until a packet is
 * whole (at most MERGE_PERFETTO_PACKET_MAX, larger is refused) and the
 * output is cut in blobs of MERGE_PERFETTO_BLOB_MAX bytes, with the
 * name inline. Hostile input: a packet whose fields do not parse is left
 * out and counted; a stream whose framing is lost (not a packet field,
 * a length past the bound) has its remaining blobs left out, counted.
 */
#ifndef FXT_MERGE_PERFETTO_H
#define FXT_MERGE_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt_writer.h"
#include "merge_host.h"

#define MERGE_PERFETTO_PACKET_MAX (16u << 20)
/* A blob record with its name inline: header and name, then payload. */
#define MERGE_PERFETTO_BLOB_MAX ((FXT_RECORD_MAX_WORDS - 2u) * FXT_WORD_BYTES)
/* An input's sequence ids below 2^24 (the manager writes 1). */
#define MERGE_PERFETTO_SEQ_BITS 24u

/* Bytes growing to a bound. */
struct merge_bytes {
	uint8_t *b;
	size_t len, cap;
};

struct merge_perfetto {
	struct merge_host *h;
	struct merge_bytes in; /* the start of a packet not yet whole */
	struct merge_bytes out; /* rewritten, not yet in a blob */
	struct merge_bytes pkt; /* the packet being rewritten */
	bool lost; /* framing lost: the rest left out */
};

void merge_perfetto_begin(struct merge_perfetto *p, struct merge_host *h);
/* A blob's payload of the input: 0, or -ENOMEM, or the writer's error. */
int merge_perfetto_take(struct merge_perfetto *p, struct fxt_writer *w,
			const void *data, size_t len);
/* After the input's last record: the rest out, a cut packet counted. */
int merge_perfetto_end(struct merge_perfetto *p, struct fxt_writer *w);
void merge_perfetto_release(struct merge_perfetto *p);

/*
 * One TracePacket's bytes (n of them at in) rewritten, appended to out:
 * 0, -EBADMSG if they do not parse (out as it was), -ENOMEM.
 */
int merge_perfetto_packet(struct merge_host *h, const uint8_t *in, size_t n,
			  struct merge_bytes *out);

#endif /* FXT_MERGE_PERFETTO_H */
