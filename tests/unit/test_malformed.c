// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile and nonconforming input: each case is a hand-built word array;
 * the reader must report the expected kind of problem at the expected
 * offset, skip or keep the record as documented, and go on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"
#include "utf8.h"

#define MAGIC FXT_MAGIC_RECORD
#define INIT_1GHZ fxt_init_header(), 1000000000ull

struct result {
	struct diag_log log;
	struct fxt_reader_stats stats;
	size_t records;
	/* strings of last point into input that is gone: lengths only */
	struct fxt_record last;
};

/* Reads words; keeps the record whose offset is keep_offset. */
static void read_words(const uint64_t *w, size_t bytes, bool provider_buffer,
		       uint64_t keep_offset, struct result *res)
{
	struct fxt_reader_options opt = {
		.expect_magic = !provider_buffer,
		.provider_buffer = provider_buffer,
		.diag = diag_collect,
		.diag_ctx = &res->log,
	};
	struct fxt_reader *r = fxt_reader_open_mem(w, bytes, &opt);
	struct fxt_record rec;

	assert_non_null(r);
	memset(res, 0, sizeof(*res));
	res->last.offset = UINT64_MAX;
	while (fxt_reader_next(r, &rec) > 0) {
		res->records++;
		if (rec.offset == keep_offset)
			res->last = rec;
	}
	res->stats = *fxt_reader_stats(r);
	fxt_reader_close(r);
}

#define READ(res, ...)                                                  \
	do {                                                            \
		const uint64_t w_[] = { __VA_ARGS__ };           \
		read_words(w_, sizeof(w_), false, UINT64_MAX, (res));   \
	} while (0)

#define READ_KEEP(res, keep, ...)                                       \
	do {                                                            \
		const uint64_t w_[] = { __VA_ARGS__ };           \
		read_words(w_, sizeof(w_), false, (keep), (res));       \
	} while (0)

static void expect_diag(const struct result *res, size_t i,
			enum fxt_diag_kind kind, uint64_t offset,
			const char *words)
{
	assert_true(res->log.n > i);
	assert_int_equal(res->log.e[i].kind, kind);
	assert_int_equal(res->log.e[i].offset, offset);
	if (words && !strstr(res->log.e[i].reason, words))
		fail_msg("diag '%s' lacks '%s'", res->log.e[i].reason, words);
}

static void expect_only_diag(const struct result *res,
			     enum fxt_diag_kind kind, uint64_t offset,
			     const char *words)
{
	assert_int_equal(res->log.n, 1);
	expect_diag(res, 0, kind, offset, words);
}

static void size_zero(void **state)
{
	struct result res;

	/* two zero-size headers, then an initialization record */
	READ(&res, MAGIC, FXT_RECORD_EVENT, FXT_RECORD_EVENT, INIT_1GHZ);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x8, "size 0");
	assert_int_equal(res.records, 2);
	assert_int_equal(res.stats.malformed, 1);
	assert_false(res.stats.truncated);
}

static void size_zero_then_partial_word(void **state)
{
	const uint64_t w[] = { MAGIC, FXT_RECORD_EVENT, 0x41 };
	struct result res;

	read_words(w, 16 + 3, false, UINT64_MAX, &res);
	assert_int_equal(res.log.n, 2);
	expect_diag(&res, 0, FXT_DIAG_MALFORMED, 0x8, "size 0");
	expect_diag(&res, 1, FXT_DIAG_MALFORMED, 0x10, "3 of 8 bytes");
	assert_true(res.stats.truncated);
}

static void record_runs_past_end(void **state)
{
	struct result res;

	/* an event of 5 words, 2 present */
	READ(&res, MAGIC, fxt_event_header(5, FXT_EVENT_INSTANT, 0, 0, 0, 0),
	     1);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x8, "16 of 40 bytes");
	assert_true(res.stats.truncated);
	assert_int_equal(res.records, 1);
	assert_int_equal(res.stats.bytes, 24);
}

static void truncated_tail(void **state)
{
	const uint64_t w[] = { MAGIC, INIT_1GHZ };
	struct result res;

	/* the initialization record cut after 3 bytes of its header */
	read_words(w, 8 + 3, false, UINT64_MAX, &res);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x8, "ends inside");
	assert_true(res.stats.truncated);
	assert_int_equal(res.records, 1);
}

