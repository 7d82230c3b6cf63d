// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writer -> reader round trips: every record kind, event type and argument
 * type; inline and indexed strings and threads; table replacement; several
 * providers with their own tables and tick rates; every input source.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_support.h"

static struct fxt_reader *open_writer(const struct fxt_writer *w,
				      struct diag_log *log)
{
	struct fxt_reader_options opt = {
		.expect_magic = true,
		.diag = diag_collect,
		.diag_ctx = log,
	};
	struct fxt_reader *r;

	r = fxt_reader_open_mem(fxt_writer_data(w), fxt_writer_size(w), &opt);
	assert_non_null(r);
	return r;
}

static void next(struct fxt_reader *r, struct fxt_record *rec,
		 enum fxt_record_type type)
{
	assert_int_equal(fxt_reader_next(r, rec), 1);
	assert_int_equal(rec->type, type);
}

static void assert_str(struct fxt_str s, const char *want)
{
	assert_int_equal(s.len, strlen(want));
	assert_memory_equal(s.data, want, s.len);
}

static void assert_thread(struct fxt_thread_id t, uint64_t pid, uint64_t tid)
{
	assert_int_equal(t.pid, pid);
	assert_int_equal(t.tid, tid);
}

static void check_all_args(const struct fxt_record *rec)
{
	assert_true(rec->nargs >= 11);
	assert_int_equal(rec->args[0].type, FXT_ARG_NULL);
	assert_str(rec->args[0].name, "null");
	assert_int_equal(rec->args[1].type, FXT_ARG_INT32);
	assert_int_equal(rec->args[1].value.i32, -7);
	assert_int_equal(rec->args[2].type, FXT_ARG_UINT32);
	assert_int_equal(rec->args[2].value.u32, 0xfffffff0u);
	assert_int_equal(rec->args[3].type, FXT_ARG_INT64);
	assert_true(rec->args[3].value.i64 == -(1ll << 40));
	assert_int_equal(rec->args[4].type, FXT_ARG_UINT64);
	assert_true(rec->args[4].value.u64 == 1ull << 63);
	assert_int_equal(rec->args[5].type, FXT_ARG_DOUBLE);
	assert_true(rec->args[5].value.f64 == 2.5);
	assert_int_equal(rec->args[6].type, FXT_ARG_STRING);
	assert_str(rec->args[6].name, "cat");	/* indexed name */
	assert_str(rec->args[6].value.str, "inline value");
	assert_int_equal(rec->args[7].type, FXT_ARG_POINTER);
	assert_true(rec->args[7].value.pointer == 0x7ffd0000beefull);
	assert_int_equal(rec->args[8].type, FXT_ARG_KOID);
	assert_int_equal(rec->args[8].value.koid, 4242);
	assert_int_equal(rec->args[9].type, FXT_ARG_BOOL);
	assert_true(rec->args[9].value.b);
	assert_str(rec->args[9].name, "flag");
	assert_int_equal(rec->args[10].type, FXT_ARG_STRING);
	assert_str(rec->args[10].value.str, "name two");	/* indexed */
}

static void check_header_records(struct fxt_reader *r, struct fxt_record *rec)
{
	next(r, rec, FXT_RECORD_METADATA);
	assert_int_equal(rec->metadata.type, FXT_METADATA_TRACE_INFO);
	assert_int_equal(rec->metadata.magic, FXT_MAGIC_NUMBER);
	assert_int_equal(rec->offset, 0);
	next(r, rec, FXT_RECORD_METADATA);
	assert_int_equal(rec->metadata.type, FXT_METADATA_PROVIDER_INFO);
	assert_int_equal(rec->metadata.provider_id, 7);
	assert_str(rec->metadata.provider_name, "kernel");
	assert_int_equal(rec->offset, 8);
	next(r, rec, FXT_RECORD_INITIALIZATION);
	assert_int_equal(rec->init.ticks_per_second, 1000000000);
	next(r, rec, FXT_RECORD_STRING);
	assert_int_equal(rec->string.index, 1);
	assert_str(rec->string.value, "cat");
	next(r, rec, FXT_RECORD_STRING);
	assert_int_equal(rec->string.index, 2);
	next(r, rec, FXT_RECORD_THREAD);
	assert_int_equal(rec->thread.index, 1);
	assert_thread(rec->thread.thread, 100, 101);
}

