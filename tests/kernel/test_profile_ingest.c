// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raw kernel:sample and kernel:offcpu records (include/fxt/ksample.h)
 * through the manager's ingest filter, with a fake kernel symbol table
 * and a fake mapping source: what comes out holds no word inside the
 * kernel's text, the tables and sample records are word-exact
 * (include/fxt/stacks.h), the scheduler's frames are trimmed from
 * off-CPU stacks, losses are counted, and the end writes the symbols and
 * a Perfetto Trace stream, read back here with a small protobuf walker.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <fxt/ksample.h>
#include <fxt/stacks.h>

#include "profile_ingest.h"
#include "profile_perfetto.h"
#include "profile_sources.h"

#define KTEXT 0xffffffff81000000ull
#define KTEXT_END 0xffffffff82000000ull
#define PID 100u
#define TID 101u

/* Fake kallsyms: functions of 0x1000 bytes; sched text is 0x2000..0x4000. */
static const struct {
	uint64_t start;
	const char *name;
} ksyms[] = {
	{ KTEXT + 0x0000, "bpf_trace_run2" },
	{ KTEXT + 0x1000, "do_work" },
	{ KTEXT + 0x2000, "__schedule" },
	{ KTEXT + 0x3000, "schedule" },
	{ KTEXT + 0x4000, "pipe_read" },
	{ KTEXT + 0x5000, "nvme_irq [nvme]" },
};

static int fake_kernel_lookup(void *ctx, uint64_t pc, const char **name,
			      uint64_t *offset)
{
	size_t i;

	for (i = 0; i < sizeof(ksyms) / sizeof(*ksyms); i++)
		if (pc >= ksyms[i].start && pc < ksyms[i].start + 0x1000) {
			*name = ksyms[i].name;
			*offset = pc - ksyms[i].start;
			return 0;
		}
	return -ENOENT;
}

static bool fake_in_sched_text(void *ctx, uint64_t pc)
{
	return pc >= KTEXT + 0x2000 && pc < KTEXT + 0x4000;
}

static const uint8_t build_id[4] = { 0xb1, 0xd0, 0x00, 0x42 };
/* The resolver's handle of /usr/bin/work. */
#define WORK_FILE 7u

/* pid 100 maps /usr/bin/work at 0x400000, file offset 0 = vaddr 0x1000. */
static int fake_user_find(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
			  struct profile_user_hit *hit)
{
	if (pid != PID || pc < 0x400000 || pc >= 0x500000)
		return -ENOENT;
	hit->path = "/usr/bin/work";
	hit->file = WORK_FILE;
	hit->build_id = build_id;
	hit->build_id_len = sizeof(build_id);
	hit->vaddr = pc - 0x400000 + 0x1000;
	return 0;
}

static int fake_user_symbol(void *ctx, uint32_t file, const uint8_t *bid,
			    size_t bid_len, uint64_t vaddr, const char **name)
{
	if (file != WORK_FILE || bid_len != sizeof(build_id) ||
	    memcmp(bid, build_id, bid_len))
		return -ENOENT;
	if (vaddr >= 0x1100 && vaddr < 0x1200) {
		*name = "hot_loop";
		return 0;
	}
	if (vaddr >= 0x1200 && vaddr < 0x1300) {
		*name = "main";
		return 0;
	}
	return -ENOENT;
}

/* A leaf without a frame at 0x1400..0x1500 (read(): sub $0x28,%rsp). */
static unsigned int slot_asked;

static int fake_user_return_slot(void *ctx, uint32_t file,
				 const uint8_t *bid, size_t bid_len,
				 uint64_t vaddr, uint64_t *sp_offset)
{
	slot_asked++;
	if (file != WORK_FILE || vaddr < 0x1400 || vaddr >= 0x1500)
		return -ENOENT;
	*sp_offset = 0x28;
	return 0;
}

static const struct profile_resolver fake = {
	.kernel_lookup = fake_kernel_lookup,
	.in_sched_text = fake_in_sched_text,
	.user_find = fake_user_find,
	.user_return_slot = fake_user_return_slot,
	.user_symbol = fake_user_symbol,
};

/* What the filter wrote, as the archive would hold it. */
struct out {
	uint64_t w[1 << 16];
	size_t len;
	size_t records;
};

static int collect(void *ctx, const uint64_t *rec, size_t words)
{
	struct out *o = ctx;

	assert_true(words > 0);
	assert_int_equal(fxt_record_words(rec[0]), words);
	assert_true(o->len + words <= sizeof(o->w) / sizeof(*o->w));
	memcpy(o->w + o->len, rec, words * sizeof(*rec));
	o->len += words;
	o->records++;
	return 0;
}

/* A raw record with ns words read at user stack pointer sp, bp 0. */
static size_t raw_stack(uint64_t *w, unsigned int kind, uint64_t ts,
			uint32_t nk, const uint64_t *kpc, uint32_t nu,
			const uint64_t *upc, uint32_t ns, const uint64_t *stack,
			uint64_t weight)
{
	uint64_t *at = w + FXT_KSAMPLE_HEAD_WORDS + nk + nu;

	fxt_ksample_write_head((__u64 *)w, kind, ts, PID, TID, 1, nk, nu, ns,
			       weight);
	if (nk) /* kpc may be NULL then: memcpy() wants a pointer anyway */
		memcpy(w + FXT_KSAMPLE_HEAD_WORDS, kpc, nk * sizeof(*kpc));
	if (nu)
		memcpy(w + FXT_KSAMPLE_HEAD_WORDS + nk, upc, nu * sizeof(*upc));
	if (ns) {
		at[0] = 0x7ffd1000; /* sp */
		at[1] = 0; /* bp */
		memcpy(at + 2, stack, ns * sizeof(*stack));
	}
	return fxt_ksample_words(nk, nu, ns);
}