static void argument_runs_past_record(void **state)
{
	struct result res;

	/* hdr, ts, pid, tid, then an argument claiming 3 words: 1 left */
	READ(&res, MAGIC, fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0),
	     1, 2, 3, fxt_arg_header(FXT_ARG_INT64, 3, 0, 0), INIT_1GHZ);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x28, "argument 1 of 3 words");
	assert_int_equal(res.records, 2);	/* the event is skipped */
	assert_int_equal(res.stats.by_type[FXT_RECORD_EVENT], 0);
}

static void argument_missing(void **state)
{
	struct result res;

	/* 2 arguments announced, 1 present */
	READ(&res, MAGIC, fxt_event_header(5, FXT_EVENT_INSTANT, 2, 0, 0, 0),
	     1, 2, 3, fxt_arg_header(FXT_ARG_INT32, 1, 0, 5), INIT_1GHZ);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x8, "argument header");
	assert_int_equal(res.records, 2);
}

static void argument_size_zero(void **state)
{
	struct result res;

	READ(&res, MAGIC, fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0),
	     1, 2, 3, fxt_arg_header(FXT_ARG_INT32, 0, 0, 5));
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x28, "size 0");
	assert_int_equal(res.records, 1);
}

static void argument_value_past_argument(void **state)
{
	struct result res;

	/* an int64 argument of size 1: its value word is not its own */
	READ(&res, MAGIC, fxt_event_header(6, FXT_EVENT_INSTANT, 1, 0, 0, 0),
	     1, 2, 3, fxt_arg_header(FXT_ARG_INT64, 1, 0, 0), 77);
	assert_int_equal(res.stats.malformed, 1);
	assert_int_equal(res.records, 1);
}

static void argument_longer_than_type(void **state)
{
	struct result res;

	READ_KEEP(&res, 0x8, MAGIC,
		  fxt_event_header(6, FXT_EVENT_INSTANT, 1, 0, 0, 0), 1, 2, 3,
		  fxt_arg_header(FXT_ARG_INT32, 2, 0, 5), 0);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x28, "longer");
	assert_int_equal(res.last.nargs, 1);
	assert_int_equal(res.last.args[0].value.i32, 5);
}

static void unknown_argument_type(void **state)
{
	struct result res;

	READ_KEEP(&res, 0x8, MAGIC,
		  fxt_event_header(7, FXT_EVENT_INSTANT, 2, 0, 0, 0), 1, 2, 3,
		  fxt_arg_header(12, 2, 0, 0), 99,
		  fxt_arg_header(FXT_ARG_INT32, 1, 0, 5));
	expect_only_diag(&res, FXT_DIAG_UNKNOWN, 0x28, "unknown type 12");
	assert_int_equal(res.last.nargs, 1);
	assert_int_equal(res.last.args[0].type, FXT_ARG_INT32);
	assert_int_equal(res.stats.unknown_skipped, 1);
}

static void unknown_record_type(void **state)
{
	struct result res;

	READ(&res, MAGIC, fxt_record_header(10, 2), 0xdead, INIT_1GHZ);
	expect_only_diag(&res, FXT_DIAG_UNKNOWN, 0x8, "unknown type 10");
	assert_int_equal(res.records, 2);
	assert_int_equal(res.stats.unknown_skipped, 1);
	assert_int_equal(res.stats.malformed + res.stats.nonconforming, 0);
}