static void check_events(struct fxt_reader *r, struct fxt_record *rec)
{
	static const uint64_t extra[] = { 0, 3, 0, 0, 2000, 9, 9, 9, 10, 10, 10 };
	unsigned int type;

	next(r, rec, FXT_RECORD_EVENT);
	assert_int_equal(rec->event.type, FXT_EVENT_INSTANT);
	/* global scope travels as a "scope" argument, not a trailing word */
	assert_int_equal(rec->event.scope, FXT_SCOPE_THREAD);
	assert_int_equal(rec->event.ts, 1000);
	assert_thread(rec->event.thread, 100, 101);
	assert_str(rec->event.category, "cat");
	assert_str(rec->event.name, "all args");
	check_all_args(rec);
	assert_int_equal(rec->nargs, 12);
	assert_str(rec->args[11].name, "scope");
	assert_str(rec->args[11].value.str, "global");
	for (type = FXT_EVENT_INSTANT; type <= FXT_EVENT_FLOW_END; type++) {
		next(r, rec, FXT_RECORD_EVENT);
		assert_int_equal(rec->event.type, type);
		assert_int_equal(rec->event.scope, FXT_SCOPE_THREAD);
		assert_int_equal(rec->event.extra, extra[type]);
		assert_thread(rec->event.thread, 100, 101);	/* indexed */
		assert_str(rec->event.name, "name two");
		assert_int_equal(rec->nargs, 1);
		assert_int_equal(rec->args[0].type, FXT_ARG_NULL);
	}
}

static void check_objects(struct fxt_reader *r, struct fxt_record *rec)
{
	next(r, rec, FXT_RECORD_BLOB);
	assert_str(rec->blob.name, "blob");
	assert_int_equal(rec->blob.blob_type, FXT_BLOB_DATA);
	assert_int_equal(rec->blob.payload_len, 19);
	assert_memory_equal(rec->blob.payload, "0123456789abcdefXYZ", 19);
	next(r, rec, FXT_RECORD_USERSPACE_OBJECT);
	assert_int_equal(rec->userspace_object.pointer, 0x1000);
	assert_int_equal(rec->userspace_object.pid, 100);
	assert_str(rec->userspace_object.name, "object");
	assert_int_equal(rec->nargs, 2);
	assert_int_equal(rec->args[1].value.i32, -7);
	next(r, rec, FXT_RECORD_USERSPACE_OBJECT);
	assert_int_equal(rec->userspace_object.pid, 100);	/* indexed */
	assert_str(rec->userspace_object.name, "name two");
	next(r, rec, FXT_RECORD_KERNEL_OBJECT);
	assert_int_equal(rec->kernel_object.obj_type, FXT_ZX_OBJ_PROCESS);
	assert_int_equal(rec->kernel_object.koid, 100);
	assert_str(rec->kernel_object.name, "app");
	assert_int_equal(rec->nargs, 0);
	next(r, rec, FXT_RECORD_KERNEL_OBJECT);
	assert_int_equal(rec->kernel_object.obj_type, FXT_ZX_OBJ_THREAD);
	assert_int_equal(rec->nargs, 1);
	assert_str(rec->args[0].name, "process");
	assert_int_equal(rec->args[0].value.koid, 100);
}