static size_t raw(uint64_t *w, unsigned int kind, uint64_t ts, uint32_t nk,
		  const uint64_t *kpc, uint32_t nu, const uint64_t *upc,
		  uint64_t weight)
{
	return raw_stack(w, kind, ts, nk, kpc, nu, upc, 0, NULL, weight);
}

/* The promise: no word of the output inside the kernel's text. */
static void assert_no_kernel_word(const struct out *o)
{
	size_t i;

	for (i = 0; i < o->len; i++)
		if (o->w[i] >= KTEXT && o->w[i] < KTEXT_END)
			fail_msg("word %zu is a kernel address: %#llx", i,
				 (unsigned long long)o->w[i]);
}

/* No raw record: every large record is a payload-free sample. */
static void assert_no_raw_record(const struct out *o)
{
	size_t i = 0;

	while (i < o->len) {
		uint64_t words = fxt_record_words(o->w[i]);

		if (FXT_GET(o->w[i], FXT_HDR_TYPE) == FXT_RECORD_LARGE) {
			assert_int_equal(words, FXT_STACKS_SAMPLE_WORDS);
			assert_int_equal(o->w[i + 10], 0);
		}
		i += words;
	}
}

static const uint64_t oncpu_k[2] = { KTEXT + 0x4020, KTEXT + 0x1010 };
static const uint64_t oncpu_u[2] = { 0x400150, 0x7fff0000 };

static struct profile_ingest *new_ingest(size_t budget)
{
	struct profile_ingest *p;

	assert_int_equal(profile_ingest_new(&fake, budget, 0, &p), 0);
	return p;
}

/* The kernel frames o's frame tables define: how many, and of them
 * how many are "[kernel]" at address 0.
 */
static void count_kernel_frames(const struct out *o, size_t *kernel,
				size_t *hidden)
{
	struct fxt_stacks_frame f = { 0 };
	size_t i = 0, j, words, n;

	*kernel = *hidden = 0;
	for (; i < o->len; i += words) {
		words = fxt_record_words(o->w[i]);
		if (FXT_GET(o->w[i], FXT_HDR_TYPE) != FXT_RECORD_BLOB ||
		    FXT_GET(o->w[i], FXT_BLOB_NAME) != FXT_STACKS_STR_FRAMES)
			continue;
		for (j = 1; j < words; j += n) {
			n = fxt_stacks_get_frame(o->w + i + j, words - j, &f);
			assert_true(n > 0);
			if (f.kind != FXT_STACKS_FRAME_KERNEL)
				continue;
			(*kernel)++;
			if (f.addr == 0 && f.name_len == 8 &&
			    !memcmp(f.name, "[kernel]", 8))
				(*hidden)++;
		}
	}
}

/*
 * "User" PCs in the kernel's half (a walk that met an entry trampoline's
 * return, or addresses a user planted on their stack): one "[kernel]"
 * frame without name or offset, their addresses nowhere: a name and an
 * offset would tell that user where the kernel's text is.
 */
static void kernel_address_in_user_stack(void **state)
{
	static const uint64_t u[4] = { KTEXT + 0x1010, KTEXT + 0x5123,
				       0xffffffffff600000ull, 0x400150 };
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	size_t kernel, hidden;
	uint64_t rec[64];
	size_t n = raw(rec, FXT_KSAMPLE_ONCPU, 5000, 0, NULL, 4, u, 2004008);

	(void)state;
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_no_kernel_word(o);
	assert_no_raw_record(o);
	count_kernel_frames(o, &kernel, &hidden);
	/* Not do_work+0x10 nor nvme_irq+0x123: the one hidden frame. */
	assert_int_equal(kernel, 1);
	assert_int_equal(hidden, 1);
	profile_ingest_free(p);
	free(o);
}

