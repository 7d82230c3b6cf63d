// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "test_support.h"

/* A name or string value written inline: its ref (length) and bytes. */
#define INLINE_REF(s) (FXT_STRING_REF_INLINE | (sizeof(s) - 1))
#define INLINE_NAME(s) .name = s, .name_ref = INLINE_REF(s)

static const struct fxt_arg_in sample_args[] = {
	{ .type = FXT_ARG_NULL, INLINE_NAME("null") },
	{ .type = FXT_ARG_INT32, INLINE_NAME("i32"), .v.i64 = -7 },
	{ .type = FXT_ARG_UINT32, INLINE_NAME("u32"), .v.u64 = 0xfffffff0u },
	{ .type = FXT_ARG_INT64, INLINE_NAME("i64"), .v.i64 = -(1ll << 40) },
	{ .type = FXT_ARG_UINT64, INLINE_NAME("u64"), .v.u64 = 1ull << 63 },
	{ .type = FXT_ARG_DOUBLE, INLINE_NAME("f64"), .v.f64 = 2.5 },
	{ .type = FXT_ARG_STRING, .name_ref = 1, .v.str = "inline value",
	  .value_ref = INLINE_REF("inline value") },
	{ .type = FXT_ARG_POINTER, INLINE_NAME("ptr"),
	  .v.u64 = 0x7ffd0000beefull },
	{ .type = FXT_ARG_KOID, INLINE_NAME("koid"), .v.u64 = 4242 },
	{ .type = FXT_ARG_BOOL, INLINE_NAME("flag"), .v.u64 = 1 },
	{ .type = FXT_ARG_STRING, INLINE_NAME("indexed"), .value_ref = 2 },
};

static void sample_events(struct fxt_writer *w)
{
	struct fxt_writer_event ev = {
		.ts = 1000,
		.thread = fxt_wthread(100, 101),
		.category = fxt_wstr_index(1),
		.name = fxt_wstr("all args"),
		.args = sample_args,
		.nargs = sizeof(sample_args) / sizeof(sample_args[0]),
	};

	fxt_write_instant(w, &ev, FXT_SCOPE_GLOBAL);
	ev.nargs = 1;
	ev.thread = fxt_wthread_index(1);
	ev.name = fxt_wstr_index(2);
	fxt_write_instant(w, &ev, FXT_SCOPE_THREAD);
	fxt_write_event(w, FXT_EVENT_COUNTER, &ev, 3);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &ev, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_END, &ev, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &ev, 2000);
	fxt_write_event(w, FXT_EVENT_ASYNC_BEGIN, &ev, 9);
	fxt_write_event(w, FXT_EVENT_ASYNC_INSTANT, &ev, 9);
	fxt_write_event(w, FXT_EVENT_ASYNC_END, &ev, 9);
	fxt_write_event(w, FXT_EVENT_FLOW_BEGIN, &ev, 10);
	fxt_write_event(w, FXT_EVENT_FLOW_STEP, &ev, 10);
	fxt_write_event(w, FXT_EVENT_FLOW_END, &ev, 10);
}

static void sample_objects(struct fxt_writer *w)
{
	struct fxt_arg_in process = fxt_warg_koid(fxt_wstr("process"), 100);

	fxt_write_blob(w, fxt_wstr("blob"), FXT_BLOB_DATA,
		       "0123456789abcdefXYZ", 19);
	fxt_write_userspace_object(w, 0x1000, fxt_wthread(100, 0),
				   fxt_wstr("object"), sample_args, 2);
	fxt_write_userspace_object(w, 0x2000, fxt_wthread_index(1),
				   fxt_wstr_index(2), NULL, 0);
	fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, 100, fxt_wstr("app"),
				NULL, 0);
	fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 101, fxt_wstr("worker"),
				&process, 1);
}

static void sample_sched(struct fxt_writer *w)
{
	struct fxt_arg_in sw[2] = {
		fxt_warg_int32(fxt_wstr("outgoing_weight"), 5),
		fxt_warg_int32(fxt_wstr("incoming_weight"), INT32_MIN),
	};
	struct fxt_arg_in wk[2] = {
		fxt_warg_int32(fxt_wstr("weight"), 3),
		fxt_warg_koid(fxt_wstr("waker"), 101),
	};

	fxt_write_context_switch(w, 3000, 1, FXT_THREAD_BLOCKED, 101, 102, sw,
				 2);
	fxt_write_thread_wakeup(w, 3001, 1, 101, wk, 2);
	fxt_write_legacy_context_switch(w, 3002, 2, FXT_THREAD_SUSPENDED,
					fxt_wthread_index(1),
					fxt_wthread(7, 8), 10, 20);
	fxt_write_log(w, 3003, fxt_wthread_index(1), "a log message", 13);
	fxt_write_log(w, 3004, fxt_wthread(100, 102), "inline thread", 13);
}

void sample_archive(struct fxt_writer *w)
{
	struct fxt_writer_event ev = {
		.ts = 2400,
		.thread = fxt_wthread(1, 2),
		.category = fxt_wstr("cat"),
		.name = fxt_wstr("large"),
		.args = sample_args,
		.nargs = 2,
	};

	fxt_write_magic(w);
	fxt_write_provider_info(w, 7, "kernel", 6);
	fxt_write_init(w, 1000000000);
	fxt_write_string(w, 1, "cat", 3);
	fxt_write_string(w, 2, "name two", 8);
	fxt_write_thread_ref(w, 1, 100, 101);
	sample_events(w);
	sample_objects(w);
	sample_sched(w);
	fxt_write_provider_info(w, 8, "app", 3);
	fxt_write_init(w, 24000000);
	fxt_write_large_blob_with_metadata(w, &ev, "payload payload", 15);
	fxt_write_large_blob(w, fxt_wstr("cat"), fxt_wstr("no metadata"), "xyz",
			     3);
	fxt_write_provider_section(w, 7);
	fxt_write_provider_event(w, 7, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
}

void diag_collect(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		  const char *reason)
{
	struct diag_log *log = ctx;
	struct diag_entry *e;

	if (log->n == sizeof(log->e) / sizeof(log->e[0])) {
		log->dropped++;
		return;
	}
	e = &log->e[log->n++];
	e->kind = kind;
	e->offset = offset;
	snprintf(e->reason, sizeof(e->reason), "%s", reason);
}

size_t read_all(const void *data, size_t len,
		const struct fxt_reader_options *opt,
		struct fxt_reader_stats *stats)
{
	struct fxt_reader *r = fxt_reader_open_mem(data, len, opt);
	struct fxt_record rec;
	size_t n = 0;

	if (!r)
		return 0;
	while (fxt_reader_next(r, &rec) > 0)
		n++;
	if (stats)
		*stats = *fxt_reader_stats(r);
	fxt_reader_close(r);
	return n;
}

uint64_t test_rng_state = 0x9e3779b97f4a7c15ull;

uint64_t test_rand(void)
{
	test_rng_state ^= test_rng_state << 13;
	test_rng_state ^= test_rng_state >> 7;
	test_rng_state ^= test_rng_state << 17;
	return test_rng_state;
}