static void check_sched(struct fxt_reader *r, struct fxt_record *rec)
{
	next(r, rec, FXT_RECORD_SCHEDULING);
	assert_int_equal(rec->sched.type, FXT_SCHED_CONTEXT_SWITCH);
	assert_int_equal(rec->sched.ts, 3000);
	assert_int_equal(rec->sched.cpu, 1);
	assert_int_equal(rec->sched.out_state, FXT_THREAD_BLOCKED);
	assert_int_equal(rec->sched.out_thread.tid, 101);
	assert_int_equal(rec->sched.in_thread.tid, 102);
	assert_int_equal(rec->nargs, 2);
	assert_int_equal(rec->args[1].value.i32, INT32_MIN);
	next(r, rec, FXT_RECORD_SCHEDULING);
	assert_int_equal(rec->sched.type, FXT_SCHED_THREAD_WAKEUP);
	assert_int_equal(rec->sched.woken.tid, 101);
	assert_int_equal(rec->args[1].type, FXT_ARG_KOID);
	next(r, rec, FXT_RECORD_SCHEDULING);
	assert_int_equal(rec->sched.type, FXT_SCHED_LEGACY_CONTEXT_SWITCH);
	assert_int_equal(rec->sched.cpu, 2);
	assert_int_equal(rec->sched.out_state, FXT_THREAD_SUSPENDED);
	assert_thread(rec->sched.out_thread, 100, 101);
	assert_thread(rec->sched.in_thread, 7, 8);
	assert_int_equal(rec->sched.out_prio, 10);
	assert_int_equal(rec->sched.in_prio, 20);
	next(r, rec, FXT_RECORD_LOG);
	assert_int_equal(rec->log.ts, 3003);
	assert_thread(rec->log.thread, 100, 101);
	assert_str(rec->log.message, "a log message");
	next(r, rec, FXT_RECORD_LOG);
	assert_thread(rec->log.thread, 100, 102);
}

static void check_second_provider(struct fxt_reader *r, struct fxt_record *rec)
{
	next(r, rec, FXT_RECORD_METADATA);
	assert_str(rec->metadata.provider_name, "app");
	next(r, rec, FXT_RECORD_INITIALIZATION);
	assert_int_equal(rec->provider->ticks_per_second, 24000000);
	next(r, rec, FXT_RECORD_LARGE);
	assert_true(rec->large_blob.has_metadata);
	assert_str(rec->large_blob.category, "cat");
	assert_str(rec->large_blob.name, "large");
	assert_int_equal(rec->large_blob.ts, 2400);
	assert_int_equal(fxt_ticks_to_ns(rec->provider, 2400), 100000);
	assert_thread(rec->large_blob.thread, 1, 2);
	assert_int_equal(rec->nargs, 2);
	assert_int_equal(rec->large_blob.payload_len, 15);
	assert_memory_equal(rec->large_blob.payload, "payload payload", 15);
	next(r, rec, FXT_RECORD_LARGE);
	assert_false(rec->large_blob.has_metadata);
	assert_str(rec->large_blob.name, "no metadata");
	assert_int_equal(rec->large_blob.payload_len, 3);
	next(r, rec, FXT_RECORD_METADATA);
	assert_int_equal(rec->metadata.type, FXT_METADATA_PROVIDER_SECTION);
	assert_int_equal(rec->provider->id, 7);
	next(r, rec, FXT_RECORD_METADATA);
	assert_int_equal(rec->metadata.type, FXT_METADATA_PROVIDER_EVENT);
	assert_int_equal(rec->metadata.event_id,
			 FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
}

static void every_record_kind(void **state)
{
	struct diag_log log = { 0 };
	const struct fxt_reader_stats *s;
	struct fxt_record rec;
	struct fxt_writer w;
	struct fxt_reader *r;

	fxt_writer_init(&w);
	sample_archive(&w);
	assert_int_equal(fxt_writer_error(&w), 0);
	r = open_writer(&w, &log);
	check_header_records(r, &rec);
	check_events(r, &rec);
	check_objects(r, &rec);
	check_sched(r, &rec);
	check_second_provider(r, &rec);
	assert_int_equal(fxt_reader_next(r, &rec), 0);
	s = fxt_reader_stats(r);
	assert_int_equal(s->records, SAMPLE_RECORDS);
	assert_int_equal(s->bytes, fxt_writer_size(&w));
	assert_int_equal(s->malformed + s->nonconforming + s->unknown_skipped, 0);
	assert_true(s->magic_seen);
	assert_false(s->truncated);
	assert_int_equal(log.n, 0);
	assert_int_equal(fxt_reader_provider_count(r), 2);
	assert_str(fxt_reader_provider(r, 0)->name, "kernel");
	assert_str(fxt_reader_provider(r, 1)->name, "app");
	fxt_reader_close(r);
	fxt_writer_release(&w);
}

static void event_with(struct fxt_writer *w, struct fxt_writer_str name,
		       struct fxt_writer_thread thread)
{
	struct fxt_writer_event ev = { .ts = 1, .thread = thread, .name = name };

	assert_int_equal(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD), 0);
}