static void oncpu_sample_word_exact(void **state)
{
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	uint64_t rec[64];
	size_t n = raw(rec, FXT_KSAMPLE_ONCPU, 5000, 2, oncpu_k, 2, oncpu_u,
		       2004008);
	const uint64_t *w;

	(void)state;
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_no_kernel_word(o);
	assert_no_raw_record(o);
	assert_int_equal(o->records, 4);
	w = o->w;
	/* fxtrace:mappings: mapping 1, 13-byte path, 4-byte build id */
	assert_int_equal(w[0], fxt_blob_header(5, FXT_KDEV_STR_MAPPINGS, 32,
					       FXT_BLOB_DATA));
	assert_int_equal(w[0], 0x5 | 5 << 4 |
				       (uint64_t)FXT_KDEV_STR_MAPPINGS << 16 |
				       32ull << 32 | 1ull << 48);
	assert_int_equal(w[1], 1 | 13ull << 32 | 4ull << 48);
	assert_memory_equal(&w[2], "/usr/bin/work\0\0", 16);
	assert_int_equal(w[4], 0x4200d0b1);
	/* fxtrace:frames: kernel leaf first, then user */
	w += 5;
	assert_int_equal(w[0], fxt_blob_header(18, FXT_KDEV_STR_FRAMES, 17 * 8,
					       FXT_BLOB_DATA));
	assert_int_equal(w[1], 1 | 2ull << 32 | 9ull << 40);
	assert_int_equal(w[2], 0); /* the kernel's mapping */
	assert_int_equal(w[3], 0x20); /* offset in pipe_read */
	assert_memory_equal(&w[4], "pipe_read\0\0\0\0\0\0", 16);
	assert_int_equal(w[6], 2 | 2ull << 32 | 7ull << 40);
	assert_int_equal(w[8], 0x10);
	assert_memory_equal(&w[9], "do_work\0", 8);
	assert_int_equal(w[10], 3 | 1ull << 32); /* user, unnamed */
	assert_int_equal(w[11], 1); /* mapping 1 */
	assert_int_equal(w[12], 0x1150); /* ELF vaddr */
	assert_int_equal(w[13], 4 | 1ull << 32 | 9ull << 40);
	assert_int_equal(w[14], 0);
	assert_int_equal(w[15], 0x7fff0000); /* raw user pc: allowed */
	assert_memory_equal(&w[16], "[unknown]\0\0\0\0\0\0", 16);
	/* fxtrace:stacks: stack 1 = frames 1 2 3 4 */
	w += 18;
	assert_int_equal(w[0], fxt_blob_header(4, FXT_KDEV_STR_STACKS, 24,
					       FXT_BLOB_DATA));
	assert_int_equal(w[1], 1 | 4ull << 32);
	assert_int_equal(w[2], 1 | 2ull << 32);
	assert_int_equal(w[3], 3 | 4ull << 32);
	/* the sample record */
	w += 4;
	assert_int_equal(w[0], 0xf | 11ull << 4);
	assert_int_equal(w[1], FXT_KDEV_STR_CAT_SAMPLE |
				       (uint64_t)FXT_KDEV_STR_CPU_SAMPLE << 16 |
				       3ull << 32);
	assert_int_equal(w[2], 5000);
	assert_int_equal(w[3], PID);
	assert_int_equal(w[4], TID);
	assert_int_equal(w[5], fxt_arg_header(FXT_ARG_UINT32, 1,
					      FXT_KDEV_STR_CPU, 1));
	assert_int_equal(w[6], fxt_arg_header(FXT_ARG_UINT64, 2,
					      FXT_KDEV_STR_STACK, 0));
	assert_int_equal(w[7], 1);
	assert_int_equal(w[8], fxt_arg_header(FXT_ARG_UINT64, 2,
					      FXT_KDEV_STR_PERIOD_NS, 0));
	assert_int_equal(w[9], 2004008);
	assert_int_equal(w[10], 0);
	assert_int_equal(w + 11 - o->w, o->len);

	/* The same stack again: the sample record alone. */
	o->len = o->records = 0;
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(o->len, FXT_STACKS_SAMPLE_WORDS);
	assert_int_equal(o->w[7], 1);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.dropped, 0);
	profile_ingest_free(p);
	free(o);
}

/* Off-CPU: the glue and the scheduler's frames leave the leaf end. */
static void offcpu_trims_scheduler(void **state)
{
	static const uint64_t k[5] = { KTEXT + 0x0040, KTEXT + 0x2100,
				       KTEXT + 0x3010, KTEXT + 0x4030,
				       KTEXT + 0x1010 };
	static const uint64_t u[1] = { 0x400250 };
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct fxt_stacks_sample s;
	struct fxt_stacks_stack st;
	uint64_t rec[64];
	size_t n = raw(rec, FXT_KSAMPLE_OFFCPU, 7000, 5, k, 1, u, 123456);
	size_t i = 0, nsamples = 0;

	(void)state;
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_no_kernel_word(o);
	assert_no_raw_record(o);
	while (i < o->len) {
		const uint64_t *r = o->w + i;

		if (FXT_GET(r[0], FXT_HDR_TYPE) == FXT_RECORD_BLOB &&
		    FXT_GET(r[0], FXT_BLOB_NAME) == FXT_KDEV_STR_STACKS) {
			assert_int_equal(
				fxt_stacks_get_stack(
					r + 1, fxt_record_words(r[0]) - 1, &st),
				3);
			/* pipe_read, do_work, then the user frame */
			assert_int_equal(st.nframes, 3);
		}
		if (FXT_GET(r[0], FXT_HDR_TYPE) == FXT_RECORD_LARGE) {
			assert_int_equal(fxt_stacks_get_sample(r, 11, &s), 0);
			assert_int_equal(s.category_ref,
					 FXT_KDEV_STR_CAT_OFFCPU);
			assert_int_equal(s.name_ref, FXT_KDEV_STR_OFFCPU);
			assert_int_equal(s.weight_ref, FXT_KDEV_STR_BLOCKED_NS);
			assert_int_equal(s.weight_ns, 123456);
			nsamples++;
		}
		i += fxt_record_words(r[0]);
	}
	assert_int_equal(nsamples, 1);
	profile_ingest_free(p);
	free(o);
}

/* Malformed records and records past the memory bound: counted, no output. */
static void losses_are_counted(void **state)
{
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	uint64_t rec[64];
	size_t n = raw(rec, FXT_KSAMPLE_ONCPU, 1, 2, oncpu_k, 2, oncpu_u, 1);

	(void)state;
	rec[6] = fxt_kdev_uint32_arg(FXT_KDEV_STR_KERNEL_FRAMES, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(profile_ingest_record(p, rec, 3, collect, o), 0);
	assert_int_equal(o->len, 0);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.dropped, 2);
	assert_int_equal(st.samples, 0);
	profile_ingest_free(p);

	/* A budget too small for any table: every sample is lost, counted. */
	p = new_ingest(64);
	n = raw(rec, FXT_KSAMPLE_ONCPU, 1, 2, oncpu_k, 2, oncpu_u, 1);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.dropped, 1);
	assert_int_equal(st.samples, 0);
	assert_no_raw_record(o);
	assert_no_kernel_word(o);
	profile_ingest_free(p);
	free(o);
}

