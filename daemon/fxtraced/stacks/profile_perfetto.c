// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/stacks.h>

#include "profile_internal.h"
#include "profile_pb.h"
#include "profile_perfetto.h"

/* Entries per interned-data packet: packets stay well under a MiB. */
#define PF_INTERNED_PER_PACKET 2048u

struct pf_out {
	struct pb b;
	profile_emit_fn emit;
	void *ctx;
	uint64_t rec[1 + FXT_STACKS_BLOB_PAYLOAD_MAX / FXT_WORD_BYTES];
};

/* One blob record of the stream's next len bytes. */
static int pf_blob(struct pf_out *o, size_t len)
{
	size_t words = 1 + fxt_words((uint32_t)len);

	o->rec[words - 1] = 0;
	memcpy(o->rec + 1, o->b.buf, len);
	o->rec[0] = fxt_blob_header((uint32_t)words, FXT_STACKS_STR_PERFETTO,
				    (uint16_t)len, FXT_BLOB_PERFETTO);
	pb_consume(&o->b, len);
	return o->emit(o->ctx, o->rec, words);
}

/* Whole chunks out once a packet ends; all of it when last. */
static int pf_flush(struct pf_out *o, bool last)
{
	int err = pb_error(&o->b);

	while (!err && o->b.len >= FXT_STACKS_BLOB_PAYLOAD_MAX)
		err = pf_blob(o, FXT_STACKS_BLOB_PAYLOAD_MAX);
	if (!err && last && o->b.len)
		err = pf_blob(o, o->b.len);
	return err;
}

static void pf_packet_begin(struct pb *b, uint64_t flags)
{
	pb_begin(b, PF_TRACE_PACKET);
	pb_uint(b, PF_PACKET_SEQUENCE_ID, PF_SEQUENCE_ID);
	pb_uint(b, PF_PACKET_SEQUENCE_FLAGS, flags);
}

/* The sequence's first packet: its state starts here; off-CPU defaults. */
static void pf_first_packet(struct pb *b)
{
	pf_packet_begin(b, PF_SEQ_INCREMENTAL_STATE_CLEARED);
	pb_uint(b, PF_PACKET_FIRST_ON_SEQUENCE, 1);
	pb_begin(b, PF_PACKET_DEFAULTS);
	pb_begin(b, PF_DEFAULTS_STACK_SAMPLE);
	pb_string(b, PF_SSDEFAULTS_SOURCE, PF_OFFCPU_SOURCE);
	pb_begin(b, PF_SSDEFAULTS_PRIMARY);
	pb_string(b, PF_COUNTER_NAME, PF_OFFCPU_COUNTER);
	pb_uint(b, PF_COUNTER_UNIT, PF_UNIT_NANOSECONDS);
	pb_uint(b, PF_COUNTER_SCOPE, PF_SCOPE_GLOBAL);
	pb_end(b);
	pb_end(b);
	pb_end(b);
	pb_end(b);
}

static void pf_interned_string(struct pb *b, uint32_t field, uint64_t iid,
			       const void *s, size_t len)
{
	pb_begin(b, field);
	pb_uint(b, PF_STRING_IID, iid);
	pb_bytes(b, PF_STRING_STR, s, len);
	pb_end(b);
}

static void pf_mapping(struct pb *b, uint64_t iid, const char *path,
		       size_t path_len, const uint8_t *bid, size_t bid_len)
{
	pf_interned_string(b, PF_INTERNED_MAPPING_PATHS, iid, path, path_len);
	if (bid_len)
		pf_interned_string(b, PF_INTERNED_BUILD_IDS, iid, bid, bid_len);
	pb_begin(b, PF_INTERNED_MAPPINGS);
	pb_uint(b, PF_MAPPING_IID, iid);
	if (bid_len)
		pb_uint(b, PF_MAPPING_BUILD_ID, iid);
	pb_uint(b, PF_MAPPING_PATH_STRING_IDS, iid);
	pb_end(b);
}

/* Mapping iids: 1 the kernel, mapping id + 1 the others. */
static void pf_mappings(struct pb *b, const struct profile_ingest *p)
{
	const uint8_t *bid;
	const char *path;
	size_t plen, blen;
	uint32_t id;

	pf_packet_begin(b, PF_SEQ_NEEDS_INCREMENTAL_STATE);
	pb_begin(b, PF_PACKET_INTERNED_DATA);
	pf_mapping(b, PF_KERNEL_MAPPING_IID, "kernel", 6, NULL, 0);
	for (id = 1; id <= p->mappings.count; id++) {
		profile_mapping(p, id, &path, &plen, &bid, &blen);
		pf_mapping(b, (uint64_t)id + 1, path, plen, bid, blen);
	}
	pb_end(b);
	pb_end(b);
}

/*
 * A frame's function name: given, its own, or basename(mapping)+0xADDR.
 * Perfetto's Frame has no field to mark an inline frame (only a name, a
 * mapping and a pc): its name says it.
 */
static size_t pf_frame_name(const struct profile_ingest *p, uint32_t id,
			    const char *given, char *buf, size_t cap)
{
	const struct profile_frame *f = &p->frame[id - 1];
	const uint8_t *bid;
	const char *path;
	size_t plen, blen;

	if (given || f->name) {
		snprintf(buf, cap, "%s%s", given ? given : f->name,
			 f->inlined ? " [inlined]" : "");
		return strlen(buf);
	}
	profile_mapping(p, f->mapping, &path, &plen, &bid, &blen);
	return fxt_stacks_unnamed_name(buf, cap, path, plen, f->addr);
}