static void table_replacement(void **state)
{
	struct diag_log log = { 0 };
	struct fxt_record rec;
	struct fxt_writer w;
	struct fxt_reader *r;

	fxt_writer_init(&w);
	fxt_write_magic(&w);
	fxt_write_string(&w, 5, "first", 5);
	fxt_write_thread_ref(&w, 9, 1, 2);
	event_with(&w, fxt_wstr_index(5), fxt_wthread_index(9));
	fxt_write_string(&w, 5, "second, longer than the first", 29);
	fxt_write_thread_ref(&w, 9, 3, 4);
	event_with(&w, fxt_wstr_index(5), fxt_wthread_index(9));
	fxt_write_string(&w, 5, "", 0);
	event_with(&w, fxt_wstr_index(5), fxt_wthread_index(9));
	r = open_writer(&w, &log);
	next(r, &rec, FXT_RECORD_METADATA);
	next(r, &rec, FXT_RECORD_STRING);
	next(r, &rec, FXT_RECORD_THREAD);
	next(r, &rec, FXT_RECORD_EVENT);
	assert_str(rec.event.name, "first");
	assert_thread(rec.event.thread, 1, 2);
	next(r, &rec, FXT_RECORD_STRING);
	next(r, &rec, FXT_RECORD_THREAD);
	next(r, &rec, FXT_RECORD_EVENT);
	assert_str(rec.event.name, "second, longer than the first");
	assert_thread(rec.event.thread, 3, 4);
	next(r, &rec, FXT_RECORD_STRING);
	next(r, &rec, FXT_RECORD_EVENT);
	assert_str(rec.event.name, "");
	assert_int_equal(fxt_reader_next(r, &rec), 0);
	assert_int_equal(log.n, 0);
	fxt_reader_close(r);
	fxt_writer_release(&w);
}

static void write_provider(struct fxt_writer *w, uint32_t id, const char *name,
			   uint64_t tps, const char *s1, uint64_t pid)
{
	fxt_write_provider_info(w, id, name, strlen(name));
	fxt_write_init(w, tps);
	fxt_write_string(w, 1, s1, strlen(s1));
	fxt_write_thread_ref(w, 1, pid, pid + 1);
}

static void expect_event(struct fxt_reader *r, uint32_t provider,
			 const char *name, uint64_t pid, uint64_t ns)
{
	struct fxt_record rec;

	next(r, &rec, FXT_RECORD_EVENT);
	assert_int_equal(rec.provider->id, provider);
	assert_str(rec.event.name, name);
	assert_thread(rec.event.thread, pid, pid + 1);
	assert_int_equal(fxt_ticks_to_ns(rec.provider, rec.event.ts), ns);
}

static void skip_records(struct fxt_reader *r, unsigned int n)
{
	struct fxt_record rec;

	while (n--)
		assert_int_equal(fxt_reader_next(r, &rec), 1);
}