/*
 * A protobuf walker that knows, per message, the wire type of every field
 * the writer may use (protos/perfetto, as the research table gives them):
 * an unknown field or a wrong wire type fails the test.
 */
enum msg {
	M_TRACE,
	M_PACKET,
	M_DEFAULTS,
	M_SSDEFAULTS,
	M_COUNTER,
	M_INTERNED,
	M_STRING,
	M_MAPPING,
	M_FRAME,
	M_CALLSTACK,
	M_PERF,
	M_STACK,
	M_TASK,
	M_NONE,
};

static const struct schema {
	enum msg msg;
	uint32_t field;
	int wire; /* 0 varint, 2 length-delimited */
	enum msg sub; /* for wire 2: M_NONE = bytes */
} schema[] = {
	{ M_TRACE, 1, 2, M_PACKET },
	{ M_PACKET, 8, 0, 0 },
	{ M_PACKET, 10, 0, 0 },
	{ M_PACKET, 12, 2, M_INTERNED },
	{ M_PACKET, 13, 0, 0 },
	{ M_PACKET, 59, 2, M_DEFAULTS },
	{ M_PACKET, 66, 2, M_PERF },
	{ M_PACKET, 87, 0, 0 },
	{ M_PACKET, 135, 2, M_STACK },
	{ M_DEFAULTS, 100, 2, M_SSDEFAULTS },
	{ M_SSDEFAULTS, 1, 2, M_NONE },
	{ M_SSDEFAULTS, 2, 2, M_COUNTER },
	{ M_COUNTER, 2, 2, M_NONE },
	{ M_COUNTER, 3, 0, 0 },
	{ M_COUNTER, 7, 0, 0 },
	{ M_INTERNED, 5, 2, M_STRING },
	{ M_INTERNED, 6, 2, M_FRAME },
	{ M_INTERNED, 7, 2, M_CALLSTACK },
	{ M_INTERNED, 16, 2, M_STRING },
	{ M_INTERNED, 17, 2, M_STRING },
	{ M_INTERNED, 19, 2, M_MAPPING },
	{ M_STRING, 1, 0, 0 },
	{ M_STRING, 2, 2, M_NONE },
	{ M_MAPPING, 1, 0, 0 },
	{ M_MAPPING, 2, 0, 0 },
	{ M_MAPPING, 7, 0, 0 },
	{ M_FRAME, 1, 0, 0 },
	{ M_FRAME, 2, 0, 0 },
	{ M_FRAME, 3, 0, 0 },
	{ M_FRAME, 4, 0, 0 },
	{ M_CALLSTACK, 1, 0, 0 },
	{ M_CALLSTACK, 2, 0, 0 },
	{ M_PERF, 1, 0, 0 },
	{ M_PERF, 2, 0, 0 },
	{ M_PERF, 3, 0, 0 },
	{ M_PERF, 4, 0, 0 },
	{ M_PERF, 5, 0, 0 },
	{ M_PERF, 6, 0, 0 },
	{ M_STACK, 1, 2, M_TASK },
	{ M_STACK, 6, 0, 0 },
	{ M_STACK, 11, 0, 0 },
	{ M_TASK, 2, 0, 0 },
	{ M_TASK, 3, 0, 0 },
};

/* What the walk saw. */
struct seen {
	unsigned int packets, perf, stack, first, seq_cleared;
	uint64_t perf_fields[7]; /* last PerfSample's fields 1..6 */
	uint64_t stack_weight, task_pid, task_tid, stack_callstack;
	uint64_t callstack1[8]; /* frame ids of callstack iid 1 */
	unsigned int callstack1_n;
	unsigned int seq1; /* packets on sequence 1 */
	bool hot_loop, pipe_read;
	enum msg parent;
	uint64_t cur_iid;
};

static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	for (;;) {
		assert_true(*p < end && shift < 64);
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		if (!(*(*p)++ & 0x80))
			return v;
	}
}

static const struct schema *lookup(enum msg m, uint32_t field)
{
	size_t i;

	for (i = 0; i < sizeof(schema) / sizeof(*schema); i++)
		if (schema[i].msg == m && schema[i].field == field)
			return &schema[i];
	fail_msg("message %d has no field %u", m, field);
	return NULL;
}

static void note_varint(struct seen *s, enum msg m, uint32_t f, uint64_t v)
{
	if (m == M_PERF)
		s->perf_fields[f] = v;
	if (m == M_STACK && f == 11)
		s->stack_weight = v;
	if (m == M_STACK && f == 6)
		s->stack_callstack = v;
	if (m == M_TASK)
		*(f == 2 ? &s->task_pid : &s->task_tid) = v;
	if (m == M_PACKET && f == 10 && v == 1)
		s->seq1++;
	if (m == M_PACKET && f == 87)
		s->first++;
	if (m == M_PACKET && f == 13 && v == 1)
		s->seq_cleared++;
	if (m == M_CALLSTACK && f == 1)
		s->cur_iid = v;
	if (m == M_CALLSTACK && f == 2 && s->cur_iid == 1 &&
	    s->callstack1_n < 8)
		s->callstack1[s->callstack1_n++] = v;
}

static void walk(struct seen *s, enum msg m, const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len;

	while (p < end) {
		uint64_t key = varint(&p, end), v;
		const struct schema *f = lookup(m, (uint32_t)(key >> 3));

		assert_int_equal(key & 7, f->wire);
		v = varint(&p, end);
		if (f->wire == 0) {
			note_varint(s, m, f->field, v);
			continue;
		}
		assert_true(v <= (uint64_t)(end - p));
		if (f->sub == M_NONE) {
			s->hot_loop |= v == 8 && !memcmp(p, "hot_loop", 8);
			s->pipe_read |= v == 9 && !memcmp(p, "pipe_read", 9);
		} else {
			s->packets += f->sub == M_PACKET;
			s->perf += f->sub == M_PERF;
			s->stack += f->sub == M_STACK;
			if (f->sub == M_CALLSTACK)
				s->cur_iid = 0;
			walk(s, f->sub, p, v);
		}
		p += v;
	}
}