static void unknown_subtypes(void **state)
{
	struct result res;

	READ(&res, MAGIC,
	     /* metadata type 7 */
	     fxt_record_header(FXT_RECORD_METADATA, 1) | (7ull << 16),
	     /* trace info type 3 */
	     fxt_record_header(FXT_RECORD_METADATA, 1) | (4ull << 16) |
		     (3ull << 20),
	     /* event type 11 */
	     fxt_event_header(2, 11, 0, 0, 0, 0), 1,
	     /* scheduling type 5 */
	     fxt_record_header(FXT_RECORD_SCHEDULING, 1) | (5ull << 60),
	     /* large record type 2 */
	     fxt_large_header(2, 1));
	assert_int_equal(res.log.n, 5);
	expect_diag(&res, 0, FXT_DIAG_UNKNOWN, 0x08, "metadata");
	expect_diag(&res, 1, FXT_DIAG_UNKNOWN, 0x10, "trace info");
	expect_diag(&res, 2, FXT_DIAG_UNKNOWN, 0x18, "event");
	expect_diag(&res, 3, FXT_DIAG_UNKNOWN, 0x28, "scheduling");
	expect_diag(&res, 4, FXT_DIAG_UNKNOWN, 0x30, "large");
	assert_int_equal(res.records, 1);
}

static void missing_magic(void **state)
{
	struct result res;

	READ(&res, INIT_1GHZ);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0, "magic");
	assert_int_equal(res.records, 1);
	assert_false(res.stats.magic_seen);
}

static void big_endian_magic(void **state)
{
	struct result res;

	READ(&res, __builtin_bswap64(MAGIC), INIT_1GHZ);
	expect_diag(&res, res.log.n - 1, FXT_DIAG_MALFORMED, 0, "big-endian");
	assert_int_equal(res.records, 0);
}

static void bad_magic_record(void **state)
{
	struct result res;

	/* trace info magic record holding 0x12345678, 2 words long */
	READ(&res, MAGIC,
	     fxt_record_header(FXT_RECORD_METADATA, 2) | (4ull << 16) |
		     (0x12345678ull << 24),
	     0);
	assert_int_equal(res.log.n, 2);
	expect_diag(&res, 0, FXT_DIAG_NONCONFORMING, 0x8, "0x12345678");
	expect_diag(&res, 1, FXT_DIAG_NONCONFORMING, 0x8, "exactly 1");
	assert_int_equal(res.stats.nonconforming, 1);	/* one record */
}

static void metadata_in_provider_buffer(void **state)
{
	const uint64_t w[] = {
		INIT_1GHZ, fxt_provider_section_header(3), INIT_1GHZ,
	};
	struct result res;

	read_words(w, sizeof(w), true, UINT64_MAX, &res);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x10, "provider buffer");
	assert_int_equal(res.records, 2);
	assert_int_equal(res.stats.by_type[FXT_RECORD_METADATA], 0);
}

static void provider_buffer_ends_at_zero_header(void **state)
{
	const uint64_t w[] = { INIT_1GHZ, 0, 0x1234, 0xffff };
	struct result res;

	read_words(w, sizeof(w), true, UINT64_MAX, &res);
	assert_int_equal(res.log.n, 0);
	assert_int_equal(res.records, 1);
}

static void reserved_bits(void **state)
{
	struct result res;

	READ_KEEP(&res, 0x8, MAGIC, fxt_init_header() | (1ull << 20), 5000);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x8, "0x0000000000100000");
	assert_int_equal(res.last.init.ticks_per_second, 5000);
	/* thread record [24..63], log [31], provider section [52..63] */
	READ(&res, MAGIC, fxt_thread_header(1) | (1ull << 40), 1, 2,
	     fxt_log_header(2, 0, 1) | (1ull << 31), 7,
	     fxt_provider_section_header(1) | (1ull << 63));
	assert_int_equal(res.log.n, 3);
	expect_diag(&res, 0, FXT_DIAG_NONCONFORMING, 0x08, "thread record");
	expect_diag(&res, 1, FXT_DIAG_NONCONFORMING, 0x20, "log");
	expect_diag(&res, 2, FXT_DIAG_NONCONFORMING, 0x30, "provider section");
	assert_int_equal(res.records, 4);
	/* bool argument: only bit 32 may be set */
	READ(&res, MAGIC, fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0),
	     1, 2, 3, fxt_arg_header(FXT_ARG_BOOL, 1, 0, 3));
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x28, "argument header");
}