static void providers_keep_separate_state(void **state)
{
	struct diag_log log = { 0 };
	struct fxt_record rec;
	struct fxt_writer w;
	struct fxt_reader *r;

	fxt_writer_init(&w);
	fxt_write_magic(&w);
	write_provider(&w, 1, "alpha", 1000000000, "from alpha", 10);
	write_provider(&w, 2, "beta", 1000000, "from beta", 20);
	fxt_write_provider_section(&w, 1);
	event_with(&w, fxt_wstr_index(1), fxt_wthread_index(1));
	fxt_write_provider_section(&w, 2);
	event_with(&w, fxt_wstr_index(1), fxt_wthread_index(1));
	fxt_write_provider_section(&w, 1);
	event_with(&w, fxt_wstr_index(1), fxt_wthread_index(1));
	r = open_writer(&w, &log);
	skip_records(r, 1 + 4 + 4 + 1);
	expect_event(r, 1, "from alpha", 10, 1);
	skip_records(r, 1);
	expect_event(r, 2, "from beta", 20, 1000);	/* 1 tick = 1 us */
	skip_records(r, 1);
	expect_event(r, 1, "from alpha", 10, 1);
	assert_int_equal(fxt_reader_next(r, &rec), 0);
	assert_int_equal(log.n, 0);
	assert_int_equal(fxt_reader_provider_count(r), 2);
	assert_int_equal(fxt_reader_provider(r, 1)->ticks_per_second, 1000000);
	fxt_reader_close(r);
	fxt_writer_release(&w);
}

/* A provider info record registers the provider afresh: old tables go. */
static void provider_info_resets_state(void **state)
{
	struct diag_log log = { 0 };
	struct fxt_record rec;
	struct fxt_writer w;
	struct fxt_reader *r;
	size_t offset;

	fxt_writer_init(&w);
	fxt_write_magic(&w);
	write_provider(&w, 1, "alpha", 1000, "from alpha", 10);
	fxt_write_provider_info(&w, 1, "alpha", 5);
	offset = fxt_writer_size(&w);
	event_with(&w, fxt_wstr_index(1), fxt_wthread(5, 6));
	r = open_writer(&w, &log);
	skip_records(r, 6);
	next(r, &rec, FXT_RECORD_EVENT);
	assert_str(rec.event.name, "");
	assert_int_equal(rec.provider->ticks_per_second, 1000000000);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.e[0].kind, FXT_DIAG_NONCONFORMING);
	assert_int_equal(log.e[0].offset, offset);
	assert_non_null(strstr(log.e[0].reason, "string index 1"));
	fxt_reader_close(r);
	fxt_writer_release(&w);
}

static void string_lengths(void **state)
{
	static const char text[] = "0123456789abcdefg";
	struct diag_log log = { 0 };
	struct fxt_record rec;
	struct fxt_writer w;
	struct fxt_reader *r;
	size_t len;

	fxt_writer_init(&w);
	fxt_write_magic(&w);
	for (len = 0; len <= 17; len++) {
		struct fxt_arg_in a = fxt_warg_string(fxt_wstr_len(text, len),
						      fxt_wstr_len(text, len));

		struct fxt_writer_event ev = {
			.category = fxt_wstr_len(text, len),
			.name = fxt_wstr_len(text, len),
			.args = &a,
			.nargs = 1,
		};
		assert_int_equal(fxt_write_event(&w, FXT_EVENT_DURATION_BEGIN,
						 &ev, 0),
				 0);
	}
	r = open_writer(&w, &log);
	skip_records(r, 1);
	for (len = 0; len <= 17; len++) {
		next(r, &rec, FXT_RECORD_EVENT);
		assert_int_equal(rec.event.name.len, len);
		assert_memory_equal(rec.event.category.data, text, len);
		assert_int_equal(rec.args[0].name.len, len);
		assert_memory_equal(rec.args[0].value.str.data, text, len);
		/* header, ts, pid, tid, 2 streams, arg header + 2 streams */
		assert_int_equal(rec.size_words, 4 + 3 * fxt_words(len) +
						 1 + fxt_words(len));
	}
	assert_int_equal(log.n, 0);
	fxt_reader_close(r);
	fxt_writer_release(&w);
}

struct sink {
	unsigned char *data;
	size_t len;
	unsigned int calls;
};

static int sink_flush(void *ctx, const void *data, size_t len)
{
	struct sink *s = ctx;

	s->data = realloc(s->data, s->len + len);
	assert_non_null(s->data);
	memcpy(s->data + s->len, data, len);
	s->len += len;
	s->calls++;
	return 0;
}