/* The end's records: symbols, the Perfetto stream (payloads joined), the drop count. */
struct end_records {
	uint8_t *stream;
	size_t stream_len;
	unsigned int perfetto_blobs, symbols;
	bool hot_loop_symbol;
	bool jit_late_symbol;
	uint64_t dropped_count;
	bool dropped_seen;
};

static void symbols_blob(struct end_records *e, const uint64_t *r, size_t words)
{
	struct fxt_stacks_symbol sym = { 0 };
	size_t at = 1, used;

	while (at < words) {
		used = fxt_stacks_get_symbol(r + at, words - at, &sym);
		assert_true(used > 0);
		e->symbols++;
		e->hot_loop_symbol |= sym.name_len == 8 &&
				      !memcmp(sym.name, "hot_loop", 8);
		e->jit_late_symbol |= sym.name_len == 8 &&
				      !memcmp(sym.name, "JS:*late", 8);
		at += used;
	}
}

static void end_blob(struct end_records *e, const uint64_t *r, size_t words)
{
	uint32_t name = (uint32_t)FXT_GET(r[0], FXT_BLOB_NAME);
	uint32_t size = (uint32_t)FXT_GET(r[0], FXT_BLOB_SIZE);

	if (name == FXT_KDEV_STR_SYMBOLS) {
		assert_int_equal(FXT_GET(r[0], FXT_BLOB_TYPE), FXT_BLOB_DATA);
		symbols_blob(e, r, words);
	} else if (name == FXT_KDEV_STR_PERFETTO) {
		assert_int_equal(FXT_GET(r[0], FXT_BLOB_TYPE),
				 FXT_BLOB_PERFETTO);
		assert_true(size <= FXT_STACKS_BLOB_PAYLOAD_MAX);
		assert_int_equal(words, 1 + fxt_words(size));
		e->stream = realloc(e->stream, e->stream_len + size);
		memcpy(e->stream + e->stream_len, r + 1, size);
		e->stream_len += size;
		e->perfetto_blobs++;
	} else if (name == FXT_KDEV_STR_PERFETTO_DROPPED) {
		assert_int_equal(words, 2);
		assert_int_equal(size, 8);
		e->dropped_count = r[1];
		e->dropped_seen = true;
	}
}

static void end_records(const struct out *o, size_t from, struct end_records *e)
{
	size_t i = from;

	memset(e, 0, sizeof(*e));
	while (i < o->len) {
		size_t words = fxt_record_words(o->w[i]);

		assert_int_equal(FXT_GET(o->w[i], FXT_HDR_TYPE),
				 FXT_RECORD_BLOB);
		end_blob(e, o->w + i, words);
		i += words;
	}
}

static void finish_symbols_and_perfetto(void **state)
{
	static const uint64_t k[2] = { KTEXT + 0x3010, KTEXT + 0x4030 };
	static const uint64_t u[1] = { 0x400250 };
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	struct end_records e;
	struct seen s = { 0 };
	uint64_t rec[64];
	size_t n, before;

	(void)state;
	n = raw(rec, FXT_KSAMPLE_ONCPU, 5000, 2, oncpu_k, 2, oncpu_u, 2004008);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	n = raw(rec, FXT_KSAMPLE_OFFCPU, 6000, 2, k, 1, u, 777);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	before = o->len;
	assert_int_equal(profile_ingest_finish(p, collect, o), 0);
	assert_no_kernel_word(o);
	end_records(o, before, &e);
	assert_int_equal(e.symbols, 2); /* hot_loop and main */
	assert_true(e.hot_loop_symbol);
	assert_true(e.dropped_seen);
	assert_int_equal(e.dropped_count, 0);
	assert_int_equal(e.perfetto_blobs, 1);

	walk(&s, M_TRACE, e.stream, e.stream_len);
	assert_int_equal(s.first, 1);
	assert_int_equal(s.seq_cleared, 1);
	assert_int_equal(s.seq1, s.packets);
	assert_int_equal(s.perf, 1);
	assert_int_equal(s.stack, 1);
	assert_int_equal(s.perf_fields[1], 1); /* cpu */
	assert_int_equal(s.perf_fields[2], PID);
	assert_int_equal(s.perf_fields[3], TID);
	assert_int_equal(s.perf_fields[4], 1); /* callstack */
	assert_int_equal(s.perf_fields[5], 1); /* kernel mode */
	assert_int_equal(s.perf_fields[6], 2004008);
	assert_int_equal(s.stack_weight, 777);
	assert_int_equal(s.task_pid, PID);
	assert_int_equal(s.task_tid, TID);
	assert_int_equal(s.stack_callstack, 2);
	/* Root first: the user frames (4, 3), then the kernel's (2, 1). */
	assert_int_equal(s.callstack1_n, 4);
	assert_int_equal(s.callstack1[0], 4);
	assert_int_equal(s.callstack1[3], 1);
	assert_true(s.hot_loop);
	assert_true(s.pipe_read);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.samples, 2);
	free(e.stream);
	profile_ingest_free(p);
	free(o);
}

/* A JIT's code at JIT_PC, which its JIT names only once it has written it. */
#define JIT_PC 0x7f0000001000ull
static bool jit_written;
static unsigned int jit_late_asked;