static void several_problems_count_once(void **state)
{
	struct result res;

	/* reserved bits and a word too many */
	READ(&res, MAGIC, fxt_record_header(FXT_RECORD_INITIALIZATION, 3) |
			 (1ull << 63), 1000, 0);
	assert_int_equal(res.log.n, 2);
	expect_diag(&res, 1, FXT_DIAG_NONCONFORMING, 0x18, "1 words after");
	assert_int_equal(res.stats.nonconforming, 1);
	assert_int_equal(res.records, 2);
}

static void bad_utf8(void **state)
{
	struct result res;

	/* name: inline, 2 bytes C3 28 (a lead byte without continuation) */
	READ_KEEP(&res, 0x8, MAGIC,
		  fxt_event_header(5, FXT_EVENT_INSTANT, 0, 0, 0, 0x8002), 1, 2,
		  3, 0x28c3);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x28, "UTF-8");
	assert_int_equal(res.last.event.name.len, 2);
	assert_true(fxt_utf8_valid("plain", 5));
	assert_true(fxt_utf8_valid("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
	assert_false(fxt_utf8_valid("\xc0\xaf", 2));		/* overlong */
	assert_false(fxt_utf8_valid("\xe0\x80\xaf", 3));	/* overlong */
	assert_false(fxt_utf8_valid("\xed\xa0\x80", 3));	/* surrogate */
	assert_false(fxt_utf8_valid("\xf4\x90\x80\x80", 4));	/* > 10FFFF */
	assert_false(fxt_utf8_valid("abcdefgh\xe2\x82", 10));	/* cut */
	assert_false(fxt_utf8_valid("\xff", 1));
}

static void unassigned_string_and_thread(void **state)
{
	struct result res;

	READ_KEEP(&res, 0x8, MAGIC,
		  fxt_event_header(2, FXT_EVENT_INSTANT, 0, 3, 0, 5), 1);
	assert_int_equal(res.log.n, 2);
	expect_diag(&res, 0, FXT_DIAG_NONCONFORMING, 0x8, "thread index 3");
	expect_diag(&res, 1, FXT_DIAG_NONCONFORMING, 0x8, "string index 5");
	assert_int_equal(res.last.event.name.len, 0);
	assert_int_equal(res.last.event.thread.tid, 0);
	assert_int_equal(res.stats.nonconforming, 1);
}

static void table_index_zero(void **state)
{
	struct result res;

	READ(&res, MAGIC, fxt_string_header(0, 1), 'x',
	     fxt_thread_header(0), 1, 2);
	assert_int_equal(res.log.n, 2);
	expect_diag(&res, 0, FXT_DIAG_NONCONFORMING, 0x08, "index 0");
	expect_diag(&res, 1, FXT_DIAG_NONCONFORMING, 0x18, "index 0");
	assert_int_equal(res.records, 3);
}

static void inline_string_past_record(void **state)
{
	struct result res;

	/* a 32-byte inline name in a record with one word left */
	READ(&res, MAGIC,
	     fxt_event_header(5, FXT_EVENT_INSTANT, 0, 0, 0, 0x8020), 1, 2, 3,
	     0x41414141);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x8, "event name of 32 bytes");
	assert_int_equal(res.records, 1);
}

static void missing_event_word(void **state)
{
	struct result res;

	/* a counter without its counter id */
	READ(&res, MAGIC, fxt_event_header(4, FXT_EVENT_COUNTER, 0, 0, 0, 0),
	     1, 2, 3);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x8, "counter id");
}

static void bad_instant_scope(void **state)
{
	struct result res;

	READ_KEEP(&res, 0x8, MAGIC,
		  fxt_event_header(5, FXT_EVENT_INSTANT, 0, 0, 0, 0), 1, 2, 3,
		  7);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x28, "scope 7");
	assert_int_equal(res.last.event.scope, FXT_SCOPE_THREAD);
}

/* Fuchsia's trace-engine appends a scope word to instant events. */
static void fuchsia_instant_scope_word(void **state)
{
	struct result res;

	READ_KEEP(&res, 0x8, MAGIC,
		  fxt_event_header(5, FXT_EVENT_INSTANT, 0, 0, 0, 0), 1, 2, 3,
		  FXT_SCOPE_GLOBAL);
	assert_int_equal(res.log.n, 0);
	assert_int_equal(res.last.event.scope, FXT_SCOPE_GLOBAL);
}