static int failing_flush(void *ctx, const void *data, size_t len)
{
	return -ENOSPC;
}

static void flush_mode_matches_memory(void **state)
{
	struct sink sink = { 0 };
	struct fxt_writer mem, out;

	fxt_writer_init(&mem);
	sample_archive(&mem);
	fxt_writer_init_flush(&out, 64, sink_flush, &sink);
	sample_archive(&out);
	assert_int_equal(fxt_writer_flush(&out), 0);
	assert_int_equal(sink.len, fxt_writer_size(&mem));
	assert_memory_equal(sink.data, fxt_writer_data(&mem), sink.len);
	assert_true(sink.calls > 5);
	assert_int_equal(out.records, mem.records);
	assert_int_equal(mem.records, SAMPLE_RECORDS);
	fxt_writer_release(&out);
	fxt_writer_release(&mem);
	free(sink.data);

	fxt_writer_init_flush(&out, 16, failing_flush, NULL);
	fxt_write_magic(&out);
	fxt_write_magic(&out);
	assert_int_equal(fxt_write_magic(&out), -ENOSPC);
	assert_int_equal(fxt_writer_error(&out), -ENOSPC);
	fxt_writer_release(&out);
}

static void writer_rejects_bad_fields(void **state)
{
	static char big[32000], too_long[0x8000];
	struct fxt_arg_in args[16] = { 0 };
	struct fxt_writer_event ev = { .args = args, .nargs = 16 };
	struct fxt_arg_in bad_type = { .type = 10 };
	struct fxt_writer w;

	fxt_writer_init(&w);
	assert_int_equal(fxt_write_instant(&w, &ev, FXT_SCOPE_THREAD), -EINVAL);
	ev.nargs = 1;
	assert_int_equal(fxt_write_instant(&w, &ev, 3), -EINVAL);
	ev.args = &bad_type;
	assert_int_equal(fxt_write_instant(&w, &ev, FXT_SCOPE_THREAD), -EINVAL);
	ev.nargs = 0;
	ev.name = fxt_wstr_index(0x8000);
	assert_int_equal(fxt_write_event(&w, FXT_EVENT_COUNTER, &ev, 1),
			 -EINVAL);
	assert_int_equal(fxt_write_event(&w, 11, &ev, 0), -EINVAL);
	assert_int_equal(fxt_write_string(&w, 0, "x", 1), -EINVAL);
	assert_int_equal(fxt_write_thread_ref(&w, 0, 1, 2), -EINVAL);
	assert_int_equal(fxt_write_context_switch(&w, 0, 0x10000, 0, 1, 2,
						  NULL, 0), -EINVAL);
	/* two 32000-byte streams cannot fit 4095 words */
	ev.name = fxt_wstr_len(big, sizeof(big));
	ev.category = fxt_wstr_len(big, sizeof(big));
	assert_int_equal(fxt_write_event(&w, FXT_EVENT_DURATION_BEGIN, &ev, 0),
			 -E2BIG);
	assert_int_equal(fxt_write_log(&w, 0, fxt_wthread(1, 2), big, 0x8000),
			 -E2BIG);
	/* argument strings that no string ref can hold */
	ev.name = fxt_wstr("n");
	ev.category = fxt_wstr("c");
	ev.args = args;
	ev.nargs = 1;
	args[0] = fxt_warg_int32(fxt_wstr_len(too_long, sizeof(too_long)), 1);
	assert_int_equal(fxt_write_event(&w, FXT_EVENT_DURATION_BEGIN, &ev, 0),
			 -E2BIG);
	args[0] = fxt_warg_string(fxt_wstr("s"), fxt_wstr_index(0x8000));
	assert_int_equal(fxt_write_event(&w, FXT_EVENT_DURATION_BEGIN, &ev, 0),
			 -EINVAL);
	args[0] = fxt_warg_string(fxt_wstr("s"), fxt_wstr_len(NULL, 3));
	assert_int_equal(fxt_write_event(&w, FXT_EVENT_DURATION_BEGIN, &ev, 0),
			 -EINVAL);
	/* nothing was written, the first error is kept */
	assert_int_equal(fxt_writer_size(&w), 0);
	assert_int_equal(fxt_writer_error(&w), -EINVAL);
	/* and the writer still works */
	assert_int_equal(fxt_write_magic(&w), 0);
	assert_int_equal(fxt_writer_size(&w), 8);
	fxt_writer_release(&w);
}