static int fake_user_jit(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
			 const char **name)
{
	if (!jit_written || pid != PID || pc != JIT_PC)
		return -ENOENT;
	*name = "JS:*early";
	return 0;
}

static int fake_user_jit_late(void *ctx, uint32_t pid, uint64_t pc,
			      const char **name)
{
	jit_late_asked++;
	if (pid != PID || pc != JIT_PC)
		return -ENOENT;
	*name = "JS:*late";
	return 0;
}

/*
 * A JIT frame unnamed while it was drained is its process's, named at
 * the end by a symbol record; once named, its samples take a frame of
 * their own; what the JIT never names stays "[unknown]", asked once.
 */
static void jit_named_at_the_end(void **state)
{
	static const uint64_t u[2] = { JIT_PC, 0x7f0000009000ull };
	struct profile_resolver r = fake;
	struct profile_ingest *p;
	struct out *o = calloc(1, sizeof(*o));
	struct end_records e;
	uint64_t rec[64];
	size_t n, before;

	(void)state;
	r.user_jit = fake_user_jit;
	r.user_jit_late = fake_user_jit_late;
	assert_int_equal(profile_ingest_new(&r, 0, 0, &p), 0);
	jit_written = false;
	n = raw(rec, FXT_KSAMPLE_ONCPU, 5000, 0, NULL, 1, u, 1000);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	n = raw(rec, FXT_KSAMPLE_ONCPU, 5001, 0, NULL, 1, u + 1, 1000);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	jit_written = true;
	n = raw(rec, FXT_KSAMPLE_ONCPU, 6000, 0, NULL, 1, u, 1000);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	/* A frame of its own, named: not the one unnamed before. */
	assert_non_null(memmem(o->w, o->len * 8, "JS:*early", 9));
	before = o->len;
	jit_late_asked = 0;
	assert_int_equal(profile_ingest_finish(p, collect, o), 0);
	end_records(o, before, &e);
	assert_int_equal(e.symbols, 1);
	assert_true(e.jit_late_symbol);
	assert_int_equal(jit_late_asked, 2);
	free(e.stream);
	profile_ingest_free(p);
	free(o);
}

/* Many samples: the stream in blobs of at most 32752 bytes; the bound counted. */
static void perfetto_chunks_and_bound(void **state)
{
	struct profile_ingest *p;
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	struct end_records e;
	struct seen s = { 0 };
	uint64_t rec[64];
	size_t n, before = 0, i;

	(void)state;
	assert_int_equal(profile_ingest_new(&fake, 0, 3000, &p), 0);
	for (i = 0; i < 3001; i++) {
		n = raw(rec, FXT_KSAMPLE_ONCPU, 1000000 + i, 2, oncpu_k, 2,
			oncpu_u, 2004008);
		assert_int_equal(profile_ingest_record(p, rec, n, collect, o),
				 0);
		/* keep the collector small: samples are checked above */
		before = o->len = 0;
	}
	assert_int_equal(profile_ingest_finish(p, collect, o), 0);
	end_records(o, before, &e);
	assert_true(e.perfetto_blobs >= 3);
	assert_int_equal(e.dropped_count, 1);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.perfetto_dropped, 1);
	walk(&s, M_TRACE, e.stream, e.stream_len);
	assert_int_equal(s.perf, 3000);
	free(e.stream);
	profile_ingest_free(p);
	free(o);
}

/* A later generation's ids (a manager taking a trace over): offset. */
static void generation_offsets_ids(void **state)
{
	const uint64_t g = 3ull << 24;
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct fxt_stacks_symbol sym = { 0 };
	uint64_t rec[64];
	size_t n = raw(rec, FXT_KSAMPLE_ONCPU, 5000, 2, oncpu_k, 2, oncpu_u, 9);
	const uint64_t *w = o->w;

	(void)state;
	profile_ingest_set_generation(p, 3);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(w[1] & 0xffffffff, g | 1); /* mapping */
	w += 5;
	assert_int_equal(w[1] & 0xffffffff, g | 1); /* kernel frame */
	assert_int_equal(w[2], 0); /* the kernel, always 0 */
	assert_int_equal(w[10] & 0xffffffff, g | 3); /* user frame */
	assert_int_equal(w[11], g | 1); /* its mapping */
	w += 18;
	assert_int_equal(w[1] & 0xffffffff, g | 1); /* stack */
	assert_int_equal(w[2], (g | 1) | (g | 2) << 32);
	w += 4;
	assert_int_equal(w[7], g | 1); /* the sample's stack */
	o->len = 0;
	assert_int_equal(profile_ingest_finish(p, collect, o), 0);
	assert_int_equal(FXT_GET(o->w[0], FXT_BLOB_NAME), FXT_KDEV_STR_SYMBOLS);
	assert_true(fxt_stacks_get_symbol(o->w + 1, 2, &sym) > 0);
	assert_int_equal(sym.frame_id, g | 3);
	profile_ingest_free(p);
	free(o);
}

/*
 * The session's own resolver over a kallsyms file made here (the real
 * parser, ksyms.h): kernel frames named from it, trimmed at the
 * scheduler's text, and no output word in any range it reports.
 */
static const char fake_kallsyms[] = "ffffffff81000000 T _stext\n"
				    "ffffffff81000000 T bpf_trace_run2\n"
				    "ffffffff81001000 T do_work\n"
				    "ffffffff81002000 T __sched_text_start\n"
				    "ffffffff81002000 T __schedule\n"
				    "ffffffff81003000 T schedule\n"
				    "ffffffff81004000 T __sched_text_end\n"
				    "ffffffff81004000 T pipe_read\n"
				    "ffffffff81005000 T _etext\n"
				    "ffffffffc0001000 t nvme_irq\t[nvme]\n";