/* Perfetto drops scheduling records whose arguments have other types. */
static void sched_arg_types(void **state)
{
	struct fxt_arg_in uint_weight[] = {
		fxt_warg_uint32(fxt_wstr("outgoing_weight"), 5),
	};
	struct fxt_arg_in u64_waker[] = {
		fxt_warg_uint64(fxt_wstr("waker"), 7),
	};
	struct fxt_arg_in u64_process[] = {
		fxt_warg_uint64(fxt_wstr("process"), 1),
	};
	struct fxt_arg_in good[] = {
		fxt_warg_int32(fxt_wstr("weight"), 3),
		fxt_warg_koid(fxt_wstr("waker"), 7),
	};
	struct fxt_reader_options opt = {
		.expect_magic = true, .diag = diag_collect,
	};
	struct fxt_reader_stats stats;
	struct diag_log log = { 0 };
	struct fxt_writer w;

	opt.diag_ctx = &log;
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	fxt_write_context_switch(&w, 1, 0, FXT_THREAD_BLOCKED, 2, 3,
				 uint_weight, 1);
	fxt_write_thread_wakeup(&w, 2, 0, 3, u64_waker, 1);
	fxt_write_kernel_object(&w, FXT_ZX_OBJ_THREAD, 3, fxt_wstr("t"),
				u64_process, 1);
	fxt_write_thread_wakeup(&w, 3, 0, 3, good, 2);
	assert_int_equal(fxt_writer_error(&w), 0);
	assert_int_equal(read_all(fxt_writer_data(&w), fxt_writer_size(&w),
				  &opt, &stats), 5);
	assert_int_equal(stats.nonconforming, 3);
	assert_int_equal(log.n, 3);
	assert_non_null(strstr(log.e[0].reason, "\"outgoing_weight\" is uint32"));
	assert_non_null(strstr(log.e[1].reason, "\"waker\" is uint64"));
	assert_non_null(strstr(log.e[2].reason, "\"process\" is uint64"));
	fxt_writer_release(&w);
}

static void large_blob_payload_too_long(void **state)
{
	struct result res;

	/* format 1: header, format word, size word claiming 100 bytes, 1 word */
	READ(&res, MAGIC, fxt_large_blob_header(4, FXT_LARGE_BLOB_NO_METADATA),
	     0, 100, 0);
	expect_only_diag(&res, FXT_DIAG_MALFORMED, 0x18, "100 bytes");
}

/*
 * A large record over the size limit, cut short by the end of a regular
 * file bigger than one read: the reader seeks instead of reading, and
 * must still count every byte as consumed, as it does from memory.
 */
static void large_record_skipped_past_end_of_file(void **state)
{
	const size_t words = (2u << 20) / 8;	/* past the 1 MiB read chunk */
	struct fxt_reader_options opt = { .max_large_record_bytes = 4096 };
	struct fxt_reader_stats from_file, from_mem;
	uint64_t *w = calloc(words, sizeof(*w));
	struct fxt_record rec;
	struct fxt_reader *r;
	FILE *f = tmpfile();

	assert_non_null(w);
	assert_non_null(f);
	w[0] = MAGIC;
	w[1] = fxt_large_blob_header(words * 2, FXT_LARGE_BLOB_NO_METADATA);
	assert_int_equal(fwrite(w, 8, words, f), words);
	assert_int_equal(fflush(f), 0);
	rewind(f);
	r = fxt_reader_open_fd(fileno(f), &opt);
	while (fxt_reader_next(r, &rec) > 0)
		;
	from_file = *fxt_reader_stats(r);
	fxt_reader_close(r);
	read_all(w, words * 8, &opt, &from_mem);
	assert_true(from_file.truncated);
	assert_int_equal(from_file.large_skipped, 1);
	assert_int_equal(from_mem.bytes, words * 8);
	assert_int_equal(from_file.bytes, words * 8);
	fclose(f);
	free(w);
}

static void zero_ticks_per_second(void **state)
{
	struct result res;

	READ(&res, MAGIC, fxt_init_header(), 0);
	expect_only_diag(&res, FXT_DIAG_NONCONFORMING, 0x8, "0 ticks");
}