static void ticks_conversion(void **state)
{
	struct fxt_provider p = { .ticks_per_second = 24000000 };

	assert_int_equal(fxt_ticks_to_ns(&p, 24), 1000);
	/* 2^58 ticks at 24 MHz: no overflow in the intermediate product */
	assert_true(fxt_ticks_to_ns(&p, 1ull << 58) ==
		    (uint64_t)((unsigned __int128)(1ull << 58) * 1000000000 /
			       24000000));
	/* 2^62 ticks are more than 2^64 ns: kept at the largest value */
	assert_true(fxt_ticks_to_ns(&p, 1ull << 62) == UINT64_MAX);
	p.ticks_per_second = 1000000000;
	assert_true(fxt_ticks_to_ns(&p, UINT64_MAX) == UINT64_MAX);
	assert_int_equal(fxt_ticks_to_ns(NULL, 5), 5);
}

/* A stream with records of many sizes, so that chunks split them. */
static void mixed_stream(struct fxt_writer *w)
{
	static char payload[100000];
	char name[64];
	unsigned int i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (char)(i * 7);
	fxt_write_magic(w);
	for (i = 0; i < 20000; i++) {
		struct fxt_arg_in a = fxt_warg_string(fxt_wstr("n"),
			fxt_wstr_len(payload, i % 3000));
		struct fxt_writer_event ev = {
			.ts = i, .thread = fxt_wthread(1, i),
			.name = fxt_wstr_len(name, (size_t)snprintf(
					name, sizeof(name), "event %u", i)),
			.args = &a, .nargs = i % 7 == 0,
		};

		fxt_write_instant(w, &ev, FXT_SCOPE_THREAD);
		if (i % 5000 == 1)
			fxt_write_large_blob(w, fxt_wstr("c"), fxt_wstr("n"),
					     payload, sizeof(payload) - i);
	}
}

static uint64_t digest(struct fxt_reader *r, uint64_t *records)
{
	uint64_t h = 1469598103934665603ull;
	struct fxt_record rec;
	uint64_t i;
	int ret;

	*records = 0;
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		const unsigned char *p = (const unsigned char *)rec.words;

		h = (h ^ rec.offset) * 1099511628211ull;
		for (i = 0; i < rec.size_words * 8; i++)
			h = (h ^ p[i]) * 1099511628211ull;
		if (rec.type == FXT_RECORD_EVENT)
			for (i = 0; i < rec.event.name.len; i++)
				h = (h ^ (unsigned char)rec.event.name.data[i]) *
				    1099511628211ull;
		(*records)++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(fxt_reader_stats(r)->malformed, 0);
	fxt_reader_close(r);
	return h;
}

static FILE *temp_file_with(const void *data, size_t len)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fflush(f), 0);
	rewind(f);
	return f;
}