/* A module loaded after start: named once kallsyms is read again. */
static void late_module(struct profile_sources *src, struct profile_ingest *p,
			const char *path, struct out *o)
{
	static const char late[] = "ffffffffc0100000 t late_fn\t[late]\n";
	const uint64_t k[1] = { 0xffffffffc0100008ull };
	struct fxt_stacks_frame f = { 0 };
	uint64_t rec[64];
	FILE *file = fopen(path, "a");
	size_t n = raw(rec, FXT_KSAMPLE_ONCPU, 8000, 1, k, 0, NULL, 5);

	assert_non_null(file);
	fputs(late, file);
	fclose(file);
	profile_sources_refresh(src);
	o->len = 0;
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(FXT_GET(o->w[0], FXT_BLOB_NAME), FXT_KDEV_STR_FRAMES);
	assert_int_equal(fxt_stacks_get_frame(o->w + 1, 5, &f), 5);
	assert_int_equal(f.name_len, 14);
	assert_memory_equal(f.name, "late_fn [late]", 14);
	assert_int_equal(f.addr, 8);
}

static void real_kallsyms_resolver(void **state)
{
	static const uint64_t k[4] = { KTEXT + 0x0040, KTEXT + 0x2100,
				       0xffffffffc0001010ull, KTEXT + 0x1010 };
	char path[] = "/tmp/fxt-kallsyms-XXXXXX";
	const uint64_t(*ranges)[2];
	struct profile_sources *src;
	struct profile_resolver r;
	struct profile_ingest *p;
	struct out *o = calloc(1, sizeof(*o));
	struct fxt_stacks_frame f = { 0 };
	uint64_t rec[64];
	size_t n, i, j, nr;
	int fd = mkstemp(path);
	bool nvme = false;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, fake_kallsyms, sizeof(fake_kallsyms) - 1),
			 sizeof(fake_kallsyms) - 1);
	close(fd);
	assert_int_equal(profile_sources_new(path, false, &src), 0);
	profile_sources_resolver(src, &r);
	assert_int_equal(profile_ingest_new(&r, 0, 0, &p), 0);
	n = raw(rec, FXT_KSAMPLE_OFFCPU, 7000, 4, k, 1, oncpu_u, 5);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	/* frames: nvme_irq [nvme] +0x10, do_work +0x10, [unknown] user */
	assert_int_equal(FXT_GET(o->w[0], FXT_BLOB_NAME), FXT_KDEV_STR_FRAMES);
	for (i = 1; i < fxt_record_words(o->w[0]); i += j) {
		j = fxt_stacks_get_frame(o->w + i,
					 fxt_record_words(o->w[0]) - i, &f);
		assert_true(j > 0);
		nvme |= f.name_len == 15 &&
			!memcmp(f.name, "nvme_irq [nvme]", 15);
		assert_true(f.kind != FXT_STACKS_FRAME_KERNEL ||
			    f.addr == 0x10);
	}
	assert_true(nvme);
	nr = profile_sources_kernel_ranges(src, &ranges);
	assert_true(nr > 0);
	for (i = 0; i < o->len; i++)
		for (j = 0; j < nr; j++)
			assert_false(o->w[i] >= ranges[j][0] &&
				     o->w[i] < ranges[j][1]);
	late_module(src, p, path, o);
	unlink(path);
	profile_ingest_free(p);
	profile_sources_free(src);
	free(o);
}

/* The addresses of the frames of the last stack o holds, leaf first. */
static size_t last_stack(const struct out *o, uint64_t *addr, size_t max)
{
	static uint64_t frame_addr[64];
	struct fxt_stacks_frame f = { 0 };
	struct fxt_stacks_stack st = { 0 };
	size_t at, i, n, words;

	for (at = 0; at < o->len; at += fxt_record_words(o->w[at])) {
		uint16_t name = (uint16_t)FXT_GET(o->w[at], FXT_BLOB_NAME);

		words = fxt_record_words(o->w[at]);
		for (i = 1; name == FXT_KDEV_STR_FRAMES && i < words; i += n) {
			n = fxt_stacks_get_frame(o->w + at + i, words - i, &f);
			assert_true(n > 0 && f.id < 64);
			frame_addr[f.id] = f.addr;
		}
		for (i = 1; name == FXT_KDEV_STR_STACKS && i < words; i += n) {
			n = fxt_stacks_get_stack(o->w + at + i, words - i, &st);
			assert_true(n > 0);
		}
	}
	assert_true(st.nframes <= max);
	for (i = 0; i < st.nframes; i++)
		addr[i] = frame_addr[fxt_stacks_stack_frame(&st, i)];
	return st.nframes;
}

/*
 * A user leaf without a frame: its caller, skipped by the frame-pointer
 * walk, is read from the stack words where its CFI says.
 */