/* The 2018 text: thread refs and priorities; its oldest copy: no priorities. */
static void legacy_context_switch(void **state)
{
	const uint64_t w[] = {
		fxt_thread_header(1), 10, 11,
		fxt_thread_header(2), 20, 21,
		/* size 2, cpu 0, state 2, out ref 1, in ref 2, prio 0x30, 0x40 */
		0x0403002012000028ull, 500,
		/* oldest layout: size 2, cpu 1, state 3, refs 1 and 2 */
		0x0000002013010028ull, 600,
		/* both inline: size 6, cpu 7, state 5 (dead) */
		fxt_legacy_context_switch_header(6, 7, FXT_THREAD_DEAD, 0, 0,
						 1, 2),
		700, 30, 31, 40, 41,
	};
	struct fxt_reader_options opt = { 0 };
	struct fxt_reader *r = fxt_reader_open_mem(w, sizeof(w), &opt);
	struct fxt_record rec;

	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.sched.type, FXT_SCHED_LEGACY_CONTEXT_SWITCH);
	assert_int_equal(rec.sched.ts, 500);
	assert_int_equal(rec.sched.cpu, 0);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_SUSPENDED);
	assert_int_equal(rec.sched.out_thread.pid, 10);
	assert_int_equal(rec.sched.out_thread.tid, 11);
	assert_int_equal(rec.sched.in_thread.tid, 21);
	assert_int_equal(rec.sched.out_prio, 0x30);
	assert_int_equal(rec.sched.in_prio, 0x40);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.sched.cpu, 1);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_BLOCKED);
	assert_int_equal(rec.sched.out_thread.tid, 11);
	assert_int_equal(rec.sched.in_thread.tid, 21);
	assert_int_equal(rec.sched.out_prio + rec.sched.in_prio, 0);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.sched.cpu, 7);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_DEAD);
	assert_int_equal(rec.sched.out_thread.pid, 30);
	assert_int_equal(rec.sched.out_thread.tid, 31);
	assert_int_equal(rec.sched.in_thread.pid, 40);
	assert_int_equal(rec.sched.in_thread.tid, 41);
	assert_int_equal(fxt_reader_next(r, &rec), 0);
	assert_int_equal(fxt_reader_stats(r)->malformed +
				 fxt_reader_stats(r)->nonconforming,
			 0);
	fxt_reader_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(size_zero),
		cmocka_unit_test(size_zero_then_partial_word),
		cmocka_unit_test(record_runs_past_end),
		cmocka_unit_test(truncated_tail),
		cmocka_unit_test(argument_runs_past_record),
		cmocka_unit_test(argument_missing),
		cmocka_unit_test(argument_size_zero),
		cmocka_unit_test(argument_value_past_argument),
		cmocka_unit_test(argument_longer_than_type),
		cmocka_unit_test(unknown_argument_type),
		cmocka_unit_test(unknown_record_type),
		cmocka_unit_test(unknown_subtypes),
		cmocka_unit_test(missing_magic),
		cmocka_unit_test(big_endian_magic),
		cmocka_unit_test(bad_magic_record),
		cmocka_unit_test(metadata_in_provider_buffer),
		cmocka_unit_test(provider_buffer_ends_at_zero_header),
		cmocka_unit_test(reserved_bits),
		cmocka_unit_test(several_problems_count_once),
		cmocka_unit_test(bad_utf8),
		cmocka_unit_test(unassigned_string_and_thread),
		cmocka_unit_test(table_index_zero),
		cmocka_unit_test(inline_string_past_record),
		cmocka_unit_test(missing_event_word),
		cmocka_unit_test(bad_instant_scope),
		cmocka_unit_test(fuchsia_instant_scope_word),
		cmocka_unit_test(sched_arg_types),
		cmocka_unit_test(large_blob_payload_too_long),
		cmocka_unit_test(large_record_skipped_past_end_of_file),
		cmocka_unit_test(zero_ticks_per_second),
		cmocka_unit_test(legacy_context_switch),
	};

	return cmocka_run_group_tests_name("malformed and legacy input", tests,
					   NULL, NULL);
}