/* A pipe fed by a child in odd-sized writes: a non-seekable input. */
static int pipe_with(const void *data, size_t len, pid_t *child)
{
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	*child = fork();
	assert_true(*child >= 0);
	if (!*child) {
		const char *p = data;
		size_t off = 0;

		close(fds[0]);
		while (off < len) {
			size_t n = len - off < 4093 ? len - off : 4093;
			ssize_t got = write(fds[1], p + off, n);

			if (got <= 0)
				_exit(1);
			off += (size_t)got;
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

static void every_source_agrees(void **state)
{
	uint64_t want, got, n_want, n;
	struct fxt_writer w;
	unsigned char *copy;
	size_t len;
	pid_t child;
	FILE *f;
	int fd, status;

	fxt_writer_init(&w);
	mixed_stream(&w);
	len = fxt_writer_size(&w);
	assert_true(len > 3 * (1u << 20));
	want = digest(fxt_reader_open_mem(fxt_writer_data(&w), len, NULL),
		      &n_want);
	assert_int_equal(n_want, 1 + 20000 + 4);

	copy = malloc(len + 1);
	memcpy(copy + 1, fxt_writer_data(&w), len);
	got = digest(fxt_reader_open_mem(copy + 1, len, NULL), &n);
	assert_true(got == want);
	assert_int_equal(n, n_want);

	f = temp_file_with(fxt_writer_data(&w), len);
	got = digest(fxt_reader_open_file(f, NULL), &n);
	assert_true(got == want);
	rewind(f);
	got = digest(fxt_reader_open_fd(fileno(f), NULL), &n);
	assert_true(got == want);
	fclose(f);

	fd = pipe_with(fxt_writer_data(&w), len, &child);
	got = digest(fxt_reader_open_fd(fd, NULL), &n);
	assert_true(got == want);
	close(fd);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(status, 0);
	free(copy);
	fxt_writer_release(&w);
}

static void read_past_large(struct fxt_reader *r, uint64_t large_offset,
			    struct diag_log *log)
{
	struct fxt_record rec;

	next(r, &rec, FXT_RECORD_METADATA);
	next(r, &rec, FXT_RECORD_EVENT);
	assert_str(rec.event.name, "after");
	assert_int_equal(fxt_reader_next(r, &rec), 0);
	assert_int_equal(fxt_reader_stats(r)->large_skipped, 1);
	assert_false(fxt_reader_stats(r)->truncated);
	assert_int_equal(log->n, 1);
	assert_int_equal(log->e[0].kind, FXT_DIAG_MALFORMED);
	assert_int_equal(log->e[0].offset, large_offset);
	fxt_reader_close(r);
	memset(log, 0, sizeof(*log));
}

/* Large records over the limit are skipped by size on every source. */
static void large_record_limit(void **state)
{
	static char payload[8192];
	struct diag_log log = { 0 };
	struct fxt_reader_options opt = {
		.diag = diag_collect,
		.diag_ctx = &log,
		.max_large_record_bytes = 4096,
	};
	struct fxt_writer w;
	size_t large_offset;
	pid_t child;
	FILE *f;
	int fd;

	fxt_writer_init(&w);
	fxt_write_magic(&w);
	large_offset = fxt_writer_size(&w);
	fxt_write_large_blob(&w, fxt_wstr("c"), fxt_wstr("n"), payload,
			     sizeof(payload));
	event_with(&w, fxt_wstr("after"), fxt_wthread(1, 2));
	read_past_large(fxt_reader_open_mem(fxt_writer_data(&w),
					    fxt_writer_size(&w), &opt),
			large_offset, &log);
	f = temp_file_with(fxt_writer_data(&w), fxt_writer_size(&w));
	read_past_large(fxt_reader_open_fd(fileno(f), &opt), large_offset,
			&log);
	fclose(f);
	fd = pipe_with(fxt_writer_data(&w), fxt_writer_size(&w), &child);
	read_past_large(fxt_reader_open_fd(fd, &opt), large_offset, &log);
	close(fd);
	waitpid(child, NULL, 0);
	fxt_writer_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_record_kind),
		cmocka_unit_test(table_replacement),
		cmocka_unit_test(providers_keep_separate_state),
		cmocka_unit_test(provider_info_resets_state),
		cmocka_unit_test(string_lengths),
		cmocka_unit_test(flush_mode_matches_memory),
		cmocka_unit_test(writer_rejects_bad_fields),
		cmocka_unit_test(ticks_conversion),
		cmocka_unit_test(every_source_agrees),
		cmocka_unit_test(large_record_limit),
	};

	return cmocka_run_group_tests_name("writer/reader round trip", tests,
					   NULL, NULL);
}