static void leaf_caller_from_stack_words(void **state)
{
	static const uint64_t u[2] = { 0x400450, 0x400250 };
	uint64_t stack[16] = { 0 }, rec[64], addr[8];
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	size_t n;

	(void)state;
	stack[5] = 0x400150; /* sp + 0x28 */
	n = raw_stack(rec, FXT_KSAMPLE_OFFCPU, 1, 0, NULL, 2, u, 16, stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(last_stack(o, addr, 8), 3);
	assert_int_equal(addr[0], 0x1450);
	assert_int_equal(addr[1], 0x1150); /* the caller found */
	assert_int_equal(addr[2], 0x1250);
	/* Asked once per leaf address: the answer is kept. */
	n = raw_stack(rec, FXT_KSAMPLE_OFFCPU, 2, 0, NULL, 2, u, 16, stack, 9);
	slot_asked = 0;
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(slot_asked, 0);
	/* Not in any mapping, or not read: counted, not invented. */
	stack[5] = 0x7fff0000;
	n = raw_stack(rec, FXT_KSAMPLE_OFFCPU, 3, 0, NULL, 2, u, 16, stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(last_stack(o, addr, 8), 2);
	n = raw_stack(rec, FXT_KSAMPLE_OFFCPU, 4, 0, NULL, 2, u, 5, stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.leaf_caller_unknown, 2);
	assert_int_equal(st.samples, 4);
	/* A leaf with its frame (CFA from the frame pointer): as walked. */
	stack[5] = 0x400150;
	n = raw_stack(rec, FXT_KSAMPLE_OFFCPU, 5, 0, NULL, 2, oncpu_u, 16,
		      stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(last_stack(o, addr, 8), 2);
	assert_no_raw_record(o);
	profile_ingest_free(p);
	free(o);
}

/* The counts of walks that stopped early (profile_ingest_stats). */
static void assert_walk_ends(const struct profile_ingest *p, uint64_t kdepth,
			     uint64_t udepth, uint64_t fault, uint64_t junk)
{
	struct profile_ingest_stats st;

	profile_ingest_stats(p, &st);
	assert_int_equal(st.kernel_depth_limit, kdepth);
	assert_int_equal(st.user_depth_limit, udepth);
	assert_int_equal(st.user_read_fault, fault);
	assert_int_equal(st.junk_frame_word, junk);
}

/*
 * A release build's hot leaf keeps no frame and uses the frame pointer
 * register for data: the walk met a word in the kernel's half above it
 * (an FNV constant), no return. The leaf, its caller from the stack
 * words, and nothing after: no "[kernel]" caller.
 */
static void junk_word_over_frameless_leaf(void **state)
{
	static const uint64_t u[3] = { 0x400450, 0xcbf29ce484222325ull,
				       0x400250 };
	uint64_t stack[16] = { 0 }, rec[64], addr[8];
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	size_t n, kernel, hidden;

	(void)state;
	stack[5] = 0x400150; /* sp + 0x28 */
	n = raw_stack(rec, FXT_KSAMPLE_ONCPU, 1, 0, NULL, 3, u, 16, stack,
		      2004008);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	assert_int_equal(last_stack(o, addr, 8), 2);
	assert_int_equal(addr[0], 0x1450);
	assert_int_equal(addr[1], 0x1150);
	count_kernel_frames(o, &kernel, &hidden);
	assert_int_equal(kernel, 0);
	assert_no_kernel_word(o);
	/* The walk's end is said, and nothing else. */
	assert_walk_ends(p, 0, 0, 0, 1);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.leaf_caller_unknown, 0);
	profile_ingest_free(p);
	free(o);
}

/*
 * Walks that may have stopped early, from what the record holds: as
 * many frames as it takes (kernel, user), user frames without the
 * stack words (reading them faulted). One reason each, counted once.
 */
static void walk_ends_counted(void **state)
{
	uint64_t k[FXT_KSAMPLE_KERNEL_MAX], u[FXT_KSAMPLE_USER_MAX];
	uint64_t rec[FXT_KSAMPLE_MAX_WORDS], stack[16] = { 0 };
	struct profile_ingest *p = new_ingest(0);
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	size_t i, n;

	(void)state;
	for (i = 0; i < FXT_KSAMPLE_KERNEL_MAX; i++)
		k[i] = KTEXT + 0x1010;
	for (i = 0; i < FXT_KSAMPLE_USER_MAX; i++)
		u[i] = 0x400250;
	n = raw_stack(rec, FXT_KSAMPLE_ONCPU, 1, FXT_KSAMPLE_KERNEL_MAX, k, 1,
		      u, 16, stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	n = raw_stack(rec, FXT_KSAMPLE_ONCPU, 2, 1, k, FXT_KSAMPLE_USER_MAX, u,
		      16, stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	n = raw_stack(rec, FXT_KSAMPLE_ONCPU, 3, 1, k, 2, u, 0, NULL, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	/* One short of each limit, a kernel thread: nothing to say. */
	n = raw_stack(rec, FXT_KSAMPLE_ONCPU, 4, FXT_KSAMPLE_KERNEL_MAX - 1, k,
		      FXT_KSAMPLE_USER_MAX - 1, u, 16, stack, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	n = raw_stack(rec, FXT_KSAMPLE_ONCPU, 5, 2, k, 0, NULL, 0, NULL, 9);
	assert_int_equal(profile_ingest_record(p, rec, n, collect, o), 0);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.samples, 5);
	assert_walk_ends(p, 1, 1, 1, 0);
	assert_no_raw_record(o);
	profile_ingest_free(p);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(oncpu_sample_word_exact),
		cmocka_unit_test(offcpu_trims_scheduler),
		cmocka_unit_test(losses_are_counted),
		cmocka_unit_test(finish_symbols_and_perfetto),
		cmocka_unit_test(jit_named_at_the_end),
		cmocka_unit_test(perfetto_chunks_and_bound),
		cmocka_unit_test(generation_offsets_ids),
		cmocka_unit_test(real_kallsyms_resolver),
		cmocka_unit_test(leaf_caller_from_stack_words),
		cmocka_unit_test(kernel_address_in_user_stack),
		cmocka_unit_test(junk_word_over_frameless_leaf),
		cmocka_unit_test(walk_ends_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