static void pf_frame(struct pb *b, const struct profile_ingest *p, uint32_t id,
		     const char *given)
{
	const struct profile_frame *f = &p->frame[id - 1];
	char name[512];
	size_t len = pf_frame_name(p, id, given, name, sizeof(name));

	pf_interned_string(b, PF_INTERNED_FUNCTION_NAMES, id, name, len);
	pb_begin(b, PF_INTERNED_FRAMES);
	pb_uint(b, PF_FRAME_IID, id);
	pb_uint(b, PF_FRAME_FUNCTION_NAME_ID, id);
	if (f->kind == FXT_STACKS_FRAME_KERNEL) {
		pb_uint(b, PF_FRAME_MAPPING_ID, PF_KERNEL_MAPPING_IID);
		pb_uint(b, PF_FRAME_REL_PC, 0);
	} else if (f->mapping) {
		pb_uint(b, PF_FRAME_MAPPING_ID, (uint64_t)f->mapping + 1);
		pb_uint(b, PF_FRAME_REL_PC, f->addr);
	}
	pb_end(b);
}

/* Frame ids leaf first in the table; Perfetto wants the root first. */
static void pf_callstack(struct pb *b, const struct profile_ingest *p,
			 uint32_t id)
{
	uint32_t len, i;
	const uint32_t *ids = profile_intern_key(&p->stacks, id, &len);

	pb_begin(b, PF_INTERNED_CALLSTACKS);
	pb_uint(b, PF_CALLSTACK_IID, id);
	for (i = len / sizeof(*ids); i > 0; i--)
		pb_uint(b, PF_CALLSTACK_FRAME_IDS, ids[i - 1]);
	pb_end(b);
}

/* Frames, then callstacks, PF_INTERNED_PER_PACKET in each packet. */
static int pf_interned(struct pf_out *o, const struct profile_ingest *p,
		       const char *const *names)
{
	uint32_t total = p->frames.count + p->stacks.count, i;
	int err = 0;

	for (i = 0; i < total && !err; i++) {
		if (i % PF_INTERNED_PER_PACKET == 0) {
			pf_packet_begin(&o->b, PF_SEQ_NEEDS_INCREMENTAL_STATE);
			pb_begin(&o->b, PF_PACKET_INTERNED_DATA);
		}
		if (i < p->frames.count)
			pf_frame(&o->b, p, i + 1, names ? names[i] : NULL);
		else
			pf_callstack(&o->b, p, i - p->frames.count + 1);
		if (i % PF_INTERNED_PER_PACKET == PF_INTERNED_PER_PACKET - 1 ||
		    i == total - 1) {
			pb_end(&o->b);
			pb_end(&o->b);
			err = pf_flush(o, false);
		}
	}
	return err;
}

static void pf_sample(struct pb *b, const struct profile_sample_kept *s)
{
	pb_begin(b, PF_TRACE_PACKET);
	pb_uint(b, PF_PACKET_TIMESTAMP, s->ts);
	pb_uint(b, PF_PACKET_SEQUENCE_ID, PF_SEQUENCE_ID);
	pb_uint(b, PF_PACKET_SEQUENCE_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
	if (s->offcpu) {
		pb_begin(b, PF_PACKET_STACK_SAMPLE);
		pb_begin(b, PF_STACK_TASK_CONTEXT);
		pb_uint(b, PF_TASK_PID, s->pid);
		pb_uint(b, PF_TASK_TID, s->tid);
		pb_end(b);
		pb_uint(b, PF_STACK_CALLSTACK_IID, s->stack);
		pb_uint(b, PF_STACK_PRIMARY_WEIGHT, s->weight_ns);
	} else {
		pb_begin(b, PF_PACKET_PERF_SAMPLE);
		pb_uint(b, PF_PERF_CPU, s->cpu);
		pb_uint(b, PF_PERF_PID, s->pid);
		pb_uint(b, PF_PERF_TID, s->tid);
		pb_uint(b, PF_PERF_CALLSTACK_IID, s->stack);
		pb_uint(b, PF_PERF_CPU_MODE,
			s->kernel_mode ? PF_CPU_MODE_KERNEL : PF_CPU_MODE_USER);
		pb_uint(b, PF_PERF_TIMEBASE_COUNT, s->weight_ns);
	}
	pb_end(b);
	pb_end(b);
}

int profile_perfetto_write(const struct profile_ingest *p,
			   const char *const *names, profile_emit_fn emit,
			   void *ctx)
{
	struct pf_out *o = calloc(1, sizeof(*o));
	size_t i;
	int err;

	if (!o)
		return -ENOMEM;
	pb_init(&o->b);
	o->emit = emit;
	o->ctx = ctx;
	pf_first_packet(&o->b);
	pf_mappings(&o->b, p);
	err = pf_flush(o, false);
	if (!err)
		err = pf_interned(o, p, names);
	for (i = 0; i < p->nkept && !err; i++) {
		pf_sample(&o->b, &p->kept[i]);
		err = pf_flush(o, false);
	}
	if (!err)
		err = pf_flush(o, true);
	pb_release(&o->b);
	free(o);
	return err;
}
